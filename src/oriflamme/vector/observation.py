"""One seat's observation of a vector state: ``oriflamme.encoding``'s vector, bit for bit, in JAX.

The Python encoder reads a :class:`~oriflamme.engine.view.SeatView`; here the
view's secrecy rule is applied card by card instead (a seat knows a card
that is face up, exposed, or its own: :func:`oriflamme.engine.view.knows`),
and each block of the layout is built dense and concatenated, in the order
of :data:`oriflamme.encoding.observation.LAYOUT`. The module docstring of
:mod:`oriflamme.encoding.observation` says what every feature means; the
functions below are named after its blocks.
"""

from __future__ import annotations

from typing import Final

import jax
import jax.numpy as jnp
import numpy as np

from ..encoding.actions import MAX_PLAYERS
from ..encoding.observation import observation_layout
from ..engine import registry as rg
from ..engine.zones import ASIDE, COVERED, DISCARD, HAND, KEPT, PHASE_NAMES, RESOLVE, TOP, TWIN_ASIDE
from .dense import first_true
from .mask import option_count
from .queue import positions, top_position
from .state import KINDS, MAX_QUEUE, State

__all__ = ["LAYOUT", "observe"]

#: The observation layout of the 31 official kinds (the Python encoder's when no designer's kind is loaded).
LAYOUT: Final = observation_layout(KINDS)
_MAX_ROUNDS: Final = 7
#: Decisions whose data field is the kind whose ability applies (encoding.observation's ``_DATA_IS_KIND``).
_DATA_IS_KIND: Final = (
    rg.D_TARGET_ELIMINATE,
    rg.D_TARGET_OTHER,
    rg.D_MODE,
    rg.D_SPY,
    rg.D_COPY,
    rg.D_FETCH,
    rg.D_SWAP,
)
#: Decisions whose options only the decider sees (engine.view's ``_PRIVATE_OPTIONS``).
_PRIVATE_OPTIONS: Final = (rg.D_PLACE, rg.D_KEEP_OR_REVEAL, rg.D_SWAP, rg.D_FETCH, rg.D_TWIN)
_F32 = jnp.float32


#: Largest numerator :func:`_ratio` divides exactly (a count of legal actions stays far below it).
_RATIO_TOP: Final = 4095


def _ratio(numerator: jax.Array, denominator: int) -> jax.Array:
    """``numerator / denominator`` rounded to float32 as the Python encoder rounds it (from float64).

    Dividing in float32 on the device may differ in the last bit (6 / 7, or 10 / 50 on XLA's CPU),
    so the quotients are a float64 table made once, read at the numerator (0 .. ``_RATIO_TOP``).
    """
    table = np.arange(_RATIO_TOP + 1, dtype=np.float64) / denominator
    return jnp.asarray(table.astype(np.float32))[jnp.clip(numerator, 0, _RATIO_TOP)]


def _one_hot(index: jax.Array, size: int) -> jax.Array:
    """One-hot of ``index`` (all zeros when it is out of range)."""
    return (jnp.arange(size) == index).astype(_F32)


def _relative(state: State, seat: jax.Array, me: jax.Array) -> jax.Array:
    return (seat - me) % state.score.shape[-1]


def _known(state: State, me: jax.Array) -> jax.Array:
    """(C,) bool: the cards whose identity ``me`` may know (``engine.view.knows``)."""
    return state.up | state.exposed | (state.owner == me)


def _kind_code(state: State, known: jax.Array) -> jax.Array:
    """(C,) int: each card's kind as ``me`` sees it, ``KINDS`` for "unknown"."""
    return jnp.where(known, state.kind, KINDS)


def _kind_counts(state: State, cards: jax.Array) -> jax.Array:
    """(K,) float: half the number of ``cards`` (a bool per card) of each kind (how the encoder counts)."""
    kinds = jnp.where(cards, state.kind, KINDS)
    return jnp.zeros(KINDS + 1, dtype=_F32).at[kinds].add(0.5)[:KINDS]


def _table(state: State, me: jax.Array) -> jax.Array:
    players = state.score.shape[-1]
    order = jnp.arange(state.order.shape[-1]) < state.order_len
    placing = order & (state.order == me)
    place_in_order = jnp.where(placing.any(), first_true(placing), -1)
    return jnp.concatenate(
        [
            _one_hot(jnp.asarray(players - 2), 4),
            _one_hot(jnp.minimum(state.round, _MAX_ROUNDS), _MAX_ROUNDS + 1),
            jnp.atleast_1d(_ratio(state.rounds - state.round, _MAX_ROUNDS)),
            _one_hot(state.phase, len(PHASE_NAMES)),
            _one_hot(_relative(state, state.first, me), MAX_PLAYERS),
            jnp.stack(
                [
                    state.schemer_gain.astype(_F32) - 1.0,
                    _ratio(state.cards_per_round, 3),
                    _ratio(state.rounds, _MAX_ROUNDS),
                    _ratio(state.verdict_pool, 10),
                ]
            ).astype(_F32),
            _one_hot(place_in_order, MAX_PLAYERS),
            _one_hot(jnp.minimum(state.turn, 8), 9),
        ]
    )


