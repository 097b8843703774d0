"""Live tables: the games in play, who is connected to each, and the bots that move in them.

The server is an adapter around the engine. For each table it holds one
:class:`~oriflamme.engine.game.Game`, rebuilt from the store by replaying its
actions, and an :class:`asyncio.Lock` so that one action at a time is
checked, stored, applied and broadcast. The order is fixed: the action's row
is written to the store *before* the game changes and before anybody hears of
it, so a crash never loses an action a player has seen.

Every message to a connection is built from that connection's seat view and
from events redacted for that seat (:mod:`oriflamme.web.protocol`). Each
connection has its own outgoing queue and writer task: a slow or dead browser
fills only its own queue (and is dropped when it overflows), never the table.

Bots think in a :class:`BotRunner` (a process pool by default) so that a bot
searching for seconds never blocks the event loop or the other tables.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
import time
import unicodedata
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..bots import parse_bot_spec
from ..engine.action_text import action_text, parse_action
from ..engine.cards import KIND_BY_SLUG
from ..engine.errors import OriflammeError
from ..engine.events import Event
from ..engine.game import Game
from ..engine.options import RuleOptions
from ..engine.recipes import parse_recipe, recipe_name, validate_recipe
from ..engine.seeds import derive_seed
from ..engine.setup import Setup
from ..engine.takeback import learned
from ..engine.view import redact
from ..notation.replay import ACTIONS_VERSION, replay
from ..notation.savefile import round_one_first
from .bot_runners import BotRunner
from .channels import table_channel, worker_channel
from .chat import CHAT_BURST, CHAT_WINDOW, HOST_SEAT, MAX_CHAT, ChatRate, TableChat
from .protocol import (
    ActMessage,
    AwayMessage,
    BackMessage,
    ChatMessage,
    ChatModMessage,
    ConcedeMessage,
    JoinMessage,
    NameMessage,
    PingMessage,
    ProtocolError,
    TakeBackMessage,
    dumps,
    error_message,
    event_payload,
    parse_client_message,
    result_payload,
    reveal_payload,
    view_payload,
)
from .store import SeatKind, SeatRecord, Storage, StorageError, StoredTable, TableRecord, TokenRef, open_table
from .store_errors import LeaseLost

if TYPE_CHECKING:
    from .cluster import Cluster

log = logging.getLogger("oriflamme.web")

#: Messages waiting for one browser before it is considered gone.
MAX_BACKLOG = 256
LANGUAGES = ("en", "ru", "uk", "pl", "fr")
MAX_NAME = 24
#: Renames one connection may make (each is stored and sent to everyone at the table).
MAX_RENAMES = 10
#: Take-backs one connection may make.
MAX_TAKEBACKS = 30
#: The bot that plays for a person who left or let their turn timer run out.
STAND_IN = "heuristic"
#: The turn timers a table may have (0 turns it off).
MIN_TURN_SECONDS, MAX_TURN_SECONDS = 10, 3600
#: Connections one seat's link may hold at once (a phone and a laptop, a reloaded tab).
MAX_CONNECTIONS_PER_SEAT = 4
#: Combining marks kept after one character: enough for any script, not for a mark flood.
MAX_MARKS = 2
#: Letters that show as nothing (Hangul fillers, the braille blank): treated as spaces.
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
#: Joiners some scripts and emoji need; kept between two visible characters only.
_JOINERS = frozenset("\u200c\u200d")
#: The error of an action that reached a process which no longer owns the table (it is passed on).
MOVED = "moved"
#: Seconds a forwarded action waits for the owner's answer before the owner is presumed gone.
FORWARD_TIMEOUT = 3.0


# ---------------------------------------------------------------- connections


class Client:
    """One browser connection: its seat once joined, and its own queue of outgoing frames."""

    def __init__(self, send: Callable[[str], Awaitable[None]], close: Callable[[], Awaitable[None]]) -> None:
        self._send = send
        self._close = close
        self.table: LiveTable | None = None
        self.ref: TokenRef | None = None
        self.errors = 0
        #: Names this connection gave its seat (a few are allowed: each is stored and broadcast).
        self.renames = 0
        self.chat_rate = ChatRate()
        #: Take-backs this connection made (each sends every page the whole game again).
        self.takebacks = 0
        self._queue: asyncio.Queue[str | None] = asyncio.Queue()
        self._writer = asyncio.create_task(self._write())
        self.closed = False

    @property
    def seat(self) -> int | None:
        return None if self.ref is None else self.ref.seat if self.ref.role == "person" else None

    def send(self, text: str) -> None:
        if self.closed:
            return
        if self._queue.qsize() >= MAX_BACKLOG:
            log.warning("dropping a connection that does not read its messages")
            self.close()
            return
        self._queue.put_nowait(text)

    async def _write(self) -> None:
        try:
            while True:
                text = await self._queue.get()
                if text is None:
                    break
                await self._send(text)
        except Exception:  # the socket went away: the reader loop notices and cleans up
            pass
        finally:
            self.closed = True
            with contextlib.suppress(Exception):
                await self._close()

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self._queue.put_nowait(None)

    async def finish(self) -> None:
        self.close()
        # The writer ends on the None sentinel; give it a moment to flush.
        with contextlib.suppress(Exception):
            await asyncio.wait_for(asyncio.shield(self._writer), 1.0)
        self._writer.cancel()


# ---------------------------------------------------------------- a live table


def table_setup(record: TableRecord) -> Setup:
    """The deal of a stored table."""
    recipe = validate_recipe([KIND_BY_SLUG[s] for s in record.recipe])
    return Setup(
        record.players, recipe, RuleOptions.from_dict(record.rules), record.seed, record.first_player
    )


def deal(record: TableRecord) -> Game:
    """The table's game before any action, exactly as first dealt."""
    return table_setup(record).deal()


def replay_with_events(
    record: TableRecord, actions: list[str], version: int = ACTIONS_VERSION
) -> tuple[Game, list[list[Event]], list[str]]:
    """Deal and play the stored actions (written in action-sequence ``version``).

    Also returns each step's events (index 0: the deal's) and the actions as
    the current version writes them (longer than ``actions`` when an older
    sequence gains the answers to newly asked questions).
    """
    events: list[list[Event]] = []
    texts: list[str] = []

    def step(_: Game, happened: list[Event], text: str | None, __: int) -> None:
        events.append(happened)
        if text is not None:
            texts.append(text)

    g = replay(table_setup(record), effective_actions(actions), step, version=version)
    return g, events, texts


#: A stored row that withdraws the actions from a number on: ``takeback 12`` keeps the first 12.
TAKEBACK = "takeback"


