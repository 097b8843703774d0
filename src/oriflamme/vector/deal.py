"""Dealing on the device: a new game's first decision drawn with JAX's random numbers.

``Game.new`` draws the first player and each seat's set-aside cards from a
seed with Python's generator; :func:`deal` draws the same kinds of things
from a JAX key, so that thousands of games are dealt in one ``vmap``-ed call.
It does not reproduce ``Game.new``'s deal for a seed (``from_game`` is the way
to step a given Python deal): it reproduces ``Game.deal_from`` for the
drawn first player and set-aside cards, the engine's own deal of them.

The player count is static (it fixes the shapes); the recipe and the rules
are data (:func:`recipe_mask`, :func:`rules_array`), so one compiled program
deals every recipe and rule option of a player count.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import jax
import jax.numpy as jnp
import numpy as np
import numpy.typing as npt

from ..engine import registry as rg
from ..engine.cards import PRINCE, TWIN
from ..engine.options import RuleOptions
from ..engine.recipes import CHOOSABLE, RECIPE_SIZE, validate_recipe
from ..engine.state import State as EngineState
from ..engine.zones import ASIDE, HAND, PLACE, TWIN_ASIDE
from .state import FRAME_FIELDS, KINDS, MAX_FRAMES, MAX_ORDER, MAX_QUEUE, State, card_count

__all__ = ["deal", "draw_recipe", "recipe_mask", "rules_array"]

#: The kinds a ``random`` recipe draws from (the official ones but the Twin), as a mask.
CHOOSABLE_MASK: Final = np.isin(np.arange(KINDS), CHOOSABLE)


def recipe_mask(recipe: Sequence[int]) -> npt.NDArray[np.bool_]:
    """A recipe (10 official kind ids) as the state's multi-hot ``recipe``; ValueError if it is not one."""
    kinds = validate_recipe(tuple(int(k) for k in recipe))
    designed = [k for k in kinds if k >= KINDS]
    if designed:
        raise ValueError(f"the vector engine plays the {KINDS} official kinds; this recipe holds {designed}")
    out = np.zeros(KINDS, dtype=bool)
    out[list(kinds)] = True
    return out


def rules_array(rules: RuleOptions | None, players: int) -> npt.NDArray[np.int32]:
    """The rule options as data (Schemer's gain, cards per round with two players, rounds), checked
    against the hand size as the engine's setup checks them (ValueError, the engine's reason)."""
    rules = rules or RuleOptions()
    per_round = rules.two_player_cards_per_round if players == 2 else 1
    hand = _hand_size(players)
    if rules.rounds * per_round > hand:
        raise ValueError(
            f"{rules.rounds} rounds of {per_round} card(s) need {rules.rounds * per_round} cards, "
            f"but a hand holds {hand}"
        )
    return np.asarray([rules.schemer_gain, rules.two_player_cards_per_round, rules.rounds], dtype=np.int32)


def _hand_size(players: int) -> int:
    return 16 if players == 2 else 7


def draw_recipe(key: jax.Array, pool: jax.Array) -> jax.Array:
    """Ten kinds of ``pool`` ((K,) bool, ten or more, no Twin), uniformly: a ``random`` deck's recipe."""
    noise = jax.random.uniform(key, (KINDS,))
    score = jnp.where(pool, noise, 2.0)
    rank = jnp.argsort(jnp.argsort(score))
    return rank < RECIPE_SIZE


def _family(recipe: jax.Array) -> tuple[jax.Array, jax.Array]:
    """A family's kinds in id order (the recipe sorted, the Twin last with a Prince), padded with -1; its size."""
    kinds = jnp.arange(KINDS, dtype=jnp.int32)
    in_recipe = recipe & (kinds != TWIN)
    order = jnp.argsort(jnp.where(in_recipe, kinds, KINDS + kinds))
    sorted_kinds = jnp.where(jnp.arange(KINDS) < RECIPE_SIZE, kinds[order], -1)[: RECIPE_SIZE + 1]
    prince = recipe[PRINCE]
    family = sorted_kinds.at[RECIPE_SIZE].set(jnp.where(prince, TWIN, -1))
    return family, RECIPE_SIZE + prince.astype(jnp.int32)


