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

The sizes above are those of the 31 official kinds (4,224 in all,
:data:`OBSERVATION_SIZE`); every per-kind part grows with each designer's
kind loaded (:func:`observation_layout` is the layout of the kinds loaded
now, :func:`observation_size` its length).

The mask (:func:`action_mask`) marks the legal indices of the fixed action
space (:mod:`oriflamme.encoding.actions`).

Speed matters (an agent encodes every decision): the encoder gathers the
indices of ones and the other values into Python lists and writes them into
the array with two numpy operations.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from typing import Final

import numpy as np
import numpy.typing as npt

from ..engine.cards import KIND_BY_SLUG, KINDS, OFFICIAL_KINDS
from ..engine.registry import DECISION_NAMES
from ..engine.view import SeatView
from ..engine.zones import PHASE_NAMES
from .actions import MAX_PLAYERS, MAX_QUEUE, action_count, legal_indices

__all__ = [
    "LAYOUT",
    "OBSERVATION_SIZE",
    "QUEUE_FEATURES",
    "ObservationLayout",
    "action_mask",
    "mask_of",
    "observation_layout",
    "observation_size",
    "observe",
]

_KIND: Final = KIND_BY_SLUG
_DECISION: Final = {name: d for d, name in enumerate(DECISION_NAMES)}
_PHASE: Final = {name: i for i, name in enumerate(PHASE_NAMES)}
#: Decisions whose first data field is the kind whose ability applies.
_DATA_IS_KIND: Final = frozenset(("eliminate", "target", "mode", "spy", "copy", "fetch", "swap"))
_MAX_ROUNDS: Final = 7


# Offsets inside a queue position's features (those before the kinds).
_Q_PRESENT, _Q_RESOLVED, _Q_CURRENT = 0, 1, 2
_Q_OWNER, _Q_CTRL = 3, 8
_Q_UP, _Q_EXPOSED, _Q_ASLEEP, _Q_VERDICT, _Q_BRIBED = 13, 14, 15, 16, 17
_Q_KIND = 18  # one per kind, then "unknown"


@dataclass(frozen=True, slots=True)
class ObservationLayout:
    """Where everything lies in an observation, for a number of kinds (see the module docstring)."""

    kinds: int
    #: Block name -> (start, end).
    blocks: dict[str, tuple[int, int]]
    #: Length of an observation.
    size: int
    #: Features per queue position, and where its IP, depth and kinds underneath start.
    queue_features: int
    q_ip: int
    q_depth: int
    q_under: int
    #: Features per relative seat.
    seat_features: int

    @classmethod
    def for_kinds(cls, kinds: int) -> ObservationLayout:
        q_ip = _Q_KIND + kinds + 1
        q_under = q_ip + 2
        queue_features = q_under + kinds + 1
        seat_features = 2 + 4 * kinds + 1
        sizes = (
            ("table", 4 + (_MAX_ROUNDS + 1) + 1 + len(PHASE_NAMES) + MAX_PLAYERS + 3 + 1 + MAX_PLAYERS + 9),
            ("recipe", kinds),
            ("scores", MAX_PLAYERS),
            ("decision", len(DECISION_NAMES) + MAX_PLAYERS + MAX_QUEUE + kinds + 2),
            ("queue", MAX_QUEUE * queue_features),
            ("hand", 2 * kinds),
            ("seats", MAX_PLAYERS * seat_features),
        )
        blocks = {}
        at = 0
        for name, size in sizes:
            blocks[name] = (at, at + size)
            at += size
        return cls(kinds, blocks, at, queue_features, q_ip, q_ip + 1, q_under, seat_features)


_layout_for = cache(ObservationLayout.for_kinds)


def observation_layout(kinds: int | None = None) -> ObservationLayout:
    """The layout for ``kinds`` kinds (by default the kinds loaded now: 31 unless a designer's are)."""
    return _layout_for(len(KINDS) if kinds is None else kinds)


def observation_size() -> int:
    """Length of an observation with the kinds loaded now (4,224 with the official kinds alone)."""
    return observation_layout().size


_OFFICIAL: Final = observation_layout(OFFICIAL_KINDS)
#: Block name -> (start, end) in the observation of the 31 official kinds.
LAYOUT: Final = _OFFICIAL.blocks
#: Length of an observation of the 31 official kinds (the shipped network's input).
OBSERVATION_SIZE: Final = _OFFICIAL.size
#: Features per queue position with the 31 official kinds (see the module docstring's ``queue`` row).
QUEUE_FEATURES: Final = _OFFICIAL.queue_features


