"""The legal-action mask of a vector state, over the fixed action space (oriflamme.encoding.actions).

The Python engine computes a decision's options when it asks, and keeps them;
nothing changes while a decision waits, so the same options follow from the
state and the pending decision alone. This module computes them that way,
one function per decision kind, each the vector form of the box code that
asks (cited in its docstring) and returning the blocks of the action space
it fills; :func:`legal_action_mask` takes each block from the pending
decision's function. A test holds it, bit for bit, to
:func:`oriflamme.encoding.observation.action_mask` at every decision of
random games.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Final

import jax
import jax.numpy as jnp
import numpy as np

from ..encoding.actions import action_space
from ..engine import cards as ck
from ..engine import registry as rg
from ..engine.actions import (
    FROM_ASIDE,
    FROM_DISCARD,
    FROM_NOWHERE,
    MODE_CASHOUT,
    MODE_COLLECT,
    MODE_CONDEMN,
    MODE_EXCHANGE,
    MODE_GIFT,
    MODE_NAMES,
    MODE_VERDICT,
)
from ..engine.zones import ASIDE, DISCARD, HAND
from . import sparse
from .dense import set_of
from .queue import neighbour_mask, positions, top_position
from .state import KINDS, MAX_QUEUE, State

__all__ = ["ACTIONS", "legal_action_mask", "option_count"]

#: Where each block of the action space starts (the space of the 31 official kinds).
ACTIONS: Final = action_space(KINDS)
_IS_CHARACTER: Final = np.asarray(ck.IS_CHARACTER[:KINDS])


def _kind_of(state: State, card: jax.Array) -> jax.Array:
    return jnp.where(card >= 0, state.kind[jnp.maximum(card, 0)], -1)


def _top_kinds(state: State) -> jax.Array:
    """(Q,) int: the kind of each position's top card (-1 past the queue)."""
    return jnp.where(positions(state), state.kind[jnp.maximum(state.queue, 0)], -1)


def _top(state: State, field: jax.Array) -> jax.Array:
    """(Q,) a per-card ``field`` read at each position's top card (meaningful only on positions)."""
    return field[jnp.maximum(state.queue, 0)]


def _kinds_held(state: State, seat: jax.Array, zone: int) -> jax.Array:
    """(K,) bool: the kinds of ``seat``'s cards in ``zone``."""
    held = (state.zone == zone) & (state.owner == seat)
    return set_of(state.kind, held, KINDS)


def _actor_position(state: State) -> jax.Array:
    return top_position(state)[jnp.maximum(state.pending[2], 0)]


_ENDS: Final = [*list(ACTIONS.starts.values())[1:], ACTIONS.count]
#: Each block of the action space and its size, in the space's order.
_BLOCK_SIZES: Final = {
    name: end - start for (name, start), end in zip(ACTIONS.starts.items(), _ENDS, strict=True)
}
#: A decision's options as blocks of the action space: block name -> its bools (any shape).
Blocks = dict[str, jax.Array]


def _space(**blocks: jax.Array) -> Blocks:
    """The named blocks (``place_on`` names the block ``place on``) a decision's options fill."""
    return {name.replace("_", " "): bits.reshape(-1) for name, bits in blocks.items()}


def _placements(state: State, kinds: jax.Array, onto: jax.Array) -> Blocks:
    """Placing any of ``kinds`` at an end (first only in an empty queue) or onto positions ``onto``."""
    empty = state.queue_len == 0
    return _space(
        place_first=kinds,
        place_last=kinds & ~empty,
        place_on=kinds[:, None] & (onto & ~empty & (state.round > 1))[None, :],
    )


def _place(state: State) -> Blocks:
    """``Game._ask_place``: each kind in hand at either end, or onto the seat's own positions."""
    seat = state.pending[1]
    own = positions(state) & (_top(state, state.ctrl) == seat)
    return _placements(state, _kinds_held(state, seat, HAND), own)


def _twin(state: State) -> Blocks:
    """``boxes.ablaze.twin_options``: the Twin at either end, or onto one's own positions but a Prince."""
    ctrl = state.pending[3]
    kinds = jnp.arange(KINDS) == _kind_of(state, state.pending[4])
    onto = positions(state) & (_top(state, state.ctrl) == ctrl) & (_top_kinds(state) != ck.PRINCE)
    return _placements(state, kinds, onto)


def _keep_or_reveal(state: State) -> Blocks:
    """``Game._resolve_next``: keep, and reveal unless an Insurrection has no IP on it."""
    actor = jnp.maximum(state.pending[2], 0)
    no_reveal = (state.kind[actor] == ck.INSURRECTION) & (state.ip[actor] < 1)
    return _space(keep=jnp.ones(1, dtype=bool), reveal=jnp.atleast_1d(~no_reveal))