def _per_relative_seat(values: jax.Array, me: jax.Array) -> jax.Array:
    """Rows of ``values`` (one per seat) by seat relative to ``me``, padded to five rows.

    A scatter of the rows to their relative places: ``jnp.roll`` by a traced shift is a gather
    under ``vmap``, and was half the cost of the seats' block on XLA's CPU.
    """
    players = values.shape[0]
    relative = (jnp.arange(players) - me) % players
    return jnp.zeros((MAX_PLAYERS, *values.shape[1:]), dtype=values.dtype).at[relative].set(values)


def _scores(state: State, me: jax.Array) -> jax.Array:
    return _per_relative_seat(_ratio(state.score, 10), me)


def _decision_position(state: State, me: jax.Array) -> jax.Array:
    """Where the deciding card lies (if ``me`` knows it), the card a Decree moves, or the pointer."""
    decision, actor, data = state.pending[0], state.pending[2], state.pending[4]
    safe = jnp.maximum(actor, 0)
    actor_at = top_position(state)[safe]
    actor_seen = (actor >= 0) & (state.zone[safe] == TOP) & _known(state, me)[safe] & (actor_at >= 0)
    pointer = (decision == rg.D_KEEP_OR_REVEAL) & (state.phase == RESOLVE)
    return jnp.select(
        [decision == rg.D_DECREE_DEST, actor_seen, pointer],
        [data, actor_at, state.ptr],
        -1,
    )


def _decision(state: State, me: jax.Array, options: jax.Array | None) -> jax.Array:
    decision, to_move, data = state.pending[0], state.pending[1], state.pending[4]
    visible = (to_move == me) | ~jnp.isin(decision, jnp.asarray(_PRIVATE_OPTIONS))
    legal = jnp.where(visible, option_count(state)[0] if options is None else options, 0)
    block = jnp.concatenate(
        [
            _one_hot(decision, len(rg.DECISION_NAMES)),
            _one_hot(_relative(state, to_move, me), MAX_PLAYERS),
            _one_hot(_decision_position(state, me), MAX_QUEUE),
            _one_hot(jnp.where(jnp.isin(decision, jnp.asarray(_DATA_IS_KIND)), data, -1), KINDS),
            jnp.stack([(to_move == me).astype(_F32), _ratio(legal, 50)]).astype(_F32),
        ]
    )
    return jnp.where(decision >= 0, block, 0.0)


#: A walk down the stacks: each position's card at this level, the level, depths, kinds seen.
_Walk = tuple[jax.Array, jax.Array, jax.Array, jax.Array]


def _covered(state: State, code: jax.Array) -> tuple[jax.Array, jax.Array]:
    """(Q,) int and (Q, K + 1) float: how many cards lie under each position's top card, and
    which kinds (``code``: as the seat sees them) are among them.

    Walked down every stack at once, a level a turn, until the deepest stack of the batch ends
    (stacks are rarely more than two or three high). Gathers only: finding each covered card's
    position first (``queue.card_positions``) and scattering the cards into positions cost a
    quarter of the observation on XLA's CPU, its scatters being serial.
    """
    kinds = jnp.arange(KINDS + 1)

    cards = state.kind.shape[-1]

    def deeper(carry: _Walk) -> jax.Array:
        card, level, _, _ = carry
        return (card >= 0).any() & (level < cards)  # no stack is higher than the cards

    def down(carry: _Walk) -> _Walk:
        card, level, depth, seen = carry
        there = card >= 0
        safe = jnp.maximum(card, 0)
        seen = seen | (there[:, None] & (code[safe][:, None] == kinds[None, :]))
        return jnp.where(there, state.under[safe], -1), level + 1, depth + there, seen

    first = jnp.where(positions(state), state.under[jnp.maximum(state.queue, 0)], -1)
    none = jnp.zeros((MAX_QUEUE, KINDS + 1), dtype=bool)
    start = (first, jnp.int32(0), jnp.zeros(MAX_QUEUE, dtype=jnp.int32), none)
    _, _, depth, seen = jax.lax.while_loop(deeper, down, start)
    return depth, seen.astype(_F32)


