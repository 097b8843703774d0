"""Fit the temperature that turns the heuristic's projected scores into win chances.

A search whose playouts stop at the horizon scores the position with
``projected_shares(projected_scores(g), temperature)``
(:mod:`oriflamme.bots.heuristic.projection`). This tool measures how well
those win chances predict who really wins: it plays seeded games of four
heuristic bots (10% random moves, like the search's playouts), records the
projection at the start of every round from the second on, and, for each
round, finds the temperature under which the recorded winners are most
likely (the mean log-likelihood of the winners' shares; a shared win counts
its share). It also fits one number per box, the temperature per round
left (``share_temperature``), the search knob ``share_scale``::

    python tools/fit_share_temperature.py --games 3000 --json

The figures quoted in the README came from that command. A uniform guess
scores ``ln(1/4) = -1.386``; a temperature that reads a projection as more
certain than it is scores below that. Not run in CI (a test runs it on a few
games): it measures, it does not test.
"""

from __future__ import annotations

import argparse
import json
import math
import random
from collections import defaultdict
from collections.abc import Callable
from functools import partial
from typing import Any

from oriflamme.bots.heuristic import heuristic_action
from oriflamme.bots.heuristic.projection import SHARE_TEMPERATURE, projected_scores, projected_shares
from oriflamme.engine.game import Game

#: Probability of a random move, as in the search's playouts (``SearchLevel.epsilon``).
EPSILON = 0.1
#: Range searched for a temperature, in IP (a golden-section search on its logarithm).
LOWEST, HIGHEST = 0.25, 64.0

Sample = tuple[list[float], list[float]]  # projected scores, final win shares


def collect(deck: str, games: int, seed: int, players: int = 4) -> tuple[dict[int, list[Sample]], int]:
    """Per round number: (projected scores at its start, final shares) over ``games`` seeded games.

    Also returns the game's number of rounds.
    """
    by_round: dict[int, list[Sample]] = defaultdict(list)
    rounds = 0
    for n in range(games):
        g = Game.new(players=players, deck=deck, seed=seed + n, record_events=False)
        rounds = g.rules.rounds
        rng = random.Random(seed + n)
        seen = g.round
        starts: list[tuple[int, list[float]]] = []
        while g.pending is not None:
            if g.round != seen:
                seen = g.round
                starts.append((g.round, projected_scores(g)))
            opts = g.options
            if len(opts) == 1:
                g.apply(opts[0])
            elif rng.random() < EPSILON:
                g.apply(opts[int(rng.random() * len(opts))])
            else:
                g.apply(heuristic_action(g, rng))
        shares = g.returns()
        for r, est in starts:
            by_round[r].append((est, shares))
    return dict(by_round), rounds


def log_likelihood(samples: list[Sample], temperature: float) -> float:
    """Mean log of the win chance the projection gave the winners (shares weight tied winners)."""
    total = 0.0
    for est, shares in samples:
        chances = projected_shares(est, temperature)
        total += sum(w * math.log(max(p, 1e-12)) for w, p in zip(shares, chances, strict=True) if w)
    return total / len(samples)


def _golden(f: Callable[[float], float], low: float, high: float, steps: int = 40) -> float:
    """The argument in [low, high] (on a log scale) that maximizes ``f`` (unimodal)."""
    a, b = math.log(low), math.log(high)
    ratio = (math.sqrt(5) - 1) / 2
    c, d = b - ratio * (b - a), a + ratio * (b - a)
    fc, fd = f(math.exp(c)), f(math.exp(d))
    for _ in range(steps):
        if fc >= fd:
            b, d, fd = d, c, fc
            c = b - ratio * (b - a)
            fc = f(math.exp(c))
        else:
            a, c, fc = c, d, fd
            d = a + ratio * (b - a)
            fd = f(math.exp(d))
    return math.exp((a + b) / 2)


def fit(by_round: dict[int, list[Sample]], rounds: int) -> dict[str, Any]:
    """Per round: the best temperature and its fit against the fixed one; and the best per-round slope."""
    per_round: dict[int, dict[str, Any]] = {}
    for r in sorted(by_round):
        samples = by_round[r]
        best = _golden(partial(log_likelihood, samples), LOWEST, HIGHEST)
        per_round[r] = {
            "positions": len(samples),
            "rounds_left": rounds - r + 1,
            "best_temperature": round(best, 3),
            "log_likelihood_best": round(log_likelihood(samples, best), 4),
            "log_likelihood_fixed": round(log_likelihood(samples, SHARE_TEMPERATURE), 4),
        }
    # The search's horizon positions: rounds from the third on (a decision of round r stops at r + 2).
    horizon = {r: s for r, s in by_round.items() if r >= 3}

    def pooled(k: float) -> float:
        n = sum(len(s) for s in horizon.values())
        return sum(log_likelihood(s, k * (rounds - r + 1)) * len(s) for r, s in horizon.items()) / n

    slope = _golden(pooled, LOWEST / 4, HIGHEST / 4)
    for r in horizon:
        per_round[r]["log_likelihood_slope"] = round(log_likelihood(horizon[r], slope * (rounds - r + 1)), 4)
    return {
        "uniform": round(math.log(1 / 4), 4),
        "rounds": per_round,
        "share_scale": round(slope, 3),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--deck", action="append", help="a box (repeatable; default: base, ablaze, alliance)")
    parser.add_argument("--games", type=int, default=3000, help="heuristic games per box (default 3000)")
    parser.add_argument("--seed", type=int, default=100_000, help="seed of the first game (default 100000)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    out = {}
    for deck in args.deck or ["base", "ablaze", "alliance"]:
        by_round, rounds = collect(deck, args.games, args.seed)
        out[deck] = fit(by_round, rounds)
    if args.json:
        print(json.dumps({"games": args.games, "seed": args.seed, "decks": out}, indent=2))
        return 0
    for deck, result in out.items():
        print(f"{deck}: share_scale {result['share_scale']} (uniform {result['uniform']})")
        for r, row in result["rounds"].items():
            print(
                f"  round {r} ({row['rounds_left']} left, {row['positions']} positions): best temperature"
                f" {row['best_temperature']} ({row['log_likelihood_best']}), fixed {SHARE_TEMPERATURE:g}"
                f" ({row['log_likelihood_fixed']}), per-round fit ({row.get('log_likelihood_slope', '-')})"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
