"""The state of one game, with the queries and the primitive moves every rule is made of.

:class:`State` is plain data (flat lists of ints and tuples): per-card arrays
indexed by card id, the queue in resolution order, the piles, the scores, and
the progress of the decision loop (the pending decision and the stack of
continuation frames). Its methods read the state or change it one step at a
time (gain, discard, detach a card, ...); none of them asks a player or
dispatches to a card's behaviour. That is :class:`oriflamme.engine.game.Game`,
which adds the decision loop on top, and the box modules.

Views, events' redaction and the action notation read a ``State``, so they
sit below the game in the import graph.
"""

from __future__ import annotations

from typing import Final

from . import events as ev
from .actions import PLACE_FIRST, PLACE_LAST, PLACE_ON
from .cards import IS_CHARACTER, IS_KEPT, TURNS_DOWN
from .causes import NUM_CAUSES, POSITION
from .events import Event
from .options import RuleOptions
from .registry import DECISION_NAMES, P_DECISION, P_SEAT, Pending
from .zones import COVERED, DISCARD, KEPT, OVER, PLACE, RESOLVE, TOP

_ORDERS = [[tuple((f + i) % n for i in range(n)) for f in range(n)] for n in range(6)]

#: Every attribute of a Game (its state, and what is fixed at setup); also
#: readable when the engine is compiled, where classes have no ``__slots__``.
SLOTS: Final[tuple[str, ...]] = (
    # fixed for the game
    "players", "recipe", "rules", "seed", "kind", "owner", "hand_size",
    # per card
    "ctrl", "up", "ip", "under", "zone", "verdict", "bribed_by", "asleep", "exposed",
    # collections
    "queue", "hands", "aside", "twins", "discards", "kept", "score", "ledger", "verdict_pool",
    # progress
    "round", "first", "phase", "order", "turn", "ptr", "cur", "cur_gone",
    "stack", "pending", "options", "history", "events", "winners", "ledger_shared", "record_events",
)  # fmt: skip


# The same slots by what a copy of the game (Game.clone) does with each; every slot is in one
# group (a test checks it, and that clone treats each group so): adding a slot means naming how
# it is copied.
#: Values a copy shares: fixed for the game, or immutable (ints, strings, tuples, options).
SHARED_SLOTS: Final[tuple[str, ...]] = (
    "players", "recipe", "rules", "seed", "kind", "owner", "hand_size", "verdict_pool", "round", "first",
    "phase", "order", "turn", "ptr", "cur", "cur_gone", "pending", "options", "winners", "record_events",
)  # fmt: skip
#: Flat lists a copy copies.
LIST_SLOTS: Final[tuple[str, ...]] = (
    "ctrl", "up", "ip", "under", "zone", "verdict", "bribed_by", "asleep", "exposed", "queue", "score",
    "stack", "history",
)  # fmt: skip
#: Lists of per-seat lists, each copied.
NESTED_SLOTS: Final[tuple[str, ...]] = ("hands", "aside", "twins", "discards", "kept")
#: Copied their own way: the IP ledger is shared until either game writes to it (``ledger_shared``),
#: and a copy starts with no events of its own.
OWN_WAY_SLOTS: Final[tuple[str, ...]] = ("ledger", "ledger_shared", "events")


#: Slots that are bookkeeping rather than the game: the last apply's events, whether the
#: ledger list is shared with a clone, and whether events are recorded at all. Saves,
#: comparisons and fingerprints leave them out.
TRANSIENT_SLOTS: Final[tuple[str, ...]] = ("events", "ledger_shared", "record_events")


