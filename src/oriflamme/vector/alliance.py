"""The Alliance box's abilities on a vector state, and the decisions they ask (docs/rules.md §8).

Each function is the vector form of the ``boxes.alliance`` function cited in
its docstring, with the same effects in the same order. The Extortion's
reaction is with the others, in ``vector/moves.py``; the Agreement's ability
does nothing (it is kept with its IP, which ``vector/step.py`` counts).
``vector/abilities.py`` registers these with the other boxes'.
"""

from __future__ import annotations

from typing import Final

import jax
import jax.numpy as jnp

from ..engine import cards as ck
from ..engine import registry as rg
from ..engine.actions import (
    MODE_CASHOUT,
    MODE_COLLECT,
    MODE_CONDEMN,
    MODE_EXCHANGE,
    MODE_GIFT,
    MODE_NAMES,
    MODE_VERDICT,
)
from ..engine.zones import HAND, TOP
from . import sparse
from .asking import Ability, Handler, ask, near, top_ctrl
from .dense import first_true
from .mask import ACTIONS
from .moves import discard, eliminate, gain, is_character, position_of, push_frame, release, when
from .queue import positions
from .state import MAX_QUEUE, State

__all__ = ["ABILITIES", "HANDLERS", "desert", "deserter_leaves", "target_effect"]


def _tops(state: State) -> jax.Array:
    """(Q,) int: the top card of each position (0 past the queue: read with ``positions``)."""
    return jnp.maximum(state.queue, 0)


def _empress(state: State, actor: jax.Array, ctrl: jax.Array, revealed: jax.Array) -> State:
    """``boxes.alliance.empress``: 2 IP, then 1 IP on another family's face-down card, if any."""
    state = gain(state, ctrl, 2)
    targets = positions(state) & ~state.up[_tops(state)] & (top_ctrl(state) != ctrl)
    return when(targets.any(), lambda s: ask(s, rg.D_TARGET_OTHER, actor, ctrl, ck.EMPRESS), state)


def _fanatic(state: State, actor: jax.Array, ctrl: jax.Array, revealed: jax.Array) -> State:
    """``boxes.alliance.fanatic``: 2 IP with no other face-up top card of its family, else 1."""
    company = positions(state) & (state.queue != actor) & state.up[_tops(state)] & (top_ctrl(state) == ctrl)
    return gain(state, ctrl, jnp.where(company.any(), 1, 2))


def _informant(state: State, actor: jax.Array, ctrl: jax.Array, revealed: jax.Array) -> State:
    """``boxes.alliance.informant``: collect, or exchange with a hand card (offered with a hand)."""
    return ask(state, rg.D_MODE, actor, ctrl, ck.INFORMANT)


def _diplomat(state: State, actor: jax.Array, ctrl: jax.Array, revealed: jax.Array) -> State:
    """``boxes.alliance.diplomat``: a gift to another Diplomat, or cash out."""
    return ask(state, rg.D_MODE, actor, ctrl, ck.DIPLOMAT)


def _deserter(state: State, actor: jax.Array, ctrl: jax.Array, revealed: jax.Array) -> State:
    """``boxes.alliance.deserter``: its check (``K_DESERTER``) waits under eliminating a neighbour, if any."""
    state = push_frame(state, rg.K_DESERTER, actor)
    return when(
        near(state, actor).any(), lambda s: ask(s, rg.D_TARGET_ELIMINATE, actor, ctrl, ck.DESERTER), state
    )


def _judge(state: State, actor: jax.Array, ctrl: jax.Array, revealed: jax.Array) -> State:
    """``boxes.alliance.judge``: a verdict, or condemn (offered when a top card bears a verdict)."""
    return ask(state, rg.D_MODE, actor, ctrl, ck.JUDGE)


