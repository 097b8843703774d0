"""``oriflamme bench bots``: how long each bot takes to decide, on the games it plays itself.

Each bot plays every seat of seeded games for a time budget; the time of each
``choose`` call is recorded (building the seat's view included, as a client
pays it). Search bots count iterations, so their moves do not depend on the
machine; their times do, which is why they are measured here and not tested.
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

#: What ``oriflamme bench bots`` measures when no ``--bot`` is given (``net`` where numpy is installed).
DEFAULT_BOTS = ("random", "heuristic", "ismcts:easy", "ismcts:normal") + (
    ("net",) if "net" in available_kinds() else ()
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
    spec: str, deck: str = "base", players: int = 4, seconds: float = 5.0, seed: int = 0
) -> BotTiming:
    """Play seeded games with ``spec`` in every seat for about ``seconds`` (at least one decision)."""
    parse_bot_spec(spec, custom=True)
    Game.new(players=players, deck=deck, seed=0)  # a bad deck or player count fails before timing
    times: list[float] = []
    iterations = 0
    searches = False
    games = 0
    deadline = perf_counter() + seconds
    while not times or perf_counter() < deadline:
        g = Game.new(players=players, deck=deck, seed=derive_seed("bench-bots", seed, games))
        bots = [make_bot(spec, derive_seed("bench-bots", seed, games, s)) for s in range(players)]
        games += 1
        while not g.is_over() and (len(times) < 1 or perf_counter() < deadline):
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
    times.sort()
    total_s = sum(times) / 1000
    return BotTiming(
        spec=spec,
        deck=deck,
        players=players,
        games=games,
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
) -> dict[str, Any]:
    """Time every spec on every deck; JSON-ready, with the machine's build."""
    if not specs:
        raise SetupError("no bot given")
    if not decks:
        raise SetupError("no deck given")
    rows = [time_bot(s, d, players, seconds, seed) for s in specs for d in decks]
    return {"build": build_kind(), "seconds_per_bot": seconds, "bots": [r.to_dict() for r in rows]}
