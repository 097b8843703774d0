"""One table in play: its game, its lock, its connections, its bots, timers and take-backs.

What its people say besides their moves (chat, leaving, conceding, names) is the mixin
:class:`~.seat_talk.SeatTalk`; its bots, stand-ins and turn clocks, :class:`~.table_bots.TableBots`;
what it needs of the process that holds it is
:class:`~.table_host.TableHost`.

The order is fixed: an action's row is written to the store *before* the game
changes and before anybody hears of it, so a crash never loses an action a
player has seen. Every message to a connection is built from that
connection's seat view and from events redacted for that seat
(:mod:`oriflamme.web.protocol`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Iterable
from typing import Any

from ..engine.action_text import action_text, parse_action
from ..engine.errors import OriflammeError
from ..engine.game import Game
from ..notation.replay import ACTIONS_VERSION
from . import table_messages
from .chat import HOST_SEAT, TableChat
from .client import Client
from .protocol import (
    ActMessage,
    ProtocolError,
    dumps,
    error_message,
)
from .seat_talk import SeatTalk
from .store import StoredTable, TokenRef
from .store_errors import LeaseLost
from .table_bots import TableBots
from .table_game import TAKEBACK, _ends_game, rematch_message, replay_with_events
from .table_host import MOVED, PRESENCE_GAP, Presence, TableHost
from .take_backs import TakeBacks

log = logging.getLogger("oriflamme.web")


class LiveTable(SeatTalk, TableBots):
    """One table in play: the game, its lock, its connections, and its bots."""

    def __init__(self, registry: TableHost[LiveTable], stored: StoredTable) -> None:
        self.registry = registry
        self.record = stored.record
        self.game, self.events, self.actions = replay_with_events(
            stored.record, stored.actions, stored.actions_version
        )
        #: Whether a move was ever taken back at this table (such a game is not rated).
        self.taken_back = any(row.startswith(TAKEBACK + " ") for row in stored.actions)
        #: Whether the store still holds an older action sequence (rewritten on load).
        self.needs_upgrade = stored.actions_version != ACTIONS_VERSION
        #: Rows stored for this table (actions and take-backs): the state number clients see, which
        #: only grows. An older sequence is rewritten on load as :meth:`upgraded_rows`.
        self.stored = len(self.upgraded_rows()) if self.needs_upgrade else len(stored.actions)
        self.take_backs = TakeBacks()
        self.joined = set(stored.joined)
        self.finished = stored.finished
        self.lock = asyncio.Lock()
        self.clients: dict[Client, None] = {}
        self.bot_task: asyncio.Task[None] | None = None
        self.last_change = time.monotonic()
        #: Called after each broadcast with (state, seconds from the act message to the broadcast).
        self.on_broadcast: Callable[[int, float], None] | None = None
        #: Whether this process stores the table's actions and runs its bots. Always, with one
        #: process; with several (:mod:`.cluster`), only the lease holder does, and the others keep
        #: a replica fed by the actions announced on the bus.
        self.owned = registry.cluster is None
        #: When this process last took the lease (event-loop time), to tell a heartbeat that
        #: began before it from one that found the lease gone.
        self.claimed_at = 0.0
        #: Seats connected to other processes, per process (from the bus).
        self.remote_online: dict[str, list[bool]] = {}
        #: Spectators connected to other processes, per process (from the bus).
        self.remote_watchers: dict[str, int] = {}
        #: Whose turns at the bot processes this table's search bots take (:mod:`.bot_share`): its
        #: maker's (stored with the table, so it outlives a restart), else the table's own.
        self.share_key = stored.record.maker or stored.record.id
        #: When a forwarded action was received, by the state it was made at (for the latency metric).
        self.forwarded: dict[int, float] = {}
        #: The process that last announced an action of this table (where to forward actions).
        self.owner_hint: str | None = None
        #: When the decision now asked began (seconds since the epoch): the last action's time,
        #: as stored, so that a turn timer survives a restart or a takeover.
        # Before the first move, the clocks started when the last seat was joined, which is not
        # stored: the first decision gets a whole turn from now, not one counted from the creation.
        self.turn_started = stored.last_at if stored.last_at is not None else time.time()
        self.chat = TableChat()
        #: What the last presence frame to everyone said, when (monotonic), and the frame waiting
        #: to follow it (see broadcast_presence).
        self._presence_sent: Presence | None = None
        self._presence_at = -PRESENCE_GAP
        self._presence_later: asyncio.TimerHandle | None = None
        #: Person seats whose person conceded: a bot plays them to the end.
        self.conceded: set[int] = set(stored.conceded)
        #: Person seats a bot plays for until they come back (their timer ran out, or they left),
        #: and those conceded, for good.
        self.away: set[int] = set(stored.conceded)

    @property
    def state(self) -> int:
        return self.stored

    def local_online(self) -> list[bool]:
        """The seats with a connection to this process."""
        seats = [False] * self.record.players
        for c in self.clients:
            if c.seat is not None:
                seats[c.seat] = True
        return seats

    def watched(self) -> bool:
        """Whether anybody has the table open, here or at another process."""
        return (
            bool(self.clients)
            or any(any(seats) for seats in self.remote_online.values())
            or any(self.remote_watchers.values())
        )

    def local_watchers(self) -> int:
        """Spectators connected to this process."""
        return sum(1 for c in self.clients if c.seat is None)

    def online(self) -> list[bool]:
        """The seats with a connection to any process."""
        seats = self.local_online()
        for other in self.remote_online.values():
            seats = [a or b for a, b in zip(seats, other, strict=False)]
        return seats

    # -- messages

    def state_message(self, seat: int | None, with_log: bool = False) -> str:
        # can_take_back: whether this seat may take back its last decision now (see take_back_refusal).
        can = seat is not None and self.owned and self.take_back_refusal(seat) is None
        return table_messages.state_message(
            self.game, self.events, self.state, seat, self.turn_left(), can, with_log
        )

    def send_all(self, text: str) -> None:
        for client in list(self.clients):
            client.send(text)

    def broadcast_state(self) -> None:
        cache: dict[int | None, str] = {}
        for client in list(self.clients):
            seat = client.seat
            text = cache.get(seat)
            if text is None:
                text = cache[seat] = self.state_message(seat)
            client.send(text)

    def presence(self) -> Presence:
        """Who is connected, away, conceded, and not yet joined: what a presence frame says."""
        return (
            tuple(self.online()),
            tuple(sorted(self.away)),
            tuple(sorted(self.conceded)),
            self.waiting_for(),
        )

    def presence_message(self) -> str:
        online, away, conceded, waiting = self.presence()
        return table_messages.presence_message(self.state, list(online), away, conceded, waiting)

    def broadcast_presence(self, coming_and_going: bool = False) -> None:
        """Tell everyone who is here, when that changed: a spectator coming and going, or a seat's
        second tab, changes nothing the frame says, and sends nothing.

        ``coming_and_going``: the change is a connection opened or closed. Such changes closer
        together than :data:`PRESENCE_GAP` go out as one frame, the latest, so that a seat's only
        tab opened and closed in a loop costs the others a frame every half second at most, not one
        per loop. A seat left to a bot, taken back or conceded is told at once (rated per seat)."""
        now = self.presence()
        if now == self._presence_sent:
            return
        if coming_and_going:
            if self._presence_later is not None:
                return
            wait = self._presence_at + PRESENCE_GAP - time.monotonic()
            if wait > 0:
                self._presence_later = asyncio.get_running_loop().call_later(wait, self._presence_due)
                return
        elif self._presence_later is not None:
            self._presence_later.cancel()
            self._presence_later = None
        self._presence_sent = now
        self._presence_at = time.monotonic()
        self.send_all(self.presence_message())

    def _presence_due(self) -> None:
        self._presence_later = None
        self.broadcast_presence()

    # -- joining

    def waiting_for(self) -> tuple[int, ...]:
        """The person seats nobody has joined yet (no link opened, no stranger seated), in order.

        While there is one, no turn timer runs, at any seat: a table of friends waits for them all,
        the host included while she hands out the links, and no bot plays for a seat nobody took."""
        r = self.record
        return tuple(i for i, s in enumerate(r.seats) if s.kind == "person" and i not in self.joined)

    def clocks_run(self) -> bool:
        """Whether the turn timer (if any) counts: every person seat was taken at least once."""
        return not self.waiting_for()

    def seats_joined(self, seats: Iterable[int], tell_presence: bool = True) -> bool:
        """``seats`` were joined (here, at another process, or claimed by a stranger): the last one
        the table waited for starts its clocks, from now, and says so. Whether it did;
        ``tell_presence``: send the presence it changed at once (a joining connection's
        :meth:`attach` sends it once the connection is in, so that it shows the seat online)."""
        waited = not self.clocks_run()
        self.joined.update(seats)
        if not waited or not self.clocks_run():
            return False
        self.turn_started = time.time()
        if self.owned:
            self.restart_bot()
        self.broadcast_clock()
        if tell_presence:
            self.broadcast_presence()
        return True

    def invites(self, seat: int | None, role: str) -> list[dict[str, Any]]:
        """The links of the friends' seats nobody has joined yet, for the table's host to hand out
        again: for her own seat (the first) or her host link, at a table among friends only (a
        stranger's seat at an open table is never anybody else's to give)."""
        r = self.record
        if not r.host_sees_links or not (seat == HOST_SEAT or role == "host"):
            return []
        return [{"seat": i, "token": r.seats[i].token} for i in self.waiting_for() if i != seat]

    async def attach(self, client: Client, ref: TokenRef) -> None:
        seat = ref.seat if ref.role == "person" else None
        started = False
        if seat is not None and seat not in self.joined:
            # Before the newcomer is told anything, so that the first state shows the clock their
            # joining may start.
            await self.registry.store.mark_joined(self.record.id, seat)
            started = self.seats_joined([seat], tell_presence=False)
        deaf_to = await self.deaf_to(seat)
        client.table = self
        client.ref = ref
        self.clients[client] = None
        client.send(
            table_messages.welcome_message(self.state, self.record, seat, self.invites(seat, ref.role))
        )
        client.send(self.state_message(seat, with_log=True))
        self.send_chat_state(client, deaf_to)
        client.send(self.presence_message())  # the newcomer's own, whatever the others are told
        if self.finished:
            # An old link of a table whose people moved on to a rematch leads there.
            new = await self.registry.rematch_of(self)
            if new is not None:
                client.send(dumps(rematch_message(new.record, seat)))
        if started:
            # The clocks started with this seat: everyone hears it at once, this seat online in it.
            self.broadcast_presence()
        else:
            self.broadcast_presence(coming_and_going=True)
        if seat is not None and seat in self.away and seat not in self.conceded and not self.finished:
            # Opening the seat's page again is coming back, counted with the seat's other comings
            # and goings (past the rate, the seat stays with its bot until *Take my seat back*).
            with contextlib.suppress(ProtocolError):
                self.count("away", client)
                self.set_away(seat, False)
                self.registry.announce_away(self, seat, False)
        self.registry.announce_presence(self)
        # A search bot waits for somebody to watch its table: here is somebody.
        self.schedule_bot()

    def detach(self, client: Client) -> None:
        if client not in self.clients:
            return
        del self.clients[client]
        self.broadcast_presence(coming_and_going=True)
        self.registry.announce_presence(self)
        self.release_if_done()

    def release_if_done(self) -> None:
        """A finished game nobody watches need not stay in memory (the store has it): let it go,
        whether its last watcher just left or it ended with nobody there (bots, stand-ins)."""
        if self.finished and not self.clients and self.bot_task is None:
            self.registry.unload(self.record.id)

    # -- acting

    async def act(self, client: Client, msg: ActMessage, received: float) -> None:
        """A person's action: refuse it with an error to that client unless it is theirs, now, legal."""
        seat = client.seat
        if seat is None:
            client.send(error_message("not_a_player", "spectators cannot act", self.state))
            return
        if not self.owned:
            # Refused here at once if the replica shows it wrong; else the owner decides.
            checked = self.check(seat, msg.state, msg.action)
            if isinstance(checked, tuple):
                client.send(error_message(*checked, self.state))
                return
            self.forwarded[msg.state] = received
            await self.registry.forward(self, client, seat, msg.state, msg.action)
            return
        problem = await self.try_act(seat, msg.state, msg.action, received)
        if problem is not None and problem[0] == MOVED:
            # The lease went to another process while this one held the table: ask the new owner.
            self.forwarded[msg.state] = received
            await self.registry.forward(self, client, seat, msg.state, msg.action)
        elif problem is not None:
            client.send(error_message(*problem, self.state))

    def check(self, seat: int, state: int, text: str) -> int | tuple[str, str]:
        """The action ``text`` of ``seat`` made at ``state`` if it is legal now; else (error code, why)."""
        g = self.game
        if g.is_over():
            return "game_over", "the game is over"
        if state != self.state:
            return "stale", f"the action was made at state {state}; the game is at {self.state}"
        if g.current_player() != seat:
            return "not_your_turn", f"p{g.current_player() + 1} is to decide, not you"
        try:
            return parse_action(g, text)
        except OriflammeError as exc:
            return "illegal", str(exc)

    async def try_act(self, seat: int, state: int, text: str, received: float) -> tuple[str, str] | None:
        """Check, store, apply and broadcast one action of ``seat``; None, or (error code, why) if refused."""
        async with self.lock:
            if not self.owned:
                return MOVED, "another server process plays this table now"
            if seat in self.conceded:
                return "conceded", "this seat was conceded: a bot plays it to the end"
            checked = self.check(seat, state, text)
            if isinstance(checked, tuple):
                return checked
            try:
                await self._commit(seat, checked, received)
            except LeaseLost:
                self.registry.lost(self)
                return MOVED, "another server process plays this table now"
        if seat in self.away:
            # Acting is coming back.
            self.away.discard(seat)
            self.broadcast_presence()
            self.registry.announce_away(self, seat, False)
        self.restart_bot()
        return None

    async def _commit(self, seat: int, action: int, received: float, by_person: bool = True) -> None:
        """Store, apply and broadcast one legal action (the caller holds the lock)."""
        g = self.game
        text = action_text(g, action)
        index = self.stored
        # The row first: an action is never seen by anybody before it is safe on disk. The game's
        # end goes in the same transaction, so a crash cannot leave a finished game unfinished.
        await self.registry.store.append_action(self.record.id, index, text, finishes=_ends_game(g, action))
        self.stored += 1
        self.remember(seat, g, by_person)
        self.events.append(g.apply(action))
        self.actions.append(text)
        self.last_change = time.monotonic()
        self.turn_started = time.time()
        self.broadcast_state()
        if self.on_broadcast is not None:
            self.on_broadcast(self.state, time.perf_counter() - received)
        if g.is_over():
            self.finished = True
            # Only the process that stored the last action gets here: the game is rated once.
            self.registry.game_over(self)
        elif self.record.turn_based:
            asked = g.current_player()
            if asked != seat and self.record.seats[asked].kind == "person" and not self.online()[asked]:
                self.registry.turn_passed(self, asked)  # a game over days: tell them by mail

    # -- taking back a decision

    def remember(self, seat: int, before: Game, by_person: bool = True) -> None:
        """Note who takes the next action, and a person's game just before it (for a take-back)."""
        person = self.record.seats[seat].kind == "person"
        self.take_backs.remember(seat, before, len(self.actions), person, by_person)

    def take_back_refusal(self, seat: int) -> str | None:
        """Why ``seat`` may not take back its last decision now (None: it may)."""
        if self.game.is_over():
            return "the game is over"
        if seat in self.conceded:
            return "this seat was conceded"
        people = [s for s, r in enumerate(self.record.seats) if r.kind == "person"]
        return self.take_backs.refusal(seat, len(self.actions), self.events, people)

    async def take_back(self, client: Client) -> None:
        """Withdraw the seat's last decision (and the bots' moves after it), stored as a record."""
        seat = client.seat
        if seat is None:
            raise ProtocolError("not_a_player", "spectators cannot take anything back")
        if not self.owned:
            raise ProtocolError(MOVED, "another server process plays this table now; try again")
        async with self.lock:
            why = self.take_back_refusal(seat)
            if why is not None:
                raise ProtocolError("cannot_take_back", why)
            self.count("take_back", client)
            index = self.take_backs.decision(seat)
            try:
                await self.registry.store.append_action(self.record.id, self.stored, f"{TAKEBACK} {index}")
            except LeaseLost:
                self.registry.lost(self)
                raise ProtocolError(MOVED, "another server process plays this table now; try again") from None
            self.stored += 1
            self.taken_back = True
            self.withdraw(index)
        self.restart_bot()

    def upgraded_rows(self) -> list[str]:
        """What an older action sequence is rewritten as: the actions in play, and, after a
        take-back, one that withdraws nothing, so that the table is still known as taken back
        (and its game stays unrated) when it is read again."""
        return self.actions + ([f"{TAKEBACK} {len(self.actions)}"] if self.taken_back else [])

    def withdraw(self, index: int) -> None:
        """Play the table back to its first ``index`` actions, and show everyone the game anew."""
        kept = self.actions[:index]
        game = self.take_backs.game_before(index)
        if game is not None:
            events = self.events[: index + 1]
        else:  # a replica, or a table read from the store: play it again
            game, events, _ = replay_with_events(self.record, kept)
        self.game, self.events, self.actions = game, events, kept
        self.take_backs.withdraw(index)
        self.last_change = time.monotonic()
        self.turn_started = time.time()
        for client in list(self.clients):
            client.send(self.state_message(client.seat, with_log=True))

    # -- a replica (another process owns the table)

    def follow(self, index: int, text: str) -> bool:
        """Apply action ``index`` announced by the owner; False if actions before it were missed."""
        if index < self.state:
            return True  # already applied (our own, or read from the store)
        if index > self.state:
            return False
        if text.startswith(TAKEBACK + " "):
            self.stored += 1
            self.taken_back = True
            self.withdraw(int(text.split()[1]))
            return True
        g = self.game
        action = parse_action(g, text)
        self.remember(g.current_player(), g)
        self.events.append(g.apply(action))
        self.actions.append(text)
        self.stored += 1
        self.last_change = time.monotonic()
        self.turn_started = time.time()
        self.broadcast_state()
        received = self.forwarded.pop(index, None)
        if received is not None and self.on_broadcast is not None:
            self.on_broadcast(self.state, time.perf_counter() - received)
        if g.is_over():
            self.finished = True
        return True

    async def catch_up(self) -> None:
        """Apply the stored actions this replica has not seen (some announcements were missed)."""
        cluster = self.registry.cluster
        assert cluster is not None
        async with self.lock:
            start = self.state
            missing = await cluster.store.actions_since(self.record.id, start)
            # Announcements may arrive while the store answers: follow() skips what is applied.
            for offset, text in enumerate(missing):
                self.follow(start + offset, text)