def _insurrection(state: State, actor: jax.Array, ctrl: jax.Array, revealed: jax.Array) -> State:
    """``boxes.alliance.insurrection``: its IP but one gained, then both neighbours eliminated, left first.

    The neighbours are those of the moment it strikes; the right one is spared if eliminating
    the left one took it off the top (a Prince's Twin discarded with it).
    """
    n = state.ip[actor]
    state = gain(state.replace(ip=state.ip.at[actor].set(0)), ctrl, jnp.maximum(n - 1, 0))
    at = position_of(state, actor)
    sides = [at - 1, at + 1]
    targets = [jnp.maximum(state.queue[jnp.clip(j, 0, MAX_QUEUE - 1)], 0) for j in sides]
    there = [(j >= 0) & (j < state.queue_len) for j in sides]
    for card, exists in zip(targets, there, strict=True):
        state = _eliminate_if_on_top(state, exists, card, actor, ctrl)
    return state


def _eliminate_if_on_top(
    state: State, there: jax.Array, card: jax.Array, actor: jax.Array, ctrl: jax.Array
) -> State:
    return when(there & (state.zone[card] == TOP), lambda s: eliminate(s, card, actor, ctrl), state)


def _infiltration(state: State, actor: jax.Array, ctrl: jax.Array, revealed: jax.Array) -> State:
    """``boxes.alliance.infiltration``: 1 IP on each face-down top card its family controls."""
    hidden = positions(state) & ~state.up[_tops(state)] & (top_ctrl(state) == ctrl)
    return state.replace(ip=state.ip.at[_tops(state)].add(hidden.astype(jnp.int32)))


#: The Alliance kinds' abilities (the Extortion's is the bait's, with the base box's; the Agreement has none).
ABILITIES: Final[dict[int, Ability]] = {
    ck.EMPRESS: _empress,
    ck.FANATIC: _fanatic,
    ck.INFORMANT: _informant,
    ck.DIPLOMAT: _diplomat,
    ck.DESERTER: _deserter,
    ck.JUDGE: _judge,
    ck.INSURRECTION: _insurrection,
    ck.INFILTRATION: _infiltration,
}


# ------------------------------------------------------------------ what the decisions do


def desert(state: State, p: jax.Array, victim: jax.Array) -> State:
    """``boxes.alliance._desert``: the neighbour is eliminated, and a character earns 1 more."""
    character = is_character(state.kind[victim])
    state = eliminate(state, victim, p[2], p[3])
    return gain(state, p[3], character.astype(jnp.int32))


def deserter_leaves(state: State, frame: jax.Array) -> State:
    """``boxes.alliance._deserter_leaves`` (``K_DESERTER``): a Deserter still on top with no face-up
    character beside it is discarded."""
    actor = frame[1]
    tops = _tops(state)
    company = near(state, actor) & state.up[tops] & is_character(state.kind[tops])
    return when((state.zone[actor] == TOP) & ~company.any(), lambda s: discard(s, actor), state)


def target_effect(state: State, p: jax.Array, card: jax.Array) -> State:
    """``TARGET_EFFECT`` of the Empress (1 IP), the Diplomat's gift (2 IP) and the Judge's verdict."""
    applied = p[4]
    gift = jnp.where(applied == ck.EMPRESS, 1, jnp.where(applied == ck.DIPLOMAT, 2, 0))
    verdict = applied == ck.JUDGE
    return state.replace(
        ip=state.ip.at[card].add(gift),
        verdict=state.verdict.at[card].set(state.verdict[card] | verdict),
        verdict_pool=state.verdict_pool - verdict.astype(jnp.int32),
    )


def _collect(state: State, actor: jax.Array, ctrl: jax.Array) -> State:
    """``_informant_mode`` collect: as many IP as lie on the other families' face-down cards beside it."""
    tops = _tops(state)
    spied = near(state, actor) & ~state.up[tops] & (top_ctrl(state) != ctrl)
    return gain(state, ctrl, jnp.where(spied, state.ip[tops], 0).sum(dtype=jnp.int32))


