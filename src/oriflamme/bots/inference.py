"""Reading the deal from how cards were played: opponents' face-down cards that carry IP.

The sampler (:mod:`oriflamme.engine.sampler`) deals every unseen card
uniformly. A search then re-deals the cards that were kept hidden with a bias
towards the kinds people keep hidden (see :func:`infer`). Kept apart from the
search loop (:mod:`oriflamme.bots.ismcts`), which calls it once per iteration.
"""

from __future__ import annotations

import random

from ..engine.cards import OFFICIAL_KINDS, SLUGS
from ..engine.game import Game
from ..engine.layout import family_ids
from ..engine.zones import ASIDE, COVERED, HAND, TOP
from .heuristic import KEEP_LIKELIHOOD

__all__ = ["FITTED_KEEP_RATE", "KEEP_TABLES", "Inference", "infer", "learn_keep_rate", "swap_hidden"]


#: How often the ``ismcts:normal`` bots kept a card of each kind hidden when it resolved, over the
#: keep-or-reveal decisions of the committed ``master`` runs (``docs/measurements/*-ismcts-master-
#: vs-normal.jsonl.gz``, 400 games per box; ``tools/fit_keep_rates.py --python``). Searches keep
#: characters far more often than the heuristic's guess of a casual player (``KEEP_LIKELIHOOD``,
#: 0.2 to 0.35): 0.48 to 0.61 of the time on base, 0.43 to 0.72 in Ablaze (a Prince as often as a
#: Plot), 0.34 to 0.50 in Alliance.
FITTED_KEEP_RATE: dict[str, float] = {
    "archer": 0.57, "soldier": 0.6, "spy": 0.5, "heir": 0.59, "shapeshifter": 0.61, "lord": 0.48,
    "assassination": 0.53, "royal-decree": 0.65, "ambush": 0.82, "conspiracy": 0.81, "prince": 0.72,
    "queen": 0.43, "cutthroat": 0.59, "apothecary": 0.52, "felon": 0.71, "schemer": 0.59,
    "impersonation": 0.6, "plot": 0.71, "trap": 0.66, "bribery": 0.61, "empress": 0.36, "fanatic": 0.38,
    "informant": 0.49, "diplomat": 0.5, "deserter": 0.34, "judge": 0.43, "insurrection": 0.65,
    "extortion": 0.65, "infiltration": 0.28, "agreement": 0.73,
}  # fmt: skip

#: The keep likelihoods the inference may read, by name (``SearchLevel.keeps``): the heuristic's
#: guess, or the rates measured above (a kind never measured keeps its guess).
KEEP_TABLES: dict[str, list[float]] = {
    "guess": KEEP_LIKELIHOOD,
    "fitted": [FITTED_KEEP_RATE.get(SLUGS[k], KEEP_LIKELIHOOD[k]) for k in range(OFFICIAL_KINDS)]
    + KEEP_LIKELIHOOD[OFFICIAL_KINDS:],
}


def learn_keep_rate(kind: int) -> None:
    """A designer's kind's keep likelihood (set by its hints) in every table, measured ones included."""
    for table in KEEP_TABLES.values():
        table[kind] = KEEP_LIKELIHOOD[kind]
    _KEEP_POWERS.clear()


#: Per (table, strength) (see :func:`infer`): ``likelihood[kind] ** (m * strength)`` by ``m`` (IP on
#: the card, capped at 3), then kind.
_KEEP_POWERS: dict[tuple[str, float], list[list[float]]] = {}


def _keep_powers(keeps: str, strength: float) -> list[list[float]]:
    powers = _KEEP_POWERS.get((keeps, strength))
    if powers is None:
        table = KEEP_TABLES[keeps]
        powers = _KEEP_POWERS[(keeps, strength)] = [[x ** (m * strength) for x in table] for m in range(4)]
    return powers


def infer(g: Game, me: int, rng: random.Random, strength: float = 1.0, keeps: str = "guess") -> None:
    """Re-deal opponents' face-down cards that carry IP according to how they were played.

    The sampler deals every unseen card uniformly. But a card that has been
    kept hidden (one IP per keep) is more likely a Conspiracy or an Ambush
    than a Queen, which anyone would have revealed. For each such card, in
    queue order, a card of the same owner's unseen pool is drawn with weight
    ``KEEP_LIKELIHOOD[kind] ** (IP * strength)`` and swapped into its place:
    ``strength`` 1 reads the likelihoods as they are, above 1 more surely, 0
    not at all (a uniform re-deal). ``keeps`` names the likelihoods
    (:data:`KEEP_TABLES`).
    """
    Inference(g, me, strength, keeps)(g, rng)


