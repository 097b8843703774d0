"""The primitive moves of resolution on a vector state: the engine's ``State`` methods, one function each.

Each function is the vector form of the method of ``oriflamme.engine.state``
(or ``Game``) it names, on one unbatched state, with the same effects in the
same order: gaining and stealing IP, taking a card off its position,
inserting one, discarding, eliminating (with the victim's reaction), and
the end of a position's resolution. Card abilities (``vector/abilities.py``)
and the resolution loop (``vector/step.py``) are made of them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

import jax
import jax.numpy as jnp
import numpy as np

from ..engine import cards as ck
from ..engine.zones import COVERED, DISCARD, KEPT, RESOLVE, TOP
from .dense import first_true
from .queue import positions, top_position
from .sparse import switch, when
from .state import KINDS, MAX_QUEUE, State

__all__ = [
    "discard",
    "eliminate",
    "finish",
    "gain",
    "insert",
    "lose",
    "pop_frame",
    "position_of",
    "push_frame",
    "stack_onto",
    "steal",
    "when",
]

_IS_CHARACTER: Final = np.asarray(ck.IS_CHARACTER[:KINDS])
_IS_KEPT: Final = np.asarray(ck.IS_KEPT[:KINDS])
_TURNS_DOWN: Final = np.asarray(ck.TURNS_DOWN[:KINDS])
_AT: Final = np.arange(MAX_QUEUE)

Move = Callable[[State], State]


def is_character(kind: jax.Array) -> jax.Array:
    return jnp.asarray(_IS_CHARACTER)[jnp.clip(kind, 0, KINDS - 1)]


def position_of(state: State, card: jax.Array) -> jax.Array:
    """The position of the top card ``card`` (``queue.index``)."""
    return first_true(positions(state) & (state.queue == card))


def gain(state: State, seat: jax.Array, n: jax.Array | int) -> State:
    """``State.gain``: ``seat`` gains ``n`` IP (the ledger by cause is not held)."""
    return state.replace(score=state.score.at[seat].add(n))


def lose(state: State, seat: jax.Array, n: jax.Array | int) -> State:
    """``State.lose``: ``seat`` loses up to ``n`` IP (never below 0)."""
    return state.replace(score=state.score.at[seat].add(-jnp.minimum(n, state.score[seat])))


def steal(state: State, thief: jax.Array, victim: jax.Array, n: jax.Array | int) -> State:
    """``State.steal``: up to ``n`` of the victim's IP go to the thief."""
    m = jnp.minimum(n, state.score[victim])
    return state.replace(score=state.score.at[victim].add(-m).at[thief].add(m))


def push_frame(state: State, code: int, a: jax.Array, b: jax.Array | int = -1) -> State:
    """Push the continuation frame ``(code, a, b)`` (unused fields -1, as ``from_game`` pads them)."""
    frame = jnp.stack([jnp.int32(code), jnp.asarray(a, jnp.int32), jnp.asarray(b, jnp.int32)])
    return state.replace(frames=state.frames.at[state.frames_len].set(frame), frames_len=state.frames_len + 1)


def pop_frame(state: State) -> tuple[State, jax.Array]:
    """Take the top continuation frame off: the state without it, and the frame."""
    top = jnp.maximum(state.frames_len - 1, 0)
    frame = state.frames[top]
    return state.replace(frames=state.frames.at[top].set(-1), frames_len=top), frame


def _removed(queue: jax.Array, i: jax.Array) -> jax.Array:
    """The queue without position ``i`` (``del q[i]``)."""
    shifted = jnp.concatenate([queue[1:], jnp.full(1, -1, queue.dtype)])
    return jnp.where(i > _AT, queue, shifted)


def _inserted(queue: jax.Array, i: jax.Array, card: jax.Array) -> jax.Array:
    """The queue with ``card`` as a new position ``i`` (``q.insert(i, card)``)."""
    shifted = jnp.concatenate([jnp.full(1, -1, queue.dtype), queue[:-1]])
    return jnp.where(i > _AT, queue, jnp.where(i == _AT, card, shifted))


def detach(state: State, card: jax.Array, i: jax.Array) -> State:
    """``State.detach``: take the top card off position ``i``, uncovering the card below or closing the gap.

    Removals before the pointer shift it back; if the resolving card itself
    leaves, ``cur_gone`` says so (the card that takes its place resolves next).
    """
    below = state.under[card]
    covered = below >= 0
    resolving = state.phase == RESOLVE
    before = i < state.ptr
    is_cur = card == state.cur
    zone = jnp.where(covered, state.zone.at[jnp.maximum(below, 0)].set(TOP), state.zone)
    return state.replace(
        queue=jnp.where(covered, state.queue.at[i].set(below), _removed(state.queue, i)),
        queue_len=state.queue_len - jnp.where(covered, 0, 1),
        under=state.under.at[card].set(-1),
        zone=zone,
        ptr=state.ptr - (~covered & resolving & before).astype(jnp.int32),
        cur_gone=state.cur_gone | (is_cur & (covered | (resolving & ~before))),
    )


