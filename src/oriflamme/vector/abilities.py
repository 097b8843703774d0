"""Card abilities on a vector state, and the handlers of the decisions they ask.

Each ability is the vector form of the box function registered for its kind
(``oriflamme.engine.boxes``), cited in its docstring: it either applies its
effect, or leaves a pending decision as ``Game.ask`` would (the resolution
loop in ``vector/step.py`` applies a decision with a single option at once,
as ``Game.ask`` does). Alliance's are in ``vector/alliance.py``; the
Agreement alone has no ability (it is kept with its IP, which the round's
income and the end's bonus read).
"""

from __future__ import annotations

from typing import Final

import jax
import jax.numpy as jnp
import numpy as np

from ..engine import cards as ck
from ..engine import registry as rg
from ..engine.actions import FROM_DISCARD, FROM_NOWHERE
from ..engine.zones import ASIDE, DISCARD, TOP, TWIN_ASIDE
from . import alliance, sparse
from .asking import Ability, Handler, ask, near, top_ctrl
from .dense import first_true
from .mask import ACTIONS
from .moves import (
    detach,
    discard,
    eliminate,
    gain,
    insert,
    is_character,
    lose,
    position_of,
    push_frame,
    steal,
    when,
)
from .queue import positions, top_position
from .state import KINDS, MAX_QUEUE, State

__all__ = [
    "HANDLERS",
    "K_ABILITY",
    "ability",
    "ability_later",
    "ability_of_frame",
    "plot_next",
]

_AT: Final = np.arange(MAX_QUEUE)


def _archer(state: State, actor: jax.Array, ctrl: jax.Array, revealed: jax.Array) -> State:
    """``boxes.base.archer``: eliminate the first or the last position (always one: the Archer's own)."""
    return ask(state, rg.D_TARGET_ELIMINATE, actor, ctrl, ck.ARCHER)


def _soldier(state: State, actor: jax.Array, ctrl: jax.Array, revealed: jax.Array) -> State:
    """``boxes.base.soldier``: eliminate a neighbour, if it has one."""
    return when(
        near(state, actor).any(), lambda s: ask(s, rg.D_TARGET_ELIMINATE, actor, ctrl, ck.SOLDIER), state
    )


def _spy(state: State, actor: jax.Array, ctrl: jax.Array, revealed: jax.Array) -> State:
    """``boxes.base.spy``: steal 1 from another seat controlling a neighbour, if any."""
    others = near(state, actor) & (top_ctrl(state) != ctrl)
    return when(others.any(), lambda s: ask(s, rg.D_SPY, actor, ctrl, ck.SPY), state)


def _heir(state: State, actor: jax.Array, ctrl: jax.Array, revealed: jax.Array) -> State:
    """``boxes.base.heir``: 2 IP unless another face-up card of the applying card's name is on top."""
    queue = jnp.maximum(state.queue, 0)
    rival = (
        positions(state) & (state.queue != actor) & state.up[queue] & (state.kind[queue] == state.kind[actor])
    )
    return gain(state, ctrl, jnp.where(rival.any(), 0, 2))


def _shapeshifter(state: State, actor: jax.Array, ctrl: jax.Array, revealed: jax.Array) -> State:
    """``boxes.base.shapeshifter``: copy a face-up character next to it, if any."""
    queue = jnp.maximum(state.queue, 0)
    models = near(state, actor) & state.up[queue] & is_character(state.kind[queue])
    return when(models.any(), lambda s: ask(s, rg.D_COPY, actor, ctrl, ck.SHAPESHIFTER), state)


def _lord(state: State, actor: jax.Array, ctrl: jax.Array, revealed: jax.Array) -> State:
    """``boxes.base.lord``: 1 IP, and 1 more per neighbour its controller controls."""
    own = (near(state, actor) & (top_ctrl(state) == ctrl)).sum(dtype=jnp.int32)
    return gain(state, ctrl, 1 + own)


def _assassination(state: State, actor: jax.Array, ctrl: jax.Array, revealed: jax.Array) -> State:
    """``boxes.base.assassination``: eliminate any position."""
    return ask(state, rg.D_TARGET_ELIMINATE, actor, ctrl, ck.ASSASSINATION)


def _royal_decree(state: State, actor: jax.Array, ctrl: jax.Array, revealed: jax.Array) -> State:
    """``boxes.base.royal_decree``: move another position, if there is one."""
    return when(state.queue_len > 1, lambda s: ask(s, rg.D_DECREE_PICK, actor, ctrl, ck.ROYAL_DECREE), state)


