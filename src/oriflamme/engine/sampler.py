"""Deal the cards a seat cannot see, consistently with its view (for search bots).

Information-set search needs full games that the searching seat cannot tell
apart from the real one. :func:`sample_game` takes a :class:`SeatView` and
returns a :class:`Game` in which every card the view shows is where the view
shows it, and every hidden card (opponents' hands, set-aside cards and
face-down cards) is dealt uniformly at random from that owner's unseen cards.
"""

from __future__ import annotations

import random

from .boxes.ablaze import fetch_options, twin_options
from .boxes.alliance import swap_options
from .cards import KIND_BY_SLUG
from .game import Game
from .options import RuleOptions
from .recipes import validate_recipe
from .registry import (
    D_FETCH,
    D_KEEP_OR_REVEAL,
    D_PLACE,
    D_SWAP,
    D_TWIN,
    P_ACTOR,
    P_CTRL,
    P_DATA,
    P_DATA2,
    P_DECISION,
    P_SEAT,
)
from .view import CardView, SeatView
from .zones import ASIDE, COVERED, DISCARD, HAND, KEPT, PHASE_NAMES, RESOLVE, TOP, TWIN_ASIDE


def sample_game(view: SeatView, rng: random.Random) -> Game:
    """A full game consistent with ``view``, hidden cards dealt at random."""
    recipe = validate_recipe(tuple(KIND_BY_SLUG[s] for s in view.recipe))
    g = Game._blank(view.players, recipe, RuleOptions.from_dict(dict(view.rules)), None)
    n = len(g.kind)
    seen = {cv.id for cv in _all_cards(view) if cv.id is not None}
    unseen: list[list[int]] = [[] for _ in range(view.players)]
    for c in range(n):
        if c not in seen:
            unseen[g.owner[c]].append(c)
    for pool in unseen:
        rng.shuffle(pool)

    def deal(cv: CardView) -> int:
        c = cv.id if cv.id is not None else unseen[cv.owner].pop()
        g.ctrl[c] = cv.controller
        g.up[c] = cv.face_up
        g.ip[c] = cv.ip
        g.verdict[c] = cv.verdict
        g.bribed_by[c] = -1 if cv.bribed_by is None else cv.bribed_by
        g.asleep[c] = cv.asleep
        g.exposed[c] = cv.exposed
        return c

    for position in view.queue:
        below = -1
        for cv in position:
            c = deal(cv)
            g.zone[c] = TOP
            if below >= 0:
                g.under[c] = below
                g.zone[below] = COVERED
            below = c
        g.queue.append(below)
    for s in range(view.players):
        g.discards[s] = [_place(g, deal(cv), DISCARD) for cv in view.discards[s]]
        g.kept[s] = [_place(g, deal(cv), KEPT) for cv in view.kept[s]]
        g.twins[s] = [_place(g, deal(cv), TWIN_ASIDE) for cv in view.twins[s]]
        if s == view.seat:
            g.hands[s] = [_place(g, deal(cv), HAND) for cv in view.hand]
            g.aside[s] = [_place(g, deal(cv), ASIDE) for cv in view.aside]
        else:
            known = [_place(g, deal(cv), HAND) for cv in view.known_hands[s]]
            hidden = view.hand_counts[s] - len(known)
            g.hands[s] = sorted(known + [_place(g, unseen[s].pop(), HAND) for _ in range(hidden)])
            g.aside[s] = sorted(_place(g, unseen[s].pop(), ASIDE) for _ in range(view.aside_counts[s]))
    g.set_scores(list(view.scores))
    g.verdict_pool = view.verdict_pool
    g.round = view.round
    g.first = view.first
    g.phase = PHASE_NAMES.index(view.phase)
    g.order = view.placement_order
    g.turn = view.placement_turn
    g.ptr = view.pointer
    g.cur_gone = view.resolving_left
    g.stack = list(view.frames)
    g.winners = view.winners
    if view.resolving is not None:
        g.cur = view.resolving
    elif g.phase == RESOLVE and g.ptr < len(g.queue) and not g.cur_gone:
        g.cur = g.queue[g.ptr]  # a face-down card this seat cannot name is resolving
    _restore_pending(g, view)
    return g


def _place(g: Game, c: int, zone: int) -> int:
    g.zone[c] = zone
    return c


def _all_cards(view: SeatView) -> list[CardView]:
    out = [cv for position in view.queue for cv in position]
    out += view.hand
    out += view.aside
    for group in (view.known_hands, view.twins, view.discards, view.kept):
        for cards in group:
            out += cards
    return out


def _restore_pending(g: Game, view: SeatView) -> None:
    p = view.pending
    if p is None:
        return
    decision, seat = p[P_DECISION], p[P_SEAT]
    if seat == view.seat:
        g.pending = (p[P_DECISION], p[P_SEAT], p[P_ACTOR], p[P_CTRL], p[P_DATA], p[P_DATA2])
        g.options = view.legal_actions
        return
    # Another seat decides: recompute what depends on its hidden cards.
    if decision in (D_PLACE, D_KEEP_OR_REVEAL):
        g._run()  # the placement or keep/reveal question is asked afresh
        return
    g.pending = (p[P_DECISION], p[P_SEAT], p[P_ACTOR], p[P_CTRL], p[P_DATA], p[P_DATA2])
    # The options of these two depend on the dealt hidden cards; the question
    # itself is asked whatever they are (RULES.md §11), so it stands.
    if decision == D_SWAP:
        g.options = swap_options(g, p[P_CTRL])
    elif decision == D_FETCH:
        g.options = fetch_options(g, p[P_CTRL], p[P_DATA])
    elif decision == D_TWIN:
        g.options = tuple(twin_options(g, p[P_CTRL], p[P_DATA]))
    else:
        g.options = view.legal_actions  # public: positions, kinds or modes only
