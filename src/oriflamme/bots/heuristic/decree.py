"""The Royal Decree: which card to move, and where, judged by the queue it leaves."""

from __future__ import annotations

import random

from ...engine.actions import (
    ARG_MASK,
)
from ...engine.cards import (
    IS_CHARACTER,
    LORD,
)
from .context import Context
from .values import ACT, NEIGHBOUR_KILLERS


def _move(q: list[int], under: list[int], j: int, t: int) -> list[int]:
    """The queue after moving the top card at ``j`` into gap ``t`` (``t`` counted before the move)."""
    out = list(q)
    c = out[j]
    if under[c] >= 0:
        out[j] = under[c]
    else:
        del out[j]
    out.insert(t if t <= len(out) else len(out), c)
    return out


def decree_before(ctx: Context, j: int) -> float:
    """The value of the queue with the card at ``j`` left where it is (see :func:`decree_move_value`)."""
    q = ctx.q
    decree = q[ctx.ptr] if ctx.ptr < ctx.n else -1
    return _queue_value(ctx, [d for d in q if d != decree], ctx.ptr, q[j])


def decree_move_value(ctx: Context, j: int, t: int, before: float | None = None) -> float:
    """Value of moving the card at ``j`` to gap ``t``: re-evaluate the queue around it.

    ``before`` is :func:`decree_before` of ``j``, the same for every gap: callers that
    weigh many gaps for one card pass it rather than have it computed again.
    """
    q = ctx.q
    c = q[j]
    decree = q[ctx.ptr] if ctx.ptr < ctx.n else -1
    after = _move(q, ctx.under, j, t)
    # Resolution continues at the Decree's place once it is discarded.
    new_ptr = after.index(decree) if decree in after else ctx.ptr
    if before is None:
        before = decree_before(ctx, j)
    after_q = [d for d in after if d != decree]
    return _queue_value(ctx, after_q, new_ptr, c) - before


def _queue_value(ctx: Context, q: list[int], ptr: int, moved: int) -> float:
    """My local evaluation of a queue after a Decree: the moved card's activity and neighbours' risk.

    Only this round's activity is counted (that is all a Decree changes):
    which revealed characters still act and what the attackers around the
    moved card will do.
    """
    me = ctx.me
    v = 0.0
    n = len(q)
    if moved not in q:
        return 0.0
    m = q.index(moved)
    lo = max(0, m - 2)
    hi = min(n, m + 3)
    for i in range(lo, hi):
        c = q[i]
        x = ctx.ctrl[c]
        sign = 1.0 if x == me else -ctx.w[x]
        if not ctx.up[c] or not IS_CHARACTER[ctx.kind[c]]:
            continue
        k = ctx.kind[c]
        acts_now = 1 if i >= ptr else 0
        if not acts_now:
            continue
        if k in NEIGHBOUR_KILLERS:
            # What would it kill: a neighbour not its own, preferably.
            best = -9.0
            for t in (i - 1, i + 1):
                if 0 <= t < n:
                    d = q[t]
                    y = ctx.ctrl[d]
                    if y == x:
                        gain = 1.0 - 2.0
                    else:
                        gain = 1.0 + 1.5
                        if y == me:
                            v -= 0.5 * 2.0  # my card at risk
                    best = max(best, gain)
            v += sign * max(best, 0.0)
        elif k == LORD:
            own = sum(1 for t in (i - 1, i + 1) if 0 <= t < n and ctx.ctrl[q[t]] == x)
            v += sign * (1.0 + own)
        else:
            v += sign * ACT[k]
    return v


def decree_worthwhile(ctx: Context) -> bool:
    """A quick look for a good Decree: one of my characters could act again, or a threat be moved away."""
    q = ctx.q
    me = ctx.me
    ptr = ctx.ptr
    for j, c in enumerate(q):
        if not ctx.up[c] or not IS_CHARACTER[ctx.kind[c]]:
            continue
        if ctx.ctrl[c] == me:
            if j < ptr and ACT[ctx.kind[c]] >= 1.5:
                return True
        elif (
            j > ptr
            and ctx.kind[c] in NEIGHBOUR_KILLERS
            and any(0 <= t < ctx.n and ctx.ctrl[q[t]] == me for t in (j - 1, j + 1))
        ):
            return True
    return False


def _decree_best(ctx: Context, picks: list[int], decree: int) -> tuple[float, int]:
    best = (-99.0, -1)
    n = ctx.n
    me = ctx.me
    # Candidate gaps: the ends, just after the Decree (acts next), and beside my cards.
    near = {0, n - 1, n, ctx.ptr, ctx.ptr + 1}
    for i, c in enumerate(ctx.q):
        if ctx.ctrl[c] == me:
            near.update((i, i + 1))
    for j in picks:
        if ctx.q[j] == decree:
            continue
        stacked = ctx.under[ctx.q[j]] >= 0
        dests = [t for t in near if 0 <= t <= (n if stacked else n - 1) and (stacked or t != j)]
        before = decree_before(ctx, j)
        for t in dests:
            v = decree_move_value(ctx, j, t, before)
            if v > best[0]:
                best = (v, j)
    return best


def decree_pick(ctx: Context, opts: tuple[int, ...], rng: random.Random) -> int:
    # Only revealed characters change what happens this round when moved (see _queue_value).
    q = ctx.q
    picks = [
        a & ARG_MASK for a in opts if ctx.up[q[a & ARG_MASK]] and IS_CHARACTER[ctx.kind[q[a & ARG_MASK]]]
    ]
    _, j = _decree_best(ctx, picks, q[ctx.ptr] if ctx.ptr < ctx.n else -1)
    for a in opts:
        if a & ARG_MASK == j:
            return a
    return opts[int(rng.random() * len(opts))]