def _bait_revealed(state: State, actor: jax.Array, ctrl: jax.Array, revealed: jax.Array) -> State:
    """``boxes.base.bait_revealed``: revealed by its owner, the card throws its IP away and gains 1."""
    return gain(state.replace(ip=state.ip.at[actor].set(0)), ctrl, 1)


def _conspiracy(state: State, actor: jax.Array, ctrl: jax.Array, revealed: jax.Array) -> State:
    """``boxes.base.conspiracy``: twice the IP on it."""
    n = state.ip[actor]
    return gain(state.replace(ip=state.ip.at[actor].set(0)), ctrl, 2 * n)


def _cutthroat(state: State, actor: jax.Array, ctrl: jax.Array, revealed: jax.Array) -> State:
    """``boxes.ablaze.cutthroat``: eliminate a neighbour (and its namesakes: ``_cutthroat_sweep``), if any."""
    return when(
        near(state, actor).any(), lambda s: ask(s, rg.D_TARGET_ELIMINATE, actor, ctrl, ck.CUTTHROAT), state
    )


def _prince(state: State, actor: jax.Array, ctrl: jax.Array, revealed: jax.Array) -> State:
    """``boxes.ablaze.prince``: revealed with its family's Twin waiting, the Twin enters (the
    ``twin`` decision) and then the Prince gains 1 (``K_GAIN``); otherwise it gains 1 now."""
    waiting = (state.zone == TWIN_ASIDE) & (state.owner == state.owner[actor])
    twin = first_true(waiting)  # the lowest id: the engine's twins stay sorted

    def bring_twin(s: State) -> State:
        return ask(push_frame(s, rg.K_GAIN, ctrl, 1), rg.D_TWIN, actor, ctrl, twin)

    out: State = sparse.cond(revealed & waiting.any(), bring_twin, lambda s: gain(s, ctrl, 1), state)
    return out


def _twin(state: State, actor: jax.Array, ctrl: jax.Array, revealed: jax.Array) -> State:
    """``boxes.ablaze.twin``: 1 IP."""
    return gain(state, ctrl, 1)


def _impersonation(state: State, actor: jax.Array, ctrl: jax.Array, revealed: jax.Array) -> State:
    """``boxes.ablaze.impersonation``: eliminate a neighbour (and replace it: ``_impersonate``), if any."""
    return when(
        near(state, actor).any(),
        lambda s: ask(s, rg.D_TARGET_ELIMINATE, actor, ctrl, ck.IMPERSONATION),
        state,
    )


def _queen(state: State, actor: jax.Array, ctrl: jax.Array, revealed: jax.Array) -> State:
    """``boxes.ablaze.queen``: 2 IP."""
    return gain(state, ctrl, 2)


def _felon(state: State, actor: jax.Array, ctrl: jax.Array, revealed: jax.Array) -> State:
    """``boxes.ablaze.felon``: the controller of each neighbour, left then right, loses 1."""
    at = position_of(state, actor)
    for j in (at - 1, at + 1):
        seat = state.ctrl[state.queue[jnp.clip(j, 0, MAX_QUEUE - 1)]]
        there = (j >= 0) & (j < state.queue_len)
        state = lose(state, seat, there.astype(jnp.int32))
    return state


def _schemer(state: State, actor: jax.Array, ctrl: jax.Array, revealed: jax.Array) -> State:
    """``boxes.ablaze.schemer``: discarded next to a stack, else the rules' Schemer gain."""
    stacks = near(state, actor) & (state.under[jnp.maximum(state.queue, 0)] >= 0)
    out: State = sparse.cond(
        stacks.any(), lambda s: discard(s, actor), lambda s: gain(s, ctrl, s.schemer_gain), state
    )
    return out


def _apothecary(state: State, actor: jax.Array, ctrl: jax.Array, revealed: jax.Array) -> State:
    """``boxes.ablaze.apothecary``: eliminate a card next to another of its controller's positions."""
    own = positions(state) & (state.queue != actor) & (top_ctrl(state) == ctrl)
    return when(own.any(), lambda s: ask(s, rg.D_TARGET_ELIMINATE, actor, ctrl, ck.APOTHECARY), state)


def _bribery(state: State, actor: jax.Array, ctrl: jax.Array, revealed: jax.Array) -> State:
    """``boxes.ablaze.bribery``: take control of another family's uncovered face-up character, if any."""
    queue = jnp.maximum(state.queue, 0)
    targets = (
        positions(state)
        & state.up[queue]
        & is_character(state.kind[queue])
        & (state.under[queue] < 0)
        & (top_ctrl(state) != ctrl)
    )
    return when(targets.any(), lambda s: ask(s, rg.D_TARGET_OTHER, actor, ctrl, ck.BRIBERY), state)


