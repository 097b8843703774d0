"""The rules engine: one game's complete state and the decision loop.

A :class:`Game` is plain data (flat lists of ints and tuples) plus methods.
The loop follows OpenSpiel: :meth:`Game.current_player`,
:meth:`Game.legal_actions`, :meth:`Game.apply`. Every choice a player makes is
an action; choices inside an ability are *pending decisions* stored as tuples
of ints, and work waiting for a decision is kept on a stack of continuation
frames, also tuples of ints. So a game clones with a few list copies and
serializes to JSON at any decision point.

The state itself, its queries and its primitive moves are in
:mod:`oriflamme.engine.state`; card behaviour lives in the box modules
(:mod:`oriflamme.engine.boxes`, registered when :mod:`oriflamme.engine` is
imported). This module owns the decision loop, the round structure, revealing
and eliminating (which dispatch to the cards' behaviour) and setup. It performs
no I/O and builds no display text.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from . import causes
from . import events as ev
from .action_text import action_text_or_code
from .actions import (
    ARG_MASK,
    KEEP_ACTION,
    PLACE_FIRST,
    PLACE_ON,
    REVEAL_ACTION,
    SHIFT,
)
from .cards import (
    AGREEMENT,
    INFILTRATION,
    IS_CHARACTER,
    REVEAL_TAKES_IP,
)
from .errors import GameOverError, IllegalActionError, SetupError
from .events import Event
from .layout import END_CODES, FIRST_CODES, ON_CODES, below, checked_asides, draw, layout, set_blank
from .options import RuleOptions
from .outcome import Outcome, outcome, winners_of
from .recipes import parse_recipe, validate_recipe
from .registry import (
    ABILITY,
    CAN_REVEAL,
    CONTINUATIONS,
    D_KEEP_OR_REVEAL,
    D_PLACE,
    DECISION_NAMES,
    F_CODE,
    HANDLERS,
    K_FINISH,
    ON_ELIMINATED,
    P_ACTOR,
    P_DECISION,
    P_SEAT,
)
from .state import State
from .view import Reveal, SeatView, final_reveal, seat_view
from .zones import ASIDE, COVERED, OVER, PLACE, RESOLVE, TOP

_KEEP_OR_REVEAL = (KEEP_ACTION, REVEAL_ACTION)
_KEEP_ONLY = (KEEP_ACTION,)
_DEFAULT_RULES = RuleOptions()


class Game(State):
    """The full state of one game of Oriflamme, and its rules.

    Seats are ``0 .. players-1`` and also name the families (in the 2-player
    variant each player's family has two colours' worth of cards). The queue
    is stored in resolution order; "left" and "right" are a display matter.
    """

    __slots__ = ()

    # ------------------------------------------------------------------ setup

    @classmethod
    def new(
        cls,
        players: int = 4,
        deck: str | Sequence[int] = "base",
        seed: int | None = None,
        first_player: int | None = None,
        rules: RuleOptions | None = None,
        record_events: bool = True,
    ) -> Game:
        """Deal a new game. The seed decides the set-aside cards and, if not given, the first player.

        ``deck`` is a preset name, ``random``, a comma-separated list of card
        slugs, or a sequence of kind ids. A game is fully determined by these
        arguments and the list of actions applied to it. ``record_events=False``
        plays the same game without its event log (see ``State.record_events``).
        """
        if seed is None:
            seed = random.SystemRandom().randrange(2**63)
        recipe = parse_recipe(deck, seed) if isinstance(deck, str) else validate_recipe(tuple(deck))
        g = cls._blank(players, recipe, rules or _DEFAULT_RULES, seed)
        g.record_events = record_events
        bits = random.Random(seed).getrandbits
        if first_player is None:
            first_player = below(bits, players)
        elif not 0 <= first_player < players:
            raise SetupError(f"first player must be a seat from 0 to {players - 1}, got {first_player}")
        asides = [draw(bits, cards, len(cards) - g.hand_size) for cards in layout(players, recipe)[2]]
        g._deal(first_player, asides)
        return g

    @classmethod
    def deal_from(
        cls,
        players: int,
        recipe: Sequence[int],
        first_player: int,
        aside: Sequence[Sequence[int]],
        rules: RuleOptions | None = None,
        record_events: bool = True,
    ) -> Game:
        """A game dealt explicitly: round one's first player and each seat's set-aside card ids.

        For callers that draw the deal themselves (an OpenSpiel chance node);
        :meth:`new` draws the same deal from a seed. Each seat sets aside
        cards of its own family (not a Twin), as many as its hand leaves over
        (:func:`dealt_cards` gives the candidates). The game has no seed.
        ``record_events`` as in :meth:`new`.
        """
        recipe = validate_recipe(tuple(recipe))
        g = cls._blank(players, recipe, rules or _DEFAULT_RULES, None)
        g.record_events = record_events
        if not 0 <= first_player < players:
            raise SetupError(f"first player must be a seat from 0 to {players - 1}, got {first_player}")
        asides = checked_asides(players, recipe, g.hand_size, aside)
        g._deal(first_player, asides)
        return g

    def _deal(self, first_player: int, asides: list[list[int]]) -> None:
        """Set the cards aside, everything else in hand, and run to the first decision."""
        zone = self.zone
        hands = self.hands  # every dealt card, from _blank
        for s, aside in enumerate(asides):
            self.aside[s] = aside
            hand = hands[s]
            for c in aside:
                hand.remove(c)
                zone[c] = ASIDE
        self.first = first_player
        self._start_round()
        self._run()

    @classmethod
    def _blank(cls, players: int, recipe: tuple[int, ...], rules: RuleOptions, seed: int | None) -> Game:
        """A game with every card dealt into its owner's hand (twins aside) and round 0."""
        g = cls()
        set_blank(g, players, recipe, rules, seed)
        return g

    def view(self, seat: int | None) -> SeatView:
        """What ``seat`` may know (``None``: a spectator); see :mod:`oriflamme.engine.view`."""
        return seat_view(self, seat)

    def final_reveal(self) -> Reveal:
        """Every card by name once the game is over (ValueError before); see :func:`.view.final_reveal`."""
        return final_reveal(self)

    def outcome(self) -> Outcome:
        """Scores, ranks, winners, how a tie was broken and each seat's IP by cause; see :mod:`.outcome`."""
        return outcome(self)

    def clone(self) -> Game:
        """An independent copy (cheap: flat list copies; fixed data is shared).

        Written out slot by slot for speed (it runs once per simulated deal), as the groups of
        :mod:`.state` say: ``SHARED_SLOTS`` shared, ``LIST_SLOTS`` and ``NESTED_SLOTS`` copied,
        ``OWN_WAY_SLOTS`` their own way; ``tests/engine/test_clone.py`` holds it to them."""
        g = Game()
        g.players = self.players
        g.recipe = self.recipe
        g.rules = self.rules
        g.seed = self.seed
        g.kind = self.kind
        g.owner = self.owner
        g.hand_size = self.hand_size
        g.ctrl = self.ctrl[:]
        g.up = self.up[:]
        g.ip = self.ip[:]
        g.under = self.under[:]
        g.zone = self.zone[:]
        g.verdict = self.verdict[:]
        g.bribed_by = self.bribed_by[:]
        g.asleep = self.asleep[:]
        g.exposed = self.exposed[:]
        g.queue = self.queue[:]
        g.hands = [h[:] for h in self.hands]
        g.aside = [h[:] for h in self.aside]
        g.twins = [h[:] for h in self.twins]
        g.discards = [h[:] for h in self.discards]
        g.kept = [h[:] for h in self.kept]
        g.score = self.score[:]
        # Shared until either game writes to it (see State.credit): most clones never gain IP
        # before they are dropped, or gain only after many other changes.
        g.ledger = self.ledger
        g.ledger_shared = self.ledger_shared = True
        g.verdict_pool = self.verdict_pool
        g.round = self.round
        g.first = self.first
        g.phase = self.phase
        g.order = self.order
        g.turn = self.turn
        g.ptr = self.ptr
        g.cur = self.cur
        g.cur_gone = self.cur_gone
        g.stack = self.stack[:]
        g.pending = self.pending
        g.options = self.options
        g.history = self.history[:]
        g.events = []
        g.record_events = self.record_events
        g.winners = self.winners
        return g

    # ------------------------------------------------------------ the loop

    def apply(self, action: int) -> list[Event]:
        """Apply a legal action and run the rules until the next decision; return the events.

        An illegal action raises :class:`IllegalActionError` and changes nothing. With
        ``record_events`` off the list is empty.
        """
        p = self.pending
        if p is None:
            raise GameOverError("the game is over: no action can be applied")
        if action not in self.options:
            raise IllegalActionError(self._why_illegal(action))
        self.history.append(action)
        events: list[Event] = []
        self.events = events
        self.pending = None
        if action == KEEP_ACTION:
            # The most frequent decision of all, inlined (see keep_hidden).
            c = p[P_ACTOR]
            ip = self.ip
            ip[c] += 1
            if self.record_events:
                events.append((ev.KEPT_HIDDEN, p[P_SEAT], c, self.ptr, ip[c], 0, 0))
            self.ptr += 1
        elif action == REVEAL_ACTION:
            # Only a keep-or-reveal decision offers it.
            self.reveal(p[P_ACTOR], p[P_SEAT])
        else:
            HANDLERS[p[P_DECISION]](self, p, action)
        self._run()
        return events

    def _why_illegal(self, action: int) -> str:
        p = self.pending
        assert p is not None
        return (
            f"{action_text_or_code(self, action)!r} is not legal now: the pending decision is "
            f"{DECISION_NAMES[p[P_DECISION]]!r} for p{p[P_SEAT] + 1}, whose legal actions are "
            + ", ".join(repr(action_text_or_code(self, a)) for a in self.options)
        )

    def _run(self) -> None:
        """Advance the rules until a player must decide or the game ends."""
        stack = self.stack
        while self.pending is None:
            if stack:
                frame = stack.pop()
                if frame[F_CODE] == K_FINISH:  # the most frequent frame, without the table
                    self.finish(frame[1])
                else:
                    CONTINUATIONS[frame[F_CODE]](self, frame)
                continue
            phase = self.phase
            if phase == RESOLVE:
                # Fast path for the common case, a plain face-down card at the pointer.
                q = self.queue
                i = self.ptr
                if i < len(q):
                    c = q[i]
                    if not self.up[c] and not self.asleep[c] and CAN_REVEAL[self.kind[c]] is None:
                        self.cur = c
                        self.cur_gone = False
                        seat = self.ctrl[c]
                        self.pending = (D_KEEP_OR_REVEAL, seat, c, seat, -1, -1)
                        self.options = _KEEP_OR_REVEAL
                        return
                self._resolve_next()
            elif phase == PLACE:
                self._ask_place()
            else:
                return

    def ask(
        self, decision: int, seat: int, actor: int, ctrl: int, a: int, b: int, options: Sequence[int]
    ) -> None:
        """Record a pending decision; a decision with a single option is taken at once.

        Forced choices are not decisions: they are applied without asking, so
        histories and search trees hold only real choices.
        """
        pending = (decision, seat, actor, ctrl, a, b)
        if len(options) == 1:
            HANDLERS[decision](self, pending, options[0])
        else:
            self.pending = pending
            self.options = tuple(options)

    def ask_every_time(
        self, decision: int, seat: int, actor: int, ctrl: int, a: int, b: int, options: Sequence[int]
    ) -> None:
        """Record a pending decision even when it has a single option.

        For choices whose existence or number of options depends on cards
        other seats cannot see (docs/rules.md §11, "silent choices stay silent"):
        answering a one-option question at once would tell everybody which
        case it was, so the player is asked every time.
        """
        self.pending = (decision, seat, actor, ctrl, a, b)
        self.options = tuple(options)

    # ------------------------------------------------------- round structure

    def _start_round(self) -> None:
        self.round += 1
        self.set_order()
        n = self.players
        if self.record_events:
            self.events.append((ev.ROUND_STARTED, self.first, -1, -1, self.round, 0, 1))
        for s in range(n):
            if not self.kept[s]:
                continue
            income = sum(self.ip[c] for c in self.kept[s] if self.kind[c] == AGREEMENT)
            if income and any(self.ctrl[c] == s for c in self.queue):
                self.credit(s, income, AGREEMENT)
                if self.record_events:
                    self.events.append((ev.AGREEMENT_INCOME, s, -1, -1, income, 0, 1))

    def _ask_place(self) -> None:
        seat = self.order[self.turn]
        cards = self.hands[seat]
        if self.players == 2:
            # Two copies of a kind (2-player variant) are one choice.
            kind = self.kind
            seen = 0
            distinct = []
            for c in cards:
                bit = 1 << kind[c]
                if not seen & bit:
                    seen |= bit
                    distinct.append(c)
            cards = distinct
        q = self.queue
        # The hottest list in the engine. Plain loops over precomputed action codes: for
        # lists this short they beat comprehensions and map/chain pipelines (CPython 3.11,
        # and mypyc). Card-major order: each card's two ends, then each card on each
        # position of the seat's own, left to right.
        opts: list[int] = []
        if q:
            for c in cards:
                opts += END_CODES[c]
            if self.round > 1:
                ctrl = self.ctrl
                own: list[int] = []
                for i, c in enumerate(q):
                    if ctrl[c] == seat:
                        own.append(i)
                if own:
                    for c in cards:
                        row = ON_CODES[c]
                        for i in own:
                            opts.append(row[i])
        else:
            for c in cards:
                opts.append(FIRST_CODES[c])
        if not opts:
            # Only a built position can leave a hand empty; that player just passes.
            self._next_placer()
            return
        self.pending = (D_PLACE, seat, -1, seat, -1, -1)
        self.options = tuple(opts)

    def _next_placer(self) -> None:
        self.turn += 1
        if self.turn == len(self.order):
            self.phase = RESOLVE
            self.ptr = 0
            self.cur = -1
            self.cur_gone = False

    def _end_round(self) -> None:
        if self.record_events:
            self.events.append((ev.ROUND_ENDED, -1, -1, -1, self.round, 0, 1))
        if True in self.asleep:
            self.asleep = [False] * len(self.kind)
        self.cur = -1
        self.cur_gone = False
        self.ptr = 0
        if self.round >= self.rules.rounds:
            self._end_game()
            return
        self.first = (self.first + 1) % self.players
        self._start_round()

    def _end_game(self) -> None:
        for s in range(self.players):
            bonus = sum(self.ip[c] for c in self.kept[s] if self.kind[c] == AGREEMENT)
            if bonus:
                self.credit(s, bonus, AGREEMENT)
                if self.record_events:
                    self.events.append((ev.AGREEMENT_INCOME, s, -1, -1, bonus, 0, 1))
        self.phase = OVER
        self.pending = None
        self.options = ()
        self.winners = winners_of(self.score, self.positions_controlled)[0]
        mask = 0
        for s in self.winners:
            mask |= 1 << s
        if self.record_events:
            self.events.append((ev.GAME_ENDED, -1, -1, -1, mask, 0, 1))

    def _resolve_next(self) -> None:
        q = self.queue
        p = self.ptr
        n = len(q)
        asleep = self.asleep
        while p < n and asleep[q[p]]:
            p += 1
        self.ptr = p
        if p >= n:
            self._end_round()
            return
        c = q[p]
        self.cur = c
        self.cur_gone = False
        seat = self.ctrl[c]
        if self.up[c]:
            k = self.kind[c]
            frame = (K_FINISH, c)
            stack = self.stack
            stack.append(frame)
            if self.record_events:
                self.events.append((ev.ABILITY, seat, c, p, k, 0, 1))
            fn = ABILITY[k]
            if fn is not None:
                fn(self, c, seat, False)
            if self.pending is None and stack[-1] is frame:
                # No decision was needed: finish now rather than through the loop.
                stack.pop()
                if not IS_CHARACTER[k]:
                    self.finish(c)
                elif not self.cur_gone:
                    self.ptr += 1
        else:
            can = CAN_REVEAL[self.kind[c]]
            self.pending = (D_KEEP_OR_REVEAL, seat, c, seat, -1, -1)
            # Even with keeping as the only choice (an Insurrection without IP) the
            # owner is asked, as at the table: answering at once would tell the others.
            self.options = _KEEP_ONLY if can is not None and not can(self, c) else _KEEP_OR_REVEAL

    def reveal(self, c: int, seat: int) -> None:
        """Turn the card at the pointer face up, pay its IP if it pays them, apply its ability."""
        self.up[c] = True
        self.exposed[c] = False
        k = self.kind[c]
        taken = 0
        if REVEAL_TAKES_IP[k]:
            taken = self.ip[c]
            if taken:
                self.ip[c] = 0
                self.credit(seat, taken, causes.REVEALED_IP)
        if self.record_events:
            self.events.append((ev.REVEALED, seat, c, self.ptr, taken, 0, 1))
        frame = (K_FINISH, c)
        stack = self.stack
        stack.append(frame)
        fn = ABILITY[k]
        if fn is not None:
            fn(self, c, seat, True)
        if self.pending is None and stack[-1] is frame:
            # No decision was needed: finish now rather than through the loop.
            stack.pop()
            self.finish(c)

    def eliminate(self, v: int, attacker: int, actl: int, reward: bool = True) -> None:
        """``actl``'s card ``attacker`` eliminates the top card ``v`` (docs/rules.md §4).

        The eliminator gains 1 (Infiltration adds 2 for a face-down victim),
        the victim is revealed, its IP go back, it goes to its owner's pile,
        then its own reaction (Ambush, Trap, Queen, ...) applies.
        """
        vctrl = self.ctrl[v]
        was_down = not self.up[v]
        i = self.queue.index(v)
        if self.record_events:
            self.events.append((ev.ELIMINATED, actl, v, i, 0, attacker, 1))
        self.up[v] = True
        if reward:
            infiltrations = 0
            if was_down and self.kept[actl]:
                infiltrations = sum(1 for c in self.kept[actl] if self.kind[c] == INFILTRATION)
            # Two gains when a kept Infiltration adds its bonus, so that each is told with its cause.
            self.gain(actl, 1, causes.ELIMINATING)
            if infiltrations:
                self.gain(actl, 2 * infiltrations, INFILTRATION)
        self.leave_queue(v, i)
        self.to_discard(v)
        react = ON_ELIMINATED[self.kind[v]]
        if react is not None:
            react(self, v, attacker, actl, vctrl)