def effective_actions(rows: list[str]) -> list[str]:
    """The actions a table's stored rows leave in play, take-backs applied (rows are only appended)."""
    kept: list[str] = []
    for row in rows:
        if row.startswith(TAKEBACK + " "):
            del kept[int(row.split()[1]) :]
        else:
            kept.append(row)
    return kept


@dataclass(frozen=True, slots=True)
class StepRecord:
    """One applied action as the server recorded it."""

    seat: int
    text: str


class LiveTable:
    """One table in play: the game, its lock, its connections, and its bots."""

    def __init__(self, registry: TableRegistry, stored: StoredTable) -> None:
        self.registry = registry
        self.record = stored.record
        self.game, self.events, self.actions = replay_with_events(
            stored.record, stored.actions, stored.actions_version
        )
        #: Whether the store still holds an older action sequence (rewritten on load).
        self.needs_upgrade = stored.actions_version != ACTIONS_VERSION
        #: Rows stored for this table (actions and take-backs): the state number clients see, which
        #: only grows. An older sequence is rewritten on load as the actions in play.
        self.stored = len(self.actions) if self.needs_upgrade else len(stored.actions)
        #: The seat that took each action in play, and for each person seat its last decision
        #: here (the action's number and the game just before it), for take-backs.
        self.actors: list[int] = []
        self.last_decision: dict[int, tuple[int, Game]] = {}
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
        #: When a forwarded action was received, by the state it was made at (for the latency metric).
        self.forwarded: dict[int, float] = {}
        #: The process that last announced an action of this table (where to forward actions).
        self.owner_hint: str | None = None
        #: When the decision now asked began (seconds since the epoch): the last action's time,
        #: as stored, so that a turn timer survives a restart or a takeover.
        self.turn_started = stored.last_at if stored.last_at is not None else stored.record.created
        self.chat = TableChat()
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

    def online(self) -> list[bool]:
        """The seats with a connection to any process."""
        seats = self.local_online()
        for other in self.remote_online.values():
            seats = [a or b for a, b in zip(seats, other, strict=False)]
        return seats

    # -- messages

    def table_info(self) -> dict[str, Any]:
        r = self.record
        return {
            "id": r.id,
            "deck": r.deck,
            "players": r.players,
            "recipe": list(r.recipe),
            "rules": r.rules,
            "seats": [{"name": s.name, "kind": s.kind, "bot": s.bot} for s in r.seats],
            "turn_seconds": r.turn_seconds,
        }

    def state_message(self, seat: int | None, with_log: bool = False) -> str:
        g = self.game
        view = g.view(seat)
        legal = [action_text(g, a) for a in view.legal_actions] if view.to_move == seat else []
        msg: dict[str, Any] = {
            "type": "state",
            "state": self.state,
            "seat": seat,
            "view": view_payload(view),
            "events": [event_payload(redact(g, e, seat)) for e in self.events[-1]],
            "legal": legal,
            "result": result_payload(view),
            "reveal": reveal_payload(g),
            "turn_left": self.turn_left(),
            # Whether this seat may take back its last decision now (see take_back_refusal).
            "can_take_back": seat is not None
            and self.owned
            and seat in self.last_decision
            and self.take_back_refusal(seat) is None,
        }
        if with_log:
            msg["log"] = [[event_payload(redact(g, e, seat)) for e in step] for step in self.events]
        return dumps(msg)

    def presence_message(self) -> str:
        return dumps(
            {
                "type": "presence",
                "state": self.state,
                "online": self.online(),
                "away": sorted(self.away),
                "conceded": sorted(self.conceded),
            }
        )

    def broadcast_state(self) -> None:
        cache: dict[int | None, str] = {}
        for client in list(self.clients):
            seat = client.seat
            text = cache.get(seat)
            if text is None:
                text = cache[seat] = self.state_message(seat)
            client.send(text)

    def broadcast_presence(self) -> None:
        text = self.presence_message()
        for client in list(self.clients):
            client.send(text)

    # -- joining

    async def attach(self, client: Client, ref: TokenRef) -> None:
        client.table = self
        client.ref = ref
        self.clients[client] = None
        seat = client.seat
        lang = self.record.seats[seat].lang if seat is not None else "en"
        role = "player" if seat is not None else "spectator"
        client.send(
            dumps(
                {
                    "type": "welcome",
                    "state": self.state,
                    "table": self.table_info(),
                    "seat": seat,
                    "role": role,
                    "lang": lang,
                    "spectator_token": self.record.spectator_token,
                }
            )
        )
        client.send(self.state_message(seat, with_log=True))
        self.send_chat_state(client)
        if self.finished:
            # An old link of a table whose people moved on to a rematch leads there.
            new = await self.registry.rematch_of(self)
            if new is not None:
                client.send(dumps(rematch_message(new.record, seat)))
        self.broadcast_presence()
        if seat is not None and seat in self.away and seat not in self.conceded and not self.finished:
            # Opening the seat's page again is coming back.
            self.set_away(seat, False)
            self.registry.announce_away(self, seat, False)
        if seat is not None and seat not in self.joined:
            self.joined.add(seat)
            await self.registry.store.mark_joined(self.record.id, seat)
        self.registry.announce_presence(self)

    def detach(self, client: Client) -> None:
        if client not in self.clients:
            return
        del self.clients[client]
        self.broadcast_presence()
        self.registry.announce_presence(self)
        if self.finished and not self.clients and self.bot_task is None:
            # A finished game nobody watches need not stay in memory; the store has it.
            self.registry.unload(self.record.id)

    # -- chat

    def say(self, client: Client, text: str) -> None:
        """A line from a connection: checked, kept, and sent to everyone here and elsewhere."""
        seat = client.seat
        if seat is None and not self.chat.spectators_allowed:
            raise ProtocolError("chat_closed", "spectators may not chat at this table")
        if seat is not None and seat in self.chat.muted:
            raise ProtocolError("chat_muted", "the host has silenced your chat at this table")
        line = clean_text(text)
        if not line:
            raise ProtocolError("bad_chat", "a chat line needs at least one visible character")
        if len(line) > MAX_CHAT:
            raise ProtocolError(
                "chat_too_long", f"a chat line is at most {MAX_CHAT} characters, not {len(line)}"
            )
        wait = client.chat_rate.allow()
        if wait:
            raise ProtocolError(
                "chat_too_fast", f"at most {CHAT_BURST} lines in {CHAT_WINDOW:g} s; wait {wait:.0f} s"
            )
        self.chat.counter += 1
        worker = self.registry.cluster.worker if self.registry.cluster is not None else "local"
        said = {
            "id": f"{worker}.{self.chat.counter}",
            "seat": seat,
            "text": line,
            "at": round(time.time(), 3),
        }
        self.heard(said)
        self.registry.announce_chat(self, {"k": "ch", "l": said})

    def heard(self, line: dict[str, Any]) -> None:
        if self.chat.add(line):
            text = dumps({"type": "chat", "state": self.state, "line": line})
            for c in list(self.clients):
                c.send(text)

    def moderate(self, client: Client, msg: ChatModMessage) -> None:
        """The host silences, lets speak or clears a seat, or opens the chat to spectators."""
        if client.seat != HOST_SEAT or self.record.seats[HOST_SEAT].kind != "person":
            raise ProtocolError("not_host", "only the host (the person at seat 1) decides who may chat")
        if msg.seat is not None and not 0 <= msg.seat < self.record.players:
            raise ProtocolError("malformed", f"no seat {msg.seat + 1} at this table")
        if msg.seat == HOST_SEAT:
            raise ProtocolError("malformed", "the host cannot silence themselves")
        change = {"seat": msg.seat, "mute": msg.mute, "remove": msg.remove, "spectators": msg.spectators}
        self.moderated(change)
        self.registry.announce_chat(self, {"k": "cm", "c": change})

    def moderated(self, change: dict[str, Any]) -> None:
        seat = change.get("seat")
        if isinstance(seat, int) and 0 <= seat < self.record.players:
            if change.get("mute") is True:
                self.chat.muted.add(seat)
            elif change.get("mute") is False:
                self.chat.muted.discard(seat)
            if change.get("remove"):
                self.chat.remove_seat(seat)
        if isinstance(change.get("spectators"), bool):
            self.chat.spectators_allowed = bool(change["spectators"])
        self.send_chat_state()

    def send_chat_state(self, client: Client | None = None) -> None:
        text = dumps({"type": "chat_state", "state": self.state, **self.chat.state()})
        for c in [client] if client is not None else list(self.clients):
            c.send(text)

    # -- leaving and coming back

    def leave_or_return(self, client: Client, away: bool) -> None:
        """A person hands their seat to a bot (``away``), or takes it back."""
        seat = client.seat
        if seat is None:
            raise ProtocolError("not_a_player", "only a player can leave or take back a seat")
        if self.game.is_over():
            raise ProtocolError("game_over", "the game is over")
        if seat in self.conceded:
            raise ProtocolError("conceded", "this seat was conceded: a bot plays it to the end")
        if self.set_away(seat, away):
            self.registry.announce_away(self, seat, away)

    async def concede(self, client: Client) -> None:
        """A person gives up for good: stored, then a bot plays the seat to the end."""
        seat = client.seat
        if seat is None:
            raise ProtocolError("not_a_player", "only a player can concede")
        if self.game.is_over():
            raise ProtocolError("game_over", "the game is over")
        if seat in self.conceded:
            return
        await self.registry.store.concede(self.record.id, seat)
        self.conceded_by(seat)
        self.registry.announce_concession(self, seat)

    def conceded_by(self, seat: int) -> None:
        self.conceded.add(seat)
        if not self.set_away(seat, True):
            self.broadcast_presence()

    # -- names

    async def rename(self, client: Client, text: str) -> None:
        """A person names their own seat: cleaned, stored, then shown to everyone (here and elsewhere)."""
        seat = client.seat
        if seat is None:
            raise ProtocolError("not_a_player", "only a player can name their seat")
        name = clean_name(text)
        if not name:
            raise ProtocolError("bad_name", "a name needs at least one visible character")
        if client.renames >= MAX_RENAMES:
            raise ProtocolError("too_many_renames", f"a connection may rename its seat {MAX_RENAMES} times")
        client.renames += 1
        await self.registry.store.rename_seat(self.record.id, seat, name)
        self.renamed(seat, name)
        self.registry.announce_rename(self, seat, name)

    def renamed(self, seat: int, name: str) -> None:
        self.record = self.record.renamed(seat, name)
        text = dumps({"type": "seats", "state": self.state, "seats": self.table_info()["seats"]})
        for c in list(self.clients):
            c.send(text)

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

    # -- taking back a decision

    def remember(self, seat: int, before: Game, by_person: bool = True) -> None:
        """Note who takes the next action, and a person's game just before it (for a take-back).

        A stand-in bot's move for an absent person is not theirs to take back.
        """
        while len(self.actors) < len(self.actions):
            self.actors.append(-1)  # actions read from the store: their takers are not needed
        self.actors.append(seat)
        if self.record.seats[seat].kind == "person":
            if by_person:
                self.last_decision[seat] = (len(self.actions), before.clone())
            else:
                self.last_decision.pop(seat, None)

    def take_back_refusal(self, seat: int) -> str | None:
        """Why ``seat`` may not take back its last decision now (None: it may).

        Allowed while no other person has decided since, and while nothing since (the decision's
        own consequences and the bots' moves after it) named a card the seat did not know then.
        """
        if self.game.is_over():
            return "the game is over"
        if seat in self.conceded:
            return "this seat was conceded"
        found = self.last_decision.get(seat)
        if found is None or found[0] >= len(self.actions):
            return "you have no decision to take back here"
        index, before = found
        if any(self.record.seats[s].kind == "person" and s != seat for s in self.actors[index:]):
            return "another player has decided since"
        since = [e for step in self.events[index + 1 :] for e in step]
        if learned(before, since, seat):
            return "you have seen something since"
        people = (s for s, r in enumerate(self.record.seats) if r.kind == "person" and s != seat)
        if any(learned(before, since, other) for other in people):
            # Withdrawing it would turn face down again a card another player has seen.
            return "a card was shown to another player since"
        return None

    async def take_back(self, client: Client) -> None:
        """Withdraw the seat's last decision (and the bots' moves after it), stored as a record."""
        seat = client.seat
        if seat is None:
            raise ProtocolError("not_a_player", "spectators cannot take anything back")
        if not self.owned:
            raise ProtocolError(MOVED, "another server process plays this table now; try again")
        if client.takebacks >= MAX_TAKEBACKS:
            raise ProtocolError("cannot_take_back", f"a connection may take back {MAX_TAKEBACKS} moves")
        async with self.lock:
            why = self.take_back_refusal(seat)
            if why is not None:
                raise ProtocolError("cannot_take_back", why)
            index, _ = self.last_decision[seat]
            try:
                await self.registry.store.append_action(self.record.id, self.stored, f"{TAKEBACK} {index}")
            except LeaseLost:
                self.registry.lost(self)
                raise ProtocolError(MOVED, "another server process plays this table now; try again") from None
            self.stored += 1
            client.takebacks += 1
            self.withdraw(index)
        self.restart_bot()

    def withdraw(self, index: int) -> None:
        """Play the table back to its first ``index`` actions, and show everyone the game anew."""
        before = next((d for d in self.last_decision.values() if d[0] == index), None)
        kept = self.actions[:index]
        if before is not None and before[0] == index:
            game = before[1].clone()
            events = self.events[: index + 1]
        else:  # a replica, or a table read from the store: play it again
            game, events, _ = replay_with_events(self.record, kept)
        self.game, self.events, self.actions = game, events, kept
        del self.actors[index:]
        # Nobody else takes back past a withdrawn stretch: they saw it happen.
        self.last_decision = {}
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

    # -- bots

    def schedule_bot(self) -> None:
        """Start the bot whose turn it is, unless one is already thinking (or another process owns the table)."""
        g = self.game
        if self.bot_task is not None or g.is_over() or self.registry.closing or not self.owned:
            return
        seat = g.current_player()
        s = self.record.seats[seat]
        timer: float | None = None
        if s.kind == "bot" and s.bot is not None:
            spec = s.bot
        elif seat in self.away:
            spec = STAND_IN  # the person left or let their timer run out: a bot plays until they return
        elif self.record.turn_seconds:
            spec = STAND_IN
            timer = max(0.0, self.turn_started + self.record.turn_seconds - time.time())
        else:
            return
        self.bot_task = asyncio.create_task(self._bot_move(seat, spec, self.state, timer))
        self.registry.bot_tasks.add(self.bot_task)
        self.bot_task.add_done_callback(self._bot_done)

    def turn_left(self) -> float | None:
        """Seconds before a bot plays the decision now asked, when a person's turn timer runs."""
        g = self.game
        if not self.record.turn_seconds or g.is_over():
            return None
        seat = g.current_player()
        if self.record.seats[seat].kind != "person" or seat in self.away:
            return None
        return max(0.0, self.turn_started + self.record.turn_seconds - time.time())

    def restart_bot(self) -> None:
        """The position changed under a waiting bot (a person acted, or came back): think again."""
        if self.bot_task is not None:
            self.bot_task.cancel()
            self.bot_task = None
        self.schedule_bot()

    def set_away(self, seat: int, away: bool) -> bool:
        """Mark a person seat as played by a bot (or no longer); True if that changed anything."""
        if self.record.seats[seat].kind != "person" or (seat in self.away) == away:
            return False
        if not away and seat in self.conceded:
            return False  # a conceded seat is played by a bot to the end
        if away:
            self.away.add(seat)
        else:
            self.away.discard(seat)
        self.broadcast_presence()
        if self.owned:
            self.restart_bot()
        self.broadcast_clock()
        return True

    def broadcast_clock(self) -> None:
        """The time left for the decision now asked changed without a move (a seat left or came back)."""
        text = dumps({"type": "clock", "state": self.state, "turn_left": self.turn_left()})
        for client in list(self.clients):
            client.send(text)

    def _bot_done(self, task: asyncio.Task[None]) -> None:
        self.registry.bot_tasks.discard(task)
        if self.bot_task is task:
            self.bot_task = None
        if not task.cancelled():
            self.schedule_bot()

    async def _bot_move(self, seat: int, spec: str, state: int, timer: float | None = None) -> None:
        """``spec`` plays ``seat``'s decision at ``state``; with ``timer``, only once that many
        seconds have passed with nothing played (a person's turn timer), and the seat is then away."""
        g = self.game
        if timer is not None:
            await asyncio.sleep(timer)
            if self.state != state or not self.owned:
                return
            log.info("table %s: seat %d let the turn timer run out; a bot plays for it", self.record.id, seat)
            if seat not in self.away:
                self.away.add(seat)
                self.broadcast_presence()
                self.registry.announce_away(self, seat, True)
        view = g.view(seat)
        # Seeded by the position (the actions in play), not the state number: after a take-back
        # the bots answer the same position the same way, so it cannot be used to re-roll them.
        seed = derive_seed("table-bot", self.record.seed, len(self.actions), seat)
        try:
            action = await self.registry.bot_runner.choose(spec, seed, view)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception(
                "bot %s failed at table %s, state %d; playing at random", spec, self.record.id, state
            )
            action = -1
        wait = self.registry.bot_delay - (time.monotonic() - self.last_change)
        if wait > 0:
            await asyncio.sleep(wait)
        # Shielded: a restart of the bot (somebody left or came back) must not cut a move in half,
        # its row stored and the table not told.
        await asyncio.shield(self._bot_commit(g, seat, action, state, seed, spec))

    async def _bot_commit(self, g: Game, seat: int, action: int, state: int, seed: int, spec: str) -> None:
        async with self.lock:
            if self.state != state or self.game is not g or g.current_player() != seat or not self.owned:
                return
            if action not in g.legal_actions():
                if action != -1:
                    log.error("bot %s chose an illegal action %r; playing at random", spec, action)
                action = random.Random(seed).choice(g.legal_actions())
            started = time.perf_counter()
            try:
                await self._commit(seat, action, started, by_person=False)
            except LeaseLost:
                self.registry.lost(self)
            except StorageError:
                log.exception("table %s: could not store a bot action", self.record.id)


