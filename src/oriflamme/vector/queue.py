"""Reading the queue of a vector state: positions of cards, stacks, neighbours (shared by the mask and the observation).

All functions take one unbatched :class:`~oriflamme.vector.state.State` and
return arrays of fixed shape; ``jax.vmap`` batches them.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp

from ..engine.zones import COVERED, TOP
from .state import MAX_QUEUE, State

__all__ = ["card_positions", "neighbour_mask", "position_mask", "positions", "top_position"]

#: Pointer doublings that reach a stack's top from any card under it (stacks are under 2**6 deep).
_DOUBLINGS = 6


def positions(state: State) -> jax.Array:
    """(Q,) bool: the positions the queue has now."""
    return jnp.arange(MAX_QUEUE) < state.queue_len


def top_position(state: State) -> jax.Array:
    """(C,) int: the position of each top card in the queue, -1 for every other card."""
    cards = state.kind.shape[-1]
    slot = jnp.where(positions(state), state.queue, cards)  # cards: out of range, dropped
    return (
        jnp.full(cards, -1, dtype=jnp.int32).at[slot].set(jnp.arange(MAX_QUEUE, dtype=jnp.int32), mode="drop")
    )


def card_positions(state: State) -> jax.Array:
    """(C,) int: the position of every card in the queue, top or covered; -1 for cards elsewhere."""
    cards = state.kind.shape[-1]
    ids = jnp.arange(cards, dtype=jnp.int32)
    covered = state.zone == COVERED
    below = jnp.where((state.zone == TOP) | covered, state.under, -1)
    # The card above each covered card: the one whose ``under`` it is.
    above = jnp.full(cards, -1, dtype=jnp.int32).at[jnp.where(below >= 0, below, cards)].set(ids, mode="drop")
    top = jnp.where(covered & (above >= 0), above, ids)
    for _ in range(_DOUBLINGS):
        top = top[top]
    in_queue = (state.zone == TOP) | covered
    return jnp.where(in_queue, top_position(state)[top], -1)


def position_mask(state: State, index: jax.Array) -> jax.Array:
    """(Q,) bool: only position ``index`` (none when it is not a position of the queue)."""
    return (jnp.arange(MAX_QUEUE) == index) & positions(state)


def neighbour_mask(state: State, index: jax.Array) -> jax.Array:
    """(Q,) bool: the positions next to position ``index`` (``State.neighbours`` of the engine)."""
    at = jnp.arange(MAX_QUEUE)
    return ((at == index - 1) | (at == index + 1)) & positions(state) & (index >= 0)