def _own_revealed_characters(state: State, ctrl: jax.Array) -> jax.Array:
    """(Q,) bool: ``boxes.ablaze._own_revealed_characters``, the positions of ``ctrl``'s face-up characters."""
    queue = jnp.maximum(state.queue, 0)
    return positions(state) & state.up[queue] & (top_ctrl(state) == ctrl) & is_character(state.kind[queue])


def _ask_plot(state: State, decision: int, ctrl: jax.Array, ip_left: jax.Array) -> State:
    """``Game.ask(decision, ctrl, -1, ctrl, ip_left, -1, ...)``: the Plot's questions name no card."""
    return ask(state, decision, jnp.int32(-1), ctrl, ip_left)


def _plot(state: State, actor: jax.Array, ctrl: jax.Array, revealed: jax.Array) -> State:
    """``boxes.ablaze.plot``: discarded, its IP spent on its family's face-up characters (``K_PLOT``), else gained."""
    n = state.ip[actor]
    state = discard(state.replace(ip=state.ip.at[actor].set(0)), actor)

    def spend(s: State) -> State:
        return _ask_plot(push_frame(s, rg.K_PLOT, ctrl, n), rg.D_PLOT_CHAR, ctrl, n)

    out: State = sparse.cond(
        _own_revealed_characters(state, ctrl).any(), spend, lambda s: gain(s, ctrl, n), state
    )
    return out


def plot_next(state: State, frame: jax.Array) -> State:
    """``boxes.ablaze._plot_next`` (``K_PLOT``): with IP left, gain 1 or use a character again, or gain them all."""
    ctrl, remaining = frame[1], frame[2]
    chars = _own_revealed_characters(state, ctrl).any()
    asked = _ask_plot(state, rg.D_PLOT_IP, ctrl, remaining)
    out: State = sparse.cond(
        remaining <= 0,
        lambda s: s,
        lambda s: sparse.cond(chars, lambda _: asked, lambda t: gain(t, ctrl, remaining), s),
        state,
    )
    return out


#: Each kind's ability (``registry.ABILITY``) that the vector engine has.
ABILITIES: Final[dict[int, Ability]] = {
    ck.ARCHER: _archer,
    ck.SOLDIER: _soldier,
    ck.SPY: _spy,
    ck.HEIR: _heir,
    ck.SHAPESHIFTER: _shapeshifter,
    ck.LORD: _lord,
    ck.ASSASSINATION: _assassination,
    ck.ROYAL_DECREE: _royal_decree,
    ck.AMBUSH: _bait_revealed,
    ck.CONSPIRACY: _conspiracy,
    ck.QUEEN: _queen,
    ck.PRINCE: _prince,
    ck.TWIN: _twin,
    ck.CUTTHROAT: _cutthroat,
    ck.FELON: _felon,
    ck.SCHEMER: _schemer,
    ck.APOTHECARY: _apothecary,
    ck.TRAP: _bait_revealed,
    ck.BRIBERY: _bribery,
    ck.PLOT: _plot,
    ck.IMPERSONATION: _impersonation,
    ck.EXTORTION: _bait_revealed,
    **alliance.ABILITIES,
}


def _nothing(state: State, actor: jax.Array, ctrl: jax.Array, revealed: jax.Array) -> State:
    return state


_BRANCHES: Final = [ABILITIES.get(k, _nothing) for k in range(KINDS)]


def ability(state: State, kind: jax.Array, actor: jax.Array, ctrl: jax.Array, revealed: jax.Array) -> State:
    """``ABILITY[kind](game, actor, ctrl, revealed)``: the kind's ability from the card ``actor``."""
    out: State = sparse.switch(jnp.clip(kind, 0, KINDS - 1), _BRANCHES, state, actor, ctrl, revealed)
    return out


#: The code of the vector engine's own continuation frame, ``(K_ABILITY, actor, packed)``: apply
#: an ability next. Revealing, resolving a face-up card and the Shapeshifter's copy push it
#: rather than calling :func:`ability`, so that the abilities are traced once, in the loop (a
#: third of the compile time each otherwise). The loop pops it at its very next turn (nothing is
#: pending then), so no state between two steps holds it: frames there are the engine's.
K_ABILITY: Final = 100


def ability_later(state: State, actor: jax.Array, kind: jax.Array, ctrl: jax.Array, revealed: bool) -> State:
    """Push :data:`K_ABILITY`: the loop applies ``kind``'s ability from ``actor`` for ``ctrl`` next."""
    packed = (kind * 8 + ctrl) * 2 + int(revealed)  # kinds < 32, seats < 8
    return push_frame(state, K_ABILITY, actor, packed)


