"""Random-play invariants (STYLE: a generic random-simulation test over decks and player counts).

After every action: each card is in exactly one place, the game can go on
until it is over, the 5 verdict tokens are all accounted for, and IP lie only
where the rules allow. At the end: replaying the history on a fresh game with
the same arguments reproduces the result.
"""

from __future__ import annotations

import random

import pytest
from helpers_alliance import check_invariants

from oriflamme.game import Game
from oriflamme.position import queue_string
from oriflamme.recipes import PRESETS


def play_random(players: int, deck: str, seed: int) -> None:
    label = f"players={players} deck={deck} seed={seed}"
    g = Game.new(players, deck, seed=seed)
    rng = random.Random(seed)
    check_invariants(g, label, 0)
    steps = 0
    while not g.is_over():
        action = rng.choice(g.legal_actions())
        g.apply(action)
        steps += 1
        check_invariants(g, label, steps)
        assert steps < 2000, f"{label}: the game does not end"
    assert g.round == g.rules.rounds
    assert g.winners and set(g.winners) <= set(range(players))
    replay = Game.new(players, deck, seed=seed)
    for action in g.history:
        replay.apply(action)
    assert replay.is_over(), label
    assert replay.score == g.score, label
    assert queue_string(replay) == queue_string(g), label
    assert replay.winners == g.winners, label


@pytest.mark.parametrize("players", [3, 4, 5])
def test_random_alliance_games(players: int) -> None:
    """§8: 300 random games of the Alliance preset (100 per player count) keep every invariant and replay."""
    for seed in range(100):
        play_random(players, "alliance", seed)


def test_random_mixed_recipes() -> None:
    """§1: 200 games of random mixes of all 30 kinds, 3 to 5 players."""
    for seed in range(200):
        play_random(3 + seed % 3, "random", 10_000 + seed)


@pytest.mark.parametrize("deck", sorted(PRESETS))
def test_random_two_player_games(deck: str) -> None:
    """§9: 200 random 2-player games of each preset."""
    for seed in range(200):
        play_random(2, deck, 20_000 + seed)
