"""Where the server keeps its tables: the records and the storage interface every store implements.

A table is stored as its *setup* (players, recipe, rule options, seed, first
player, seats) plus the list of action texts played, one row per action, and
the version of that action sequence (:data:`~oriflamme.notation.replay.ACTIONS_VERSION`;
a table stored by an older server is upgraded when it is next loaded). The
server writes an action's row before it tells anybody the action happened, so
after a crash or a restart every game is rebuilt by replaying its actions and
goes on where it was. Nothing else about a game is stored: the engine is the
single source of truth for the state.

Tokens are the only credentials: each seat's invite token, a spectator token
and the host token of the person who created the table. They are random
(``secrets.token_urlsafe``) and map to a table and a role.

The stores: :class:`~oriflamme.web.sqlite_store.SqliteStore` (the default, one
file), :class:`~oriflamme.web.pg_store.PostgresStore` (shared by server
processes) and :class:`~oriflamme.web.memory_store.MemoryStore` (tests and
throw-away servers). This module holds what they share: the records and the
interface.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal, Protocol, TypeVar

from ..notation.replay import ACTIONS_VERSION
from .store_errors import StorageError as StorageError  # re-exported: every store raises it

log = logging.getLogger("oriflamme.web")

Role = Literal["person", "bot", "spectator", "host"]
SeatKind = Literal["person", "bot"]

T = TypeVar("T")

#: A turn timer from this long makes a table turn-based (see TableRecord.turn_based).
TURN_BASED_SECONDS = 3600


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """One seat as set up at creation: a person (invited by its token) or a bot."""

    kind: SeatKind
    name: str
    token: str
    #: Bot spec (``ismcts:normal``) for a bot seat, None for a person.
    bot: str | None = None
    #: The language this seat's page starts in (a catalog code such as ``en``).
    lang: str = "en"


@dataclass(frozen=True, slots=True)
class TableRecord:
    """Everything needed to deal a table's game again, and who sits where."""

    id: str
    created: float
    #: The deck as asked for (a preset name, ``random`` or ``custom``), for display.
    deck: str
    players: int
    recipe: tuple[str, ...]
    rules: dict[str, int]
    seed: int
    #: The first player as given to ``Game.new`` (None: drawn from the seed).
    first_player: int | None
    seats: tuple[SeatRecord, ...]
    spectator_token: str
    host_token: str
    #: Seconds a person has for each decision before a bot plays for them (0: no timer).
    turn_seconds: int = 0
    #: Listed in the lobby, where anyone may take a person seat nobody has joined yet.
    open: bool = False
    #: Anyone may watch it: listed in the lobby's live games with its spectator link.
    watchable: bool = False
    #: The host is never given the other person seats' links: an open table, whose seats strangers
    #: take, and the rematches of one (each person is told their own link there).
    private_links: bool = False
    #: Who made the table, as far as the bot processes' turns go (:mod:`.bot_share`): a digest of
    #: the maker's address, never the address itself; "" when not known.
    maker: str = ""

    def seated_at_creation(self) -> frozenset[int]:
        """Seats taken as the table is stored: an open table's first seat is its creator's, so that
        no stranger can be given it in between."""
        return frozenset({0}) if self.open and self.seats[0].kind == "person" else frozenset()

    @property
    def host_sees_links(self) -> bool:
        """Whether the host hands out the person seats' invite links (a table among friends)."""
        return not (self.open or self.private_links)

    @property
    def turn_based(self) -> bool:
        """A table whose turn timer is an hour or more: a game played over days, a move at a time.
        Its clock is kept across restarts however long ago its last move was."""
        return self.turn_seconds >= TURN_BASED_SECONDS

    def with_token(self, seat: int, token: str) -> TableRecord:
        """The same table with ``seat`` opened by ``token`` (a seat a stranger claimed)."""
        seats = tuple(replace(s, token=token) if i == seat else s for i, s in enumerate(self.seats))
        return replace(self, seats=seats)

    def renamed(self, seat: int, name: str) -> TableRecord:
        """The same table with ``seat`` shown by ``name``."""
        seats = tuple(replace(s, name=name) if i == seat else s for i, s in enumerate(self.seats))
        return replace(self, seats=seats)

    def setup_json(self) -> str:
        setup: dict[str, Any] = {
            "deck": self.deck,
            "players": self.players,
            "recipe": list(self.recipe),
            "rules": self.rules,
            "seed": self.seed,
            "first_player": self.first_player,
            "turn_seconds": self.turn_seconds,
            "open": self.open,
        }
        if self.watchable:
            setup["watchable"] = True
        if self.private_links:
            setup["private_links"] = True
        if self.maker:
            setup["maker"] = self.maker
        return json.dumps(setup, separators=(",", ":"))


