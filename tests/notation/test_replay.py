"""A game is its setup plus its actions: replaying them reproduces it exactly, and clones are independent.

For every deck preset (and a random recipe) and every player count, 50 random
games are played to the end; the saved action list, replayed from the saved
setup, must give the same save document, and a clone taken mid-game must not
share any state with the game it was cloned from.
"""

from __future__ import annotations

import random

import pytest

from oriflamme import Game
from oriflamme.notation.savefile import replay, to_dict

DECKS = ("base", "ablaze", "alliance", "random")
GAMES = 50


def _finish(g: Game, rng: random.Random) -> None:
    while not g.is_over():
        g.apply(rng.choice(g.legal_actions()))


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("deck", DECKS)
def test_replaying_the_actions_reproduces_the_game(deck: str, players: int) -> None:
    """Setup + action texts replay to the same final state, for 50 random games (seeds 0-49)."""
    for seed in range(GAMES):
        g = Game.new(players, deck, seed=seed)
        _finish(g, random.Random(seed))
        saved = to_dict(g)
        assert saved["actions"] is not None
        assert len(saved["actions"]) == len(g.history)
        again = replay(saved["setup"], saved["actions"])
        assert again.history == g.history
        assert again.score == g.score and again.winners == g.winners
        assert to_dict(again) == saved


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("deck", DECKS)
def test_clone_is_independent(deck: str, players: int) -> None:
    """Playing a clone to the end leaves the original untouched, and the other way round (seeds 0-49)."""
    for seed in range(GAMES):
        rng = random.Random(seed)
        g = Game.new(players, deck, seed=seed)
        for _ in range(rng.randrange(120)):
            if g.is_over():
                break
            g.apply(rng.choice(g.legal_actions()))
        before = to_dict(g)
        twin = g.clone()
        assert to_dict(twin) == before
        _finish(twin, random.Random(seed + 1))
        assert to_dict(g) == before
        twin_after = to_dict(twin)
        _finish(g, random.Random(seed + 2))
        assert to_dict(twin) == twin_after