# ---------------------------------------------------------------- the registry


class SetupProblem(ValueError):
    """A table that cannot be created as asked; the message says why, for the person asking."""


@dataclass(frozen=True, slots=True)
class SeatRequest:
    kind: str
    name: str = ""
    bot: str | None = None
    lang: str = "en"


#: Unicode categories a name may not hold: controls, formats (direction overrides and isolates,
#: zero-width characters), surrogates, private use and unassigned code points.
_UNWANTED = frozenset({"Cc", "Cf", "Cs", "Co", "Cn"})


def rematch_id(table_id: str) -> str:
    """The id of a table's rematch: ``abc`` → ``abc~2`` → ``abc~3`` (the games of one series)."""
    base, _, number = table_id.rpartition("~")
    if base and number.isdigit():
        return f"{base}~{int(number) + 1}"
    return f"{table_id}~2"


def rematch_message(record: TableRecord, seat: int | None) -> dict[str, Any]:
    """Where a seat (None: a spectator) goes for the rematch: its own link at the new table."""
    token = record.spectator_token if seat is None else record.seats[seat].token
    return {
        "type": "rematch",
        "state": None,
        "table": record.id,
        "token": token,
        "role": "spectator" if seat is None else "player",
    }


def clean_name(text: str) -> str:
    """A seat name fit to show to others (see :func:`clean_text`), cut to :data:`MAX_NAME` characters."""
    return clean_text(text)[:MAX_NAME].strip()