def _apothecary_targets(state: State) -> jax.Array:
    """``boxes.ablaze.apothecary``: positions next to the controller's other positions."""
    own = positions(state) & (_top(state, state.ctrl) == state.pending[3]) & (state.queue != state.pending[2])
    before = jnp.concatenate([own[1:], jnp.zeros(1, dtype=bool)])
    after = jnp.concatenate([jnp.zeros(1, dtype=bool), own[:-1]])
    return (before | after) & positions(state)


def _eliminate(state: State) -> Blocks:
    """``boxes.common.ask_eliminate`` as each kind calls it (pending data: the kind applied)."""
    applied = state.pending[4]
    at = jnp.arange(MAX_QUEUE)
    last = state.queue_len - 1
    targets = jnp.select(
        [
            applied == ck.ARCHER,
            applied == ck.ASSASSINATION,
            applied == ck.APOTHECARY,
            applied == ck.JUDGE,
        ],
        [
            (at == 0) | (at == last),
            positions(state),
            _apothecary_targets(state),
            positions(state) & _top(state, state.verdict),
        ],
        neighbour_mask(state, _actor_position(state)),  # Soldier, Cutthroat, Impersonation, Deserter
    )
    return _space(target=targets & positions(state))


def _decree_pick(state: State) -> Blocks:
    """``boxes.base.royal_decree``: any position but the Decree's own."""
    return _space(target=positions(state) & (jnp.arange(MAX_QUEUE) != _actor_position(state)))


def _decree_dest(state: State) -> Blocks:
    """``boxes.base._decree_pick``: every gap for a stack, every other gap for a single card."""
    picked = state.pending[4]
    stacked = state.under[jnp.maximum(state.queue[jnp.clip(picked, 0, MAX_QUEUE - 1)], 0)] >= 0
    gaps = jnp.arange(MAX_QUEUE + 1)
    dests = jnp.where(stacked, gaps <= state.queue_len, (gaps < state.queue_len) & (gaps != picked))
    return _space(to=dests)


def _spy(state: State) -> Blocks:
    """``boxes.base.spy``: the other seats controlling a neighbour, relative to the decider."""
    players = state.score.shape[-1]
    ctrl = state.pending[3]
    near = neighbour_mask(state, _actor_position(state))
    seats = jnp.where(near, _top(state, state.ctrl), -1)
    hit = (seats[None, :] == jnp.arange(players)[:, None]).any(axis=1) & (jnp.arange(players) != ctrl)
    relative = jnp.roll(hit, -state.pending[1])  # relative seat r is seat (decider + r) % n
    return _space(steal=jnp.zeros(5, dtype=bool).at[:players].set(relative))


def _copy(state: State) -> Blocks:
    """``boxes.base.shapeshifter``: the kinds of face-up characters next to it."""
    near = neighbour_mask(state, _actor_position(state))
    kinds = _top_kinds(state)
    model = near & _top(state, state.up) & jnp.asarray(_IS_CHARACTER)[jnp.maximum(kinds, 0)]
    return _space(copy=set_of(kinds, model, KINDS))


def _fetch(state: State) -> Blocks:
    """``boxes.ablaze.fetch_options``: the discard, the set-aside cards (never for a Twin), or nowhere."""
    ctrl, k = state.pending[3], state.pending[4]
    discard = _kinds_held(state, ctrl, DISCARD)[k]
    aside = _kinds_held(state, ctrl, ASIDE)[k] & (k != ck.TWIN)
    sources = jnp.zeros(3, dtype=bool).at[FROM_DISCARD].set(discard).at[FROM_ASIDE].set(aside)
    return _space(fetch=sources.at[FROM_NOWHERE].set(~(discard | aside)))


def _own_revealed_characters(state: State) -> jax.Array:
    """``boxes.ablaze._own_revealed_characters``: positions of the controller's face-up characters."""
    kinds = _top_kinds(state)
    character = jnp.asarray(_IS_CHARACTER)[jnp.maximum(kinds, 0)]
    return (
        positions(state) & _top(state, state.up) & (_top(state, state.ctrl) == state.pending[3]) & character
    )


def _plot_character(state: State) -> Blocks:
    """``boxes.ablaze.plot``: use one of one's face-up characters."""
    return _space(use=_own_revealed_characters(state))


def _plot_ip(state: State) -> Blocks:
    """``boxes.ablaze._plot_next``: gain 1, or use one of one's face-up characters."""
    return _space(gain=jnp.ones(1, dtype=bool), use=_own_revealed_characters(state))


def _modes(*which: int) -> jax.Array:
    return jnp.asarray([m in which for m in range(len(MODE_NAMES))])


def _mode(state: State) -> Blocks:
    """``ask_mode`` of the Informant, the Diplomat and the Judge (pending data: the kind)."""
    applied, ctrl = state.pending[4], state.pending[3]
    exchange = _kinds_held(state, ctrl, HAND).any()
    condemn = (positions(state) & _top(state, state.verdict)).any()
    modes = jnp.select(
        [applied == ck.INFORMANT, applied == ck.DIPLOMAT],
        [
            _modes(MODE_COLLECT) | (_modes(MODE_EXCHANGE) & exchange),
            _modes(MODE_GIFT, MODE_CASHOUT),
        ],
        _modes(MODE_VERDICT) | (_modes(MODE_CONDEMN) & condemn),
    )
    return _space(mode=modes)


