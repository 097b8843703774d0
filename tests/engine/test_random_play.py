"""Random legal play over every deck and player count (STYLE: the generic random-simulation test).

After every action: each card is in exactly one place, the one its zone says;
tokens and IP are where the rules allow; a legal action exists until the game
is over. At the end: replaying the history on a fresh deal reproduces the game
exactly. Thousands of base games; every box, the random mixes and the
2-player variant as well.
"""

from __future__ import annotations

import random

import pytest
from support.invariants import fingerprint, play_checked

from oriflamme import Game

CASES = [("base", n, 1000) for n in (3, 4, 5)] + [("base", 2, 300)]
CASES += [(deck, n, 300) for deck in ("ablaze", "alliance") for n in (3, 4, 5)]
CASES += [(deck, 2, 200) for deck in ("ablaze", "alliance")]
CASES += [("random:base+ablaze", n, 100) for n in (2, 3, 4, 5)]
CASES += [("random", n, 150) for n in (2, 3, 4, 5)]


@pytest.mark.parametrize(("deck", "players", "games"), CASES)
def test_random_games_keep_every_invariant_and_replay_exactly(deck: str, players: int, games: int) -> None:
    """Every action of many random games leaves a consistent state; replaying reproduces it."""
    for seed in range(games):
        # Every action of a tenth of the games is checked, the end of all of them.
        play_checked(players, deck, seed, check_every=1 if seed % 10 == 0 else 10_000)


def test_clone_is_independent() -> None:
    """A clone evolves on its own; the original is untouched."""
    g = Game.new(players=4, deck="ablaze", seed=3)
    rng = random.Random(3)
    for _ in range(40):
        g.apply(rng.choice(g.legal_actions()))
    before = fingerprint(g)
    h = g.clone()
    assert fingerprint(h) == before
    while not h.is_over():
        h.apply(rng.choice(h.legal_actions()))
    assert fingerprint(g) == before
