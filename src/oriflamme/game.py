"""The rules engine: one game's complete state and the decision loop.

A :class:`Game` is plain data (flat lists of ints and tuples) plus methods.
The loop follows OpenSpiel: :meth:`Game.current_player`,
:meth:`Game.legal_actions`, :meth:`Game.apply`. Every choice a player makes is
an action; choices inside an ability are *pending decisions* stored as tuples
of ints, and work waiting for a decision is kept on a stack of continuation
frames, also tuples of ints. So a game clones with a few list copies and
serializes to JSON at any decision point.

Card behaviour lives in the box modules (:mod:`oriflamme.boxes`); this module
owns the queue, the resolution pointer, elimination and discard, scoring and
the round structure. It performs no I/O and builds no display text.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from itertools import chain, compress
from operator import itemgetter
from typing import TYPE_CHECKING, Final

from . import events as ev
from .actions import (
    ARG_MASK,
    KEEP_ACTION,
    PLACE_FIRST,
    PLACE_LAST,
    PLACE_ON,
    REVEAL_ACTION,
    SHIFT,
)
from .cards import (
    AGREEMENT,
    INFILTRATION,
    IS_CHARACTER,
    IS_KEPT,
    REVEAL_TAKES_IP,
    TURNS_DOWN,
    TWIN,
)
from .errors import GameOverError, IllegalActionError, SetupError
from .events import Event

if TYPE_CHECKING:
    from .view import SeatView
from .options import RuleOptions
from .recipes import family_kinds, parse_recipe, validate_recipe
from .registry import (
    ABILITY,
    CAN_REVEAL,
    CONTINUATIONS,
    D_KEEP_OR_REVEAL,
    D_PLACE,
    DECISION_NAMES,
    HANDLERS,
    K_FINISH,
    ON_ELIMINATED,
)
from .zones import ASIDE, COVERED, DISCARD, HAND, KEPT, OVER, PLACE, RESOLVE, TOP, TWIN_ASIDE

_PF = PLACE_FIRST << SHIFT
_PL = PLACE_LAST << SHIFT
_PO = PLACE_ON << SHIFT
_KEEP_OR_REVEAL = (KEEP_ACTION, REVEAL_ACTION)
_KEEP_ONLY = (KEEP_ACTION,)
_DEFAULT_RULES = RuleOptions()
_MAX_CARDS = 64  # ids < 64 and positions < 64 (2-player variant: 44 cards, 24+ positions)
_FIRST = [_PF | c for c in range(_MAX_CARDS)]
_ENDS = [(_PF | c, _PL | c) for c in range(_MAX_CARDS)]
_ON = [[_PO | c << 8 | i for c in range(_MAX_CARDS)] for i in range(_MAX_CARDS)]  # by position, card
_ON_CARD = [[_PO | c << 8 | i for i in range(_MAX_CARDS)] for c in range(_MAX_CARDS)]  # by card, position
_ORDERS = [[tuple((f + i) % n for i in range(n)) for f in range(n)] for n in range(6)]


@functools.lru_cache(maxsize=256)
def _layout(
    players: int, recipe: tuple[int, ...]
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """Card ids of a table: kind and owner of each, and per seat its dealt cards and its Twins.

    A family's cards are contiguous ids in recipe order (two copies of the
    recipe in the 2-player variant), so an id tells only owner and kind.
    """
    fam = family_kinds(recipe)
    copies = 2 if players == 2 else 1
    kinds: list[int] = []
    owners: list[int] = []
    for s in range(players):
        for _ in range(copies):
            kinds.extend(fam)
            owners.extend([s] * len(fam))
    per_seat = tuple(
        tuple(c for c in range(len(kinds)) if owners[c] == s and kinds[c] != TWIN) for s in range(players)
    )
    twins = tuple(
        tuple(c for c in range(len(kinds)) if owners[c] == s and kinds[c] == TWIN) for s in range(players)
    )
    return tuple(kinds), tuple(owners), per_seat, twins


#: Every attribute of a Game (its state, and what is fixed at setup); also
#: readable when the engine is compiled, where classes have no ``__slots__``.
SLOTS: Final[tuple[str, ...]] = (
    # fixed for the game
    "players", "recipe", "rules", "seed", "kind", "owner", "hand_size",
    # per card
    "ctrl", "up", "ip", "under", "zone", "verdict", "bribed_by", "asleep", "exposed",
    # collections
    "queue", "hands", "aside", "twins", "discards", "kept", "score", "verdict_pool",
    # progress
    "round", "first", "phase", "order", "turn", "ptr", "cur", "cur_gone",
    "stack", "pending", "options", "history", "events", "winners",
)  # fmt: skip


class Game:
    """The full state of one game of Oriflamme, and its rules.

    Seats are ``0 .. players-1`` and also name the families (in the 2-player
    variant each player's family has two colours' worth of cards). The queue
    is stored in resolution order; "left" and "right" are a display matter.
    """

    __slots__ = SLOTS

    players: int
    recipe: tuple[int, ...]
    rules: RuleOptions
    seed: int | None
    kind: tuple[int, ...]
    owner: tuple[int, ...]
    hand_size: int
    ctrl: list[int]
    up: list[bool]
    ip: list[int]
    under: list[int]
    zone: list[int]
    verdict: list[bool]
    bribed_by: list[int]
    asleep: list[bool]
    #: A face-down card whose identity everybody knows (an Insurrection turned back down).
    exposed: list[bool]
    queue: list[int]
    hands: list[list[int]]
    aside: list[list[int]]
    twins: list[list[int]]
    discards: list[list[int]]
    kept: list[list[int]]
    score: list[int]
    verdict_pool: int
    round: int
    first: int
    phase: int
    order: tuple[int, ...]
    turn: int
    ptr: int
    cur: int
    cur_gone: bool
    stack: list[tuple[int, ...]]
    pending: tuple[int, int, int, int, int, int] | None
    options: tuple[int, ...]
    history: list[int]
    events: list[Event]
    winners: tuple[int, ...]

    VERDICT_TOKENS: Final = 5

    # ------------------------------------------------------------------ setup

    @classmethod
    def new(
        cls,
        players: int = 4,
        deck: str | Sequence[int] = "base",
        seed: int | None = None,
        first_player: int | None = None,
        rules: RuleOptions | None = None,
    ) -> Game:
        """Deal a new game. The seed decides the set-aside cards and, if not given, the first player.

        ``deck`` is a preset name, ``random``, a comma-separated list of card
        slugs, or a sequence of kind ids. A game is fully determined by these
        arguments and the list of actions applied to it.
        """
        if seed is None:
            seed = random.SystemRandom().randrange(2**63)
        recipe = parse_recipe(deck, seed) if isinstance(deck, str) else validate_recipe(tuple(deck))
        g = cls._blank(players, recipe, rules or _DEFAULT_RULES, seed)
        rng = random.Random(seed)
        if first_player is None:
            first_player = rng.randrange(players)
        elif not 0 <= first_player < players:
            raise SetupError(f"first player must be a seat from 0 to {players - 1}, got {first_player}")
        zone = g.zone
        for s, cards in enumerate(_layout(players, recipe)[2]):
            aside = sorted(rng.sample(cards, len(cards) - g.hand_size))
            g.aside[s] = aside
            g.hands[s] = [c for c in cards if c not in aside]
            for c in aside:
                zone[c] = ASIDE
        g.first = first_player
        g._start_round()
        g._run()
        return g

    @classmethod
    def _blank(cls, players: int, recipe: tuple[int, ...], rules: RuleOptions, seed: int | None) -> Game:
        """A game with every card dealt into its owner's hand (twins aside) and round 0."""
        if not 2 <= players <= 5:
            raise SetupError(f"Oriflamme is played by 2 to 5 players (2 with the variant), got {players}")
        kinds, owners, cards, twins = _layout(players, recipe)
        n = len(kinds)
        g = cls()
        g.players = players
        g.recipe = recipe
        g.rules = rules
        g.seed = seed
        g.kind = kinds
        g.owner = owners
        g.hand_size = 16 if players == 2 else 7
        per_round = rules.two_player_cards_per_round if players == 2 else 1
        if rules.rounds * per_round > g.hand_size:
            raise SetupError(
                f"{rules.rounds} rounds of {per_round} card(s) need {rules.rounds * per_round} cards, "
                f"but a hand holds {g.hand_size}"
            )
        g.ctrl = list(owners)
        g.up = [False] * n
        g.ip = [0] * n
        g.under = [-1] * n
        g.zone = [HAND] * n
        g.verdict = [False] * n
        g.bribed_by = [-1] * n
        g.asleep = [False] * n
        g.exposed = [False] * n
        g.queue = []
        g.hands = [list(h) for h in cards]
        g.aside = [[] for _ in range(players)]
        g.twins = [list(t) for t in twins]
        for t in twins:
            for c in t:
                g.zone[c] = TWIN_ASIDE
                g.up[c] = True
        g.discards = [[] for _ in range(players)]
        g.kept = [[] for _ in range(players)]
        g.score = [1] * players
        g.verdict_pool = cls.VERDICT_TOKENS
        g.round = 0
        g.first = 0
        g.phase = PLACE
        g.order = ()
        g.turn = 0
        g.ptr = 0
        g.cur = -1
        g.cur_gone = False
        g.stack = []
        g.pending = None
        g.options = ()
        g.history = []
        g.events = []
        g.winners = ()
        return g

    def view(self, seat: int | None) -> SeatView:
        """What ``seat`` may know (``None``: a spectator); see :mod:`oriflamme.view`."""
        from .view import seat_view

        return seat_view(self, seat)

    def clone(self) -> Game:
        """An independent copy (cheap: flat list copies; fixed data is shared)."""
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
        g.winners = self.winners
        return g

    # ------------------------------------------------------------ the loop

    def is_over(self) -> bool:
        return self.phase == OVER

    def current_player(self) -> int:
        """The seat whose decision is pending, or -1 when the game is over."""
        p = self.pending
        return -1 if p is None else p[1]

    def legal_actions(self) -> tuple[int, ...]:
        """The legal actions of the pending decision (empty when the game is over)."""
        return self.options

    def decision(self) -> str | None:
        """The name of the pending decision kind (``place``, ``keep_or_reveal``, ``eliminate``, ...)."""
        p = self.pending
        return None if p is None else DECISION_NAMES[p[0]]

    def apply(self, action: int) -> list[Event]:
        """Apply a legal action and run the rules until the next decision; return the events.

        An illegal action raises :class:`IllegalActionError` and changes nothing.
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
            c = p[2]
            ip = self.ip
            ip[c] += 1
            events.append((ev.KEPT_HIDDEN, p[1], c, self.ptr, ip[c], 0, 0))
            self.ptr += 1
        else:
            HANDLERS[p[0]](self, p, action)
        self._run()
        return events

    def _why_illegal(self, action: int) -> str:
        from .notation import action_text_or_code

        p = self.pending
        assert p is not None
        return (
            f"{action_text_or_code(self, action)!r} is not legal now: the pending decision is "
            f"{DECISION_NAMES[p[0]]!r} for p{p[1] + 1}, whose legal actions are "
            + ", ".join(repr(action_text_or_code(self, a)) for a in self.options)
        )

    def _run(self) -> None:
        """Advance the rules until a player must decide or the game ends."""
        stack = self.stack
        while self.pending is None:
            if stack:
                frame = stack.pop()
                CONTINUATIONS[frame[0]](self, frame)
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

    # ------------------------------------------------------- round structure

    def set_order(self) -> None:
        """The placement order of the round: clockwise from the first player (alternating with 2)."""
        n = self.players
        f = self.first
        if n == 2:
            self.order = (f, 1 - f) * self.rules.two_player_cards_per_round
        else:
            self.order = _ORDERS[n][f]
        self.turn = 0
        self.phase = PLACE

    def _start_round(self) -> None:
        self.round += 1
        self.set_order()
        n = self.players
        self.events.append((ev.ROUND_STARTED, self.first, -1, -1, self.round, 0, 1))
        for s in range(n):
            if not self.kept[s]:
                continue
            income = sum(self.ip[c] for c in self.kept[s] if self.kind[c] == AGREEMENT)
            if income and any(self.ctrl[c] == s for c in self.queue):
                self.score[s] += income
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
        # The hottest list in the engine: built with C-level iteration over
        # precomputed action codes rather than Python comprehensions.
        if q:
            opts = list(chain.from_iterable(map(_ENDS.__getitem__, cards)))
            if self.round > 1:
                own = list(compress(range(len(q)), map(seat.__eq__, map(self.ctrl.__getitem__, q))))
                if len(own) == 1:
                    opts += map(_ON[own[0]].__getitem__, cards)
                elif own:
                    opts += chain.from_iterable(map(itemgetter(*own), map(_ON_CARD.__getitem__, cards)))
        else:
            opts = list(map(_FIRST.__getitem__, cards))
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
                self.score[s] += bonus
                self.events.append((ev.AGREEMENT_INCOME, s, -1, -1, bonus, 0, 1))
        self.phase = OVER
        self.pending = None
        self.options = ()
        self.winners = self.ranking_winners()
        mask = 0
        for s in self.winners:
            mask |= 1 << s
        self.events.append((ev.GAME_ENDED, -1, -1, -1, mask, 0, 1))

    def positions_controlled(self, seat: int) -> int:
        """Positions whose top card ``seat`` controls (the tie-break count)."""
        ctrl = self.ctrl
        return sum(1 for c in self.queue if ctrl[c] == seat)

    def ranking_winners(self) -> tuple[int, ...]:
        """Most IP wins; ties go to most controlled positions; a remaining tie is shared."""
        best = max(self.score)
        tied = [s for s in range(self.players) if self.score[s] == best]
        if len(tied) == 1:
            return tuple(tied)
        counts = {s: self.positions_controlled(s) for s in tied}
        top = max(counts.values())
        return tuple(s for s in tied if counts[s] == top)

    def returns(self) -> list[float]:
        """Per-seat outcome of a finished game: 1 shared among the winners, 0 for the others."""
        if self.phase != OVER:
            return [0.0] * self.players
        share = 1.0 / len(self.winners)
        return [share if s in self.winners else 0.0 for s in range(self.players)]

    # ------------------------------------------------------------ resolution

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

    def keep_hidden(self, c: int) -> None:
        self.ip[c] += 1
        self.events.append((ev.KEPT_HIDDEN, self.ctrl[c], c, self.ptr, self.ip[c], 0, 0))
        self.ptr += 1

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
                self.score[seat] += taken
        self.events.append((ev.REVEALED, seat, c, self.ptr, taken, 0, 1))
        self.stack.append((K_FINISH, c))
        fn = ABILITY[k]
        if fn is not None:
            fn(self, c, seat, True)

    def finish(self, c: int) -> None:
        """End of a position's resolution: intrigues leave (or turn down), the pointer moves on."""
        if self.zone[c] == TOP and not IS_CHARACTER[self.kind[c]]:
            k = self.kind[c]
            if IS_KEPT[k]:
                self.keep_card(c)
            elif TURNS_DOWN[k]:
                self.up[c] = False
                self.exposed[c] = True  # everybody saw what it is
                self.events.append((ev.TURNED_DOWN, self.ctrl[c], c, self.ptr, 0, 0, 1))
            else:
                self.discard(c)
        if not self.cur_gone:
            self.ptr += 1

    # ------------------------------------------------------- primitives

    def gain(self, seat: int, n: int) -> None:
        if n:
            self.score[seat] += n
            self.events.append((ev.GAINED, seat, -1, -1, n, 0, 1))

    def lose(self, seat: int, n: int) -> int:
        m = min(n, self.score[seat])
        if m:
            self.score[seat] -= m
            self.events.append((ev.LOST, seat, -1, -1, m, 0, 1))
        return m

    def steal(self, thief: int, victim: int, n: int) -> int:
        m = min(n, self.score[victim])
        if m:
            self.score[victim] -= m
            self.score[thief] += m
            self.events.append((ev.STOLEN, thief, -1, -1, m, victim, 1))
        return m

    def pos_of(self, c: int) -> int:
        return self.queue.index(c)

    def neighbours(self, i: int) -> list[int]:
        """Positions adjacent to position ``i``."""
        out = []
        if i > 0:
            out.append(i - 1)
        if i + 1 < len(self.queue):
            out.append(i + 1)
        return out

    def detach(self, c: int, i: int) -> None:
        """Take the top card ``c`` off position ``i`` (uncovering the card below), keeping the pointer right.

        Resolution is positional (RULES.md §3): removals before the pointer
        shift it back; if the resolving card itself leaves, the card that
        takes its place (uncovered or slid in) is the next to resolve.
        """
        q = self.queue
        b = self.under[c]
        if b >= 0:
            q[i] = b
            self.under[c] = -1
            self.zone[b] = TOP
            if c == self.cur:
                self.cur_gone = True
        else:
            del q[i]
            if self.phase == RESOLVE:
                if i < self.ptr:
                    self.ptr -= 1
                elif c == self.cur:
                    self.cur_gone = True

    def insert(self, i: int, c: int) -> None:
        """Put ``c`` as a new position at index ``i``; one inserted before the pointer shifts it."""
        self.queue.insert(i, c)
        self.zone[c] = TOP
        if self.phase == RESOLVE and (i < self.ptr or (i == self.ptr and not self.cur_gone)):
            self.ptr += 1

    def stack_onto(self, i: int, c: int) -> None:
        """Put ``c`` on top of position ``i``."""
        b = self.queue[i]
        self.under[c] = b
        self.zone[b] = COVERED
        self.queue[i] = c
        self.zone[c] = TOP

    def leave_queue(self, c: int, i: int) -> None:
        """``c`` leaves the queue: IP on it go back to the supply, tokens return, control reverts."""
        if self.ip[c]:
            self.events.append((ev.IP_OFF_CARD, -1, c, i, self.ip[c], 0, int(self.up[c])))
            self.ip[c] = 0
        self.detach(c, i)
        self.release(c)

    def release(self, c: int) -> None:
        """Return the tokens on a card leaving the queue; its owner controls it again."""
        if self.verdict[c]:
            self.verdict[c] = False
            self.verdict_pool += 1
            self.events.append((ev.VERDICT_RETURNED, -1, c, -1, 0, 0, 1))
        if self.bribed_by[c] >= 0:
            self.events.append((ev.BRIBE_RETURNED, self.bribed_by[c], c, -1, 0, 0, 1))
            self.bribed_by[c] = -1
        self.ctrl[c] = self.owner[c]
        self.asleep[c] = False
        self.exposed[c] = False

    def to_discard(self, c: int) -> None:
        self.up[c] = True
        self.zone[c] = DISCARD
        self.discards[self.owner[c]].append(c)

    def discard(self, c: int) -> None:
        """Discard a top card from the queue: not an elimination (no IP, no reactions)."""
        i = self.queue.index(c)
        self.events.append((ev.DISCARDED, self.ctrl[c], c, i, 0, 0, 1))
        self.up[c] = True
        self.leave_queue(c, i)
        self.to_discard(c)

    def discard_attacker(self, attacker: int) -> None:
        """Ambush and Trap discard the eliminating card if it is still in play."""
        if attacker >= 0 and self.zone[attacker] == TOP:
            self.discard(attacker)

    def keep_card(self, c: int) -> None:
        """An intrigue leaves the queue into its controller's kept area, IP and all (Agreement)."""
        seat = self.ctrl[c]
        i = self.queue.index(c)
        ip = self.ip[c]
        self.ip[c] = 0
        self.leave_queue(c, i)
        self.ip[c] = ip
        self.zone[c] = KEPT
        self.kept[seat].append(c)
        self.events.append((ev.CARD_KEPT, seat, c, i, ip, 0, 1))

    def eliminate(self, v: int, attacker: int, actl: int, reward: bool = True) -> None:
        """``actl``'s card ``attacker`` eliminates the top card ``v`` (RULES.md §4).

        The eliminator gains 1 (Infiltration adds 2 for a face-down victim),
        the victim is revealed, its IP go back, it goes to its owner's pile,
        then its own reaction (Ambush, Trap, Queen, ...) applies.
        """
        vctrl = self.ctrl[v]
        was_down = not self.up[v]
        i = self.queue.index(v)
        self.events.append((ev.ELIMINATED, actl, v, i, 0, attacker, 1))
        self.up[v] = True
        if reward:
            bonus = 1
            if was_down and self.kept[actl]:
                bonus += 2 * sum(1 for c in self.kept[actl] if self.kind[c] == INFILTRATION)
            self.gain(actl, bonus)
        self.leave_queue(v, i)
        self.to_discard(v)
        react = ON_ELIMINATED[self.kind[v]]
        if react is not None:
            react(self, v, attacker, actl, vctrl)

    def place_card(self, seat: int, c: int, verb: int, i: int) -> None:
        """Put card ``c`` into the queue by the placement rules (either end, or onto position ``i``)."""
        if verb == PLACE_FIRST:
            self.insert(0, c)
            pos = 0
        elif verb == PLACE_LAST:
            pos = len(self.queue)
            self.insert(pos, c)
        else:
            self.stack_onto(i, c)
            pos = i
        self.ctrl[c] = seat
        code = ev.TWIN_PLACED if self.up[c] else ev.PLACED
        self.events.append((code, seat, c, pos, 0, int(verb == PLACE_ON), int(self.up[c])))

    # ---------------------------------------------------------- queries

    def top_is_up(self, i: int) -> bool:
        return self.up[self.queue[i]]

    def is_stack(self, i: int) -> bool:
        return self.under[self.queue[i]] >= 0

    def stack_cards(self, i: int) -> list[int]:
        """The cards of position ``i``, bottom first."""
        out = []
        c = self.queue[i]
        while c >= 0:
            out.append(c)
            c = self.under[c]
        out.reverse()
        return out


# ----------------------------------------------------- core handlers


def _on_place(g: Game, p: tuple[int, ...], action: int) -> None:
    # Hot path: placement happens outside resolution, so no pointer bookkeeping.
    seat = p[1]
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
    if True in map(up.__getitem__, hand) or up[c]:
        # A hand card everybody knows (an Informant taken back) is no longer known
        # once its owner plays any card face down: it may be the one just played.
        up[c] = False
        for h in hand:
            up[h] = False
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
        g.keep_hidden(p[2])
    else:
        g.reveal(p[2], p[1])


def _finish(g: Game, frame: tuple[int, ...]) -> None:
    g.finish(frame[1])


HANDLERS[D_PLACE] = _on_place
HANDLERS[D_KEEP_OR_REVEAL] = _on_keep_or_reveal
CONTINUATIONS[K_FINISH] = _finish

# The boxes register their cards on import.
from . import boxes  # noqa: E402,F401
