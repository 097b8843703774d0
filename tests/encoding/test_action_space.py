"""The fixed action space: one index per move on every table, never two moves on one index."""

from __future__ import annotations

import itertools
import random

import pytest

from oriflamme import Game, RuleOptions
from oriflamme.encoding import (
    ACTION_COUNT,
    MAX_QUEUE,
    action_index,
    game_legal_indices,
    index_name,
    legal_indices,
    queue_bound,
)
from oriflamme.engine.action_text import action_text
from oriflamme.engine.cards import SLUGS
from oriflamme.engine.errors import SetupError


def test_the_space_has_one_name_per_index() -> None:
    names = [index_name(i) for i in range(ACTION_COUNT)]
    assert ACTION_COUNT == 1502
    assert len(set(names)) == ACTION_COUNT
    assert names[0] == f"place {SLUGS[0]} first"
    assert "place soldier on 40" in names and "to 41" in names and "steal +4" in names
    with pytest.raises(ValueError, match="no action index 1502"):
        index_name(ACTION_COUNT)


def _setups() -> list[tuple[int, str, RuleOptions, int]]:
    """(players, deck, rules, seed): the three boxes and seeded random recipes at 2 to 5 players,
    and the 2-player variant's longest games."""
    out = []
    for players in (2, 3, 4, 5):
        for deck in ("base", "ablaze", "alliance", "random"):
            for seed in range(6 if deck == "random" else 3):
                out.append((players, deck, RuleOptions(), 100 * players + seed))
    for rules in (RuleOptions(two_player_cards_per_round=3, rounds=5), RuleOptions(rounds=7)):
        for seed in range(4):
            out.append((2, "random", rules, seed))
    return out


@pytest.mark.parametrize(("players", "deck", "rules", "seed"), _setups())
def test_legal_actions_never_share_an_index(players: int, deck: str, rules: RuleOptions, seed: int) -> None:
    """At every decision of a random game: the legal actions get distinct indices, the same from
    the table and from the decider's view, and each index names the action's own text."""
    g = Game.new(players=players, deck=deck, seed=seed, rules=rules)
    rng = random.Random(seed)
    bound = queue_bound(players, rules)
    while not g.is_over():
        assert len(g.queue) <= bound <= MAX_QUEUE
        seat = g.current_player()
        from_game = game_legal_indices(g)
        assert sorted(from_game.values()) == sorted(g.legal_actions())
        assert legal_indices(g.view(seat)) == from_game
        for i, a in from_game.items():
            text = action_text(g, a)
            name = index_name(i)
            if name.startswith("steal"):
                assert text.startswith("steal p")
            else:
                assert name == text, (name, text)
        g.apply(rng.choice(g.legal_actions()))


def test_steal_is_relative_to_the_thief() -> None:
    """The same victim, two seats to the thief's left, has the same index wherever the thief sits."""
    from oriflamme.engine.actions import SHIFT, STEAL

    assert action_index(STEAL << SHIFT | 3, 1, 4, []) == action_index(STEAL << SHIFT | 1, 3, 4, [])
    assert action_index(STEAL << SHIFT | 0, 4, 5, []) != action_index(STEAL << SHIFT | 1, 4, 5, [])


def test_the_queue_bound_holds_under_every_rule_option() -> None:
    """Every setup the engine accepts has a queue bound within MAX_QUEUE; the bound of 5 players
    and 7 rounds is MAX_QUEUE itself (a bound, not a length random games reach)."""
    seen = []
    for players, gain, per_round, rounds in itertools.product((2, 3, 4, 5), (1, 2), (1, 2, 3), range(1, 8)):
        rules = RuleOptions(schemer_gain=gain, two_player_cards_per_round=per_round, rounds=rounds)
        try:
            Game.new(players=players, deck="base", seed=0, rules=rules)
        except SetupError:
            # More cards to play than a hand holds: refused by the engine, so never played.
            assert rounds * (per_round if players == 2 else 1) > (16 if players == 2 else 7)
            continue
        seen.append(queue_bound(players, rules))
    assert max(seen) == MAX_QUEUE == queue_bound(5, RuleOptions(rounds=7))


def test_positions_beyond_the_bound_are_refused() -> None:
    from oriflamme.engine.actions import SHIFT, TARGET

    with pytest.raises(ValueError, match="beyond the action space's bound of 40"):
        action_index(TARGET << SHIFT | 40, 0, 4, [])
    with pytest.raises(ValueError, match="not an engine action"):
        action_index(99 << SHIFT, 0, 4, [])