def ability_of_frame(state: State, frame: jax.Array) -> State:
    """Apply the ability a :data:`K_ABILITY` frame names."""
    packed = frame[2]
    return ability(state, packed // 16, frame[1], (packed // 2) % 8, packed % 2 == 1)


# ------------------------------------------------------------------ decision handlers


def _cutthroat_sweep(state: State, p: jax.Array, victim: jax.Array) -> State:
    """``boxes.ablaze._cutthroat_sweep``: the victim, then every other family's face-up top card of its name.

    The others are those on top when the Cutthroat strikes, eliminated in queue order if still
    on top; eliminating the victim alone earns nothing "for eliminating".
    """
    actor, ctrl = p[2], p[3]
    at = top_position(state)
    ids = jnp.arange(state.kind.shape[-1])
    others = (
        (at >= 0) & (ids != victim) & state.up & (state.kind == state.kind[victim]) & (state.ctrl != ctrl)
    )
    reward = others.any()
    state = eliminate(state, victim, actor, ctrl, reward)

    def next_other(carry: tuple[State, jax.Array]) -> tuple[State, jax.Array]:
        s, left = carry
        card = jnp.argmin(jnp.where(left, at, MAX_QUEUE)).astype(jnp.int32)
        with sparse.only(left.any()):  # a game whose sweep is over is carried along
            s = when(s.zone[card] == TOP, lambda t: eliminate(t, card, actor, ctrl, reward), s)
        return s, left.at[card].set(False)

    out: State = jax.lax.while_loop(lambda c: c[1].any(), next_other, (state, others))[0]
    return out


def _impersonate(state: State, p: jax.Array, victim: jax.Array) -> State:
    """``boxes.ablaze._impersonate``: the victim is eliminated; another family's uncovered character
    is then replaced, if the Impersonation is still on top: the ``fetch`` decision, asked every time."""
    actor, ctrl = p[2], p[3]
    kind = state.kind[victim]
    side = (position_of(state, victim) > position_of(state, actor)).astype(jnp.int32)
    replace = is_character(kind) & (state.ctrl[victim] != ctrl) & (state.under[victim] < 0)
    state = eliminate(state, victim, actor, ctrl)
    fetch = jnp.stack([jnp.int32(rg.D_FETCH), ctrl, actor, ctrl, kind, side]).astype(jnp.int32)
    return state.replace(pending=jnp.where(replace & (state.zone[actor] == TOP), fetch, state.pending))


def _on_eliminate(state: State, p: jax.Array, index: jax.Array) -> State:
    """``boxes.common._on_eliminate``: the chosen position's top card is eliminated (``ELIMINATE_EFFECT``:
    the Cutthroat's sweep, the Impersonation's replacement, the Deserter's bonus)."""
    victim = state.queue[jnp.clip(index - ACTIONS.target, 0, MAX_QUEUE - 1)]
    which = jnp.select([p[4] == ck.CUTTHROAT, p[4] == ck.IMPERSONATION, p[4] == ck.DESERTER], [1, 2, 3], 0)
    branches = [
        lambda s: eliminate(s, victim, p[2], p[3]),
        lambda s: _cutthroat_sweep(s, p, victim),
        lambda s: _impersonate(s, p, victim),
        lambda s: alliance.desert(s, p, victim),
    ]
    out: State = sparse.switch(which, branches, state)
    return out


def _on_fetch(state: State, p: jax.Array, index: jax.Array) -> State:
    """``boxes.ablaze._fetch``: the first card of the kind from the discard, or the lowest id set aside,
    comes back face up beside the Impersonation, on the victim's side; from nowhere, nothing."""
    actor, ctrl, kind, side = p[2], p[3], p[4], p[5]
    source = index - ACTIONS.fetch
    mine = (state.owner == ctrl) & (state.kind == kind)
    discarded = mine & (state.zone == DISCARD)
    from_discard = jnp.argmin(jnp.where(discarded, state.discard_order, 1 << 20)).astype(jnp.int32)
    from_aside = first_true(mine & (state.zone == ASIDE))
    card = jnp.where(source == FROM_DISCARD, from_discard, from_aside)

    def bring(s: State) -> State:
        # Leaving the discard, the cards after it move up one place.
        pile = (s.zone == DISCARD) & (s.owner == ctrl)
        later = pile & (s.discard_order > s.discard_order[card]) & (source == FROM_DISCARD)
        order = jnp.where(later, s.discard_order - 1, s.discard_order).at[card].set(-1)
        s = s.replace(discard_order=order, up=s.up.at[card].set(True), ctrl=s.ctrl.at[card].set(ctrl))
        return insert(s, position_of(s, actor) + side, card)

    return when(source != FROM_NOWHERE, bring, state)


def _on_spy(state: State, p: jax.Array, index: jax.Array) -> State:
    """``boxes.base._spy_steal``: 1 IP from the chosen seat (relative to the decider)."""
    players = state.score.shape[-1]
    victim = (p[1] + index - ACTIONS.steal) % players
    return steal(state, p[3], victim, 1)


def _on_copy(state: State, p: jax.Array, index: jax.Array) -> State:
    """``boxes.base._copy``: the chosen kind's ability from the Shapeshifter (copying a Shapeshifter: nothing)."""
    kind = index - ACTIONS.copy
    actor, ctrl = p[2], p[3]
    return when(kind != ck.SHAPESHIFTER, lambda s: ability_later(s, actor, kind, ctrl, revealed=False), state)


def _on_decree_pick(state: State, p: jax.Array, index: jax.Array) -> State:
    """``boxes.base._decree_pick``: ask where the picked position goes."""
    picked = index - ACTIONS.target
    pending = jnp.stack([jnp.int32(rg.D_DECREE_DEST), p[1], p[2], p[3], picked, jnp.int32(-1)])
    return state.replace(pending=pending.astype(jnp.int32))


def _on_decree_dest(state: State, p: jax.Array, index: jax.Array) -> State:
    """``boxes.base._decree_move``: the picked card leaves its place and is inserted at the gap chosen."""
    picked = p[4]
    card = state.queue[jnp.clip(picked, 0, MAX_QUEUE - 1)]
    return insert(detach(state, card, picked), index - ACTIONS.to, card)


def _on_target(state: State, p: jax.Array, index: jax.Array) -> State:
    """``boxes.common._on_target``: ``TARGET_EFFECT`` of the kind that asked.

    The Bribery's token goes on the chosen card, and its family controls it; bribing back
    one's own card sends the other family's token home instead (``_bribe``). The Empress,
    the Diplomat and the Judge put IP or a verdict on it (``alliance.target_effect``).
    """
    card = state.queue[jnp.clip(index - ACTIONS.target, 0, MAX_QUEUE - 1)]
    ctrl = p[3]

    def bribe(s: State) -> State:
        return s.replace(
            bribed_by=s.bribed_by.at[card].set(jnp.where(s.owner[card] != ctrl, ctrl, -1)),
            ctrl=s.ctrl.at[card].set(ctrl),
        )

    out: State = sparse.cond(p[4] == ck.BRIBERY, bribe, lambda s: alliance.target_effect(s, p, card), state)
    return out


def _use_character(state: State, index: jax.Array, ctrl: jax.Array) -> State:
    """``boxes.ablaze._apply_character``: the character at the chosen position applies its ability for ``ctrl``."""
    card = state.queue[jnp.clip(index - ACTIONS.use, 0, MAX_QUEUE - 1)]
    return ability_later(state, card, state.kind[card], ctrl, revealed=False)


def _on_plot_character(state: State, p: jax.Array, index: jax.Array) -> State:
    """``boxes.ablaze._plot_first``: the first character the Plot uses."""
    return _use_character(state, index, p[3])


def _on_plot_ip(state: State, p: jax.Array, index: jax.Array) -> State:
    """``boxes.ablaze._plot_ip``: one IP spent (``K_PLOT`` with one less), gained or on a character."""
    ctrl = p[3]
    state = push_frame(state, rg.K_PLOT, ctrl, p[4] - 1)
    out: State = sparse.cond(
        index == ACTIONS.gain, lambda s: gain(s, ctrl, 1), lambda s: _use_character(s, index, ctrl), state
    )
    return out


#: Each decision kind's handler (``registry.HANDLERS``) that this module has; the pending decision
#: is cleared before one runs, as ``Game.apply`` does.
HANDLERS: Final[dict[int, Handler]] = {
    rg.D_TARGET_ELIMINATE: _on_eliminate,
    rg.D_SPY: _on_spy,
    rg.D_COPY: _on_copy,
    rg.D_DECREE_PICK: _on_decree_pick,
    rg.D_DECREE_DEST: _on_decree_dest,
    rg.D_TARGET_OTHER: _on_target,
    rg.D_PLOT_CHAR: _on_plot_character,
    rg.D_PLOT_IP: _on_plot_ip,
    rg.D_FETCH: _on_fetch,
    **alliance.HANDLERS,
}