class State:
    """The full state of one game of Oriflamme (see :class:`~oriflamme.engine.game.Game` for its rules).

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
    #: Net IP by cause (gains minus losses): ``ledger[seat * NUM_CAUSES + cause]``; sums to ``score``.
    ledger: list[int]
    #: True while ``ledger`` is shared with a clone: copied on the first write (clones stay cheap).
    ledger_shared: bool
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
    pending: Pending | None
    options: tuple[int, ...]
    history: list[int]
    events: list[Event]
    winners: tuple[int, ...]
    #: Whether rules append :mod:`events <oriflamme.engine.events>` to ``events`` (the default).
    #: Off, the game is played the same (no rule reads an event) and ``apply`` returns an empty
    #: list: for playouts, simulations and training, which read the state and not the story,
    #: at about 9% less time per random game.
    record_events: bool

    VERDICT_TOKENS: Final = 5

    def is_over(self) -> bool:
        return self.phase == OVER

    def current_player(self) -> int:
        """The seat whose decision is pending, or -1 when the game is over."""
        p = self.pending
        return -1 if p is None else p[P_SEAT]

    def legal_actions(self) -> tuple[int, ...]:
        """The legal actions of the pending decision (empty when the game is over)."""
        return self.options

    def decision(self) -> str | None:
        """The name of the pending decision kind (``place``, ``keep_or_reveal``, ``eliminate``, ...)."""
        p = self.pending
        return None if p is None else DECISION_NAMES[p[P_DECISION]]

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

    def set_scores(self, scores: list[int]) -> None:
        """Scores of a position whose history is unknown (built by hand, or dealt by the sampler)."""
        self.score = list(scores)
        self.ledger = [0] * (self.players * NUM_CAUSES)
        self.ledger_shared = False
        for s, n in enumerate(self.score):
            self.ledger[s * NUM_CAUSES + POSITION] = n

    def ledger_row(self, seat: int) -> list[int]:
        """``seat``'s net IP per cause, indexed by cause (a copy)."""
        return self.ledger[seat * NUM_CAUSES : (seat + 1) * NUM_CAUSES]

    def positions_controlled(self, seat: int) -> int:
        """Positions whose top card ``seat`` controls (the tie-break count)."""
        ctrl = self.ctrl
        return sum(1 for c in self.queue if ctrl[c] == seat)

    def returns(self) -> list[float]:
        """Per-seat outcome of a finished game: 1 shared among the winners, 0 for the others."""
        if self.phase != OVER:
            return [0.0] * self.players
        share = 1.0 / len(self.winners)
        return [share if s in self.winners else 0.0 for s in range(self.players)]

    # ------------------------------------------------------------ resolution

    def keep_hidden(self, c: int) -> None:
        self.ip[c] += 1
        if self.record_events:
            self.events.append((ev.KEPT_HIDDEN, self.ctrl[c], c, self.ptr, self.ip[c], 0, 0))
        self.ptr += 1

    def finish(self, c: int) -> None:
        """End of a position's resolution: intrigues leave (or turn down), the pointer moves on."""
        if self.zone[c] == TOP and not IS_CHARACTER[self.kind[c]]:
            k = self.kind[c]
            if IS_KEPT[k]:
                self.keep_card(c)
            elif TURNS_DOWN[k]:
                self.up[c] = False
                self.exposed[c] = True  # everybody saw what it is
                if self.record_events:
                    self.events.append((ev.TURNED_DOWN, self.ctrl[c], c, self.ptr, 0, 0, 1))
            else:
                self.discard(c)
        if not self.cur_gone:
            self.ptr += 1

    # ------------------------------------------------------- primitives

    # Every change of a score goes through these, with its cause (see :mod:`.causes`), so
    # that the ledger always sums to the scores.

    def credit(self, seat: int, n: int, cause: int) -> None:
        """Add ``n`` (negative: take) to ``seat``'s score and ledger, with no event."""
        self.score[seat] += n
        if self.ledger_shared:
            self.ledger = self.ledger[:]
            self.ledger_shared = False
        self.ledger[seat * NUM_CAUSES + cause] += n

    def gain(self, seat: int, n: int, cause: int) -> None:
        if n:
            # credit() inlined: gains are frequent.
            self.score[seat] += n
            if self.ledger_shared:
                self.ledger = self.ledger[:]
                self.ledger_shared = False
            self.ledger[seat * NUM_CAUSES + cause] += n
            if self.record_events:
                self.events.append((ev.GAINED, seat, -1, -1, n, cause, 1))

    def lose(self, seat: int, n: int, cause: int) -> int:
        m = min(n, self.score[seat])
        if m:
            self.score[seat] -= m
            if self.ledger_shared:
                self.ledger = self.ledger[:]
                self.ledger_shared = False
            self.ledger[seat * NUM_CAUSES + cause] -= m
            if self.record_events:
                self.events.append((ev.LOST, seat, -1, -1, m, cause, 1))
        return m

    def steal(self, thief: int, victim: int, n: int, cause: int) -> int:
        m = min(n, self.score[victim])
        if m:
            self.credit(victim, -m, cause)
            self.credit(thief, m, cause)
            if self.record_events:
                self.events.append((ev.STOLEN, thief, -1, -1, m, victim, 1))
        return m

    def pos_of(self, c: int) -> int:
        return self.queue.index(c)

    def neighbours(self, i: int) -> list[int]:
        """Positions adjacent to position ``i``."""
        if i + 1 < len(self.queue):
            return [i - 1, i + 1] if i else [1]
        return [i - 1] if i else []

    def detach(self, c: int, i: int) -> None:
        """Take the top card ``c`` off position ``i`` (uncovering the card below), keeping the pointer right.

        Resolution is positional (docs/rules.md §3): removals before the pointer
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
            if self.record_events:
                self.events.append((ev.IP_OFF_CARD, -1, c, i, self.ip[c], 0, int(self.up[c])))
            self.ip[c] = 0
        self.detach(c, i)
        self.release(c)

    def release(self, c: int) -> None:
        """Return the tokens on a card leaving the queue; its owner controls it again."""
        if self.verdict[c]:
            self.verdict[c] = False
            self.verdict_pool += 1
            if self.record_events:
                self.events.append((ev.VERDICT_RETURNED, -1, c, -1, 0, 0, 1))
        if self.bribed_by[c] >= 0:
            if self.record_events:
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
        if self.record_events:
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
        if self.record_events:
            self.events.append((ev.CARD_KEPT, seat, c, i, ip, 0, 1))

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
        if self.record_events:
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
