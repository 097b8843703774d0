"""Reading the deal from how cards were played: opponents' face-down cards that carry IP.

The sampler (:mod:`oriflamme.engine.sampler`) deals every unseen card
uniformly. A search then re-deals the cards that were kept hidden with a bias
towards the kinds people keep hidden (see :func:`infer`). Kept apart from the
search loop (:mod:`oriflamme.bots.ismcts`), which calls it once per iteration.
"""

from __future__ import annotations

import random

from ..engine.game import Game
from ..engine.layout import family_ids
from .heuristic import KEEP_LIKELIHOOD

__all__ = ["infer"]


#: Per strength (see :func:`infer`): ``KEEP_LIKELIHOOD[kind] ** (m * strength)`` by ``m`` (IP on
#: the card, capped at 3), then kind.
_KEEP_POWERS: dict[float, list[list[float]]] = {}


def _keep_powers(strength: float) -> list[list[float]]:
    powers = _KEEP_POWERS.get(strength)
    if powers is None:
        powers = _KEEP_POWERS[strength] = [[x ** (m * strength) for x in KEEP_LIKELIHOOD] for m in range(4)]
    return powers


def infer(g: Game, me: int, rng: random.Random, strength: float = 1.0) -> None:
    """Re-deal opponents' face-down cards that carry IP according to how they were played.

    The sampler deals every unseen card uniformly. But a card that has been
    kept hidden (one IP per keep) is more likely a Conspiracy or an Ambush
    than a Queen, which anyone would have revealed. For each such card, in
    queue order, a card of the same owner's unseen pool is drawn with weight
    ``KEEP_LIKELIHOOD[kind] ** (IP * strength)`` and swapped into its place:
    ``strength`` 1 reads the likelihoods as they are, above 1 more surely, 0
    not at all (a uniform re-deal).
    """
    powers = _keep_powers(strength)
    q = g.queue
    up = g.up
    ip = g.ip
    kind = g.kind
    under = g.under
    slots: list[int] = []
    for c in q:
        while c >= 0:
            if not up[c] and ip[c] and g.ctrl[c] != me and g.owner[c] != me and not g.exposed[c]:
                slots.append(c)
            c = under[c]
    if not slots:
        return
    owner = g.owner
    exposed = g.exposed
    pools: dict[int, list[int]] = {}
    for i, c in enumerate(slots):
        o = owner[c]
        pool = pools.get(o)
        if pool is None:
            pool = pools[o] = []  # the owner's hidden cards
            for d in family_ids(owner, o):
                if not up[d] and not exposed[d]:
                    pool.append(d)
        m = ip[c] if ip[c] < 3 else 3
        likely = powers[m]
        weights = []
        for d in pool:
            weights.append(likely[kind[d]])
        r = rng.random() * sum(weights, 0.0)
        pick = pool[-1]
        for d, w in zip(pool, weights, strict=True):
            r -= w
            if r < 0:
                pick = d
                break
        pool.remove(pick)
        if pick != c:
            _swap_hidden(g, c, pick)
            # ``c`` now lies where ``pick`` was, maybe at a slot still to come.
            for j in range(i + 1, len(slots)):
                if slots[j] == pick:
                    slots[j] = c


def _swap_hidden(g: Game, a: int, b: int) -> None:
    """Exchange two hidden cards of one owner: each takes the other's place, IP and tokens.

    Each card is in at most one place of each kind (a queue top, a hand, under
    one card), so the places are found by C-level searches rather than by
    rebuilding every list.
    """
    _exchange(g.queue, a, b)
    under = g.under
    _exchange(under, a, b)  # the cards lying on them
    under[a], under[b] = under[b], under[a]
    o = g.owner[a]
    _exchange(g.hands[o], a, b)
    _exchange(g.aside[o], a, b)
    for ints in (g.ip, g.zone, g.ctrl, g.bribed_by):
        ints[a], ints[b] = ints[b], ints[a]
    for flags in (g.verdict, g.asleep, g.exposed):
        flags[a], flags[b] = flags[b], flags[a]
    if g.cur == a:
        g.cur = b
    elif g.cur == b:
        g.cur = a


def _exchange(cards: list[int], a: int, b: int) -> None:
    """Where ``a`` is in ``cards`` put ``b``, and the other way round (each appears once at most)."""
    i = cards.index(a) if a in cards else -1
    j = cards.index(b) if b in cards else -1
    if i >= 0:
        cards[i] = b
    if j >= 0:
        cards[j] = a