@dataclass(frozen=True, slots=True)
class TokenRef:
    """What a token opens: a table, a role there and, for a seat, its number."""

    table_id: str
    role: Role
    seat: int | None


@dataclass(slots=True)
class StoredTable:
    """A table as read back: its record, the actions played, and its progress flags."""

    record: TableRecord
    actions: list[str]
    joined: set[int] = field(default_factory=set)
    finished: bool = False
    #: The action-sequence version ``actions`` are written in.
    actions_version: int = ACTIONS_VERSION
    #: When the last action was stored (seconds since the epoch; None: none yet). A turn timer
    #: counts from it, so it survives a restart or a takeover by another process.
    last_at: float | None = None
    #: Person seats whose person conceded (a bot plays them to the end).
    conceded: set[int] = field(default_factory=set)


@dataclass(frozen=True, slots=True)
class OpenTable:
    """A table anyone may sit at: its record and its free person seats."""

    record: TableRecord
    free: tuple[int, ...]


def readable_or_none(
    table_id: str, read: Callable[[], StoredTable | None], store_errors: tuple[type[Exception], ...]
) -> StoredTable | None:
    """``read()``, or None when the table's rows cannot be read (damaged: logged, left out); an error of
    the store itself (``store_errors``) is not the table's and is raised. The lists of open tables
    leave a damaged table out rather than fail for everyone."""
    try:
        return read()
    except store_errors:
        raise
    except Exception as exc:
        left_out(table_id, exc)
        return None


def left_out(table_id: str, exc: Exception) -> None:
    """Log that a damaged table is left out of the open tables (each reading says so)."""
    log.warning(
        "table %s left out of the open tables: its rows cannot be read (%s: %s)",
        table_id,
        type(exc).__name__,
        exc,
    )


def open_table(stored: StoredTable | None) -> OpenTable:
    assert stored is not None
    free = tuple(
        i for i, s in enumerate(stored.record.seats) if s.kind == "person" and i not in stored.joined
    )
    return OpenTable(stored.record, free)


#: One SQL statement with ``?`` placeholders, and its values (see :meth:`Storage.run_statements`).
Statement = tuple[str, tuple[Any, ...]]


