"""Positions reached by seeded heuristic play, for tests that check a property on many of them."""

from __future__ import annotations

import random

from oriflamme.bots.heuristic import heuristic_action
from oriflamme.engine.game import Game


def heuristic_positions(deck: str, seeds: range, lo: int, hi: int, choice: bool = False) -> list[Game]:
    """For each seed, the 4-player game of ``deck`` after a seeded number of heuristic moves from
    ``lo`` to ``hi`` (the games still under way; with ``choice``, only those at a decision with
    more than one option)."""
    out = []
    for seed in seeds:
        g = Game.new(players=4, deck=deck, seed=seed, record_events=False)
        rng = random.Random(seed)
        for _ in range(rng.randrange(lo, hi)):
            if g.pending is None:
                break
            g.apply(heuristic_action(g, rng))
        if g.pending is not None and (not choice or len(g.options) > 1):
            out.append(g)
    return out