def insert(state: State, i: jax.Array, card: jax.Array) -> State:
    """``State.insert``: ``card`` becomes position ``i``; one inserted before the pointer shifts it."""
    shifts = (state.phase == RESOLVE) & ((i < state.ptr) | ((i == state.ptr) & ~state.cur_gone))
    return state.replace(
        queue=_inserted(state.queue, i, card),
        queue_len=state.queue_len + 1,
        zone=state.zone.at[card].set(TOP),
        ptr=state.ptr + shifts.astype(jnp.int32),
    )


def stack_onto(state: State, i: jax.Array, card: jax.Array) -> State:
    """``State.stack_onto``: ``card`` covers position ``i``."""
    below = state.queue[jnp.clip(i, 0, MAX_QUEUE - 1)]
    return state.replace(
        queue=state.queue.at[i].set(card),
        under=state.under.at[card].set(below),
        zone=state.zone.at[below].set(COVERED).at[card].set(TOP),
    )


def release(state: State, card: jax.Array) -> State:
    """``State.release``: a card leaving the queue returns its tokens; its owner controls it again."""
    return state.replace(
        verdict=state.verdict.at[card].set(False),
        verdict_pool=state.verdict_pool + state.verdict[card].astype(jnp.int32),
        bribed_by=state.bribed_by.at[card].set(-1),
        ctrl=state.ctrl.at[card].set(state.owner[card]),
        asleep=state.asleep.at[card].set(False),
        exposed=state.exposed.at[card].set(False),
    )


def leave_queue(state: State, card: jax.Array, i: jax.Array) -> State:
    """``State.leave_queue``: IP on the card go back to the supply, then it is detached and released."""
    return release(detach(state.replace(ip=state.ip.at[card].set(0)), card, i), card)


def to_discard(state: State, card: jax.Array) -> State:
    """``State.to_discard``: face up onto the end of its owner's discard pile."""
    pile = (state.zone == DISCARD) & (state.owner == state.owner[card])
    return state.replace(
        up=state.up.at[card].set(True),
        zone=state.zone.at[card].set(DISCARD),
        discard_order=state.discard_order.at[card].set(pile.sum(dtype=jnp.int32)),
    )


def discard(state: State, card: jax.Array) -> State:
    """``State.discard``: a top card leaves the queue for the discard (not an elimination)."""
    i = position_of(state, card)
    state = state.replace(up=state.up.at[card].set(True))
    return to_discard(leave_queue(state, card, i), card)


def _keep_card(state: State, card: jax.Array) -> State:
    """``State.keep_card``: an intrigue leaves the queue into its controller's kept cards, IP and all."""
    ip = state.ip[card]
    state = leave_queue(state, card, position_of(state, card))
    return state.replace(ip=state.ip.at[card].set(ip), zone=state.zone.at[card].set(KEPT))


def _turn_down(state: State, card: jax.Array) -> State:
    return state.replace(up=state.up.at[card].set(False), exposed=state.exposed.at[card].set(True))


def finish(state: State, card: jax.Array) -> State:
    """``State.finish``: an intrigue still on top leaves (kept, turned down or discarded); the pointer moves on."""
    kind = jnp.clip(state.kind[card], 0, KINDS - 1)
    intrigue = (state.zone[card] == TOP) & ~is_character(kind)
    fate = jnp.where(
        intrigue,
        jnp.where(jnp.asarray(_IS_KEPT)[kind], 1, jnp.where(jnp.asarray(_TURNS_DOWN)[kind], 2, 3)),
        0,
    )
    state = switch(
        fate,
        [
            lambda s: s,
            lambda s: _keep_card(s, card),
            lambda s: _turn_down(s, card),
            lambda s: discard(s, card),
        ],
        state,
    )
    return state.replace(ptr=state.ptr + (~state.cur_gone).astype(jnp.int32))


# ------------------------------------------------------------------ eliminating


def _discard_attacker(state: State, attacker: jax.Array) -> State:
    """``State.discard_attacker``: the eliminating card is discarded if still in play."""
    safe = jnp.maximum(attacker, 0)
    return when((attacker >= 0) & (state.zone[safe] == TOP), lambda s: discard(s, safe), state)


def _ambush_sprung(
    state: State, victim: jax.Array, attacker: jax.Array, actl: jax.Array, vctrl: jax.Array
) -> State:
    """``boxes.base.ambush_sprung``: only an opponent's card springs it: 4 IP, and the attacker goes."""
    return when(actl != vctrl, lambda s: _discard_attacker(gain(s, vctrl, 4), attacker), state)