# ----------------------------------------------------- core handlers


def _on_place(g: Game, p: tuple[int, ...], action: int) -> None:
    # Hot path: placement happens outside resolution, so no pointer bookkeeping.
    seat = p[P_SEAT]
    verb = action >> SHIFT
    arg = action & ARG_MASK
    q = g.queue
    if verb == PLACE_ON:
        c = arg >> 8
        i = arg & 255
        b = q[i]
        g.under[c] = b
        g.zone[b] = COVERED
        q[i] = c
    elif verb == PLACE_FIRST:
        c = arg
        i = 0
        q.insert(0, c)
    else:
        c = arg
        i = len(q)
        q.append(c)
    hand = g.hands[seat]
    hand.remove(c)
    g.zone[c] = TOP
    up = g.up
    known = up[c]
    if not known:
        for h in hand:
            if up[h]:
                known = True
                break
    if known:
        # A hand card everybody knows (an Informant taken back) is no longer known
        # once its owner plays any card face down: it may be the one just played.
        # The Informant's swap does the same (boxes/alliance.py).
        up[c] = False
        for h in hand:
            up[h] = False
    if g.record_events:
        g.events.append((ev.PLACED, seat, c, i, 0, int(verb == PLACE_ON), 0))
    t = g.turn + 1
    g.turn = t
    if t == len(g.order):
        g.phase = RESOLVE
        g.ptr = 0
        g.cur = -1
        g.cur_gone = False


def _on_keep_or_reveal(g: Game, p: tuple[int, ...], action: int) -> None:
    if action == KEEP_ACTION:
        g.keep_hidden(p[P_ACTOR])
    else:
        g.reveal(p[P_ACTOR], p[P_SEAT])


def _finish(g: Game, frame: tuple[int, ...]) -> None:
    _, card = frame
    g.finish(card)


HANDLERS[D_PLACE] = _on_place
HANDLERS[D_KEEP_OR_REVEAL] = _on_keep_or_reveal
CONTINUATIONS[K_FINISH] = _finish
