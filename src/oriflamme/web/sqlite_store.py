"""The server's tables in one SQLite file: the default store (see :mod:`.store` for the interface).

:class:`SqliteStore` runs every query on one dedicated thread, so the event
loop never waits on the disk and sqlite3's one-connection-one-thread rule
holds; the database is in WAL mode, where an application crash loses no
committed row.
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from ..notation.replay import ACTIONS_VERSION
from .commit_batch import CommitBatch
from .store import (
    TURN_BASED_SECONDS,
    OpenTable,
    Statement,
    StoredTable,
    TableRecord,
    TokenRef,
    new_seat_rows,
    open_table,
    readable_or_none,
    stored_table,
    token_refs,
)
from .store_errors import StorageConflict, StorageError

__all__ = ["SqliteStore", "read_table", "run_sqlite_statements", "sqlite_file_problem"]

T = TypeVar("T")


def read_table(conn: sqlite3.Connection, table_id: str) -> StoredTable | None:
    """A table as stored in SQLite (None: no such table)."""
    row = conn.execute(
        "SELECT created, setup, spectator_token, host_token, finished, actions_version FROM tables WHERE id=?",
        (table_id,),
    ).fetchone()
    if row is None:
        return None
    seat_rows = conn.execute(
        "SELECT seat, kind, name, token, bot, lang, joined, conceded FROM seats WHERE table_id=? ORDER BY seat",
        (table_id,),
    ).fetchall()
    rows = conn.execute(
        "SELECT action, at FROM actions WHERE table_id=? ORDER BY idx", (table_id,)
    ).fetchall()
    return stored_table(table_id, row, seat_rows, [a for a, _ in rows], rows[-1][1] if rows else None)


def sqlite_file_problem(path: Path) -> str | None:
    """Why the SQLite file at ``path`` cannot be the server's database (None: it can, or is to be made).

    An empty file is refused: SQLite would take it for a new database, and the games it held
    (a file emptied by a failed copy or a full disk) would be forgotten without a word.
    """
    if path.is_file() and path.stat().st_size == 0:
        return (
            f"the database file {path} is empty (0 bytes), not a database: restore it from a copy "
            "made by oriflamme backup, or delete it to start with no games"
        )
    return None


class SqliteStore:
    """Tables in one SQLite file (WAL mode), every query on one worker thread."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="oriflamme-db")
        self._conn: sqlite3.Connection | None = None
        self._actions = CommitBatch(self._store_actions, failure="cannot store actions")

    async def _run(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        def job() -> T:
            conn = self._conn
            if conn is None:
                raise StorageError("the store is not open")
            return fn(conn)

        return await asyncio.get_running_loop().run_in_executor(self._pool, job)

    async def open(self) -> None:
        def connect() -> None:
            if self.path != ":memory:":
                path = Path(self.path)
                problem = sqlite_file_problem(path)
                if problem is not None:
                    raise StorageError(problem)
                path.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(self.path, isolation_level=None)
            conn.execute("PRAGMA journal_mode=WAL")
            # NORMAL in WAL mode: a crash of the process loses nothing committed;
            # only a power cut can lose the last transactions.
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("PRAGMA foreign_keys=ON")
            from .schema import migrate_sqlite

            try:
                migrate_sqlite(conn)
            except BaseException:
                conn.close()
                raise
            self._conn = conn

        await asyncio.get_running_loop().run_in_executor(self._pool, connect)

    async def close(self) -> None:
        def disconnect() -> None:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

        await asyncio.get_running_loop().run_in_executor(self._pool, disconnect)
        self._pool.shutdown(wait=True)

    async def create_table(self, record: TableRecord) -> None:
        def write(conn: sqlite3.Connection) -> None:
            with _transaction(conn):
                conn.execute(
                    "INSERT INTO tables (id, created, setup, spectator_token, host_token, actions_version, open, "
                    "watchable, turn_seconds) VALUES (?,?,?,?,?,?,?,?,?)",
                    (
                        record.id,
                        record.created,
                        record.setup_json(),
                        record.spectator_token,
                        record.host_token,
                        ACTIONS_VERSION,
                        record.open,
                        record.watchable,
                        record.turn_seconds,
                    ),
                )
                conn.executemany(
                    "INSERT INTO seats (table_id, seat, kind, name, token, bot, lang, joined) VALUES (?,?,?,?,?,?,?,?)",
                    new_seat_rows(record),
                )
                conn.executemany(
                    "INSERT INTO tokens (token, table_id, role, seat) VALUES (?,?,?,?)",
                    [(tok, ref.table_id, ref.role, ref.seat) for tok, ref in token_refs(record)],
                )

        try:
            await self._run(write)
        except sqlite3.IntegrityError as exc:
            raise StorageError(str(exc)) from None

    async def load_table(self, table_id: str) -> StoredTable | None:
        return await self._run(partial(read_table, table_id=table_id))

    async def resolve_token(self, token: str) -> TokenRef | None:
        def read(conn: sqlite3.Connection) -> TokenRef | None:
            row = conn.execute("SELECT table_id, role, seat FROM tokens WHERE token=?", (token,)).fetchone()
            return None if row is None else TokenRef(row[0], row[1], row[2])

        return await self._run(read)

    async def append_action(self, table_id: str, index: int, action: str, *, finishes: bool = False) -> None:
        """Store one action (and the game's end, if it ends it); returns once its row is committed.

        Concurrent appends (from many tables) are committed together in one
        transaction: under load the database thread is woken once per batch
        rather than once per action.
        """
        await self._actions.commit((table_id, index, action, time.time(), finishes))

    async def _store_actions(
        self, rows: list[tuple[str, int, str, float, bool]]
    ) -> list[StorageError | None]:
        """One batch of :meth:`append_action` in one transaction; per row, None or why it was refused."""
        problems = await self._run(partial(_insert_actions, rows=rows))
        return [None if problem is None else StorageError(problem) for problem in problems]

    async def upgrade_actions(self, table_id: str, actions: list[str], version: int) -> None:
        def write(conn: sqlite3.Connection) -> None:
            with _transaction(conn):
                conn.execute("DELETE FROM actions WHERE table_id=?", (table_id,))
                now = time.time()
                conn.executemany(
                    "INSERT INTO actions (table_id, idx, action, at) VALUES (?,?,?,?)",
                    [(table_id, i, a, now) for i, a in enumerate(actions)],
                )
                conn.execute("UPDATE tables SET actions_version=? WHERE id=?", (version, table_id))

        await self._run(write)

    async def mark_joined(self, table_id: str, seat: int) -> None:
        await self._run(
            lambda conn: conn.execute(
                "UPDATE seats SET joined=1 WHERE table_id=? AND seat=? AND joined=0", (table_id, seat)
            )
        )

    async def rename_seat(self, table_id: str, seat: int, name: str) -> None:
        await self._run(
            lambda conn: conn.execute(
                "UPDATE seats SET name=? WHERE table_id=? AND seat=?", (name, table_id, seat)
            )
        )

    async def claim_seat(self, table_id: str, seat: int, token: str) -> bool:
        def write(conn: sqlite3.Connection) -> bool:
            with _transaction(conn):
                cursor = conn.execute(
                    "UPDATE seats SET joined=1, token=? WHERE table_id=? AND seat=? AND kind='person' AND joined=0",
                    (token, table_id, seat),
                )
                if cursor.rowcount != 1:
                    return False
                conn.execute(
                    "UPDATE tokens SET token=? WHERE table_id=? AND role='person' AND seat=?",
                    (token, table_id, seat),
                )
                return True

        return await self._run(write)

    async def open_tables(self, limit: int = 50) -> list[OpenTable]:
        def read(conn: sqlite3.Connection) -> list[OpenTable]:
            ids = [
                i
                for (i,) in conn.execute(
                    "SELECT id FROM tables WHERE open=1 AND finished=0 AND EXISTS (SELECT 1 FROM seats WHERE "
                    "seats.table_id=tables.id AND kind='person' AND joined=0) ORDER BY created LIMIT ?",
                    (limit,),
                )
            ]
            found = (
                readable_or_none(i, partial(read_table, conn, table_id=i), (sqlite3.Error,)) for i in ids
            )
            return [open_table(stored) for stored in found if stored is not None]

        return await self._run(read)

    async def watchable_tables(self, limit: int = 20) -> list[str]:
        return await self._run(
            lambda conn: [
                i
                for (i,) in conn.execute(
                    "SELECT id FROM tables WHERE watchable=1 AND finished=0 ORDER BY created DESC LIMIT ?",
                    (limit,),
                )
            ]
        )

    async def concede(self, table_id: str, seat: int) -> None:
        await self._run(
            lambda conn: conn.execute(
                "UPDATE seats SET conceded=1 WHERE table_id=? AND seat=?", (table_id, seat)
            )
        )

    async def run_statements(
        self, statements: Sequence[Statement], *, must_change: bool = False
    ) -> list[tuple[Any, ...]]:
        return await self._run(lambda conn: run_sqlite_statements(conn, statements, must_change))

    async def mark_finished(self, table_id: str) -> None:
        await self._run(lambda conn: conn.execute("UPDATE tables SET finished=1 WHERE id=?", (table_id,)))

    async def unfinished_tables(self, active_since: float | None = None) -> list[str]:
        if active_since is None:
            return await self._run(
                lambda conn: [
                    i for (i,) in conn.execute("SELECT id FROM tables WHERE finished=0 ORDER BY created")
                ]
            )
        since = active_since
        return await self._run(
            lambda conn: [
                i
                for (i,) in conn.execute(
                    "SELECT id FROM tables WHERE finished=0 AND (created >= ? OR EXISTS "
                    "(SELECT 1 FROM actions WHERE actions.table_id = tables.id AND actions.at >= ?) "
                    "OR turn_seconds >= ?) "
                    "ORDER BY created",
                    (since, since, TURN_BASED_SECONDS),
                )
            ]
        )


def _insert_actions(
    conn: sqlite3.Connection, rows: list[tuple[str, int, str, float, bool]]
) -> list[str | None]:
    """Insert action rows (and games' ends) in one transaction; per row, None or why it was refused."""
    problems: list[str | None] = []
    with _transaction(conn):
        for table_id, index, action, at, finishes in rows:
            try:
                conn.execute(
                    "INSERT INTO actions (table_id, idx, action, at) VALUES (?,?,?,?)",
                    (table_id, index, action, at),
                )
                if finishes:
                    conn.execute("UPDATE tables SET finished=1 WHERE id=?", (table_id,))
                problems.append(None)
            except sqlite3.IntegrityError as exc:
                problems.append(f"table {table_id}: cannot store action {index}: {exc}")
    return problems


def run_sqlite_statements(
    conn: sqlite3.Connection, statements: Sequence[Statement], must_change: bool = False
) -> list[tuple[Any, ...]]:
    """:meth:`Storage.run_statements` on an SQLite connection."""
    rows: list[tuple[Any, ...]] = []
    try:
        with _transaction(conn):
            for sql, values in statements:
                cursor = conn.execute(sql, values)
                if must_change and cursor.rowcount == 0:
                    raise StorageConflict(f"no row changed by: {sql}")
                rows = cursor.fetchall()
    except sqlite3.IntegrityError as exc:
        # A uniqueness rule is a conflict the caller expects (a name taken); any other broken rule is a bug.
        raise (StorageConflict if "UNIQUE" in str(exc) else StorageError)(str(exc)) from None
    return rows


class _transaction:
    """BEGIN ... COMMIT (ROLLBACK on error) on an autocommit connection."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def __enter__(self) -> None:
        self.conn.execute("BEGIN")

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        self.conn.execute("COMMIT" if exc_type is None else "ROLLBACK")