def _trap_sprung(
    state: State, victim: jax.Array, attacker: jax.Array, actl: jax.Array, vctrl: jax.Array
) -> State:
    """``boxes.ablaze.trap_sprung``: an opponent's card loses 3 IP to the Trap's family, and goes."""
    return when(actl != vctrl, lambda s: _discard_attacker(steal(s, vctrl, actl, 3), attacker), state)


def _queen_bonus(
    state: State, victim: jax.Array, attacker: jax.Array, actl: jax.Array, vctrl: jax.Array
) -> State:
    """``boxes.ablaze.queen_bonus``: eliminating another family's Queen earns 1 more."""
    return gain(state, actl, (actl != vctrl).astype(jnp.int32))


def _prince_twin_link(
    state: State, victim: jax.Array, attacker: jax.Array, actl: jax.Array, vctrl: jax.Array
) -> State:
    """``boxes.ablaze.prince_twin_link``: the family's face-up top copies of the other card of the pair
    are discarded, in queue order (discards do not chain)."""
    other = jnp.where(state.kind[victim] == ck.PRINCE, ck.TWIN, ck.PRINCE)
    at = top_position(state)
    linked = (at >= 0) & (state.kind == other) & (state.ctrl == vctrl) & state.up

    def next_one(carry: tuple[State, jax.Array]) -> tuple[State, jax.Array]:
        s, left = carry
        card = jnp.argmin(jnp.where(left, at, MAX_QUEUE)).astype(jnp.int32)
        return discard(s, card), left.at[card].set(False)

    out: State = jax.lax.while_loop(lambda c: c[1].any(), next_one, (state, linked))[0]
    return out


def _extortion_sprung(
    state: State, victim: jax.Array, attacker: jax.Array, actl: jax.Array, vctrl: jax.Array
) -> State:
    """``boxes.alliance.extortion_sprung``: eliminated by another family, 2 IP per position it controls,
    and each of its face-down top cards with IP loses one."""
    top = jnp.maximum(state.queue, 0)
    theirs = positions(state) & (state.ctrl[top] == actl)
    taxed = (
        jnp.zeros_like(state.ip)
        .at[top]
        .add((theirs & ~state.up[top] & (state.ip[top] > 0)).astype(jnp.int32))
    )

    def sprung(s: State) -> State:
        return gain(s, vctrl, 2 * theirs.sum(dtype=jnp.int32)).replace(ip=s.ip - taxed)

    return when(actl != vctrl, sprung, state)


Reaction = Callable[[State, jax.Array, jax.Array, jax.Array, jax.Array], State]
#: Each kind's reaction to being eliminated (``registry.ON_ELIMINATED``) that the vector engine has.
REACTIONS: Final[dict[int, Reaction]] = {
    ck.AMBUSH: _ambush_sprung,
    ck.TRAP: _trap_sprung,
    ck.QUEEN: _queen_bonus,
    ck.PRINCE: _prince_twin_link,
    ck.TWIN: _prince_twin_link,
    ck.EXTORTION: _extortion_sprung,
}


_REACTION_BRANCH: Final = np.zeros(KINDS, dtype=np.int32)
for _n, _k in enumerate(REACTIONS):
    _REACTION_BRANCH[_k] = _n + 1


def _react(state: State, victim: jax.Array, attacker: jax.Array, actl: jax.Array, vctrl: jax.Array) -> State:
    """``ON_ELIMINATED`` of the victim's kind (nothing for a kind without a reaction)."""
    which = jnp.asarray(_REACTION_BRANCH)[jnp.clip(state.kind[victim], 0, KINDS - 1)]
    branches = [lambda s: s] + [
        lambda s, react=react: react(s, victim, attacker, actl, vctrl) for react in REACTIONS.values()
    ]
    out: State = switch(which, branches, state)
    return out


def eliminate(
    state: State, victim: jax.Array, attacker: jax.Array, actl: jax.Array, reward: jax.Array | bool = True
) -> State:
    """``Game.eliminate``: the eliminator gains 1 (and a kept Infiltration's 2 for a face-down victim)
    unless ``reward`` is off, the victim leaves for its owner's discard, then its reaction applies."""
    vctrl = state.ctrl[victim]
    was_down = ~state.up[victim]
    i = position_of(state, victim)
    infiltrations = ((state.zone == KEPT) & (state.owner == actl) & (state.kind == ck.INFILTRATION)).sum()
    earned = jnp.where(reward, 1 + jnp.where(was_down, 2 * infiltrations, 0), 0)
    state = gain(state.replace(up=state.up.at[victim].set(True)), actl, earned)
    state = to_discard(leave_queue(state, victim, i), victim)
    return _react(state, victim, attacker, actl, vctrl)