def observe(view: SeatView) -> npt.NDArray[np.float32]:
    """The observation of ``view``'s seat (see the module docstring for its layout)."""
    me = view.seat
    if me is None:
        raise ValueError("a spectator's view has no seat to observe from")
    n = view.players
    lay = observation_layout()
    kinds = lay.kinds
    blocks = lay.blocks
    queue_features = lay.queue_features
    q_ip, q_depth, q_under = lay.q_ip, lay.q_depth, lay.q_under
    seat_features = lay.seat_features
    ones: list[int] = []
    idx: list[int] = []
    val: list[float] = []

    def rel(s: int) -> int:
        return (s - me) % n

    # table
    t = blocks["table"][0]
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
        ones.append(blocks["recipe"][0] + _KIND[slug])
    # scores
    for s, score in enumerate(view.scores):
        idx.append(blocks["scores"][0] + rel(s))
        val.append(score / 10.0)
    # queue, noting where each known card id lies
    position_of: dict[int, int] = {}
    q_at = blocks["queue"][0]
    resolving = view.phase == "resolve"
    for j, stack in enumerate(view.queue[:MAX_QUEUE]):
        b = q_at + j * queue_features
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
        ones.append(b + _Q_KIND + (kinds if top.kind is None else _KIND[top.kind]))
        if top.ip:
            idx.append(b + q_ip)
            val.append(top.ip / 5.0)
        if top.id is not None:
            position_of[top.id] = j
        if len(stack) > 1:
            idx.append(b + q_depth)
            val.append((len(stack) - 1) / 3.0)
            for card in stack[:-1]:
                ones.append(b + q_under + (kinds if card.kind is None else _KIND[card.kind]))
    # decision
    d = blocks["decision"][0]
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
        if name in _DATA_IS_KIND and 0 <= pending[4] < kinds:
            ones.append(base + pending[4])
        base += kinds
        idx.extend((base, base + 1))
        val.extend((float(view.to_move == me), len(view.legal_actions) / 50.0))
    # own hand and set-aside cards
    counts: dict[int, float] = {}
    hand_at = blocks["hand"][0]
    for card in view.hand:
        if card.kind is not None:
            i = hand_at + _KIND[card.kind]
            counts[i] = counts.get(i, 0.0) + 0.5
    for card in view.aside:
        if card.kind is not None:
            i = hand_at + kinds + _KIND[card.kind]
            counts[i] = counts.get(i, 0.0) + 0.5
    # per seat
    recipe_kinds = [_KIND[slug] for slug in view.recipe]
    for s in range(n):
        b = blocks["seats"][0] + rel(s) * seat_features
        idx.extend((b, b + 1))
        val.extend((view.hand_counts[s] / 16.0, view.aside_counts[s] / 9.0))
        seen: set[int] = set()
        for offset, pile in (
            (2, view.known_hands[s]),
            (2 + kinds, view.discards[s]),
            (2 + 2 * kinds, view.kept[s]),
        ):
            for card in pile:
                if card.kind is not None:
                    k = _KIND[card.kind]
                    i = b + offset + k
                    counts[i] = counts.get(i, 0.0) + 0.5
                    seen.add(k)
        for card in view.twins[s]:
            ones.append(b + 2 + 3 * kinds)
            if card.kind is not None:
                seen.add(_KIND[card.kind])
        if s != me:
            for stack in view.queue:
                for card in stack:
                    if card.owner == s and card.kind is not None:
                        seen.add(_KIND[card.kind])
            unseen = b + 3 + 3 * kinds
            for k in recipe_kinds:
                if k not in seen:
                    ones.append(unseen + k)
    for i, v in counts.items():
        idx.append(i)
        val.append(v)
    obs = np.zeros(lay.size, dtype=np.float32)
    obs[ones] = 1.0
    obs[idx] = val
    return obs


def action_mask(view: SeatView) -> npt.NDArray[np.int8]:
    """1 at every legal index of the fixed action space for ``view``'s seat, 0 elsewhere."""
    return mask_of(legal_indices(view))


def mask_of(indices: Iterable[int]) -> npt.NDArray[np.int8]:
    """The mask with 1 at ``indices`` (an environment that holds the game passes
    ``game_legal_indices(game)``, the same indices without reading the view's cards)."""
    mask = np.zeros(action_count(), dtype=np.int8)
    legal = list(indices)
    if legal:
        mask[legal] = 1
    return mask
