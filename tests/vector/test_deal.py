"""Dealing on the device gives legal first positions: the engine's own deal of what was drawn, passing its checks.

For every player count, a batch of keys is dealt with every box, random
recipes and drawn rule options in one vmapped call (the recipe and the rules
are data: one compilation per player count). Each state goes back through
``to_game`` and must pass the notation's position checks, and equal, field
for field, ``Game.deal_from`` of the first player and set-aside cards it drew.
The draws must vary: first players, set-aside cards and random recipes.
"""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

jax = pytest.importorskip("jax", reason="the vector engine needs JAX: pip install 'oriflamme[vector]'")

from oriflamme import Game  # noqa: E402
from oriflamme.engine.options import RuleOptions  # noqa: E402
from oriflamme.engine.recipes import PRESETS, random_recipe  # noqa: E402
from oriflamme.engine.zones import ASIDE  # noqa: E402
from oriflamme.notation.checks import check_state  # noqa: E402
from oriflamme.vector.convert import numpy_fields, to_game  # noqa: E402
from oriflamme.vector.deal import CHOOSABLE_MASK, deal, draw_recipe, recipe_mask, rules_array  # noqa: E402

KEYS = 48


def setups(players: int) -> tuple[list[tuple[int, ...]], list[RuleOptions]]:
    """Per key: the boxes in turn, then random recipes; default rules every third, drawn ones otherwise."""
    draw = random.Random(players)
    recipes = [PRESETS[box] for box in PRESETS] + [random_recipe(draw) for _ in range(KEYS - len(PRESETS))]
    rules = []
    for i in range(KEYS):
        per_round = draw.randint(1, 3) if players == 2 else 2
        drawn = RuleOptions(draw.choice((1, 2)), per_round, draw.randint(1, min(7, 16 // per_round)))
        rules.append(RuleOptions() if i % 3 == 0 else drawn)
    return recipes, rules


_deal = {p: jax.jit(jax.vmap(lambda k, r, o, p=p: deal(k, p, r, o))) for p in (2, 3, 4, 5)}


def _row(state: object, i: int) -> object:
    return jax.tree.map(lambda a: a[i], state)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_dealt_states_are_the_engines_deal_of_what_was_drawn(players: int) -> None:
    recipes, rules = setups(players)
    keys = jax.random.split(jax.random.key(players), KEYS)
    masks = np.stack([recipe_mask(r) for r in recipes])
    options = np.stack([rules_array(o, players) for o in rules])
    dealt = _deal[players](keys, masks, options)
    firsts: Counter[int] = Counter()
    asides: set[tuple[int, ...]] = set()
    for i in range(KEYS):
        state = _row(dealt, i)
        g = to_game(state)  # type: ignore[arg-type]
        check_state(g, g.first)
        aside = [
            [c for c in range(len(g.kind)) if g.zone[c] == ASIDE and g.owner[c] == s] for s in range(players)
        ]
        want = Game.deal_from(players, recipes[i], g.first, aside, rules=rules[i], record_events=False)
        for name, value in numpy_fields(want, np.asarray(state.key)).items():  # type: ignore[attr-defined]
            got = np.asarray(getattr(state, name))
            assert (got == value).all(), f"key {i}: {name} is {got}, the engine deals {value}"
        firsts[g.first] += 1
        asides.add(tuple(aside[0]))
    assert set(firsts) == set(range(players)), f"first players drawn: {firsts}"
    assert len(asides) > KEYS // 2, "the set-aside cards hardly vary between keys"


def test_a_random_recipe_is_ten_kinds_of_the_pool_and_varies() -> None:
    recipes = np.asarray(
        jax.vmap(draw_recipe, in_axes=(0, None))(jax.random.split(jax.random.key(0), 200), CHOOSABLE_MASK)
    )
    assert (recipes.sum(axis=1) == 10).all()
    assert not (recipes & ~CHOOSABLE_MASK).any()
    assert recipes.any(axis=0)[CHOOSABLE_MASK].all()  # every choosable kind turns up
    assert len({r.tobytes() for r in recipes}) == 200


@pytest.mark.parametrize(
    ("recipe", "message"),
    [((0, 1, 2), "exactly 10"), (tuple(range(10, 20)), "twin"), ((0,) * 10, "once")],
)
def test_a_recipe_that_is_not_one_is_refused(recipe: tuple[int, ...], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        recipe_mask(recipe)


def test_rules_a_hand_cannot_hold_are_refused() -> None:
    with pytest.raises(ValueError, match="need 21 cards, but a hand holds 16"):
        rules_array(RuleOptions(two_player_cards_per_round=3, rounds=7), 2)
    assert rules_array(RuleOptions(two_player_cards_per_round=3, rounds=7), 4).tolist() == [1, 3, 7]