def clean_text(text: str) -> str:
    """A text fit to show to others: no control, direction-override or invisible characters.

    Normalized (NFC), every run of white space (line breaks included) made
    one space, and trimmed. A right-to-left override in a name or a chat line
    would turn the rest of a line around on every screen that shows it; a NUL
    or an escape code has no business on any.
    """
    chars = unicodedata.normalize("NFC", text)
    kept: list[str] = []
    marks = 0
    for i, c in enumerate(chars):
        if c.isspace() or c in _BLANK_LETTERS:
            kept.append(" ")
            marks = 0
            continue
        if c in _JOINERS:
            # Kept only inside a word or an emoji sequence (Persian ZWNJ, family emoji).
            if kept and not kept[-1].isspace() and i + 1 < len(chars) and not chars[i + 1].isspace():
                kept.append(c)
            continue
        category = unicodedata.category(c)
        if category in _UNWANTED:
            continue
        if category.startswith("M"):
            marks += 1
            if marks > MAX_MARKS or not kept or kept[-1] == " ":
                continue
        else:
            marks = 0
        kept.append(c)
    return " ".join("".join(kept).split())


def _ends_game(g: Game, action: int) -> bool:
    """Whether ``action`` ends the game (tried on a copy: only in the last round can it)."""
    if g.round < g.rules.rounds:
        return False
    trial = g.clone()
    trial.apply(action)
    return trial.is_over()


