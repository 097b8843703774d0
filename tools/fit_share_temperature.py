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
#: Survival chances tried for revealed characters (``SearchLevel.survival``; 1: no discount).
SURVIVALS = (1.0, 0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2)

Sample = tuple[list[float], list[float]]  # projected scores, final win shares


def collect(
    deck: str, games: int, seed: int, survivals: tuple[float, ...] = SURVIVALS, players: int = 4
) -> tuple[dict[float, dict[int, list[Sample]]], int]:
    """Per survival chance and round number: (projected scores at the round's start, final shares).

    Over ``games`` seeded games; also returns the game's number of rounds.
    """
    by_round: dict[float, dict[int, list[Sample]]] = {p: defaultdict(list) for p in survivals}
    rounds = 0
    for n in range(games):
        g = Game.new(players=players, deck=deck, seed=seed + n, record_events=False)
        rounds = g.rules.rounds
        rng = random.Random(seed + n)
        seen = g.round
        starts: list[tuple[int, list[list[float]]]] = []
        while g.pending is not None:
            if g.round != seen:
                seen = g.round
                starts.append((g.round, [projected_scores(g, p) for p in survivals]))
            opts = g.options
            if len(opts) == 1:
                g.apply(opts[0])
            elif rng.random() < EPSILON:
                g.apply(opts[int(rng.random() * len(opts))])
            else:
                g.apply(heuristic_action(g, rng))
        shares = g.returns()
        for r, ests in starts:
            for p, est in zip(survivals, ests, strict=True):
                by_round[p][r].append((est, shares))
    return {p: dict(rows) for p, rows in by_round.items()}, rounds


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


def reliability(samples: list[tuple[list[float], list[float], float]], bins: int = 5) -> list[dict[str, Any]]:
    """How often a seat given a win chance in each band really won: (scores, shares, temperature) in.

    Every seat of every position is one forecast; a calibrated reading has
    its mean forecast and its observed win rate close in every band.
    """
    counts = [0] * bins
    forecast = [0.0] * bins
    observed = [0.0] * bins
    for est, shares, temperature in samples:
        for chance, share in zip(projected_shares(est, temperature), shares, strict=True):
            b = min(int(chance * bins), bins - 1)
            counts[b] += 1
            forecast[b] += chance
            observed[b] += share
    return [
        {
            "band": [b / bins, (b + 1) / bins],
            "forecasts": counts[b],
            "mean_forecast": round(forecast[b] / counts[b], 3) if counts[b] else None,
            "won": round(observed[b] / counts[b], 3) if counts[b] else None,
        }
        for b in range(bins)
    ]


def _per_round(by_round: dict[int, list[Sample]], rounds: int) -> dict[int, dict[str, Any]]:
    """Per round: the likeliest temperature, against the fixed one."""
    out: dict[int, dict[str, Any]] = {}
    for r in sorted(by_round):
        samples = by_round[r]
        best = _golden(partial(log_likelihood, samples), LOWEST, HIGHEST)
        out[r] = {
            "positions": len(samples),
            "rounds_left": rounds - r + 1,
            "best_temperature": round(best, 3),
            "log_likelihood_best": round(log_likelihood(samples, best), 4),
            "log_likelihood_fixed": round(log_likelihood(samples, SHARE_TEMPERATURE), 4),
        }
    return out


def _horizon(by_round: dict[int, list[Sample]]) -> dict[int, list[Sample]]:
    """The search's horizon positions: the starts of rounds 3 and later (a decision of round r stops at r + 2)."""
    return {r: s for r, s in by_round.items() if r >= 3}


def _pooled(horizon: dict[int, list[Sample]], temperature: Callable[[int], float]) -> float:
    """Mean log-likelihood over every horizon position, each round read at ``temperature(round)``."""
    n = sum(len(s) for s in horizon.values())
    return sum(log_likelihood(s, temperature(r)) * len(s) for r, s in horizon.items()) / n


def _slope(by_round: dict[int, list[Sample]], rounds: int) -> tuple[float, float]:
    """The likeliest temperature per round left over the search's horizon positions, and its fit."""
    horizon = _horizon(by_round)

    def pooled(k: float) -> float:
        return _pooled(horizon, lambda r: k * (rounds - r + 1))

    slope = _golden(pooled, LOWEST / 4, HIGHEST / 4)
    return slope, pooled(slope)


def fit(by_survival: dict[float, dict[int, list[Sample]]], rounds: int) -> dict[str, Any]:
    """The fit of the projection as it is (survival 1) round by round, and the best survival and slope."""
    tried = []
    for p, by_round in by_survival.items():
        slope, ll = _slope(by_round, rounds)
        tried.append({"survival": p, "share_scale": round(slope, 3), "log_likelihood": round(ll, 4)})
    best = max(tried, key=lambda row: row["log_likelihood"])
    result: dict[str, Any] = {
        "uniform": round(math.log(1 / 4), 4),
        "rounds": _per_round(by_survival[1.0], rounds) if 1.0 in by_survival else {},
        "tried": tried,
        "best": best,
    }
    fixed = by_survival.get(1.0)
    if fixed is not None:
        horizon = _horizon(fixed)
        result["fixed_log_likelihood"] = round(_pooled(horizon, lambda r: SHARE_TEMPERATURE), 4)
        scale = next(row["share_scale"] for row in tried if row["survival"] == 1.0)
        result["reliability_fixed"] = reliability(
            [(est, shares, SHARE_TEMPERATURE) for s in horizon.values() for est, shares in s]
        )
        result["reliability_fitted"] = reliability(
            [(est, shares, scale * (rounds - r + 1)) for r, s in horizon.items() for est, shares in s]
        )
    return result


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
        by_survival, rounds = collect(deck, args.games, args.seed)
        out[deck] = fit(by_survival, rounds)
    if args.json:
        print(json.dumps({"games": args.games, "seed": args.seed, "decks": out}, indent=2))
        return 0
    for deck, result in out.items():
        best = result["best"]
        print(
            f"{deck}: best survival {best['survival']:g} with share_scale {best['share_scale']}"
            f" ({best['log_likelihood']}); the fixed temperature {SHARE_TEMPERATURE:g} without survival"
            f" ({result['fixed_log_likelihood']}); uniform ({result['uniform']})"
        )
        for row in result["tried"]:
            print(
                f"  survival {row['survival']:g}: share_scale {row['share_scale']} ({row['log_likelihood']})"
            )
        for name in ("fixed", "fitted"):
            bands = ", ".join(
                f"{row['band'][0]:.1f}-{row['band'][1]:.1f}: {row['mean_forecast']} -> {row['won']}"
                f" ({row['forecasts']})"
                for row in result[f"reliability_{name}"]
            )
            print(f"  reliability, survival 1, {name} temperature (forecast -> won): {bands}")
        for r, row in result["rounds"].items():
            print(
                f"  round {r} ({row['rounds_left']} left, {row['positions']} positions), survival 1: best"
                f" temperature {row['best_temperature']} ({row['log_likelihood_best']}), fixed"
                f" {SHARE_TEMPERATURE:g} ({row['log_likelihood_fixed']})"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
