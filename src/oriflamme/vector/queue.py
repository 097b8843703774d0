"""Reading the queue of a vector state: positions of cards, stacks, neighbours (shared by the mask and the observation).

All functions take one unbatched :class:`~oriflamme.vector.state.State` and
return arrays of fixed shape; ``jax.vmap`` batches them.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp

from ..engine.zones import COVERED, TOP
from .dense import first_index
from .state import MAX_QUEUE, State

__all__ = ["card_positions", "neighbour_mask", "positions", "top_position"]

#: Pointer doublings that reach a stack's top from any card under it (stacks are under 2**6 deep).
_DOUBLINGS = 6


def positions(state: State) -> jax.Array:
    """(Q,) bool: the positions the queue has now."""
    return jnp.arange(MAX_QUEUE) < state.queue_len


def top_position(state: State) -> jax.Array:
    """(C,) int: the position of each top card in the queue, -1 for every other card."""
    return first_index(jnp.where(positions(state), state.queue, -1), state.kind.shape[-1])


def card_positions(state: State) -> jax.Array:
    """(C,) int: the position of every card in the queue, top or covered; -1 for cards elsewhere."""
    cards = state.kind.shape[-1]
    ids = jnp.arange(cards, dtype=jnp.int32)
    covered = state.zone == COVERED
    below = jnp.where((state.zone == TOP) | covered, state.under, -1)
    # The card above each covered card: the one whose ``under`` it is.
    above = first_index(below, cards)
    top = jnp.where(covered & (above >= 0), above, ids)
    for _ in range(_DOUBLINGS):
        top = top[top]
    in_queue = (state.zone == TOP) | covered
    return jnp.where(in_queue, top_position(state)[top], -1)


def neighbour_mask(state: State, index: jax.Array) -> jax.Array:
    """(Q,) bool: the positions next to position ``index`` (``State.neighbours`` of the engine)."""
    at = jnp.arange(MAX_QUEUE)
    return ((at == index - 1) | (at == index + 1)) & positions(state) & (index >= 0)