def _swap(state: State) -> Blocks:
    """``boxes.alliance.swap_options``: one swap per kind in the controller's hand."""
    return _space(swap=_kinds_held(state, state.pending[3], HAND))


def _target(state: State) -> Blocks:
    """``ask_target`` of Bribery, the Empress, the Diplomat's gift and the Judge's verdict."""
    applied, ctrl = state.pending[4], state.pending[3]
    kinds = _top_kinds(state)
    up = _top(state, state.up)
    character = jnp.asarray(_IS_CHARACTER)[jnp.maximum(kinds, 0)]
    others = _top(state, state.ctrl) != ctrl
    targets = jnp.select(
        [applied == ck.BRIBERY, applied == ck.EMPRESS, applied == ck.DIPLOMAT],
        [
            up & character & (_top(state, state.under) < 0) & others,
            ~up & others,
            up & (kinds == ck.DIPLOMAT) & (state.queue != state.pending[2]),
        ],
        ~_top(state, state.verdict),  # the Judge's verdict
    )
    return _space(target=targets & positions(state))


#: Each decision kind's options, by the engine's decision code.
_BY_DECISION: Final[dict[int, Callable[[State], Blocks]]] = {
    rg.D_PLACE: _place,
    rg.D_KEEP_OR_REVEAL: _keep_or_reveal,
    rg.D_TARGET_ELIMINATE: _eliminate,
    rg.D_DECREE_PICK: _decree_pick,
    rg.D_DECREE_DEST: _decree_dest,
    rg.D_SPY: _spy,
    rg.D_COPY: _copy,
    rg.D_TWIN: _twin,
    rg.D_FETCH: _fetch,
    rg.D_PLOT_CHAR: _plot_character,
    rg.D_PLOT_IP: _plot_ip,
    rg.D_MODE: _mode,
    rg.D_SWAP: _swap,
    rg.D_TARGET_OTHER: _target,
}


def legal_action_mask(state: State) -> jax.Array:
    """(ACTIONS.count,) bool: the legal indices of the pending decision (none once the game is over).

    Jit- and vmap-able; equal to ``oriflamme.encoding.observation.action_mask`` of the decider's view.
    Under ``vmap`` every decision kind's options are computed (a batch holds every kind), so each
    block is chosen from the few decisions that fill it and the mask is assembled once, rather
    than building one whole mask per decision kind.
    """
    blocks = {name: jnp.zeros(size, dtype=bool) for name, size in _BLOCK_SIZES.items()}
    blocks = sparse.on_each(
        state.pending[0], list(_BY_DECISION), lambda code: _filled_by(_BY_DECISION[code], state), blocks
    )
    # In the action space's order (a dict through a JAX conditional comes back with sorted keys).
    return jnp.concatenate([blocks[name] for name in _BLOCK_SIZES])


def _filled_by(options: Callable[[State], Blocks], state: State) -> Callable[[Blocks], Blocks]:
    """The blocks with those a decision's options fill replaced (``sparse.when``'s move)."""
    return lambda blocks: {**blocks, **options(state)}


def option_count(state: State, decisions: Collection[int] | None = None) -> tuple[jax.Array, jax.Array]:
    """How many options the pending decision has, and its lowest legal index, when it is one of
    ``decisions`` (engine codes; every kind by default); (0, ``ACTIONS.count``) for any other.

    The resolution loop asks this at every turn (does a decision ``Game.ask`` applies at once
    have a single option?): counting within the few blocks a decision fills, rather than
    assembling the whole 1,502-entry mask and reducing it, took a fifth of the rules' step away.
    """
    codes = sorted(_BY_DECISION if decisions is None else decisions)
    none = (jnp.int32(0), jnp.int32(ACTIONS.count))
    return sparse.on_each(state.pending[0], codes, lambda code: _counted_by(_BY_DECISION[code], state), none)


def _counted_by(
    options: Callable[[State], Blocks], state: State
) -> Callable[[tuple[jax.Array, jax.Array]], tuple[jax.Array, jax.Array]]:
    """The (count, lowest index) of the blocks a decision's options fill (``sparse.when``'s move)."""

    def counted(_: tuple[jax.Array, jax.Array]) -> tuple[jax.Array, jax.Array]:
        count, lowest = jnp.int32(0), jnp.int32(ACTIONS.count)
        for name, bits in options(state).items():
            at = jnp.arange(bits.shape[0], dtype=jnp.int32) + ACTIONS.starts[name]
            count = count + bits.sum(dtype=jnp.int32)
            lowest = jnp.minimum(lowest, jnp.where(bits, at, ACTIONS.count).min())
        return count, lowest

    return counted