def _cash_out(state: State, actor: jax.Array, ctrl: jax.Array) -> State:
    """``_diplomat_mode`` cash out: the IP on the Diplomat are gained, and it is discarded."""
    n = state.ip[actor]
    return discard(gain(state.replace(ip=state.ip.at[actor].set(0)), ctrl, n), actor)


def _gift(state: State, actor: jax.Array, ctrl: jax.Array) -> State:
    """``_diplomat_mode`` gift: 1 IP, then 2 IP on another face-up Diplomat, if any."""
    state = gain(state, ctrl, 1)
    tops = _tops(state)
    others = positions(state) & (state.queue != actor) & state.up[tops] & (state.kind[tops] == ck.DIPLOMAT)
    return when(others.any(), lambda s: ask(s, rg.D_TARGET_OTHER, actor, ctrl, ck.DIPLOMAT), state)


def _verdict(state: State, actor: jax.Array, ctrl: jax.Array) -> State:
    """``_judge_mode`` verdict: 1 IP, then a verdict from the pool on a top card without one, if any."""
    state = gain(state, ctrl, 1)
    free = positions(state) & ~state.verdict[_tops(state)]
    return when(
        (state.verdict_pool > 0) & free.any(),
        lambda s: ask(s, rg.D_TARGET_OTHER, actor, ctrl, ck.JUDGE),
        state,
    )


def _on_mode(state: State, p: jax.Array, index: jax.Array) -> State:
    """``boxes.common._on_mode`` with ``MODE_EFFECT`` of the Informant, the Diplomat and the Judge."""
    actor, ctrl = p[2], p[3]
    mode = index - ACTIONS.mode
    exchange = jnp.stack([jnp.int32(rg.D_SWAP), ctrl, actor, ctrl, jnp.int32(ck.INFORMANT), jnp.int32(-1)])
    condemn = jnp.stack(
        [jnp.int32(rg.D_TARGET_ELIMINATE), ctrl, actor, ctrl, jnp.int32(ck.JUDGE), jnp.int32(-1)]
    )
    by_mode = {
        MODE_COLLECT: lambda s: _collect(s, actor, ctrl),
        MODE_EXCHANGE: lambda s: s.replace(pending=exchange),  # asked every time: the hand is hidden
        MODE_GIFT: lambda s: _gift(s, actor, ctrl),
        MODE_CASHOUT: lambda s: _cash_out(s, actor, ctrl),
        MODE_VERDICT: lambda s: _verdict(s, actor, ctrl),
        MODE_CONDEMN: lambda s: s.replace(pending=condemn),
    }
    branches = [by_mode[m] for m in range(len(MODE_NAMES))]
    out: State = sparse.switch(jnp.clip(mode, 0, len(branches) - 1), branches, state)
    return out


def _on_swap(state: State, p: jax.Array, index: jax.Array) -> State:
    """``boxes.alliance._informant_swap``: the chosen hand card takes the Informant's place, face down and
    asleep; the Informant goes back to its owner's hand, face up (everybody saw it).

    Putting a card face down ends what everybody knew of that hand, as a placement does.
    """
    actor, ctrl = p[2], p[3]
    hand = (state.zone == HAND) & (state.owner == ctrl)
    card = first_true(hand & (state.kind == index - ACTIONS.swap))  # the lowest id
    i = position_of(state, actor)
    state = state.replace(
        up=state.up & ~hand,
        queue=state.queue.at[i].set(card),
        under=state.under.at[card].set(state.under[actor]).at[actor].set(-1),
        zone=state.zone.at[card].set(TOP),
        ip=state.ip.at[card].set(0),
        ctrl=state.ctrl.at[card].set(ctrl),
        asleep=state.asleep.at[card].set(True),
    )
    state = release(state, actor)
    return state.replace(ip=state.ip.at[actor].set(0), zone=state.zone.at[actor].set(HAND))


#: The decisions only Alliance asks: the choice of a mode, and the Informant's swap.
HANDLERS: Final[dict[int, Handler]] = {
    rg.D_MODE: _on_mode,
    rg.D_SWAP: _on_swap,
}