class Inference:
    """:func:`infer` for every deal of one seat's view, which a search makes thousands of.

    Where the kept cards lie (their positions in the queue) and which cards of
    each owner are hidden are the view's, the same in every deal of it: only
    which hidden card lies where changes. They are read once, from ``g``, a
    deal of the view; each call then re-deals another deal of the same view
    exactly as ``infer(deal, me, rng, strength, keeps)`` would.
    """

    __slots__ = ("_places", "_hidden", "_powers")

    def __init__(self, g: Game, me: int, strength: float = 1.0, keeps: str = "guess") -> None:
        slots, self._places = _kept_cards(g, me)
        self._powers = _keep_powers(keeps, strength)
        owner = g.owner
        up = g.up
        exposed = g.exposed
        #: Per owner of a kept card: its hidden cards, by id.
        self._hidden: dict[int, list[int]] = {}
        for c in slots:
            o = owner[c]
            if o not in self._hidden:
                self._hidden[o] = [d for d in family_ids(owner, o) if not up[d] and not exposed[d]]

    def __call__(self, g: Game, rng: random.Random) -> None:
        places = self._places
        if not places:
            return
        q = g.queue
        under = g.under
        slots = []
        for i, depth in places:
            c = q[i]
            while depth:
                c = under[c]
                depth -= 1
            slots.append(c)
        _redeal(g, slots, rng, self._powers, self._hidden)


def _kept_cards(g: Game, me: int) -> tuple[list[int], list[tuple[int, int]]]:
    """The opponents' face-down cards that carry IP, in queue order (the top of a stack first),
    and where each lies: its position in the queue and how deep in the stack."""
    q = g.queue
    up = g.up
    ip = g.ip
    under = g.under
    ctrl = g.ctrl
    owner = g.owner
    exposed = g.exposed
    slots: list[int] = []
    places: list[tuple[int, int]] = []
    for i, c in enumerate(q):
        depth = 0
        while c >= 0:
            if ip[c] and not up[c] and ctrl[c] != me and owner[c] != me and not exposed[c]:
                slots.append(c)
                places.append((i, depth))
            c = under[c]
            depth += 1
    return slots, places


def _redeal(
    g: Game,
    slots: list[int],
    rng: random.Random,
    powers: list[list[float]],
    hidden: dict[int, list[int]],
) -> None:
    """Re-deal each of ``slots`` in turn from its owner's ``hidden`` cards, drawn by their keep
    likelihoods (see :func:`infer`)."""
    owner = g.owner
    ip = g.ip
    kind = g.kind
    pools: dict[int, list[int]] = {}
    for i, c in enumerate(slots):
        o = owner[c]
        pool = pools.get(o)
        if pool is None:
            pool = pools[o] = hidden[o][:]
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
            swap_hidden(g, c, pick)
            # ``c`` now lies where ``pick`` was, maybe at a slot still to come.
            for j in range(i + 1, len(slots)):
                if slots[j] == pick:
                    slots[j] = c


def swap_hidden(g: Game, a: int, b: int) -> None:
    """Exchange two hidden cards of one owner: each takes the other's place, IP and tokens.

    A hidden card lies in one place, which its zone names: a queue top, under
    another card, in a hand or set aside. Both places are found first, then
    filled, so that two cards of one list swap rightly.
    """
    la, ia = _place_of(g, a)
    lb, ib = _place_of(g, b)
    if la is not None:
        la[ia] = b
    if lb is not None:
        lb[ib] = a
    under = g.under
    under[a], under[b] = under[b], under[a]  # the cards lying under them
    for ints in (g.ip, g.zone, g.ctrl, g.bribed_by):
        ints[a], ints[b] = ints[b], ints[a]
    for flags in (g.verdict, g.asleep, g.exposed):
        flags[a], flags[b] = flags[b], flags[a]
    if g.cur == a:
        g.cur = b
    elif g.cur == b:
        g.cur = a


def _place_of(g: Game, c: int) -> tuple[list[int] | None, int]:
    """The list and index holding ``c`` where a hidden card lies (None: in no such list)."""
    z = g.zone[c]
    if z == TOP:
        cards = g.queue
    elif z == COVERED:
        cards = g.under  # the card lying on it holds it as its ``under``
    elif z == HAND:
        cards = g.hands[g.owner[c]]
    elif z == ASIDE:
        cards = g.aside[g.owner[c]]
    else:
        return None, -1
    return cards, cards.index(c)
