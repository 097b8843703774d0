"""``to_game`` gives back a game the Python engine plays on exactly as from the original.

What the state holds is everything the rules read: a game rebuilt from its
converted state equals the original in every slot but the history, the IP
ledger's causes, the events and the seed, offers the same legal actions in
the same order, and, played on with the same choices, stays equal to the end.
"""

from __future__ import annotations

import random

import pytest

jax = pytest.importorskip("jax", reason="the vector engine needs JAX: pip install 'oriflamme[vector]'")

from oriflamme import Game  # noqa: E402
from oriflamme.engine.options import RuleOptions  # noqa: E402
from oriflamme.engine.state import SLOTS  # noqa: E402
from oriflamme.vector import from_game, from_games, to_game  # noqa: E402

#: Slots a rebuilt game starts afresh (not held by the state), and the kept piles, held as sets.
_FRESH = {"ledger", "ledger_shared", "history", "events", "seed", "record_events", "kept"}
DECKS = ("base", "ablaze", "alliance", "random")


def assert_same_game(rebuilt: Game, original: Game, where: str) -> None:
    for slot in SLOTS:
        if slot not in _FRESH:
            assert getattr(rebuilt, slot) == getattr(original, slot), f"{where}: {slot}"
    assert [sorted(k) for k in rebuilt.kept] == [sorted(k) for k in original.kept], f"{where}: kept"
    assert rebuilt.score == original.score and sum(rebuilt.ledger) == sum(original.ledger), where


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_a_rebuilt_game_is_the_original_and_plays_on_the_same(players: int) -> None:
    for i in range(4):
        rules = RuleOptions(schemer_gain=1 + i % 2, two_player_cards_per_round=1 + i % 3, rounds=3 + i)
        g = Game.new(players, DECKS[i], seed=900 + i, rules=rules, record_events=False)
        choose = random.Random(i).choice
        steps = 0
        while not g.is_over():
            rebuilt = to_game(from_game(g))
            assert_same_game(rebuilt, g, f"{players} players, game {i}, step {steps}")
            if steps % 15 == 7:
                # Played on with the same choices from here, the two games stay one.
                twin, again = random.Random(steps), random.Random(steps)
                original = g.clone()
                while not original.is_over():
                    action = twin.choice(original.legal_actions())
                    assert again.choice(rebuilt.legal_actions()) == action
                    original.apply(action)
                    rebuilt.apply(action)
                    assert_same_game(rebuilt, original, f"game {i}, from step {steps}")
                assert rebuilt.winners == original.winners
            g.apply(choose(g.legal_actions()))
            steps += 1
        assert_same_game(to_game(from_game(g)), g, f"{players} players, game {i}, at the end")


def test_to_game_refuses_what_is_not_one_state() -> None:
    with pytest.raises(TypeError, match="needs a vector State, got Game"):
        to_game(Game.new(3, "base", seed=1))  # type: ignore[arg-type]
    batch = from_games([Game.new(3, "base", seed=1), Game.new(3, "base", seed=2)])
    with pytest.raises(ValueError, match="one state, not a batch"):
        to_game(batch)
    state = from_game(Game.new(3, "base", seed=1))
    with pytest.raises(ValueError, match="not the table its recipe and player count deal"):
        to_game(state.replace(kind=state.kind.at[0].set(5)))
