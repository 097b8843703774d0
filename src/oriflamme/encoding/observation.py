"""A fixed-size observation of one seat's view, for learning agents, and the legal-action mask.

The observation is a flat ``float32`` vector (:data:`OBSERVATION_SIZE`) made
from :class:`~oriflamme.engine.view.SeatView` alone, so it holds nothing the
seat may not know. Seats are relative to the observer (0 is the observer, 1
the next seat in seat order, ...), padded to five, so that one network plays
every seat of every table size. Its blocks, in order (:data:`LAYOUT` gives each
block's slice):

=============  ===============================================================  =====
block          what                                                             size
=============  ===============================================================  =====
``table``      players (one-hot 2..5), round (one-hot 0..7), rounds left,        39
               phase (place, resolve, over), first player (relative one-hot),
               rule options, verdicts left in the pool, the observer's place
               in this round's placement order and how many have placed
``recipe``     the recipe's kinds (multi-hot)                                      31
``scores``     each relative seat's IP (/ 10)                                      5
``decision``   the pending decision (one-hot), who decides (relative one-hot),     92
               the position of the card deciding or the position a Royal
               Decree moves, the kind whose ability applies
``queue``      per position 0..39: present, resolved, resolving now; owner and    3,360
               controller (relative one-hot); face up, exposed (known though
               face down), asleep, verdict, bribed; kind (one-hot, or unknown);
               IP (/ 5); cards underneath (/ 3) and the kinds among them known
               to the seat (multi-hot) or not
``hand``       own hand and own set-aside cards (counts per kind)                  62
``seats``      per relative seat: cards in hand (/ 16) and set aside (/ 9);      635
               kinds everybody knows to be in its hand, discarded, kept (counts);
               a Twin waiting; kinds of its family not seen yet (0 for oneself)
=============  ===============================================================  =====

The mask (:func:`action_mask`) marks the legal indices of the fixed action
space (:mod:`oriflamme.encoding.actions`).

Speed matters (an agent encodes every decision): the encoder gathers the
indices of ones and the other values into Python lists and writes them into
the array with two numpy operations.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

import numpy as np
import numpy.typing as npt

from ..engine.cards import NUM_KINDS, SLUGS
from ..engine.registry import DECISION_NAMES
from ..engine.view import SeatView
from ..engine.zones import PHASE_NAMES
from .actions import ACTION_COUNT, MAX_PLAYERS, MAX_QUEUE, legal_indices

__all__ = ["LAYOUT", "OBSERVATION_SIZE", "QUEUE_FEATURES", "action_mask", "mask_of", "observe"]

_KIND: Final = {slug: k for k, slug in enumerate(SLUGS)}
_DECISION: Final = {name: d for d, name in enumerate(DECISION_NAMES)}
_PHASE: Final = {name: i for i, name in enumerate(PHASE_NAMES)}
#: Decisions whose first data field is the kind whose ability applies.
_DATA_IS_KIND: Final = frozenset(("eliminate", "target", "mode", "spy", "copy", "fetch", "swap"))
_MAX_ROUNDS: Final = 7


# Offsets inside a queue position's features.
_Q_PRESENT, _Q_RESOLVED, _Q_CURRENT = 0, 1, 2
_Q_OWNER, _Q_CTRL = 3, 8
_Q_UP, _Q_EXPOSED, _Q_ASLEEP, _Q_VERDICT, _Q_BRIBED = 13, 14, 15, 16, 17
_Q_KIND = 18  # 31 kinds, then "unknown" at _Q_KIND + NUM_KINDS
_Q_IP = _Q_KIND + NUM_KINDS + 1
_Q_DEPTH = _Q_IP + 1
_Q_UNDER = _Q_DEPTH + 1  # 31 kinds, then "unknown" at _Q_UNDER + NUM_KINDS
#: Features per queue position (see the module docstring's ``queue`` row): sized by the kinds there are.
QUEUE_FEATURES: Final = _Q_UNDER + NUM_KINDS + 1


def _blocks() -> dict[str, tuple[int, int]]:
    sizes = (
        ("table", 4 + (_MAX_ROUNDS + 1) + 1 + len(PHASE_NAMES) + MAX_PLAYERS + 3 + 1 + MAX_PLAYERS + 9),
        ("recipe", NUM_KINDS),
        ("scores", MAX_PLAYERS),
        ("decision", len(DECISION_NAMES) + MAX_PLAYERS + MAX_QUEUE + NUM_KINDS + 2),
        ("queue", MAX_QUEUE * QUEUE_FEATURES),
        ("hand", 2 * NUM_KINDS),
        ("seats", MAX_PLAYERS * (2 + 4 * NUM_KINDS + 1)),
    )
    out = {}
    at = 0
    for name, size in sizes:
        out[name] = (at, at + size)
        at += size
    return out


#: Block name -> (start, end) in the observation.
LAYOUT: Final = _blocks()
#: Length of an observation.
OBSERVATION_SIZE: Final = LAYOUT["seats"][1]
_SEAT_FEATURES: Final = 2 + 4 * NUM_KINDS + 1

_TABLE: Final = LAYOUT["table"][0]
_RECIPE: Final = LAYOUT["recipe"][0]
_SCORES: Final = LAYOUT["scores"][0]
_DEC: Final = LAYOUT["decision"][0]
_QUEUE: Final = LAYOUT["queue"][0]
_HAND: Final = LAYOUT["hand"][0]
_SEATS: Final = LAYOUT["seats"][0]


def observe(view: SeatView) -> npt.NDArray[np.float32]:
    """The observation of ``view``'s seat (see the module docstring for its layout)."""
    me = view.seat
    if me is None:
        raise ValueError("a spectator's view has no seat to observe from")
    n = view.players
    ones: list[int] = []
    idx: list[int] = []
    val: list[float] = []

    def rel(s: int) -> int:
        return (s - me) % n

    # table
    t = _TABLE
    ones.append(t + n - 2)
    t += 4
    ones.append(t + min(view.round, _MAX_ROUNDS))
    t += _MAX_ROUNDS + 1
    idx.append(t)
    val.append((view.rounds - view.round) / _MAX_ROUNDS)
    t += 1
    ones.append(t + _PHASE[view.phase])
    t += len(PHASE_NAMES)
    ones.append(t + rel(view.first))
    t += MAX_PLAYERS
    rules = view.rules
    idx.extend((t, t + 1, t + 2))
    val.extend(
        (
            rules.get("schemer_gain", 1) - 1.0,
            rules.get("two_player_cards_per_round", 2) / 3.0,
            rules.get("rounds", 6) / _MAX_ROUNDS,
        )
    )
    t += 3
    idx.append(t)
    val.append(view.verdict_pool / 10.0)
    t += 1
    # Where the observer stands in this round's placement order, and how far it has gone.
    order = view.placement_order
    if me in order:
        ones.append(t + order.index(me))
    t += MAX_PLAYERS
    ones.append(t + min(view.placement_turn, 8))
    # recipe
    for slug in view.recipe:
        ones.append(_RECIPE + _KIND[slug])
    # scores
    for s, score in enumerate(view.scores):
        idx.append(_SCORES + rel(s))
        val.append(score / 10.0)
    # queue, noting where each known card id lies
    position_of: dict[int, int] = {}
    q_at = _QUEUE
    resolving = view.phase == "resolve"
    for j, stack in enumerate(view.queue[:MAX_QUEUE]):
        b = q_at + j * QUEUE_FEATURES
        top = stack[-1]
        ones.append(b + _Q_PRESENT)
        if resolving and j < view.pointer:
            ones.append(b + _Q_RESOLVED)
        if resolving and j == view.pointer:
            ones.append(b + _Q_CURRENT)
        ones.append(b + _Q_OWNER + rel(top.owner))
        ones.append(b + _Q_CTRL + rel(top.controller))
        if top.face_up:
            ones.append(b + _Q_UP)
        if top.exposed:
            ones.append(b + _Q_EXPOSED)
        if top.asleep:
            ones.append(b + _Q_ASLEEP)
        if top.verdict:
            ones.append(b + _Q_VERDICT)
        if top.bribed_by is not None:
            ones.append(b + _Q_BRIBED)
        ones.append(b + _Q_KIND + (NUM_KINDS if top.kind is None else _KIND[top.kind]))
        if top.ip:
            idx.append(b + _Q_IP)
            val.append(top.ip / 5.0)
        if top.id is not None:
            position_of[top.id] = j
        if len(stack) > 1:
            idx.append(b + _Q_DEPTH)
            val.append((len(stack) - 1) / 3.0)
            for card in stack[:-1]:
                ones.append(b + _Q_UNDER + (NUM_KINDS if card.kind is None else _KIND[card.kind]))
    # decision
    d = _DEC
    pending = view.pending
    if pending is not None and view.decision is not None:
        name = view.decision
        ones.append(d + _DECISION[name])
        ones.append(d + len(DECISION_NAMES) + rel(view.to_move))
        base = d + len(DECISION_NAMES) + MAX_PLAYERS
        actor = pending[2]
        if name == "decree_dest":
            if 0 <= pending[4] < MAX_QUEUE:
                ones.append(base + pending[4])
        elif actor >= 0 and actor in position_of:
            ones.append(base + position_of[actor])
        elif name == "keep_or_reveal" and resolving and view.pointer < MAX_QUEUE:
            ones.append(base + view.pointer)
        base += MAX_QUEUE
        if name in _DATA_IS_KIND and 0 <= pending[4] < NUM_KINDS:
            ones.append(base + pending[4])
        base += NUM_KINDS
        idx.extend((base, base + 1))
        val.extend((float(view.to_move == me), len(view.legal_actions) / 50.0))
    # own hand and set-aside cards
    counts: dict[int, float] = {}
    for card in view.hand:
        if card.kind is not None:
            i = _HAND + _KIND[card.kind]
            counts[i] = counts.get(i, 0.0) + 0.5
    for card in view.aside:
        if card.kind is not None:
            i = _HAND + NUM_KINDS + _KIND[card.kind]
            counts[i] = counts.get(i, 0.0) + 0.5
    # per seat
    recipe_kinds = [_KIND[slug] for slug in view.recipe]
    for s in range(n):
        b = _SEATS + rel(s) * _SEAT_FEATURES
        idx.extend((b, b + 1))
        val.extend((view.hand_counts[s] / 16.0, view.aside_counts[s] / 9.0))
        seen: set[int] = set()
        for offset, pile in (
            (2, view.known_hands[s]),
            (2 + NUM_KINDS, view.discards[s]),
            (2 + 2 * NUM_KINDS, view.kept[s]),
        ):
            for card in pile:
                if card.kind is not None:
                    k = _KIND[card.kind]
                    i = b + offset + k
                    counts[i] = counts.get(i, 0.0) + 0.5
                    seen.add(k)
        for card in view.twins[s]:
            ones.append(b + 2 + 3 * NUM_KINDS)
            if card.kind is not None:
                seen.add(_KIND[card.kind])
        if s != me:
            for stack in view.queue:
                for card in stack:
                    if card.owner == s and card.kind is not None:
                        seen.add(_KIND[card.kind])
            unseen = b + 3 + 3 * NUM_KINDS
            for k in recipe_kinds:
                if k not in seen:
                    ones.append(unseen + k)
    for i, v in counts.items():
        idx.append(i)
        val.append(v)
    obs = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    obs[ones] = 1.0
    obs[idx] = val
    return obs


def action_mask(view: SeatView) -> npt.NDArray[np.int8]:
    """1 at every legal index of the fixed action space for ``view``'s seat, 0 elsewhere."""
    return mask_of(legal_indices(view))


def mask_of(indices: Iterable[int]) -> npt.NDArray[np.int8]:
    """The mask with 1 at ``indices`` (an environment that holds the game passes
    ``game_legal_indices(game)``, the same indices without reading the view's cards)."""
    mask = np.zeros(ACTION_COUNT, dtype=np.int8)
    legal = list(indices)
    if legal:
        mask[legal] = 1
    return mask
