"""Live tables: the games in play, who is connected to each, and the bots that move in them.

The server is an adapter around the engine. For each table it holds one
:class:`~oriflamme.engine.game.Game`, rebuilt from the store by replaying its
actions, and an :class:`asyncio.Lock` so that one action at a time is
checked, stored, applied and broadcast. The order is fixed: the action's row
is written to the store *before* the game changes and before anybody hears of
it, so a crash never loses an action a player has seen.

A table in play is a :class:`~.live_table.LiveTable`. Every message to a
connection is built from that connection's seat view and from events redacted
for that seat (:mod:`.table_messages`). Each connection
(:class:`~.client.Client`) has its own outgoing queue and writer task: a slow
or dead browser fills only its own queue (and is dropped when it overflows),
never the table. With several server processes, :mod:`.cluster_routing`
passes actions to the process that plays each table and tells the others what
changed; this module only delegates to it.

Bots think in a :class:`BotRunner` (a process pool by default) so that a bot
searching for seconds never blocks the event loop or the other tables.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..bots import parse_bot_spec, search_processes
from ..engine.errors import OriflammeError
from ..engine.game import Game
from ..engine.options import RuleOptions
from ..engine.recipes import parse_recipe, recipe_name
from ..notation.replay import ACTIONS_VERSION
from ..notation.savefile import round_one_first
from .bot_runners import BotRunner
from .bot_share import BotShare
from .channels import table_channel
from .protocol import (
    JoinMessage,
    PingMessage,
    ProtocolError,
    dumps,
    error_message,
    parse_client_message,
)
from .store import SeatKind, SeatRecord, Storage, StorageError, TableRecord, TokenRef

if TYPE_CHECKING:
    from .cluster import Cluster

from .client import Client
from .cluster_routing import ClusterRouting
from .live_table import LiveTable
from .names import RESERVED_NAME, clean_name, looks_like_a_default_name
from .open_seats import OpenSeats, new_token
from .seat_rates import SeatRates
from .table_dispatch import handler_for
from .table_game import rematch_id, rematch_message

log = logging.getLogger("oriflamme.web")

LANGUAGES = ("en", "ru", "uk", "pl", "fr")
#: The turn timers a table may have (0 turns it off): up to 3 days a decision.
MIN_TURN_SECONDS, MAX_TURN_SECONDS = 10, 3 * 24 * 3600
#: Connections one seat's link may hold at once (a phone and a laptop, a reloaded tab).
MAX_CONNECTIONS_PER_SEAT = 4


class SetupProblem(ValueError):
    """A table that cannot be created as asked; the message says why, for the person asking."""


#: What the links of a damaged table answer.
DAMAGED = (
    "this table's stored record is damaged, so it is set aside and cannot be opened; the server's "
    "operator can find it in the server's log"
)


class TableDamaged(Exception):
    """A link to a table whose stored record cannot be read or replayed (set aside: see ``TableRegistry.damaged``)."""

    def __init__(self, table_id: str) -> None:
        super().__init__(DAMAGED)
        self.table_id = table_id


@dataclass(frozen=True, slots=True)
class SeatRequest:
    kind: str
    name: str = ""
    bot: str | None = None
    lang: str = "en"


def maker_digest(address: str) -> str:
    """What a table stores of its maker's address (a :func:`~.guard.client_key`): enough to tell
    one maker's tables from another's, not the address ("" for none)."""
    if not address:
        return ""
    return hashlib.blake2b(address.encode(), digest_size=12, person=b"oriflamme-maker").hexdigest()


class TableRegistry:
    """All live tables of one server, loaded from the store on first use."""

    def __init__(
        self, store: Storage, bot_runner: BotRunner, bot_delay: float = 0.8, cluster: Cluster | None = None
    ) -> None:
        self.store = store
        #: The other server processes, when several share a PostgreSQL database (None: this one alone).
        self.cluster = cluster
        self._background: set[asyncio.Task[Any]] = set()
        #: Forwarding, takeovers and announcements between the processes (None: this one alone).
        self.routing = None if cluster is None else ClusterRouting(self, cluster)
        self.bot_runner = bot_runner
        self.bot_delay = bot_delay
        #: Whether bots that search in several processes at once (``ismcts:master``) may be seated.
        self.parallel_bots = False
        self.tables: dict[str, LiveTable] = {}
        self.bot_tasks: set[asyncio.Task[None]] = set()
        self.closing = False
        self._loading: dict[str, asyncio.Future[LiveTable | None]] = {}
        #: Tables whose stored record could not be read or replayed, and why: set aside (never
        #: loaded again by this process), each logged once, so one bad row never stops the server.
        self.damaged: dict[str, str] = {}
        self.on_broadcast: Callable[[int, float], None] | None = None
        #: Spectator connections one table accepts at once (players always get in, up to
        #: :data:`MAX_CONNECTIONS_PER_SEAT` each, so that watchers cannot lock them out).
        self.max_connections_per_table = 32
        #: Called with the name of a limit that refused a connection (metrics).
        self.on_refused: Callable[[str], None] | None = None
        #: Seconds without an action after which an unfinished table nobody is connected to leaves
        #: memory (it stays in the store and comes back when someone opens it); None: never.
        self.idle_seconds: float | None = None
        #: What happens when a game ends at a table this process plays (its rating, see .ratings).
        self.on_game_over: Callable[[LiveTable], Awaitable[Any]] | None = None
        #: What happens when a turn-based table asks a person who is not there (mail, see .mail).
        self.on_turn: Callable[[LiveTable, int], Awaitable[Any]] | None = None
        self._sweeper: asyncio.Task[None] | None = None
        #: Who sits at each open table, and the free seats strangers take there.
        self.open_seats = OpenSeats(store, self.tables, self.get, self.announce_presence)
        #: What each seat may make its table hear, per unit of time, across its connections.
        self.rates = SeatRates()
        #: Turns at the bot processes for search moves, shared by the tables' makers.
        self.bot_share = BotShare(getattr(bot_runner, "search_slots", 2))

    async def start(self) -> None:
        """Load the unfinished tables played lately, so that bots whose turn it was carry on after a restart
        (light bots and stand-ins at once, search bots once somebody opens the table).

        Tables idle for longer than :attr:`idle_seconds` stay in the store: a
        server with years of abandoned games starts as fast as a new one, and
        such a table is loaded when somebody opens one of its links. Turn-based
        tables (a timer of an hour or more) are loaded however long ago their
        last move was, so that a clock of days runs out on time after a restart;
        while a clock runs, its waiting stand-in keeps the table from the sweep.
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
        self.spawn(cluster.unlisten(table_channel(table_id)))
        if table.owned:
            self.spawn(cluster.store.release(table_id))

    def spawn(self, work: Awaitable[Any]) -> None:
        """Run ``work`` in the background, kept until it ends, its failure logged (never raised)."""

        async def run() -> None:
            try:
                await work
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("background work failed")

        task = asyncio.create_task(run())
        self._background.add(task)
        task.add_done_callback(self._background.discard)

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
            table = None if table_id in self.damaged else await self._replayed(table_id)
            if table is not None and cluster is not None and not table.finished:
                table.owned = await cluster.store.claim(table_id, cluster.lease_seconds)
                table.claimed_at = asyncio.get_running_loop().time()
            if table is not None and table.needs_upgrade and (table.owned or table.finished):
                await self.store.upgrade_actions(table_id, table.upgraded_rows(), ACTIONS_VERSION)
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
                    self.spawn(cluster.send(table_channel(table_id), {"k": "pq", "w": cluster.worker}))
            future.set_result(table)
            return table
        except BaseException as exc:
            future.set_exception(exc)
            raise
        finally:
            del self._loading[table_id]

    async def _replayed(self, table_id: str) -> LiveTable | None:
        """The table as its stored record replays (None: no such table); a record that cannot be read
        or replayed sets the table aside in :attr:`damaged`, with one line in the log."""
        try:
            stored = await self.store.load_table(table_id)
            return None if stored is None else LiveTable(self, stored)
        except StorageError:
            raise  # the store itself failed (not this table): nothing to set aside
        except Exception as exc:
            why = f"{type(exc).__name__}: {exc}"
            self.damaged[table_id] = why
            log.error(
                "table %s is set aside: its stored record cannot be read or replayed (%s)", table_id, why
            )
            return None

    async def resolve(self, token: str) -> tuple[LiveTable, TokenRef] | None:
        """The table and role a token opens; None for a token of no table; :class:`TableDamaged` for
        a damaged table's (so that its links say so, not that they are unknown)."""
        ref = await self.store.resolve_token(token)
        if ref is None:
            return None
        table = await self.get(ref.table_id)
        if table is None and ref.table_id in self.damaged:
            raise TableDamaged(ref.table_id)
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
        private_links: bool = False,
        owner: str = "",
        watchable: bool = False,
    ) -> LiveTable:
        """Deal a new table, store it, and start its bots; raise :class:`SetupProblem` if it cannot be.

        ``owner`` (the maker's :func:`~.guard.client_key`) shares its search bots' turns at the bot
        processes with the maker's other tables (:mod:`.bot_share`), stored as a digest; "" gives the
        table a share of its own.
        ``table_id`` names it (a rematch's id follows from its game's); a table of that id already
        stored raises :class:`~.store_errors.StorageError`. An open table is dealt from the
        server's own randomness: the seed deals every hidden card, so whoever chose it would know
        the hands of the strangers who sit down.
        """
        if len(seats) != players:
            raise SetupProblem(f"{players} players need {players} seats, got {len(seats)}")
        if open and seed is not None:
            raise SetupProblem(
                "an open table is dealt from the server's own randomness, so that nobody knows the "
                "strangers' cards: leave out the seed"
            )
        if open and not turn_seconds:
            raise SetupProblem(
                "an open table needs a turn timer, so that no stranger who sits down waits for good "
                "on a player who is not there"
            )
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
                processes = search_processes(bot_kind, level)
                if processes > 1 and not self.parallel_bots:
                    raise SetupProblem(
                        f"seat {i + 1}: {bot_kind}:{level} searches in {processes} processes at once; this "
                        "server offers it only when started with --parallel-bots"
                    )
                bot = bot_kind if level is None else f"{bot_kind}:{level}"
            # An empty name is shown as "Bot 2", "Игрок 3" ... in each viewer's own language.
            name = clean_name(s.name)
            if kind == "person" and looks_like_a_default_name(name):
                raise SetupProblem(f"seat {i + 1}: {RESERVED_NAME}")
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
            private_links=private_links,
            maker=maker_digest(owner),
            watchable=watchable,
        )
        await self.store.create_table(record)
        table = await self.get(record.id)
        assert table is not None
        table.schedule_bot()
        return table

    # -- rematches

    async def rematch_of(self, table: LiveTable) -> LiveTable | None:
        """The rematch of a finished table, if somebody asked for one."""
        if not table.finished:
            return None
        return await self.get(rematch_id(table.record.id))

    async def rematch(self, table: LiveTable, owner: str = "") -> LiveTable:
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
                # Strangers met at an open table: nobody is given the others' links at the rematch either.
                private_links=not r.host_sees_links,
                owner=owner,
                watchable=r.watchable,
            )
        except StorageError:
            # Somebody else made it first (another process, at the same moment).
            found = await self.get(rematch_id(r.id))
            if found is None:
                raise
            return found
        self.announce_rematch(table)
        return new

    def announce_rematch(self, table: LiveTable) -> None:
        """Tell everyone at the old table (here, and through the bus at every other process)."""
        self.spawn(self.tell_rematch(table))
        if self.routing is not None:
            self.routing.announce_rematch(table)

    async def tell_rematch(self, table: LiveTable) -> None:
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
            else:
                table, handler = handler_for(client, msg)
                done = handler(table, client, msg, received)
                if done is not None:
                    await done
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
        try:
            found = await self.resolve(msg.token)
        except TableDamaged:
            raise ProtocolError("damaged", DAMAGED) from None
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

    # -- what the tables tell the other processes, through .cluster_routing

    def announce_presence(self, table: LiveTable) -> None:
        if self.routing is not None:
            self.routing.announce_presence(table)

    def announce_chat(self, table: LiveTable, message: dict[str, Any]) -> None:
        if self.routing is not None:
            self.routing.announce_chat(table, message)

    def announce_concession(self, table: LiveTable, seat: int) -> None:
        if self.routing is not None:
            self.routing.announce_concession(table, seat)

    def announce_away(self, table: LiveTable, seat: int, away: bool) -> None:
        if self.routing is not None:
            self.routing.announce_away(table, seat, away)

    def names_erased(self, seats: list[tuple[str, int]]) -> None:
        """Seats whose player deleted their account: the tables loaded here (and, through the
        cluster, elsewhere) show them by their default names at once, as the store already does."""
        for table_id, seat in seats:
            table = self.tables.get(table_id)
            if table is not None and table.record.seats[seat].name:
                table.renamed(seat, "")
                self.announce_rename(table, seat, "")

    def announce_rename(self, table: LiveTable, seat: int, name: str) -> None:
        if self.routing is not None:
            self.routing.announce_rename(table, seat, name)

    async def forward(self, table: LiveTable, client: Client, seat: int, state: int, text: str) -> None:
        """Pass an action made at a replica to the table's owner (only a cluster has replicas)."""
        assert self.routing is not None
        await self.routing.forward(table, client, seat, state, text)

    def lost(self, table: LiveTable) -> None:
        """Another process took ``table`` over. Only a cluster's store raises LeaseLost, so
        without one this is never called."""
        if self.routing is not None:
            self.routing.lost(table)

    def game_over(self, table: LiveTable) -> None:
        if self.on_game_over is not None:
            self.spawn(self.on_game_over(table))

    def turn_passed(self, table: LiveTable, seat: int) -> None:
        if self.on_turn is not None:
            self.spawn(self.on_turn(table, seat))

    def _refused(self, limit: str) -> None:
        if self.on_refused is not None:
            self.on_refused(limit)

    def disconnect(self, client: Client) -> None:
        if client.table is not None:
            client.table.detach(client)
        client.close()
