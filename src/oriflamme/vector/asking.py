"""What every card's ability on a vector state reads or does first: ask its controller, read the queue around it.

Shared by the abilities of the boxes (``vector/abilities.py``) and of
Alliance (``vector/alliance.py``).
"""

from __future__ import annotations

from collections.abc import Callable

import jax
import jax.numpy as jnp

from .moves import position_of
from .queue import neighbour_mask
from .state import State

__all__ = ["Ability", "Handler", "ask", "near", "top_ctrl"]

#: ``ability(state, actor, ctrl, revealed)``: the card ``actor`` applies its kind's ability for ``ctrl``.
Ability = Callable[[State, jax.Array, jax.Array, jax.Array], State]
#: ``handler(state, pending, index)``: continue after the decision ``pending`` (its six ints) got ``index``.
Handler = Callable[[State, jax.Array, jax.Array], State]


def ask(state: State, decision: int, actor: jax.Array, ctrl: jax.Array, data: jax.Array | int) -> State:
    """``Game.ask(decision, ctrl, actor, ctrl, data, -1, ...)``: the controller decides.

    The resolution loop applies a decision with a single option at once, as ``Game.ask`` does.
    """
    pending = jnp.stack([jnp.int32(decision), ctrl, actor, ctrl, jnp.asarray(data, jnp.int32), jnp.int32(-1)])
    return state.replace(pending=pending.astype(jnp.int32))


def top_ctrl(state: State) -> jax.Array:
    """(Q,) int: the controller of each position's top card (meaningful only on positions)."""
    return state.ctrl[jnp.maximum(state.queue, 0)]


def near(state: State, actor: jax.Array) -> jax.Array:
    """(Q,) bool: the positions next to the actor's (``State.neighbours``)."""
    return neighbour_mask(state, position_of(state, actor))
