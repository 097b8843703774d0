"""Compare ways for ``zero-search`` to score a leaf and to treat opponents, on paired deals.

``zero-search`` scores the first position a simulation has not seen with the
value head from every seat's view. This tool plays variants of it in one
seat against three heuristic bots on the same deals (each deal once per
seat, seeded), to see what limits the search:

* ``value``: the bot as shipped;
* ``projection``: the heuristic's projected win shares (what ``ismcts``
  reads at its horizon) instead of the value head, cheaper per simulation;
* ``mix``: the mean of the two;
* ``policy-opponents``: opponents' moves drawn from the network's policy
  instead of searched, so the tree branches on the bot's own moves only;
* ``policy-opponents-projection``: both of the last two;
* ``network``: the network alone (the ``zero`` bot), no search.

::

    python tools/zero_search_variants.py --deals 30 --iterations 100

prints one JSON line per variant (its share of the wins, games, seconds).
The figures in docs/training.md came from it. Not run in CI: it measures.
It needs the pure-Python install: its variants subclass the bot, which the
compiled build compiles, and a compiled class takes no Python subclasses.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable, Sequence

from oriflamme.bots import make_bot
from oriflamme.bots.base import Bot, play_game
from oriflamme.bots.heuristic.projection import SHARE_TEMPERATURE, projected_scores, projected_shares
from oriflamme.bots.search_tree import Node, descend
from oriflamme.bots.zero_search import ZeroSearchBot, _salt, back_up, puct_edge
from oriflamme.build import is_compiled
from oriflamme.engine.game import Game
from oriflamme.engine.registry import P_SEAT


class VariantBot(ZeroSearchBot):
    """``zero-search`` with another leaf score (``mix`` of the projection, 0 to 1) or opponents by policy."""

    def __init__(self, level: str, seed: int, mix: float = 0.0, policy_opponents: bool = False) -> None:
        super().__init__(level, seed)
        self.mix = mix
        self.policy_opponents = policy_opponents

    def _rewards(self, g: Game, leaf: Node, me: int) -> list[float]:
        if g.pending is None or self.mix == 0.0:
            return super()._rewards(g, leaf, me)
        n = g.players
        projected = [s - 1.0 / n for s in projected_shares(projected_scores(g), SHARE_TEMPERATURE)]
        if self.mix >= 1.0:
            return projected
        values = super()._rewards(g, leaf, me)
        return [(1 - self.mix) * v + self.mix * x for v, x in zip(values, projected, strict=True)]

    def _simulate(self, g: Game, root: Node, me: int) -> None:
        if not self.policy_opponents:
            super()._simulate(g, root, me)
            return
        path: list[tuple[list[float], int]] = []
        node = root
        while g.pending is not None:
            opts = g.options
            seat = g.pending[P_SEAT]
            if len(opts) == 1:
                g.apply(opts[0])
                continue
            salt = _salt(g, me)
            priors = self._node_priors(node, g, opts, salt)
            if seat != me:
                node = descend(node, g, self._drawn(opts, priors, salt), seat, me)
                continue
            best_a, edge, fresh = puct_edge(node, opts, priors, salt)
            path.append((edge, seat))
            node = descend(node, g, best_a, seat, me)
            if fresh:
                break
        back_up(path, self._rewards(g, node, me))

    def _drawn(self, opts: Sequence[int], priors: dict[int, float], salt: int) -> int:
        """A move drawn from the network's probabilities of ``opts``."""
        weights = [priors[a | salt] for a in opts]
        r = self.rng.random() * sum(weights)
        for a, w in zip(opts, weights, strict=True):
            r -= w
            if r < 0:
                return a
        return opts[-1]


def variants(iterations: int) -> dict[str, Callable[[int], Bot]]:
    level = str(iterations)
    return {
        "value": lambda seed: VariantBot(level, seed),
        "projection": lambda seed: VariantBot(level, seed, mix=1.0),
        "mix": lambda seed: VariantBot(level, seed, mix=0.5),
        "policy-opponents": lambda seed: VariantBot(level, seed, policy_opponents=True),
        "policy-opponents-projection": lambda seed: VariantBot(level, seed, mix=1.0, policy_opponents=True),
        "network": lambda seed: make_bot("zero", seed=seed),
    }


def play(build: Callable[[int], Bot], deals: int) -> tuple[float, int]:
    """The variant's wins (a shared win counts 1/k) and games: each deal once per seat, 4-player base."""
    wins, games = 0.0, 0
    for d in range(deals):
        for seat in range(4):
            bots = [make_bot("heuristic", seed=7 * d + s) for s in range(4)]
            bots[seat] = build(1000 * d + seat)
            g = play_game(Game.new(4, "base", seed=10_000 + d), bots)
            wins += 1.0 / len(g.winners) if seat in g.winners else 0.0
            games += 1
    return wins, games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--iterations", type=int, default=100)
    parser.add_argument("--only", help="Comma-separated variants (default: all).")
    args = parser.parse_args()
    if is_compiled("oriflamme.bots.zero_search"):
        parser.error(
            "this install's zero-search is compiled (mypyc), which takes no Python subclass: "
            "run the tool from the pure-Python install (pip install -e .)"
        )
    chosen = variants(args.iterations)
    names = args.only.split(",") if args.only else list(chosen)
    for name in names:
        start = time.perf_counter()
        wins, games = play(chosen[name], args.deals)
        print(
            json.dumps(
                {
                    "variant": name,
                    "iterations": args.iterations,
                    "games": games,
                    "wins": wins,
                    "win_share": wins / games,
                    "seconds": round(time.perf_counter() - start, 1),
                }
            ),
            flush=True,
        )


if __name__ == "__main__":
    main()
