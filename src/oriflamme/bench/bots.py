"""``oriflamme bench bots``: how long each bot takes to decide, on the games it plays itself.

Each bot plays every seat of seeded games, for a time budget or for a fixed
number of whole games; the time of each ``choose`` call is recorded (building
the seat's view included, as a client pays it). Search bots count iterations,
so their moves do not depend on the machine; their times do, which is why
they are measured here and not tested.

A median of a few games' decisions moves with the games drawn: a search's
cost depends on the position (how many cards are face down, how many rounds
are left), so a time budget, which plays as many games as fit, times other
games on a faster machine or with a faster bot. ``games`` times the same
seeded games every time: two versions of a bot, or two machines, are then
compared on the same deals.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from time import perf_counter
from typing import Any

from ..bots import make_bot, parse_bot_spec
from ..bots.registry import available_kinds
from ..build import build_kind
from ..engine.errors import SetupError
from ..engine.game import Game
from ..engine.seeds import derive_seed
from ..stats import percentile

#: What ``oriflamme bench bots`` measures when no ``--bot`` is given (the networks' bots where numpy
#: is installed).
DEFAULT_BOTS = ("random", "heuristic", "ismcts:easy", "ismcts:normal") + (
    ("net", "zero", "zero-search:fast") if "net" in available_kinds() else ()
)


#: The decks ``oriflamme bench bots`` measures when no ``--deck`` is given.
DEFAULT_DECKS = ("base", "ablaze", "alliance")


@dataclass(frozen=True, slots=True)
class BotTiming:
    """Decision times of one bot spec on one deck.

    Only decisions with a real choice are timed: a single legal action is
    played at once and nobody waits for it.
    """

    spec: str
    deck: str
    players: int
    games: int
    decisions: int
    median_ms: float
    p95_ms: float
    max_ms: float
    #: Search iterations per second of search time (None for a bot that does not search).
    iterations_per_s: float | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "spec": self.spec,
            "deck": self.deck,
            "players": self.players,
            "games": self.games,
            "decisions": self.decisions,
            "median_ms": round(self.median_ms, 4),
            "p95_ms": round(self.p95_ms, 4),
            "max_ms": round(self.max_ms, 4),
            "iterations_per_s": None if self.iterations_per_s is None else round(self.iterations_per_s, 1),
        }


def time_bot(
    spec: str,
    deck: str = "base",
    players: int = 4,
    seconds: float = 5.0,
    seed: int = 0,
    games: int | None = None,
) -> BotTiming:
    """Play seeded games with ``spec`` in every seat for about ``seconds`` (at least one decision),
    or, with ``games``, exactly that many whole games (the first of the same seeds) whatever the time."""
    parse_bot_spec(spec, custom=True)
    Game.new(players=players, deck=deck, seed=0)  # a bad deck or player count fails before timing
    if games is not None and games < 1:
        raise SetupError(f"games must be at least 1, got {games}")
    times: list[float] = []
    iterations = 0
    searches = False
    played = 0
    deadline = perf_counter() + seconds

    def timed_out() -> bool:
        return games is None and bool(times) and perf_counter() >= deadline

    while (played < games) if games is not None else not timed_out():
        g = Game.new(players=players, deck=deck, seed=derive_seed("bench-bots", seed, played))
        bots = [make_bot(spec, derive_seed("bench-bots", seed, played, s)) for s in range(players)]
        played += 1
        while not g.is_over() and not timed_out():
            seat = g.current_player()
            bot = bots[seat]
            choice = len(g.options) > 1
            t0 = perf_counter()
            action = bot.choose(g.view(seat))
            if choice:
                times.append((perf_counter() - t0) * 1000)
                done = getattr(bot, "last_iterations", None)
                if done is not None:
                    searches = True
                    iterations += done
            g.apply(action)
    if not times:
        raise SetupError(f"{spec} had no decision with a choice in {played} game(s) of {deck}")
    times.sort()
    total_s = sum(times) / 1000
    return BotTiming(
        spec=spec,
        deck=deck,
        players=players,
        games=played,
        decisions=len(times),
        median_ms=statistics.median(times),
        p95_ms=percentile(times, 95),
        max_ms=times[-1],
        iterations_per_s=iterations / total_s if searches and total_s > 0 else None,
    )


def run_bot_bench(
    specs: tuple[str, ...] = DEFAULT_BOTS,
    decks: tuple[str, ...] = DEFAULT_DECKS,
    players: int = 4,
    seconds: float = 5.0,
    seed: int = 0,
    games: int | None = None,
) -> dict[str, Any]:
    """Time every spec on every deck; JSON-ready, with the machine's build.

    With ``games``, each spec plays exactly that many games per deck and
    ``seconds`` is not used (the report's ``seconds_per_bot`` is then None).
    """
    if not specs:
        raise SetupError("no bot given")
    if not decks:
        raise SetupError("no deck given")
    rows = [time_bot(s, d, players, seconds, seed, games) for s in specs for d in decks]
    return {
        "build": build_kind(),
        "seconds_per_bot": None if games is not None else seconds,
        "games_per_bot": games,
        "bots": [r.to_dict() for r in rows],
    }
