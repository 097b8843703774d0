"""Bot specs (``kind[:level]``) and the registry that builds bots from them."""

from __future__ import annotations

import functools
import importlib.util
from collections.abc import Callable
from pathlib import Path

from ..engine.errors import SetupError
from .base import Bot
from .heuristic import HeuristicBot
from .ismcts import IsmctsBot
from .random_bot import RandomBot
from .search_levels import LEVELS, parse_level
from .tutor import TutorBot
from .zero_levels import ZERO_LEVELS, zero_iterations


def _network_bot(kind: str) -> Callable[[str | None, int | None], Bot]:
    """The factory of a bot that plays a network (``net``, ``zero``, ``zero-search``), imported only
    when one is asked for: they need numpy (the ``rl`` extra). A bad weights file is a SetupError."""

    def make(level: str | None, seed: int | None) -> Bot:
        _require_numpy(kind)
        from .net import NetBot, WeightsError, ZeroBot
        from .zero_search import ZeroSearchBot

        try:
            if kind == "zero-search":
                return ZeroSearchBot(level or "normal", seed)
            return (ZeroBot if kind == "zero" else NetBot)(level, seed)
        except WeightsError as exc:
            raise SetupError(str(exc)) from None

    return make


def _require_numpy(kind: str = "net") -> None:
    if importlib.util.find_spec("numpy") is None:
        raise SetupError(
            f"the {kind} bot needs the 'rl' extra (missing: numpy); install it with: pip install 'oriflamme[rl]'"
        )


def _weights_file(kind: str) -> Callable[[str], str]:
    """A ``net:FILE`` or ``zero:FILE`` level: the weights file, which must exist (read when the bot is built)."""

    def check(text: str) -> str:
        if not Path(text).is_file():
            raise ValueError(f"{kind} weights file {text!r} not found")
        return text

    return check


#: kind -> (factory(level, seed), allowed levels, default level)
BOT_KINDS: dict[str, tuple[Callable[[str | None, int | None], Bot], tuple[str, ...], str | None]] = {
    "random": (lambda level, seed: RandomBot(seed), (), None),
    "heuristic": (lambda level, seed: HeuristicBot(seed), (), None),
    "ismcts": (lambda level, seed: IsmctsBot(level or "normal", seed), tuple(LEVELS), "normal"),
    "net": (_network_bot("net"), (), None),
    "zero": (_network_bot("zero"), (), None),
    "zero-search": (_network_bot("zero-search"), tuple(ZERO_LEVELS), "normal"),
    "tutor": (lambda level, seed: TutorBot(seed), (), None),
}

#: kind -> a check that the kind can be built here (its optional packages are installed);
#: raises SetupError naming the extra to install.
REQUIREMENTS: dict[str, Callable[[], None]] = {
    kind: functools.partial(_require_numpy, kind) for kind in ("net", "zero", "zero-search")
}

#: kind -> reader of a custom level (e.g. ``ismcts:2000``, ``ismcts:1.5s``, ``net:my.npz``): its
#: canonical text, or ValueError.
CUSTOM_LEVELS: dict[str, Callable[[str], str]] = {
    "ismcts": lambda text: parse_level(text)[0],
    "net": _weights_file("net"),
    "zero": _weights_file("zero"),
    "zero-search": lambda text: str(zero_iterations(text)),
}

#: Kinds whose custom level is case-sensitive (a file name).
_KEEP_CASE = frozenset({"net", "zero"})


#: Kinds built on request but not offered as an opponent to choose: the tutorial's ``tutor``
#: (off its script it is the heuristic bot under another name).
UNLISTED = frozenset({"tutor"})


def available_kinds() -> list[str]:
    """The bot kinds to offer as opponents that can be built with the packages installed here."""
    out = []
    for kind in BOT_KINDS:
        if kind in UNLISTED:
            continue
        try:
            REQUIREMENTS.get(kind, lambda: None)()
        except SetupError:
            continue
        out.append(kind)
    return out


def parse_bot_spec(spec: str, *, custom: bool = False, buildable: bool = True) -> tuple[str, str | None]:
    """Split ``kind[:level]`` and check both; raise SetupError with the choices otherwise.

    ``custom`` also accepts budgets beyond the named levels (``ismcts:2000``
    iterations, ``ismcts:1.5s`` of thinking): right for the command line and
    the library, where whoever asks also pays; not for a shared server,
    where one seat could ask for an hour per move. It also accepts
    ``net:FILE``, a network trained with ``oriflamme train`` (a server
    offers only the shipped one). A kind whose optional packages are
    missing is refused with the extra that brings them.

    ``buildable=False`` checks only the spelling, for a spec that names a bot
    which will not be built here: a record file's header, read to replay or
    study its games, may name a network file that has since moved, or a kind
    whose packages this install lacks.
    """
    kind, _, level = spec.strip().partition(":")
    kind = kind.strip().lower()
    if kind not in BOT_KINDS:
        raise SetupError(f"unknown bot {kind!r}; bots: {', '.join(sorted(BOT_KINDS))}")
    if kind not in _KEEP_CASE:
        level = level.lower()
    if buildable:
        REQUIREMENTS.get(kind, lambda: None)()
    _, levels, default = BOT_KINDS[kind]
    if not level:
        return kind, default
    if custom and not buildable and kind in _KEEP_CASE:
        return kind, level  # a weights file's name, not looked for
    if custom and kind in CUSTOM_LEVELS and level not in levels:
        try:
            return kind, CUSTOM_LEVELS[kind](level)
        except ValueError as exc:
            raise SetupError(str(exc)) from None
    if level not in levels:
        allowed = ", ".join(levels) if levels else "none"
        raise SetupError(f"unknown level {level!r} for bot {kind!r}; levels: {allowed}")
    return kind, level


def search_processes(kind: str, level: str | None) -> int:
    """How many processes a bot of ``kind`` at ``level`` searches in at once (``ismcts:master``: 2).

    A shared server asks before it seats a bot that takes several cores per move.
    """
    if kind != "ismcts" or level is None:
        return 1
    return parse_level(level)[1].workers


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