def _table(players: int, recipe: jax.Array) -> tuple[jax.Array, jax.Array]:
    """Each card id's kind and owner (-1 past the table), as ``engine.layout.layout`` numbers them."""
    copies = 2 if players == 2 else 1
    family, size = _family(recipe)
    ids = jnp.arange(card_count(players), dtype=jnp.int32)
    present = ids < players * copies * size
    kind = jnp.where(present, family[ids % size], -1)
    owner = jnp.where(present, ids // (copies * size), -1)
    return kind.astype(jnp.int32), owner.astype(jnp.int32)


def _asides(key: jax.Array, players: int, kind: jax.Array, owner: jax.Array) -> jax.Array:
    """Which cards are set aside: per seat, a uniform draw of the dealt cards its hand leaves over."""
    dealt = (kind >= 0) & (kind != TWIN)
    per_seat = 2 * RECIPE_SIZE if players == 2 else RECIPE_SIZE
    leftover = per_seat - _hand_size(players)
    noise = jnp.where(dealt, jax.random.uniform(key, kind.shape), 2.0)
    same_seat = owner[:, None] == owner[None, :]
    ids = jnp.arange(kind.shape[0])
    before = (noise[None, :] < noise[:, None]) | (
        (noise[None, :] == noise[:, None]) & (ids[None, :] < ids[:, None])
    )
    rank = (same_seat & dealt[None, :] & before).sum(axis=1)
    return dealt & (rank < leftover)


def _order(players: int, first: jax.Array, cards_per_round: jax.Array) -> tuple[jax.Array, jax.Array]:
    """The round's placement order from ``first`` (``State.set_order``), -1 padded, and its length."""
    i = jnp.arange(MAX_ORDER, dtype=jnp.int32)
    if players == 2:
        length = 2 * cards_per_round
        return jnp.where(i < length, (first + i) % 2, -1).astype(jnp.int32), length.astype(jnp.int32)
    return jnp.where(i < players, (first + i) % players, -1).astype(jnp.int32), jnp.int32(players)


def deal(key: jax.Array, players: int, recipe: jax.Array, rules: jax.Array) -> State:
    """A new game at its first decision, dealt from ``key``: jit- and vmap-able (``players`` static).

    ``recipe`` is the multi-hot of ten official kinds (:func:`recipe_mask`, or
    :func:`draw_recipe`), ``rules`` the three rule options (:func:`rules_array`;
    a rule the hand cannot hold is the caller's to refuse, as ``rules_array`` does).
    ``key`` is a typed key or ``key_data`` (uint32 (2,)). The first player and
    each seat's set-aside cards are drawn uniformly; the state is what
    ``Game.deal_from`` deals for them, the first seat asked to place; the
    state's own key is a fresh one split from ``key``.
    """
    if not isinstance(players, int):
        raise TypeError(f"players must be a Python int (static), got {type(players).__name__}")
    card_count(players)  # refuses a player count out of range
    if not jnp.issubdtype(key.dtype, jax.dtypes.prng_key):
        key = jax.random.wrap_key_data(key)
    first_key, aside_key, state_key = jax.random.split(key, 3)
    recipe = jnp.asarray(recipe, dtype=bool)
    rules = jnp.asarray(rules, dtype=jnp.int32)
    kind, owner = _table(players, recipe)
    aside = _asides(aside_key, players, kind, owner)
    zone = jnp.where(kind == TWIN, TWIN_ASIDE, jnp.where(aside, ASIDE, HAND))
    zone = jnp.where(kind >= 0, zone, -1).astype(jnp.int32)
    first = jax.random.randint(first_key, (), 0, players, dtype=jnp.int32)
    order, order_len = _order(players, first, rules[1])
    cards = kind.shape[0]
    pending = jnp.asarray([rg.D_PLACE, 0, -1, 0, -1, -1], dtype=jnp.int32).at[1].set(first).at[3].set(first)
    return State(
        recipe=recipe,
        schemer_gain=rules[0],
        cards_per_round=rules[1],
        rounds=rules[2],
        kind=kind,
        owner=owner,
        ctrl=owner,
        up=kind == TWIN,
        ip=jnp.zeros(cards, jnp.int32),
        under=jnp.full(cards, -1, jnp.int32),
        zone=zone,
        verdict=jnp.zeros(cards, bool),
        bribed_by=jnp.full(cards, -1, jnp.int32),
        asleep=jnp.zeros(cards, bool),
        exposed=jnp.zeros(cards, bool),
        discard_order=jnp.full(cards, -1, jnp.int32),
        queue=jnp.full(MAX_QUEUE, -1, jnp.int32),
        queue_len=jnp.int32(0),
        score=jnp.ones(players, jnp.int32),
        verdict_pool=jnp.int32(EngineState.VERDICT_TOKENS),
        round=jnp.int32(1),
        first=first,
        phase=jnp.int32(PLACE),
        order=order,
        order_len=order_len,
        turn=jnp.int32(0),
        ptr=jnp.int32(0),
        cur=jnp.int32(-1),
        cur_gone=jnp.asarray(False),
        pending=pending,
        frames=jnp.full((MAX_FRAMES, FRAME_FIELDS), -1, jnp.int32),
        frames_len=jnp.int32(0),
        winners=jnp.zeros(players, bool),
        key=jax.random.key_data(state_key),
    )