def new_token() -> str:
    return secrets.token_urlsafe(18)


class TableRegistry:
    """All live tables of one server, loaded from the store on first use."""

    def __init__(
        self, store: Storage, bot_runner: BotRunner, bot_delay: float = 0.8, cluster: Cluster | None = None
    ) -> None:
        self.store = store
        #: The other server processes, when several share a PostgreSQL database (None: this one alone).
        self.cluster = cluster
        self._requests: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._background: set[asyncio.Task[Any]] = set()
        if cluster is not None:
            cluster.on_message = self._on_bus
            cluster.on_beat = self._on_beat
            cluster.on_reconnect = self._on_reconnect
        self.bot_runner = bot_runner
        self.bot_delay = bot_delay
        self.tables: dict[str, LiveTable] = {}
        self.bot_tasks: set[asyncio.Task[None]] = set()
        self.closing = False
        self._loading: dict[str, asyncio.Future[LiveTable | None]] = {}
        self.on_broadcast: Callable[[int, float], None] | None = None
        #: Spectator connections one table accepts at once (players always get in, up to
        #: :data:`MAX_CONNECTIONS_PER_SEAT` each, so that watchers cannot lock them out).
        self.max_connections_per_table = 32
        #: Called with the name of a limit that refused a connection (metrics).
        self.on_refused: Callable[[str], None] | None = None
        #: Seconds without an action after which an unfinished table nobody is connected to leaves
        #: memory (it stays in the store and comes back when someone opens it); None: never.
        self.idle_seconds: float | None = None
        self._sweeper: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Load the unfinished tables played lately, so that bots whose turn it was carry on after a restart.

        Tables idle for longer than :attr:`idle_seconds` stay in the store: a
        server with years of abandoned games starts as fast as a new one, and
        such a table is loaded when somebody opens one of its links.
        """
        since = None if self.idle_seconds is None else time.time() - self.idle_seconds
        cluster = self.cluster
        if cluster is not None:
            await cluster.start()
        for table_id in await self.store.unfinished_tables(active_since=since):
            # With other processes, a table one of them plays stays theirs.
            if cluster is not None and not await cluster.store.claim(table_id, cluster.lease_seconds):
                continue
            table = await self.get(table_id)
            if table is not None:
                table.schedule_bot()
        if self.idle_seconds is not None:
            self._sweeper = asyncio.create_task(self._sweep_forever(self.idle_seconds))

    async def _sweep_forever(self, idle: float) -> None:
        while True:
            await asyncio.sleep(max(1.0, min(idle / 4, 600.0)))
            self.sweep(idle)

    def sweep(self, idle: float) -> list[str]:
        """Unload the tables with no connection, no bot thinking and no action for ``idle`` seconds."""
        now = time.monotonic()
        gone = [
            table_id
            for table_id, t in self.tables.items()
            if not t.clients and t.bot_task is None and now - t.last_change >= idle
        ]
        for table_id in gone:
            self.unload(table_id)
        return gone

    def unload(self, table_id: str) -> None:
        """Let a table leave memory (the store has it); with other processes, give up its lease."""
        table = self.tables.pop(table_id, None)
        cluster = self.cluster
        if table is None or cluster is None:
            return
        self._spawn(cluster.unlisten(table_channel(table_id)))
        if table.owned:
            self._spawn(cluster.store.release(table_id))

    async def close(self) -> None:
        self.closing = True
        if self._sweeper is not None:
            self._sweeper.cancel()
        for task in list(self.bot_tasks):
            task.cancel()
        for task in list(self.bot_tasks):
            with contextlib.suppress(BaseException):
                await task
        for table in self.tables.values():
            for client in list(table.clients):
                client.close()
        for background in list(self._background):
            background.cancel()
        if self.cluster is not None:
            # The leases are handed back: the other processes take the tables over at their next beat.
            await self.cluster.stop()
        self.bot_runner.close()

    async def get(self, table_id: str) -> LiveTable | None:
        table = self.tables.get(table_id)
        if table is not None:
            return table
        pending = self._loading.get(table_id)
        if pending is not None:
            return await pending
        future: asyncio.Future[LiveTable | None] = asyncio.get_running_loop().create_future()
        self._loading[table_id] = future
        cluster = self.cluster
        try:
            if cluster is not None:
                # Heard before the store is read: an action stored meanwhile is announced, not lost.
                await cluster.listen(table_channel(table_id))
            stored = await self.store.load_table(table_id)
            table = None
            if stored is not None:
                try:
                    table = LiveTable(self, stored)
                except (OriflammeError, KeyError, ValueError, TypeError):
                    log.exception("table %s cannot be replayed from the store", table_id)
                    table = None
            if table is not None and cluster is not None and not table.finished:
                table.owned = await cluster.store.claim(table_id, cluster.lease_seconds)
                table.claimed_at = asyncio.get_running_loop().time()
            if table is not None and table.needs_upgrade and (table.owned or table.finished):
                await self.store.upgrade_actions(table_id, table.actions, ACTIONS_VERSION)
                table.needs_upgrade = False
            if table is not None and table.game.is_over() and not table.finished:
                # Stored by a server that marked the end apart from the last action and was
                # stopped in between: the game is over, say so now.
                await self.store.mark_finished(table_id)
                table.finished = True
            if table is not None:
                table.on_broadcast = self.on_broadcast
                self.tables[table_id] = table
                # A table loaded on demand (idle, or not loaded at start) may be waiting for its bot.
                table.schedule_bot()
            if cluster is not None:
                if table is None:
                    await cluster.unlisten(table_channel(table_id))
                else:
                    if not table.owned:
                        await table.catch_up()
                    # The other processes say which seats they have connected.
                    self._spawn(cluster.send(table_channel(table_id), {"k": "pq", "w": cluster.worker}))
            future.set_result(table)
            return table
        except BaseException as exc:
            future.set_exception(exc)
            raise
        finally:
            del self._loading[table_id]

    async def resolve(self, token: str) -> tuple[LiveTable, TokenRef] | None:
        ref = await self.store.resolve_token(token)
        if ref is None:
            return None
        table = await self.get(ref.table_id)
        return None if table is None else (table, ref)

    async def create(
        self,
        players: int,
        deck: str,
        seats: list[SeatRequest],
        seed: int | None = None,
        first_player: int | None = None,
        rules: dict[str, int] | None = None,
        table_id: str | None = None,
        turn_seconds: int = 0,
        open: bool = False,
    ) -> LiveTable:
        """Deal a new table, store it, and start its bots; raise :class:`SetupProblem` if it cannot be.

        ``table_id`` names it (a rematch's id follows from its game's); a table of that id already
        stored raises :class:`~.store_errors.StorageError`.
        """
        if len(seats) != players:
            raise SetupProblem(f"{players} players need {players} seats, got {len(seats)}")
        if seed is None:
            seed = secrets.randbelow(1 << 62)
        if turn_seconds and not MIN_TURN_SECONDS <= turn_seconds <= MAX_TURN_SECONDS:
            raise SetupProblem(
                f"a turn timer is off (0) or {MIN_TURN_SECONDS} to {MAX_TURN_SECONDS} seconds, not {turn_seconds}"
            )
        try:
            options = RuleOptions.from_dict(rules or {})
            recipe = parse_recipe(deck, seed)
            game = Game.new(players, recipe, seed, first_player, options)
        except OriflammeError as exc:
            raise SetupProblem(str(exc)) from None
        records: list[SeatRecord] = []
        for i, s in enumerate(seats):
            if s.kind == "person":
                kind: SeatKind = "person"
            elif s.kind == "bot":
                kind = "bot"
            else:
                raise SetupProblem(f"seat {i + 1}: a seat is a person or a bot, not {s.kind!r}")
            if s.lang not in LANGUAGES:
                raise SetupProblem(
                    f"seat {i + 1}: unknown language {s.lang!r}; languages: {', '.join(LANGUAGES)}"
                )
            bot = None
            if kind == "bot":
                try:
                    bot_kind, level = parse_bot_spec(s.bot or "random")
                except OriflammeError as exc:
                    raise SetupProblem(f"seat {i + 1}: {exc}") from None
                bot = bot_kind if level is None else f"{bot_kind}:{level}"
            # An empty name is shown as "Bot 2", "Игрок 3" ... in each viewer's own language.
            name = clean_name(s.name)
            records.append(SeatRecord(kind=kind, name=name, token=new_token(), bot=bot, lang=s.lang))
        name = deck.strip().lower()
        record = TableRecord(
            id=table_id or secrets.token_urlsafe(6),
            created=time.time(),
            deck=name
            if name in ("base", "ablaze", "alliance") or name.startswith("random")
            else recipe_name(recipe),
            players=players,
            recipe=tuple(game.view(None).recipe),
            rules=options.to_dict(),
            seed=seed,
            first_player=first_player,
            seats=tuple(records),
            spectator_token=new_token(),
            host_token=new_token(),
            turn_seconds=turn_seconds,
            open=open,
        )
        await self.store.create_table(record)
        table = await self.get(record.id)
        assert table is not None
        table.schedule_bot()
        return table

    # -- open tables

    async def take_open_seat(self, table_id: str | None = None) -> tuple[LiveTable, int] | None:
        """A free person seat at an open table (``table_id``'s, or the oldest's), now taken; None: none."""
        if table_id is not None:
            stored = await self.store.load_table(table_id)
            usable = stored is not None and not stored.finished and stored.record.open
            candidates = [open_table(stored)] if usable else []
        else:
            candidates = await self.store.open_tables()
        for candidate in candidates:
            for seat in candidate.free:
                if await self.store.claim_seat(candidate.record.id, seat):
                    table = await self.get(candidate.record.id)
                    if table is None:
                        continue
                    table.joined.add(seat)
                    self.announce_presence(table)
                    return table, seat
        return None

    # -- rematches

    async def rematch_of(self, table: LiveTable) -> LiveTable | None:
        """The rematch of a finished table, if somebody asked for one."""
        if not table.finished:
            return None
        return await self.get(rematch_id(table.record.id))

    async def rematch(self, table: LiveTable) -> LiveTable:
        """The next game of a finished table: the same seats (people, bots, names, languages),
        deck and rules, a new deal, the next seat first. Asked by several people, or by several
        processes at once, it is one table: its id follows from this one's.
        """
        if not table.game.is_over():
            raise SetupProblem("the game is not over yet")
        existing = await self.rematch_of(table)
        if existing is not None:
            return existing
        r = table.record
        first = (round_one_first(table.game) + 1) % r.players
        seats = [SeatRequest(s.kind, s.name, s.bot, s.lang) for s in r.seats]
        try:
            new = await self.create(
                r.players,
                r.deck,
                seats,
                first_player=first,
                rules=r.rules,
                table_id=rematch_id(r.id),
                turn_seconds=r.turn_seconds,
            )
        except StorageError:
            # Somebody else made it first (another process, at the same moment).
            found = await self.get(rematch_id(r.id))
            if found is None:
                raise
            return found
        self.announce_rematch(table)
        return new

    def announce_chat(self, table: LiveTable, message: dict[str, Any]) -> None:
        if self.cluster is not None:
            self._spawn(
                self.cluster.send(table_channel(table.record.id), {**message, "w": self.cluster.worker})
            )

    def announce_concession(self, table: LiveTable, seat: int) -> None:
        if self.cluster is not None:
            message = {"k": "cd", "w": self.cluster.worker, "s": seat}
            self._spawn(self.cluster.send(table_channel(table.record.id), message))

    def announce_away(self, table: LiveTable, seat: int, away: bool) -> None:
        if self.cluster is not None:
            message = {"k": "aw", "w": self.cluster.worker, "s": seat, "v": away}
            self._spawn(self.cluster.send(table_channel(table.record.id), message))

    def announce_rename(self, table: LiveTable, seat: int, name: str) -> None:
        if self.cluster is not None:
            message = {"k": "nm", "w": self.cluster.worker, "s": seat, "n": name}
            self._spawn(self.cluster.send(table_channel(table.record.id), message))

    def announce_rematch(self, table: LiveTable) -> None:
        """Tell everyone at the old table (here, and through the bus at every other process)."""
        self._spawn(self._tell_rematch(table))
        if self.cluster is not None:
            self._spawn(
                self.cluster.send(table_channel(table.record.id), {"k": "rm", "w": self.cluster.worker})
            )

    async def _tell_rematch(self, table: LiveTable) -> None:
        new = await self.rematch_of(table)
        if new is None:
            return
        for client in list(table.clients):
            client.send(dumps(rematch_message(new.record, client.seat)))

    # -- the WebSocket message loop

    async def handle(self, client: Client, text: str | bytes, received: float) -> None:
        """One client frame. Every problem becomes an error message to that client; nothing raises."""
        try:
            msg = parse_client_message(text)
            if isinstance(msg, PingMessage):
                client.send(
                    dumps({"type": "pong", "state": None if client.table is None else client.table.state})
                )
            elif isinstance(msg, JoinMessage):
                await self._join(client, msg)
            elif isinstance(msg, NameMessage):
                if client.table is None:
                    raise ProtocolError("unauthenticated", "join the table with your token first")
                await client.table.rename(client, msg.name)
            elif isinstance(msg, AwayMessage | BackMessage):
                if client.table is None:
                    raise ProtocolError("unauthenticated", "join the table with your token first")
                client.table.leave_or_return(client, isinstance(msg, AwayMessage))
            elif isinstance(msg, ConcedeMessage):
                if client.table is None:
                    raise ProtocolError("unauthenticated", "join the table with your token first")
                await client.table.concede(client)
            elif isinstance(msg, TakeBackMessage):
                if client.table is None:
                    raise ProtocolError("unauthenticated", "join the table with your token first")
                await client.table.take_back(client)
            elif isinstance(msg, ChatMessage | ChatModMessage):
                if client.table is None:
                    raise ProtocolError("unauthenticated", "join the table with your token first")
                if isinstance(msg, ChatMessage):
                    client.table.say(client, msg.text)
                else:
                    client.table.moderate(client, msg)
            else:
                if client.table is None:
                    raise ProtocolError("unauthenticated", "join the table with your token first")
                await client.table.act(client, msg, received)
        except ProtocolError as exc:
            client.errors += 1
            state = client.table.state if client.table is not None else None
            client.send(error_message(exc.code, exc.message, state))
        except StorageError as exc:
            log.error("storage refused a write: %s", exc)
            client.send(error_message("storage", "the action could not be stored; try again"))
        except Exception:
            log.exception("unexpected error while handling a client message")
            client.send(error_message("internal", "the server could not handle this message"))

    async def _join(self, client: Client, msg: JoinMessage) -> None:
        if client.table is not None:
            raise ProtocolError("already_joined", "this connection has already joined a table")
        found = await self.resolve(msg.token)
        if found is None:
            raise ProtocolError("bad_token", "no table has this link")
        table, ref = found
        if ref.role == "bot":
            raise ProtocolError("bad_token", "this seat is played by a bot")
        seat = ref.seat if ref.role == "person" else None
        same = sum(1 for c in table.clients if c.seat == seat)
        if seat is None and same >= self.max_connections_per_table:
            self._refused("connections_per_table")
            raise ProtocolError(
                "table_full",
                f"this table has {same} spectators, the most it accepts; try again later",
            )
        if seat is not None and same >= MAX_CONNECTIONS_PER_SEAT:
            self._refused("connections_per_seat")
            raise ProtocolError(
                "seat_busy",
                f"this seat is open in {same} places already, the most it accepts; close another tab",
            )
        await table.attach(client, ref)

    # -- several processes (see .cluster)

    def _spawn(self, work: Awaitable[Any]) -> None:
        async def run() -> None:
            try:
                await work
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("cluster: background work failed")

        task = asyncio.create_task(run())
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    def announce_presence(self, table: LiveTable) -> None:
        """Tell the other processes holding ``table`` which seats are connected here."""
        cluster = self.cluster
        if cluster is None or self.closing:
            return
        message = {"k": "p", "w": cluster.worker, "o": table.local_online(), "j": sorted(table.joined)}
        self._spawn(cluster.send(table_channel(table.record.id), message))

    async def forward(self, table: LiveTable, client: Client, seat: int, state: int, text: str) -> None:
        """Pass a client's action to the process that owns the table, or take the table if nobody does."""
        cluster = self.cluster
        assert cluster is not None
        table_id = table.record.id
        for _ in range(3):
            if table.owned:
                received = table.forwarded.pop(state, time.perf_counter())
                problem = await table.try_act(seat, state, text, received)
                if problem is None:
                    return
                if problem[0] != MOVED:
                    client.send(error_message(*problem, table.state))
                    return
                continue
            owner = table.owner_hint or await cluster.store.lease_owner(table_id)
            if owner is None or owner == cluster.worker:
                # Nobody holds the table (its process stopped or died): play it here.
                await self.take_over(table_id)
                continue
            request = secrets.token_hex(8)
            answer: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
            self._requests[request] = answer
            message = {
                "k": "act",
                "t": table_id,
                "s": seat,
                "n": state,
                "a": text,
                "r": cluster.worker,
                "q": request,
            }
            try:
                await cluster.send(worker_channel(owner), message)
                reply = await asyncio.wait_for(answer, FORWARD_TIMEOUT)
            except TimeoutError:
                table.owner_hint = None  # gone, or slow: look the owner up again
                continue
            finally:
                self._requests.pop(request, None)
            code = reply.get("e")
            if code is None:
                return  # stored: the announcement brings the new state to this client
            if code == MOVED:
                table.owner_hint = None
                continue
            client.send(error_message(str(code), str(reply.get("m", "")), table.state))
            return
        client.send(
            error_message(
                "unavailable", "the server process playing this table does not answer; try again", table.state
            )
        )

    async def take_over(self, table_id: str) -> bool:
        """Claim a table whose lease is free or expired, and play it here from its stored actions."""
        cluster = self.cluster
        assert cluster is not None
        if not await cluster.store.claim(table_id, cluster.lease_seconds):
            return False
        table = self.tables.get(table_id)
        if table is None:
            return await self.get(table_id) is not None
        if not table.owned:
            table.claimed_at = asyncio.get_running_loop().time()
            await table.catch_up()
            table.owned = True
            table.owner_hint = None
            log.info("table %s: taken over by this process", table_id)
            table.schedule_bot()
        return True

    async def _hand_over(self, table: LiveTable, worker: str) -> None:
        """Give ``table`` to the process ``worker``, where its people are connected; drop it here."""
        cluster = self.cluster
        assert cluster is not None
        table_id = table.record.id
        async with table.lock:
            if not table.owned or table.clients or table.finished or self.closing:
                return
            table.owned = False
            if table.bot_task is not None:
                table.bot_task.cancel()
            await cluster.store.release(table_id)
        await cluster.send(worker_channel(worker), {"k": "take", "t": table_id, "w": cluster.worker})
        if not table.clients and self.tables.get(table_id) is table:
            self.unload(table_id)

    def lost(self, table: LiveTable) -> None:
        """Another process took ``table`` over: stop playing it here and follow it as a replica."""
        if not table.owned:
            return
        log.warning("table %s: its lease went to another process; following it", table.record.id)
        table.owned = False
        if table.bot_task is not None:
            table.bot_task.cancel()
        self._spawn(table.catch_up())

    def _on_bus(self, channel: str, message: dict[str, Any]) -> None:
        cluster = self.cluster
        assert cluster is not None
        kind = message.get("k")
        if channel.startswith("w_"):
            if kind == "act":
                self._spawn(self._act_for(message))
            elif kind == "take":
                self._spawn(self.take_over(str(message.get("t"))))
            elif kind == "r":
                answer = self._requests.get(str(message.get("q")))
                if answer is not None and not answer.done():
                    answer.set_result(message)
            return
        table = self.tables.get(channel[2:])
        if table is None:
            return
        worker = str(message.get("w"))
        if kind == "a":
            if not table.owned:
                table.owner_hint = worker
                if not table.follow(int(message["i"]), str(message["a"])):
                    self._spawn(table.catch_up())
        elif kind == "p" and worker != cluster.worker:
            online = [bool(x) for x in message.get("o", [])][: table.record.players]
            table.remote_online[worker] = online
            table.joined.update(int(j) for j in message.get("j", []) if 0 <= int(j) < table.record.players)
            table.broadcast_presence()
            if table.owned and not table.clients and any(online):
                # Its people are over there and nobody is here: the table moves to them, so
                # that no process keeps a replica of a table it has no client of.
                self._spawn(self._hand_over(table, worker))
        elif kind == "pq" and worker != cluster.worker and table.clients:
            self.announce_presence(table)
        elif kind == "ch" and worker != cluster.worker and isinstance(message.get("l"), dict):
            line = message["l"]
            seat = line.get("seat")
            table.heard(
                {
                    "id": str(line.get("id")),
                    "seat": seat if isinstance(seat, int) and 0 <= seat < table.record.players else None,
                    "text": clean_text(str(line.get("text", "")))[:MAX_CHAT],
                    "at": float(line.get("at", 0.0)),
                }
            )
        elif kind == "cm" and worker != cluster.worker and isinstance(message.get("c"), dict):
            table.moderated(message["c"])
        elif kind == "cd" and worker != cluster.worker:
            seat = int(message.get("s", -1))
            if 0 <= seat < table.record.players:
                table.conceded_by(seat)
        elif kind == "aw" and worker != cluster.worker:
            seat = int(message.get("s", -1))
            if 0 <= seat < table.record.players:
                table.set_away(seat, bool(message.get("v")))
        elif kind == "nm" and worker != cluster.worker:
            seat = int(message.get("s", -1))
            if 0 <= seat < table.record.players:
                table.renamed(seat, clean_name(str(message.get("n", ""))))
        elif kind == "rm" and worker != cluster.worker and table.clients:
            self._spawn(self._tell_rematch(table))

    async def _act_for(self, message: dict[str, Any]) -> None:
        """An action another process forwarded to this one, the table's owner; the answer goes back to it."""
        cluster = self.cluster
        assert cluster is not None
        table = self.tables.get(str(message.get("t")))
        problem: tuple[str, str] | None
        if table is None or not table.owned:
            problem = (MOVED, "this process does not play the table")
        else:
            problem = await table.try_act(
                int(message["s"]), int(message["n"]), str(message["a"]), time.perf_counter()
            )
        reply = {"k": "r", "q": message.get("q"), "e": None if problem is None else problem[0]}
        if problem is not None:
            reply["m"] = problem[1]
        await cluster.send(worker_channel(str(message.get("r"))), reply)

    async def _on_beat(self, owned: set[str], began: float) -> None:
        """After each heartbeat: tables whose lease was lost, tables whose owner died, absent processes."""
        cluster = self.cluster
        assert cluster is not None
        for table in list(self.tables.values()):
            if (
                table.owned
                and not table.finished
                and table.record.id not in owned
                and table.claimed_at < began
            ):
                self.lost(table)
        if self.closing:
            return
        # All at once (the database pool bounds how many load together): a process that died may
        # have held hundreds of tables, and each waits for its bots and people until taken over.
        orphans = await cluster.store.orphaned_tables(limit=1000)
        results = await asyncio.gather(*(self.take_over(t) for t in orphans), return_exceptions=True)
        for table_id, result in zip(orphans, results, strict=True):
            if isinstance(result, Exception):
                log.error("table %s: could not take it over: %s", table_id, result)
        if cluster.beats % 4 == 0:
            live = await cluster.store.live_workers(cluster.lease_seconds)
            for table in self.tables.values():
                gone = [w for w in table.remote_online if w not in live]
                for worker in gone:
                    del table.remote_online[worker]
                if gone:
                    table.broadcast_presence()

    def _on_reconnect(self) -> None:
        """The bus was down for a while: replicas read what they missed from the store."""
        for table in list(self.tables.values()):
            if not table.owned:
                self._spawn(table.catch_up())

    def _refused(self, limit: str) -> None:
        if self.on_refused is not None:
            self.on_refused(limit)

    def disconnect(self, client: Client) -> None:
        if client.table is not None:
            client.table.detach(client)
        client.close()
