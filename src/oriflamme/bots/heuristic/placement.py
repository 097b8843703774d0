"""Placement: which card to play, and where (an end of the queue, or onto an own card)."""

from __future__ import annotations

import random

from ...engine.actions import (
    ARG_MASK,
    PLACE_FIRST,
    PLACE_LAST,
    PLACE_ON,
    SHIFT,
)
from ...engine.cards import (
    AGREEMENT,
    APOTHECARY,
    ARCHER,
    ASSASSINATION,
    BRIBERY,
    CONSPIRACY,
    FELON,
    HEIR,
    IMPERSONATION,
    INFILTRATION,
    INFORMANT,
    INSURRECTION,
    IS_CHARACTER,
    LORD,
    PLOT,
    PRINCE,
    ROYAL_DECREE,
    SCHEMER,
    SOLDIER,
    SPY,
)
from .context import Context, around, best
from .values import ACT, BAIT, NEIGHBOUR_KILLERS, SAVINGS


def twin(ctx: Context, opts: tuple[int, ...], rng: random.Random) -> int:
    """Place the Twin (face up): somewhere safe, not over a useful card of mine."""

    def value(a: int) -> float:
        verb = a >> SHIFT
        n = ctx.n
        if verb == PLACE_FIRST:
            return -ctx.threat_at([0] if n else [], True) * 3
        if verb == PLACE_LAST:
            return -ctx.threat_at([n - 1] if n else [], True) * 3
        i = a & 255
        return -ctx.threat_at([t for t in (i - 1, i + 1) if 0 <= t < n], i in (0, n - 1)) * 3 - _cover_cost(
            ctx, i
        )

    return best(opts, value, rng)


def _cover_cost(ctx: Context, i: int) -> float:
    """What covering my card at position ``i`` costs (it cannot act until uncovered)."""
    c = ctx.q[i]
    k = ctx.kind[c]
    if ctx.up[c]:
        if IS_CHARACTER[k]:
            return ctx.char_act(k, i, ctx.me) * ctx.acts(i) * 0.8
        return 0.3
    if k in BAIT:
        return 1.5
    if k in SAVINGS:
        return 1.0 + ctx.ip[c] * 0.5
    return 1.0 + ctx.ip[c] * 0.3


def _priority(ctx: Context, k: int) -> float:
    """What playing a card of kind ``k`` this round (rather than later, or never) is worth."""
    left = ctx.left
    if IS_CHARACTER[k]:
        if k == HEIR:
            for c in ctx.q:
                if ctx.up[c] and ctx.kind[c] == HEIR:
                    return 0.3
            return 2.0 + (0.5 if left >= 2 else 0.0)
        if k in (LORD, SPY, FELON):
            return 0.8
        if k in NEIGHBOUR_KILLERS or k in (ARCHER, APOTHECARY):
            return 0.5  # depends on the spot: see _spot_value
        if k == PRINCE:
            return 1.6
        if k == INFORMANT:
            return 0.8
        if k == SCHEMER:
            return 1.0
        return ACT[k]
    if k == CONSPIRACY:
        return 2.2 if left >= 2 else (1.0 if left == 1 else -1.0)
    if k == AGREEMENT:
        return 0.8 * left if left >= 1 else -1.0
    if k == INFILTRATION:
        return 1.5 + 0.3 * left
    if k in BAIT:
        return 0.4 + (0.6 if left == 0 else 0.0)
    if k == ASSASSINATION:
        return ctx.best_elim(range(ctx.n), -1, ASSASSINATION) - 1.5 if ctx.n else -1.0
    if k == ROYAL_DECREE:
        return 0.6
    if k == PLOT:
        return 0.3 + (ctx.plot_value(0) * 0.5 if left else ctx.plot_value(0))
    if k == BRIBERY:
        return ctx.best_bribe()[0] - 1.5
    if k == INSURRECTION:
        return 0.5 if left >= 1 else -1.0
    if k == IMPERSONATION:
        return 0.3
    return 0.0


class _Spot:
    """One place a card can go this turn, with everything about it that does not depend on the card."""

    __slots__ = (
        "nb",
        "at_end",
        "threat",
        "around",
        "cover",
        "own",
        "opp_w",
        "fd_ip",
        "stack_near",
        "_kill",
        "_insur",
    )

    def __init__(
        self, ctx: Context, nb: list[int], at_end: bool, end: bool, cover_at: int, outer: float
    ) -> None:
        q = ctx.q
        me = ctx.me
        ctrl = ctx.ctrl
        up = ctx.up
        kind = ctx.kind
        self.nb = nb
        self.at_end = at_end
        # Whether the spot is still an end at resolution: later players may place beyond it.
        end_p = (1.0 - outer) if at_end else (1.0 if end else 0.0)
        threat = ctx.threat_at(nb, False) + (0.4 * end_p if ctx.archers else 0.0)
        if at_end:
            threat += 0.1 * outer  # a card placed beyond it may be an attacker
        self.threat = min(threat, 0.95)
        self.cover = _cover_cost(ctx, cover_at) if cover_at >= 0 else 0.0
        own = 0
        opp_w = 0.0
        fd_ip = 0
        around = 0.0
        stack_near = False
        acts = ctx.left + 1
        for i in nb:
            d = q[i]
            x = ctrl[d]
            if ctx.under[d] >= 0:
                stack_near = True
            if x == me:
                own += 1
                if kind[d] == LORD:
                    around += ctx.acts(i) * 0.9 if up[d] else 0.5 * acts
                elif (
                    up[d]
                    and kind[d] in NEIGHBOUR_KILLERS
                    and not any(0 <= t < ctx.n and ctrl[q[t]] != me for t in (i - 1, i + 1))
                ):
                    around -= 1.0  # my own attacker might be forced onto the new card
                continue
            opp_w += ctx.w[x]
            if not up[d]:
                fd_ip += ctx.ip[d]
                continue
            kd = kind[d]
            if kd == FELON:
                around -= ctx.acts(i) * 0.7
            elif kd == SPY:
                around -= 0.3 * ctx.acts(i)
            elif kd == SCHEMER and cover_at >= 0:
                around += 0.5 * ctx.w[x] * ctx.acts(i)  # a new stack beside it discards it
        self.own = own
        self.opp_w = opp_w
        self.fd_ip = fd_ip
        self.around = around
        self.stack_near = stack_near
        self._kill: float | None = None
        self._insur: float | None = None

    def kill(self, ctx: Context, outer: float) -> float:
        """Best elimination a neighbour-killer placed here will have."""
        v = self._kill
        if v is None:
            v = -3.0
            for i in self.nb:
                v = max(v, ctx.elim_value(i, -1, SOLDIER))
            if self.at_end and outer:
                v = max(v, outer * 2.0)
            self._kill = v
        return v

    def insurrection(self, ctx: Context) -> float:
        v = self._insur
        if v is None:
            v = self._insur = sum((ctx.elim_value(i, -1, INSURRECTION) for i in self.nb), 0.0)
        return v


