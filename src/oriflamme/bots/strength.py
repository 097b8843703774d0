"""Strength measurement: many seeded games between bot specs, seats rotated, win rates with intervals.

This is a measurement, not a test: :func:`measure_strength` plays ``games``
games of ``len(specs)`` players and reports, per entrant and per distinct
spec, the win rate (a shared win counts ``1/k``) with its 95% Wilson
interval, the mean score, and the wall time of the entrant's real decisions
(those with more than one legal action; forced ones cost nothing).

Seat rotation: in game ``g`` seat ``i`` is played by entrant ``(i + g) % n``,
and seat 0 always starts, so every entrant plays every seat equally often
over ``n`` consecutive games. The deal and every bot's generator are seeded
from ``(seed, g)``, so a game plays the same in any worker.

Run it from a shell::

    python -m oriflamme.bots.strength ismcts:normal heuristic heuristic heuristic \\
        --games 400 --deck base --workers 2
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from statistics import median
from time import perf_counter

from ..game import Game
from ..options import RuleOptions
from .registry import make_bot

__all__ = ["GameOutcome", "SpecResult", "StrengthResult", "measure_strength", "wilson"]

Z95 = 1.959963984540054


def wilson(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """95% Wilson score interval of a proportion (fractional successes allowed)."""
    if trials <= 0:
        return (0.0, 1.0)
    p = min(max(successes / trials, 0.0), 1.0)
    z2 = z * z
    denom = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """One game, per entrant (not per seat)."""

    index: int
    shares: tuple[float, ...]
    scores: tuple[int, ...]
    #: Seconds of each real decision, per entrant.
    times: tuple[tuple[float, ...], ...]


@dataclass(slots=True)
class SpecResult:
    """Results of one entrant, or of all entrants sharing one spec."""

    spec: str
    seats_played: int = 0
    wins: float = 0.0
    score_sum: int = 0
    times: list[float] = field(default_factory=list)

    @property
    def win_rate(self) -> float:
        return self.wins / self.seats_played if self.seats_played else 0.0

    @property
    def ci95(self) -> tuple[float, float]:
        return wilson(self.wins, self.seats_played)

    @property
    def mean_score(self) -> float:
        return self.score_sum / self.seats_played if self.seats_played else 0.0

    @property
    def median_seconds(self) -> float:
        return median(self.times) if self.times else 0.0

    @property
    def p95_seconds(self) -> float:
        if not self.times:
            return 0.0
        ordered = sorted(self.times)
        return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]

    def line(self) -> str:
        lo, hi = self.ci95
        return (
            f"{self.spec:<16} win {self.win_rate:6.1%}  [{lo:5.1%}, {hi:5.1%}]  "
            f"score {self.mean_score:5.2f}  decision median {self.median_seconds * 1000:7.1f} ms  "
            f"p95 {self.p95_seconds * 1000:7.1f} ms  ({len(self.times)} decisions, {self.seats_played} games)"
        )


@dataclass(slots=True)
class StrengthResult:
    specs: tuple[str, ...]
    deck: str
    games: int
    seconds: float
    #: One per entrant, in the order of ``specs``.
    entrants: list[SpecResult]
    #: One per distinct spec (entrants with the same spec pooled).
    by_spec: dict[str, SpecResult]

    def report(self) -> str:
        head = f"{self.games} games, {len(self.specs)} players, deck {self.deck}, {self.seconds:.0f} s"
        return "\n".join([head] + [r.line() for r in self.by_spec.values()])


def play_one(
    specs: Sequence[str], deck: str, seed: int, index: int, rules: RuleOptions | None = None
) -> GameOutcome:
    """Play game ``index``: seat ``i`` is entrant ``(i + index) % n``; everything seeded from ``(seed, index)``."""
    n = len(specs)
    at_seat = [(i + index) % n for i in range(n)]
    game = Game.new(players=n, deck=deck, seed=seed * 1_000_003 + index, first_player=0, rules=rules)
    bots = [make_bot(specs[e], (seed * 1_000_003 + index) * 8 + e + 1) for e in at_seat]
    times: list[list[float]] = [[] for _ in range(n)]
    while not game.is_over():
        seat = game.current_player()
        view = game.view(seat)
        t0 = perf_counter()
        action = bots[seat].choose(view)
        dt = perf_counter() - t0
        if len(view.legal_actions) > 1:
            times[at_seat[seat]].append(dt)
        game.apply(action)
    shares = game.returns()
    seat_of = [0] * n
    for s, e in enumerate(at_seat):
        seat_of[e] = s
    return GameOutcome(
        index=index,
        shares=tuple(shares[seat_of[e]] for e in range(n)),
        scores=tuple(game.score[seat_of[e]] for e in range(n)),
        times=tuple(tuple(t) for t in times),
    )


def _play_star(args: tuple[tuple[str, ...], str, int, int]) -> GameOutcome:
    return play_one(*args)


def measure_strength(
    specs: Sequence[str],
    games: int,
    deck: str = "base",
    seed: int = 0,
    workers: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> StrengthResult:
    """Play ``games`` games between ``specs`` (one per seat, rotated) and summarize them.

    ``progress(done, games)`` is called after each finished game.
    """
    specs = tuple(specs)
    start = perf_counter()
    jobs = [(specs, deck, seed, g) for g in range(games)]
    outcomes: list[GameOutcome] = []
    if workers > 1:
        with multiprocessing.get_context("spawn").Pool(workers) as pool:
            for out in pool.imap_unordered(_play_star, jobs, chunksize=1):
                outcomes.append(out)
                if progress is not None:
                    progress(len(outcomes), games)
    else:
        for job in jobs:
            outcomes.append(_play_star(job))
            if progress is not None:
                progress(len(outcomes), games)
    entrants = [SpecResult(s) for s in specs]
    by_spec = {s: SpecResult(s) for s in specs}
    for out in sorted(outcomes, key=lambda o: o.index):
        for e, spec in enumerate(specs):
            for r in (entrants[e], by_spec[spec]):
                r.seats_played += 1
                r.wins += out.shares[e]
                r.score_sum += out.scores[e]
                r.times.extend(out.times[e])
    return StrengthResult(specs, deck, games, perf_counter() - start, entrants, by_spec)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument(
        "specs", nargs="+", help="one bot spec per seat, e.g. ismcts:normal heuristic heuristic heuristic"
    )
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--deck", default="base")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args(argv)

    def progress(done: int, total: int) -> None:
        if done % 10 == 0 or done == total:
            print(f"{done}/{total} games", file=sys.stderr, flush=True)

    result = measure_strength(args.specs, args.games, args.deck, args.seed, args.workers, progress)
    print(result.report())


if __name__ == "__main__":
    main()
