"""Random legal play over every deck and player count: no exception, invariants hold, replay is exact."""

from __future__ import annotations

import random

import pytest
from invariants import check_state, fingerprint

from oriflamme import Game

# Thousands of base games in all; the expansions have their own, larger random tests.
CASES = [("base", n, 1000) for n in (3, 4, 5)] + [("base", 2, 300)]
CASES += [(deck, n, 150) for deck in ("ablaze", "alliance", "random") for n in (2, 3, 4, 5)]


@pytest.mark.parametrize(("deck", "players", "games"), CASES)
def test_random_games_keep_every_invariant_and_replay_exactly(deck: str, players: int, games: int) -> None:
    """Every action of thousands of random games leaves a consistent state; replaying reproduces it."""
    per_round = 2 if players == 2 else 1
    for seed in range(games):
        g = Game.new(players=players, deck=deck, seed=seed)
        rng = random.Random(seed)
        check_state(g)
        while not g.is_over():
            g.apply(rng.choice(g.legal_actions()))
            if seed % 10 == 0:
                check_state(g)
        check_state(g)
        # The players keep exactly the cards the rounds did not need (a bribed Informant taken
        # back goes to its owner's hand, so only the total is fixed).
        assert sum(map(len, g.hands)) == players * (g.hand_size - g.rules.rounds * per_round)
        assert g.round == g.rules.rounds
        replay = Game.new(players=players, deck=deck, seed=seed)
        for action in g.history:
            replay.apply(action)
        assert fingerprint(replay) == fingerprint(g)


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