#: Kinds whose placement priority reads more of the table than the rounds left (see _priority).
_PRIORITY_READS_TABLE = frozenset((HEIR, ASSASSINATION, PLOT, BRIBERY))
#: ``_priority`` (for the other kinds) and ``_loss`` by ``(rounds left) << 6 | kind``, filled as
#: asked: both are functions of those two alone, and every playout placement asks for them.
_PRIORITY_BY_LEFT: dict[int, float] = {}
_LOSS_BY_LEFT: dict[int, float] = {}


def _loss(ctx: Context, k: int) -> float:
    """What losing a card of kind ``k`` right after placing it costs."""
    if IS_CHARACTER[k]:
        return ACT[k] * (ctx.left + 1)
    return ctx.hidden_worth(k, 0) + (1.0 if k in SAVINGS else 0.0)


def place(ctx: Context, opts: tuple[int, ...], rng: random.Random) -> int:
    """Choose the card and the spot together: card priority plus what the spot does for it."""
    q = ctx.q
    n = ctx.n
    me = ctx.me
    kind = ctx.kind
    left = ctx.left
    acts = left + 1
    outer = ctx.outer_new()
    prio: dict[int, float] = {}
    loss: dict[int, float] = {}
    spots: dict[int, _Spot] = {}
    archer_v: float | None = None
    apothecary_v: float | None = None
    best = opts[0]
    best_v = -1e9
    random_ = rng.random
    for a in opts:
        verb = a >> SHIFT
        if verb == PLACE_ON:
            c = (a & ARG_MASK) >> 8
            key = a & 255
        else:
            c = a & ARG_MASK
            key = -1 if verb == PLACE_FIRST else -2
        k = kind[c]
        sp = spots.get(key)
        if sp is None:
            if key == -1:
                sp = _Spot(ctx, [0] if n else [], True, True, -1, outer)
            elif key == -2:
                sp = _Spot(ctx, [n - 1] if n else [], True, True, -1, outer)
            else:
                sp = _Spot(ctx, around(key, n), False, key in (0, n - 1), key, outer)
            spots[key] = sp
        pv = prio.get(k)
        if pv is None:
            at = left << 6 | k
            pv = _PRIORITY_BY_LEFT.get(at)
            if pv is None:
                pv = _priority(ctx, k)
                if k not in _PRIORITY_READS_TABLE:
                    _PRIORITY_BY_LEFT[at] = pv
            prio[k] = pv
            lk = _LOSS_BY_LEFT.get(at)
            if lk is None:
                lk = _LOSS_BY_LEFT[at] = _loss(ctx, k)
            loss[k] = lk
        v = pv + sp.around - sp.cover
        if k in BAIT:
            v += sp.threat * 4.0
        else:
            v -= sp.threat * loss[k]
        if k in NEIGHBOUR_KILLERS or k == IMPERSONATION:
            v += sp.kill(ctx, outer)
        elif k == ARCHER:
            if archer_v is None:
                archer_v = (
                    max((ctx.elim_value(i, -1, ARCHER) for i in {0, n - 1}), default=-1.0) if n else -1.0
                )
            if sp.at_end:
                v += max(archer_v, outer * 2.0) if outer else min(archer_v, 0.0) + 0.5
            else:
                v += archer_v
        elif k == LORD:
            v += sp.own * acts * 0.8
        elif k == SPY:
            v += (0.6 if sp.opp_w or (sp.at_end and outer) else -0.5) * acts * 0.5
        elif k == FELON:
            v += (sp.opp_w - sp.own) * acts * 0.5
        elif k == SCHEMER:
            if sp.stack_near or not sp.at_end:
                v -= 0.75 * acts
        elif k == INFORMANT:
            v += sp.fd_ip * 0.5
        elif k == INSURRECTION:
            v += sp.insurrection(ctx) * 0.5
        elif k == APOTHECARY:
            if apothecary_v is None:
                apothecary_v = 0.5 if any(ctx.ctrl[d] == me for d in q) else 0.0
            v += apothecary_v
        v += random_() * 1e-3
        if v > best_v:
            best_v = v
            best = a
    return best