def _queue(state: State, me: jax.Array) -> jax.Array:
    """(Q * features,): each position's top card, and what lies under it, as ``me`` sees them."""
    known = _known(state, me)
    code = _kind_code(state, known)
    present = positions(state)
    top = jnp.maximum(state.queue, 0)
    at = jnp.arange(MAX_QUEUE)
    resolving = state.phase == RESOLVE
    depth, under = _covered(state, code)
    features = jnp.concatenate(
        [
            jnp.ones((MAX_QUEUE, 1), dtype=_F32),
            ((at < state.ptr) & resolving)[:, None].astype(_F32),
            ((at == state.ptr) & resolving)[:, None].astype(_F32),
            jax.nn.one_hot(_relative(state, state.owner[top], me), MAX_PLAYERS, dtype=_F32),
            jax.nn.one_hot(_relative(state, state.ctrl[top], me), MAX_PLAYERS, dtype=_F32),
            jnp.stack(
                [
                    state.up[top],
                    state.exposed[top],
                    state.asleep[top],
                    state.verdict[top],
                    state.bribed_by[top] >= 0,
                ],
                axis=1,
            ).astype(_F32),
            jax.nn.one_hot(code[top], KINDS + 1, dtype=_F32),
            _ratio(state.ip[top], 5)[:, None],
            _ratio(depth, 3)[:, None],
            under,
        ],
        axis=1,
    )
    return jnp.where(present[:, None], features, 0.0).reshape(-1)


def _hand(state: State, me: jax.Array) -> jax.Array:
    mine = state.owner == me
    return jnp.concatenate(
        [_kind_counts(state, mine & (state.zone == HAND)), _kind_counts(state, mine & (state.zone == ASIDE))]
    )


def _seats(state: State, me: jax.Array) -> jax.Array:
    """Every seat's features as ``me`` sees them, one row per seat relative to ``me``.

    A card counts in its owner's row only, so each count is one scatter of the cards into
    (seat, kind) cells, the cards outside the pile sent to a spare row (cheaper batched on
    XLA's CPU than products of per-seat card masks with one-hot kinds). The counts are small
    integers and halves, exact in float32.
    """
    players = state.score.shape[-1]
    known = _known(state, me)
    zone = state.zone
    in_hand = zone == HAND
    twins = zone == TWIN_ASIDE
    shown = [in_hand & state.up, zone == DISCARD, zone == KEPT]
    in_queue = (zone == TOP) | (zone == COVERED)
    kind = jnp.where(state.kind >= 0, state.kind, KINDS)

    def row(cards: jax.Array) -> jax.Array:
        return jnp.where(cards & (state.kind >= 0), state.owner, players)

    def per_seat(cards: jax.Array) -> jax.Array:
        return jnp.zeros(players + 1, dtype=jnp.int32).at[row(cards)].add(1)[:players]

    def by_kind(cards: jax.Array, value: float) -> jax.Array:
        cells = jnp.zeros((players + 1, KINDS + 1), dtype=_F32)
        return cells.at[row(cards & known), kind].add(value)[:players, :KINDS]

    seen = by_kind(shown[0] | shown[1] | shown[2] | twins | in_queue, 1.0) > 0
    unseen = state.recipe[None, :] & ~seen & (jnp.arange(players) != me)[:, None]
    rows = jnp.concatenate(
        [
            _ratio(per_seat(in_hand), 16)[:, None],
            _ratio(per_seat(zone == ASIDE), 9)[:, None],
            *[by_kind(cards, 0.5) for cards in shown],
            (per_seat(twins) > 0)[:, None].astype(_F32),
            unseen.astype(_F32),
        ],
        axis=1,
    )
    return _per_relative_seat(rows, me).reshape(-1)


def observe(state: State, seat: jax.Array | int, options: jax.Array | None = None) -> jax.Array:
    """(LAYOUT.size,) float32: ``seat``'s observation, equal to ``oriflamme.encoding.observation.observe``.

    Jit- and vmap-able over states and seats; ``seat`` must be a seat of the table.
    ``options``: the pending decision's number of legal options, when the caller has counted
    them already (the environment has its mask); counted from the state otherwise.
    """
    me = jnp.asarray(seat, dtype=jnp.int32)
    return jnp.concatenate(
        [
            _table(state, me),
            state.recipe.astype(_F32),
            _scores(state, me),
            _decision(state, me, options),
            _queue(state, me),
            _hand(state, me),
            _seats(state, me),
        ]
    )
