"""Bot specs (``kind[:level]``) and the registry that builds bots from them."""

from __future__ import annotations

from collections.abc import Callable

from ..engine.errors import SetupError
from .base import Bot
from .heuristic import HeuristicBot
from .ismcts import LEVELS, IsmctsBot, parse_level
from .random_bot import RandomBot

#: kind -> (factory(level, seed), allowed levels, default level)
BOT_KINDS: dict[str, tuple[Callable[[str | None, int | None], Bot], tuple[str, ...], str | None]] = {
    "random": (lambda level, seed: RandomBot(seed), (), None),
    "heuristic": (lambda level, seed: HeuristicBot(seed), (), None),
    "ismcts": (lambda level, seed: IsmctsBot(level or "normal", seed), tuple(LEVELS), "normal"),
}


#: kind -> reader of a custom level (e.g. ``ismcts:2000``, ``ismcts:1.5s``): its canonical text,
#: or ValueError.
CUSTOM_LEVELS: dict[str, Callable[[str], str]] = {
    "ismcts": lambda text: parse_level(text)[0],
}


def parse_bot_spec(spec: str, *, custom: bool = False) -> tuple[str, str | None]:
    """Split ``kind[:level]`` and check both; raise SetupError with the choices otherwise.

    ``custom`` also accepts budgets beyond the named levels (``ismcts:2000``
    iterations, ``ismcts:1.5s`` of thinking): right for the command line and
    the library, where whoever asks also pays; not for a shared server,
    where one seat could ask for an hour per move.
    """
    kind, _, level = spec.strip().lower().partition(":")
    if kind not in BOT_KINDS:
        raise SetupError(f"unknown bot {kind!r}; bots: {', '.join(sorted(BOT_KINDS))}")
    _, levels, default = BOT_KINDS[kind]
    if not level:
        return kind, default
    if custom and kind in CUSTOM_LEVELS and level not in levels:
        try:
            return kind, CUSTOM_LEVELS[kind](level)
        except ValueError as exc:
            raise SetupError(str(exc)) from None
    if level not in levels:
        allowed = ", ".join(levels) if levels else "none"
        raise SetupError(f"unknown level {level!r} for bot {kind!r}; levels: {allowed}")
    return kind, level


def make_bot(spec: str, seed: int | None = None) -> Bot:
    """Build a bot from its spec, e.g. ``make_bot("ismcts:hard", seed=3)`` or ``make_bot("ismcts:2000")``."""
    kind, level = parse_bot_spec(spec, custom=True)
    return BOT_KINDS[kind][0](level, seed)


def is_timed(spec: str) -> bool:
    """Whether a (valid) spec searches for a time rather than a number of iterations.

    A timed bot's moves depend on the machine's speed and load, so a seeded
    run with one is not reproducible; the tournament says so.
    """
    kind, level = parse_bot_spec(spec, custom=True)
    return kind == "ismcts" and level is not None and parse_level(level)[1].timed
