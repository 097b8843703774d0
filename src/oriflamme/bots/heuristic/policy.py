"""The heuristic policy: one choice for every decision, by scoring the legal actions."""

from __future__ import annotations

import random

from ...engine.actions import (
    ARG_MASK,
    FETCH,
    FROM_DISCARD,
    GAIN_ACTION,
    KEEP_ACTION,
    MODE_CASHOUT,
    MODE_COLLECT,
    MODE_CONDEMN,
    MODE_EXCHANGE,
    MODE_GIFT,
    MODE_VERDICT,
    REVEAL_ACTION,
    SHIFT,
)
from ...engine.cards import (
    AGREEMENT,
    BRIBERY,
    CONSPIRACY,
    DIPLOMAT,
    EMPRESS,
    HEIR,
    INFILTRATION,
    INSURRECTION,
    IS_CHARACTER,
    JUDGE,
    PLOT,
    ROYAL_DECREE,
    SCHEMER,
    SHAPESHIFTER,
)
from ...engine.game import Game
from ...engine.registry import (
    D_COPY,
    D_DECREE_DEST,
    D_DECREE_PICK,
    D_FETCH,
    D_KEEP_OR_REVEAL,
    D_MODE,
    D_PLACE,
    D_PLOT_CHAR,
    D_PLOT_IP,
    D_SPY,
    D_SWAP,
    D_TARGET_ELIMINATE,
    D_TARGET_OTHER,
    D_TWIN,
    P_ACTOR,
    P_DECISION,
    P_KIND,
    P_PICKED,
    P_SEAT,
)
from ...engine.zones import TOP
from .context import NEVER_NEGATIVE, Context, around, best, shows_another
from .decree import decree_before, decree_move_value, decree_pick, decree_worthwhile
from .placement import place, twin
from .values import ACT, BAIT, NEIGHBOUR_KILLERS, ONCE, TARGET_SIDE


def heuristic_action(g: Game, rng: random.Random) -> int:
    """The heuristic choice for the seat deciding in ``g`` (reads only what that seat may know)."""
    opts = g.options
    if len(opts) == 1:
        return opts[0]
    p = g.pending
    assert p is not None
    d = p[P_DECISION]
    if d == D_KEEP_OR_REVEAL:
        return REVEAL_ACTION if _should_reveal(g, p[P_SEAT], p[P_ACTOR]) else KEEP_ACTION
    ctx = Context(g, p[P_SEAT])
    if d == D_PLACE:
        return place(ctx, opts, rng)
    if d == D_TARGET_ELIMINATE:
        # Never one's own card while an opponent's is on offer (seed 004's advice).
        # best() written out: a playout asks this often.
        q = g.queue
        me = p[P_SEAT]
        ctrl = g.ctrl
        theirs = []
        for a in opts:
            if ctrl[q[a & ARG_MASK]] != me:
                theirs.append(a)
        choices = theirs or opts
        actor = p[P_ACTOR]
        applied = p[P_KIND]
        random_ = rng.random
        pick = choices[0]
        top = -1e9
        for a in choices:
            v = ctx.elim_value(a & ARG_MASK, actor, applied) + random_() * 1e-3
            if v > top:
                top = v
                pick = a
        return pick
    if d == D_TARGET_OTHER:
        return best(opts, lambda a: _other_target_value(ctx, p[P_KIND], a & ARG_MASK), rng)
    if d == D_SPY:
        return best(
            opts,
            lambda a: ctx.w[a & ARG_MASK] * min(1, g.score[a & ARG_MASK]) + 0.01 * g.score[a & ARG_MASK],
            rng,
        )
    if d == D_COPY:
        j = g.queue.index(p[P_ACTOR])
        return best(
            opts,
            lambda a: (
                ctx.ability_value(a & ARG_MASK, j, p[P_ACTOR]) if a & ARG_MASK != SHAPESHIFTER else -1.0
            ),
            rng,
        )
    if d == D_MODE:
        return _mode(ctx, p, opts, rng)
    if d == D_PLOT_CHAR:
        return best(opts, lambda a: _use_value(ctx, a & ARG_MASK), rng)
    if d == D_PLOT_IP:
        return best(opts, lambda a: 1.0 if a == GAIN_ACTION else _use_value(ctx, a & ARG_MASK), rng)
    if d == D_DECREE_PICK:
        return decree_pick(ctx, opts, rng)
    if d == D_DECREE_DEST:
        j = p[P_PICKED]
        before = decree_before(ctx, j)
        return best(opts, lambda a: decree_move_value(ctx, j, a & ARG_MASK, before), rng)
    if d == D_TWIN:
        return twin(ctx, opts, rng)
    if d == D_SWAP:
        return best(opts, lambda a: _swap_value(ctx, a & ARG_MASK, p[P_ACTOR]), rng)
    if d == D_FETCH:
        # Both sources bring the same character; the discard pile is public, so
        # taking from it tells the table nothing about the set-aside cards.
        return FETCH << SHIFT | FROM_DISCARD if FETCH << SHIFT | FROM_DISCARD in opts else opts[0]
    return opts[int(rng.random() * len(opts))]


def _use_value(ctx: Context, j: int) -> float:
    c = ctx.q[j]
    return ctx.ability_value(ctx.kind[c], j, c)


# ------------------------------------------------------------ keep or reveal


