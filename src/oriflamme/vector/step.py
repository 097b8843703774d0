"""Applying a decision to a vector state: the placement phase so far (the rest of ``step`` is to come).

Each decision kind will have one function here, the vector form of the
engine's handler for it, and ``step`` will pick the pending decision's with
``jax.lax.switch``, then run the rules to the next decision as ``Game._run``
does. This increment holds the first: placing a card, which is
``engine.game._on_place`` followed by ``Game._ask_place`` for the next seat.
When the round's last card is placed the state is left where resolution
begins (phase resolve, pointer 0), with no pending decision yet: resolving
on the device comes with the next increment.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp

from ..engine import registry as rg
from ..engine.zones import COVERED, HAND, PLACE, RESOLVE, TOP
from .mask import ACTIONS
from .state import KINDS, MAX_QUEUE, State

__all__ = ["place"]


def _placement(action: jax.Array) -> tuple[jax.Array, jax.Array, jax.Array]:
    """The kind an index places, and where: (kind, at an end (0 first, 1 last, 2 onto), position)."""
    on = action - ACTIONS.place_on
    is_on = action >= ACTIONS.place_on
    is_last = ~is_on & (action >= ACTIONS.place_last)
    kind = jnp.where(is_on, on // MAX_QUEUE, jnp.where(is_last, action - ACTIONS.place_last, action))
    where = jnp.where(is_on, 2, jnp.where(is_last, 1, 0))
    return kind, where, jnp.where(is_on, on % MAX_QUEUE, -1)


def _hand_card(state: State, seat: jax.Array, kind: jax.Array) -> jax.Array:
    """The card of ``kind`` the seat plays: its lowest id in hand, the engine's (hands stay sorted)."""
    return jnp.argmax((state.zone == HAND) & (state.owner == seat) & (state.kind == kind)).astype(jnp.int32)


def _put_in_queue(state: State, card: jax.Array, where: jax.Array, position: jax.Array) -> State:
    """The card goes first, last, or onto ``position`` (covering its top card)."""
    queue = state.queue
    first = jnp.concatenate([card[None], queue[:-1]])
    last = queue.at[state.queue_len].set(card, mode="drop")
    onto = queue.at[position].set(card, mode="drop")
    covered = queue[jnp.clip(position, 0, MAX_QUEUE - 1)]
    stacking = where == 2
    under = jnp.where(stacking, state.under.at[card].set(covered), state.under)
    zone = jnp.where(stacking, state.zone.at[covered].set(COVERED), state.zone).at[card].set(TOP)
    return state.replace(
        queue=jnp.select([where == 0, where == 1], [first, last], onto),
        queue_len=state.queue_len + jnp.where(stacking, 0, 1),
        under=under,
        zone=zone,
    )


def _forget_known_hand(state: State, seat: jax.Array, card: jax.Array) -> State:
    """A hand card everybody knew (an Informant taken back) is no longer known once its owner plays one face down."""
    hand = (state.zone == HAND) & (state.owner == seat)
    known = state.up[card] | (hand & state.up).any()
    up = jnp.where(known, state.up & ~hand, state.up).at[card].set(jnp.where(known, False, state.up[card]))
    return state.replace(up=up)


def _has_cards(state: State, seat: jax.Array) -> jax.Array:
    return ((state.zone == HAND) & (state.owner == seat)).any()


def _ask_next_placer(state: State) -> State:
    """``Game._ask_place`` and ``_next_placer``: the next seat with a card places; after the last, resolution."""
    turn = state.turn
    # A seat with an empty hand (only a built position has one) passes.
    for _ in range(state.order.shape[-1]):
        seat = state.order[jnp.clip(turn, 0, state.order.shape[-1] - 1)]
        passes = (turn < state.order_len) & ~_has_cards(state, seat)
        turn = turn + passes.astype(jnp.int32)
    over = turn >= state.order_len
    seat = state.order[jnp.clip(turn, 0, state.order.shape[-1] - 1)]
    asked = jnp.asarray([rg.D_PLACE, 0, -1, 0, -1, -1], dtype=jnp.int32).at[1].set(seat).at[3].set(seat)
    return state.replace(
        turn=turn,
        phase=jnp.where(over, RESOLVE, PLACE).astype(jnp.int32),
        ptr=jnp.where(over, 0, state.ptr).astype(jnp.int32),
        cur=jnp.where(over, -1, state.cur).astype(jnp.int32),
        cur_gone=jnp.where(over, False, state.cur_gone),
        pending=jnp.where(over, -1, asked),
    )


def place(state: State, action: jax.Array | int) -> State:
    """Apply a legal placement index of the pending ``place`` decision; the next placer is asked.

    Jit- and vmap-able. The index must be legal (``legal_action_mask``); an
    illegal one is not checked here yet (the coming ``step`` will end such a
    game, as the issue says). After the round's last placement the state
    waits at the start of resolution with no pending decision.
    """
    index = jnp.asarray(action, dtype=jnp.int32)
    seat = state.pending[1]
    kind, where, position = _placement(index)
    card = _hand_card(state, seat, jnp.clip(kind, 0, KINDS - 1))
    placed = _forget_known_hand(_put_in_queue(state, card, where, position), seat, card)
    return _ask_next_placer(placed.replace(turn=state.turn + 1))
