"""Deal the cards a seat cannot see, consistently with its view (for search bots).

Information-set search needs full games that the searching seat cannot tell
apart from the real one. :func:`sample_game` takes a :class:`SeatView` and
returns a :class:`Game` in which every card the view shows is where the view
shows it, and every hidden card (opponents' hands, set-aside cards and
face-down cards) is dealt uniformly at random from that owner's unseen cards.


:class:`Determinizer` does the same many times over for one view, cheaply.
"""

from __future__ import annotations

import random

from .boxes.ablaze import fetch_options, twin_options
from .boxes.alliance import swap_options
from .cards import KIND_BY_SLUG
from .game import Game
from .layout import shuffle
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
    P_KIND,
    P_SEAT,
    P_TWIN_CARD,
)
from .view import CardView, SeatView
from .zones import ASIDE, COVERED, DISCARD, HAND, KEPT, PHASE_NAMES, RESOLVE, TOP, TWIN_ASIDE


def sample_game(view: SeatView, rng: random.Random) -> Game:
    """A full game consistent with ``view``, hidden cards dealt at random."""
    return Determinizer(view).sample(rng)


#: One card of a queue position: a known card id, or (-1, its view) for a hidden one.
_Slot = tuple[int, CardView]


class Determinizer:
    """Deals a view's hidden cards again and again: what a search does at every iteration.

    Everything that does not depend on the deal (the known cards, the scores,
    the phase and the pending decision) is put into a template game once;
    :meth:`sample` copies it and deals the hidden cards into their places, in
    the same order and with the same random numbers as a single
    :func:`sample_game` call, so a search plays the same moves either way.
    ``record_events=False`` deals games without an event log (see
    ``State.record_events``): a search reads only their state.
    """

    __slots__ = ("view", "template", "_unseen", "_mixed", "_hidden_hands", "_own_pending", "_cur_hidden")

    def __init__(self, view: SeatView, record_events: bool = True) -> None:
        self.view = view
        recipe = validate_recipe(tuple(KIND_BY_SLUG[s] for s in view.recipe))
        g = Game._blank(view.players, recipe, RuleOptions.from_dict(dict(view.rules)), None)
        g.record_events = record_events
        n = len(g.kind)
        seen = {cv.id for cv in _all_cards(view) if cv.id is not None}
        #: Per owner, the ids of the cards this seat has not seen, in card order.
        self._unseen: list[list[int]] = [[] for _ in range(view.players)]
        for c in range(n):
            if c not in seen:
                self._unseen[g.owner[c]].append(c)

        def known(cv: CardView) -> int:
            c = cv.id
            assert c is not None
            _set(g, c, cv)
            return c

        # Queue positions: wholly known ones are laid out now; a position holding a
        # hidden card is laid out at each deal (its card ids change).
        self._mixed: list[tuple[int, list[_Slot]]] = []
        for i, position in enumerate(view.queue):
            if all(cv.id is not None for cv in position):
                below = -1
                for cv in position:
                    c = known(cv)
                    g.zone[c] = TOP
                    if below >= 0:
                        g.under[c] = below
                        g.zone[below] = COVERED
                    below = c
                g.queue.append(below)
            else:
                slots = [(known(cv) if cv.id is not None else -1, cv) for cv in position]
                self._mixed.append((i, slots))
                g.queue.append(-1)
        #: Per other seat: its known hand cards and how many hidden ones it holds, and its set-aside count.
        self._hidden_hands: list[tuple[int, list[int], int, int]] = []
        for s in range(view.players):
            g.discards[s] = [_place(g, known(cv), DISCARD) for cv in view.discards[s]]
            g.kept[s] = [_place(g, known(cv), KEPT) for cv in view.kept[s]]
            g.twins[s] = [_place(g, known(cv), TWIN_ASIDE) for cv in view.twins[s]]
            if s == view.seat:
                g.hands[s] = [_place(g, known(cv), HAND) for cv in view.hand]
                g.aside[s] = [_place(g, known(cv), ASIDE) for cv in view.aside]
            else:
                cards = [_place(g, known(cv), HAND) for cv in view.known_hands[s]]
                g.hands[s] = cards
                g.aside[s] = []
                hidden = view.hand_counts[s] - len(cards)
                self._hidden_hands.append((s, cards, hidden, view.aside_counts[s]))
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
        #: A face-down card this seat cannot name is resolving: which one depends on the deal.
        self._cur_hidden = False
        if view.resolving is not None:
            g.cur = view.resolving
        elif g.phase == RESOLVE and g.ptr < len(g.queue) and not g.cur_gone:
            self._cur_hidden = True
        p = view.pending
        #: The decision is this seat's own: it does not depend on the deal.
        self._own_pending = p is None or p[P_SEAT] == view.seat
        if self._own_pending:
            _restore_pending(g, view)
        self.template = g

    def sample(self, rng: random.Random) -> Game:
        """A full game consistent with the view, its hidden cards dealt at random."""
        g = self.template.clone()
        # Plain loops rather than comprehensions on this path: each iteration of a search deals.
        bits = rng.getrandbits
        unseen = []
        for cards in self._unseen:
            pool = cards[:]
            shuffle(bits, pool)
            unseen.append(pool)
        zone = g.zone
        under = g.under
        queue = g.queue
        for i, slots in self._mixed:
            below = -1
            for c, cv in slots:
                if c < 0:
                    c = unseen[cv.owner].pop()
                    _set(g, c, cv)
                zone[c] = TOP
                if below >= 0:
                    under[c] = below
                    zone[below] = COVERED
                below = c
            queue[i] = below
        for s, cards, hidden, aside in self._hidden_hands:
            pool = unseen[s]
            hand = cards[:]
            for _ in range(hidden):
                c = pool.pop()
                zone[c] = HAND
                hand.append(c)
            hand.sort()
            g.hands[s] = hand
            put = []
            for _ in range(aside):
                c = pool.pop()
                zone[c] = ASIDE
                put.append(c)
            put.sort()
            g.aside[s] = put
        if self._cur_hidden:
            g.cur = queue[g.ptr]
        if not self._own_pending:
            _restore_pending(g, self.view)
        return g


def _set(g: Game, c: int, cv: CardView) -> None:
    """Card ``c`` as the view shows it (control, face, IP and tokens)."""
    g.ctrl[c] = cv.controller
    g.up[c] = cv.face_up
    g.ip[c] = cv.ip
    g.verdict[c] = cv.verdict
    g.bribed_by[c] = -1 if cv.bribed_by is None else cv.bribed_by
    g.asleep[c] = cv.asleep
    g.exposed[c] = cv.exposed


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
    # itself is asked whatever they are (docs/rules.md §11), so it stands.
    if decision == D_SWAP:
        g.options = swap_options(g, p[P_CTRL])
    elif decision == D_FETCH:
        g.options = fetch_options(g, p[P_CTRL], p[P_KIND])
    elif decision == D_TWIN:
        g.options = tuple(twin_options(g, p[P_CTRL], p[P_TWIN_CARD]))
    else:
        g.options = view.legal_actions  # public: positions, kinds or modes only