def _should_reveal(g: Game, me: int, c: int) -> bool:
    """Turn my face-down card at the pointer up now?"""
    k = g.kind[c]
    last = g.round >= g.rules.rounds
    if k in BAIT and not last:
        # Keep the bait hidden while someone may still spring it (the question a playout asks
        # most often: answered before the context is built).
        return False
    if k in NEVER_NEGATIVE:
        return True  # ability_value >= 0 > -0.3, and ip + now >= 0 in the last round
    if k == HEIR:
        # Worth 2 while no other Heir shows (then as the general rule below), else 0: wait.
        return last or not shows_another(g.queue, g.up, g.kind, c, HEIR)
    if k == PLOT and last:
        return True
    ctx = Context(g, me)
    ip = ctx.ip[c]
    j = ctx.ptr
    if IS_CHARACTER[k]:
        now = ctx.ability_value(k, j, c)
        if last:
            return ip + now >= 0.0
        if k == HEIR and now <= 0.0:
            return False  # another Heir is showing: wait with IP piling up
        if k == SCHEMER and now < 0:
            return False
        return now >= -0.3
    if k in BAIT:
        # The last round (kept hidden before, see above): cash the 1 if nothing threatens it.
        return ctx.threat_at(around(j, ctx.n), j in (0, ctx.n - 1)) < 0.15
    if k == CONSPIRACY:
        if last:
            return ip >= 1
        danger = ctx.threat_at(around(j, ctx.n), j in (0, ctx.n - 1))
        return ip >= 3 or (ip >= 2 and (danger >= 0.3 or ctx.left <= 1))
    if k == AGREEMENT:
        return ip >= 1 and (ip >= ctx.left or last)
    if k == INSURRECTION:
        return ip >= 1 and ctx.ability_value(k, j, c) >= (0.0 if last else 1.5)
    if k == INFILTRATION:
        return True
    if k == PLOT:
        v = ctx.plot_value(ip)
        return last or (v >= 3.0 and ip >= 1) or v >= 4.0
    if k == ROYAL_DECREE:
        return last or decree_worthwhile(ctx)
    now = ctx.ability_value(k, j, c)
    if last:
        return ip + now >= 0.0
    return now >= 2.0 or (now >= 1.0 and ip >= 2)


# ------------------------------------------------------------ other targets


def _other_target_value(ctx: Context, applied: int, j: int) -> float:
    c = ctx.q[j]
    x = ctx.ctrl[c]
    me = ctx.me
    if applied == BRIBERY:
        acts = ctx.acts(j)
        k = ctx.kind[c]
        return (ctx.char_act(k, j, me) + ctx.w[x] * ctx.char_act(k, j, x)) * acts
    if applied == EMPRESS:
        # The IP goes to an opponent's face-down card: best on one that is likely bait or doomed.
        pa, pt, pe = ctx.pool(ctx.owner[c], ctx.ip[c])[:3]
        return (pa + pt + pe) * 2 - ctx.w[x] + _my_reach(ctx, j)
    if applied == JUDGE:
        if x == me:
            return -5.0 - ctx.worth(c, j)
        return ctx.elim_value(j, -1, JUDGE)
    if applied == DIPLOMAT:
        return 2.0 if x == me else -2.0 * ctx.w[x]
    # A designer's kind whose hints say which side its target helps (0: no preference).
    side = TARGET_SIDE[applied]
    return float(side) if x == me else -side * ctx.w[x]


def _my_reach(ctx: Context, j: int) -> float:
    """Will one of my revealed attackers reach position ``j`` (so IP put there come back)?"""
    q = ctx.q
    me = ctx.me
    for i in (j - 1, j + 1):
        if 0 <= i < ctx.n:
            c = q[i]
            if ctx.ctrl[c] == me and ctx.up[c] and ctx.kind[c] in NEIGHBOUR_KILLERS:
                return 1.0
    return 0.0


# ------------------------------------------------------------------ modes


def _mode(ctx: Context, p: tuple[int, ...], opts: tuple[int, ...], rng: random.Random) -> int:
    actor = p[P_ACTOR]
    q = ctx.q
    j = q.index(actor) if ctx.g.zone[actor] == TOP else ctx.ptr
    me = ctx.me
    values: dict[int, float] = {}
    for a in opts:
        m = a & ARG_MASK
        if m == MODE_COLLECT:
            values[a] = float(
                sum(
                    ctx.ip[q[i]]
                    for i in (j - 1, j + 1)
                    if 0 <= i < ctx.n and not ctx.up[q[i]] and ctx.ctrl[q[i]] != me
                )
            )
        elif m == MODE_EXCHANGE:
            hand = ctx.g.hands[me]
            values[a] = 0.8 if ctx.left and hand else -1.0
        elif m == MODE_GIFT:
            values[a] = 1.0
        elif m == MODE_CASHOUT:
            ip = ctx.ip[actor]
            values[a] = ip - ACT[DIPLOMAT] * ctx.left - (0.0 if ctx.left else 1.0)
        elif m == MODE_VERDICT:
            values[a] = 1.3
        elif m == MODE_CONDEMN:
            condemn = [i for i, c in enumerate(q) if ctx.g.verdict[c]]
            values[a] = ctx.best_elim(condemn, actor, JUDGE)
        else:
            values[a] = 0.0
    return best(opts, values.__getitem__, rng)


def _swap_value(ctx: Context, c: int, informant: int) -> float:
    """Informant's exchange: which hand card to slip into the queue in its place."""
    k = ctx.kind[c]
    q = ctx.q
    j = q.index(informant) if informant in q else ctx.ptr
    nb = around(j, ctx.n)
    if k in BAIT:
        return 1.0 + 4.0 * ctx.threat_at(nb, False)
    if k == CONSPIRACY:
        return 2.0 * ctx.left
    if k == AGREEMENT:
        return 1.0 * ctx.left
    if IS_CHARACTER[k]:
        return ACT[k] * ctx.left + (ctx.ability_value(k, j, informant) if k in NEIGHBOUR_KILLERS else 0.0)
    return ONCE[k]