class Storage(Protocol):
    """What the server needs from a storage backend. Every method is a coroutine."""

    async def open(self) -> None: ...

    async def close(self) -> None: ...

    async def create_table(self, record: TableRecord) -> None: ...

    async def load_table(self, table_id: str) -> StoredTable | None: ...

    async def resolve_token(self, token: str) -> TokenRef | None: ...

    async def append_action(self, table_id: str, index: int, action: str, *, finishes: bool = False) -> None:
        """Store action number ``index`` (0-based); an index already stored is an error.

        ``finishes``: the action ends the game, and the table is marked finished in
        the same transaction, so that no crash can leave a finished game unfinished.
        """
        ...

    async def upgrade_actions(self, table_id: str, actions: list[str], version: int) -> None:
        """Replace a table's actions by the same game written in action-sequence ``version``."""
        ...

    async def mark_joined(self, table_id: str, seat: int) -> None: ...

    async def rename_seat(self, table_id: str, seat: int, name: str) -> None:
        """A person chose the name their seat is shown by (already cleaned)."""
        ...

    async def concede(self, table_id: str, seat: int) -> None:
        """A person gave up their seat for good."""
        ...

    async def claim_seat(self, table_id: str, seat: int, token: str) -> bool:
        """Mark a person seat of an open table as taken, unless somebody joined it already; whether we did.

        The seat is opened by ``token`` from then on, and by no other: whatever link the seat had
        before (its creator held every seat's) stops working in the same transaction.
        """
        ...

    async def open_tables(self, limit: int = 50) -> list[OpenTable]:
        """Open, unfinished tables with a person seat nobody has joined, oldest first."""
        ...

    async def mark_finished(self, table_id: str) -> None: ...

    async def watchable_tables(self, limit: int = 20) -> list[str]:
        """Unfinished tables anyone may watch, newest first."""
        ...

    async def run_statements(
        self, statements: Sequence[Statement], *, must_change: bool = False
    ) -> list[tuple[Any, ...]]:
        """Run ``statements`` in one transaction and return the rows of the last: the queries of
        accounts and ratings (:mod:`.accounts`, :mod:`.ratings`), written once for every backend.
        A broken uniqueness rule, or with ``must_change`` a statement that changed no row (a
        rating another process updated first), raises :class:`~.store_errors.StorageConflict`
        with nothing written."""
        ...

    async def unfinished_tables(self, active_since: float | None = None) -> list[str]:
        """Tables whose game is not over, oldest first; with ``active_since`` (a ``time.time()``), only
        those created or played since then (the others wait in the store until someone comes back)."""
        ...


def stored_table(
    table_id: str,
    row: Sequence[Any],
    seat_rows: Sequence[Sequence[Any]],
    actions: list[str],
    last_at: float | None = None,
) -> StoredTable:
    """A table from its rows, as every SQL store reads them.

    ``row``: created, setup (JSON), spectator token, host token, finished, actions version;
    ``seat_rows``: seat, kind, name, token, bot, lang, joined, conceded, in seat order.
    """
    created, setup_text, spectator_token, host_token, finished, actions_version = row
    setup: dict[str, Any] = json.loads(setup_text)
    seats: list[SeatRecord] = []
    joined: set[int] = set()
    conceded: set[int] = set()
    for seat, kind, name, token, bot, lang, was_joined, gave_up in seat_rows:
        seats.append(SeatRecord(kind=kind, name=name, token=token, bot=bot, lang=lang))
        if was_joined:
            joined.add(seat)
        if gave_up:
            conceded.add(seat)
    record = TableRecord(
        id=table_id,
        created=created,
        deck=setup["deck"],
        players=setup["players"],
        recipe=tuple(setup["recipe"]),
        rules=setup["rules"],
        seed=setup["seed"],
        first_player=setup["first_player"],
        seats=tuple(seats),
        spectator_token=spectator_token,
        host_token=host_token,
        # Tables stored before turn timers existed have none.
        turn_seconds=int(setup.get("turn_seconds", 0)),
        open=bool(setup.get("open", False)),
        watchable=bool(setup.get("watchable", False)),
        private_links=bool(setup.get("private_links", False)),
        maker=str(setup.get("maker", "")),
    )
    return StoredTable(record, actions, joined, bool(finished), actions_version, last_at, conceded)


def new_seat_rows(record: TableRecord) -> list[tuple[Any, ...]]:
    """The ``seats`` rows of a new table: table, seat, kind, name, token, bot, language, joined."""
    seated = record.seated_at_creation()
    return [
        (record.id, i, s.kind, s.name, s.token, s.bot, s.lang, i in seated)
        for i, s in enumerate(record.seats)
    ]


def token_refs(record: TableRecord) -> list[tuple[str, TokenRef]]:
    """Every token of a table and what it opens."""
    refs = [(s.token, TokenRef(record.id, s.kind, i)) for i, s in enumerate(record.seats)]
    refs.append((record.spectator_token, TokenRef(record.id, "spectator", None)))
    refs.append((record.host_token, TokenRef(record.id, "host", None)))
    return refs
