"""Bot specs (``kind[:level]``) and the registry that builds bots from them."""

from __future__ import annotations

from collections.abc import Callable

from ..errors import SetupError
from .base import Bot
from .heuristic import HeuristicBot
from .ismcts import LEVELS, IsmctsBot
from .random_bot import RandomBot

#: kind -> (factory(level, seed), allowed levels, default level)
BOT_KINDS: dict[str, tuple[Callable[[str | None, int | None], Bot], tuple[str, ...], str | None]] = {
    "random": (lambda level, seed: RandomBot(seed), (), None),
    "heuristic": (lambda level, seed: HeuristicBot(seed), (), None),
    "ismcts": (lambda level, seed: IsmctsBot(level or "normal", seed), tuple(LEVELS), "normal"),
}


def parse_bot_spec(spec: str) -> tuple[str, str | None]:
    """Split ``kind[:level]`` and check both; raise SetupError with the choices otherwise."""
    kind, _, level = spec.strip().lower().partition(":")
    if kind not in BOT_KINDS:
        raise SetupError(f"unknown bot {kind!r}; bots: {', '.join(sorted(BOT_KINDS))}")
    _, levels, default = BOT_KINDS[kind]
    if not level:
        return kind, default
    if level not in levels:
        allowed = ", ".join(levels) if levels else "none"
        raise SetupError(f"unknown level {level!r} for bot {kind!r}; levels: {allowed}")
    return kind, level


def make_bot(spec: str, seed: int | None = None) -> Bot:
    """Build a bot from its spec, e.g. ``make_bot("ismcts:hard", seed=3)``."""
    kind, level = parse_bot_spec(spec)
    return BOT_KINDS[kind][0](level, seed)
