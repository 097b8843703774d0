"""A storage that keeps its tables in the process's memory: for tests and an app given no database.

It keeps the same guarantees as :class:`~oriflamme.web.sqlite_store.SqliteStore`
(one row per action index, an index stored twice is refused, a claimed seat's
old link stops working), so the storage tests run the same scenarios over
every backend; it simply forgets everything when the process ends.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Sequence
from typing import Any

from .sqlite_store import run_sqlite_statements
from .store import (
    OpenTable,
    Statement,
    StoredTable,
    TableRecord,
    TokenRef,
    open_table,
    token_refs,
)
from .store_errors import StorageError

__all__ = ["MemoryStore"]


class MemoryStore:
    """A storage that forgets everything when the process ends: for tests and throw-away servers."""

    def __init__(self) -> None:
        self._tables: dict[str, StoredTable] = {}
        self._tokens: dict[str, TokenRef] = {}
        self._active: dict[str, float] = {}  # time of each table's last action
        #: The accounts' rows, in an SQLite database in memory (made at the first query).
        self._sql: sqlite3.Connection | None = None

    async def open(self) -> None:
        return None

    async def close(self) -> None:
        if self._sql is not None:
            self._sql.close()
            self._sql = None

    async def create_table(self, record: TableRecord) -> None:
        if record.id in self._tables:
            raise StorageError(f"table {record.id} exists")
        self._tables[record.id] = StoredTable(record, [], set(record.seated_at_creation()))
        for ref_token, ref in token_refs(record):
            self._tokens[ref_token] = ref

    async def load_table(self, table_id: str) -> StoredTable | None:
        t = self._tables.get(table_id)
        if t is None:
            return None
        return StoredTable(
            t.record,
            list(t.actions),
            set(t.joined),
            t.finished,
            t.actions_version,
            self._active.get(table_id),
            set(t.conceded),
        )

    async def resolve_token(self, token: str) -> TokenRef | None:
        return self._tokens.get(token)

    async def append_action(self, table_id: str, index: int, action: str, *, finishes: bool = False) -> None:
        t = self._tables[table_id]
        if index != len(t.actions):
            raise StorageError(f"table {table_id}: action {index} arrives with {len(t.actions)} stored")
        t.actions.append(action)
        self._active[table_id] = time.time()
        if finishes:
            t.finished = True

    async def upgrade_actions(self, table_id: str, actions: list[str], version: int) -> None:
        t = self._tables[table_id]
        t.actions, t.actions_version = list(actions), version

    async def mark_joined(self, table_id: str, seat: int) -> None:
        self._tables[table_id].joined.add(seat)

    async def rename_seat(self, table_id: str, seat: int, name: str) -> None:
        stored = self._tables[table_id]
        stored.record = stored.record.renamed(seat, name)

    async def concede(self, table_id: str, seat: int) -> None:
        self._tables[table_id].conceded.add(seat)

    async def claim_seat(self, table_id: str, seat: int, token: str) -> bool:
        t = self._tables[table_id]
        if seat in t.joined or t.record.seats[seat].kind != "person":
            return False
        t.joined.add(seat)
        del self._tokens[t.record.seats[seat].token]
        t.record = t.record.with_token(seat, token)
        self._tokens[token] = TokenRef(table_id, "person", seat)
        return True

    async def open_tables(self, limit: int = 50) -> list[OpenTable]:
        tables = sorted(self._tables.values(), key=lambda t: t.record.created)
        found = [open_table(t) for t in tables if t.record.open and not t.finished]
        return [t for t in found if t.free][:limit]

    async def run_statements(
        self, statements: Sequence[Statement], *, must_change: bool = False
    ) -> list[tuple[Any, ...]]:
        if self._sql is None:
            from .schema import migrate_sqlite

            conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
            migrate_sqlite(conn)
            self._sql = conn
        return run_sqlite_statements(self._sql, statements, must_change)

    async def mark_finished(self, table_id: str) -> None:
        self._tables[table_id].finished = True

    async def watchable_tables(self, limit: int = 20) -> list[str]:
        found = [t for t in self._tables.values() if t.record.watchable and not t.finished]
        return [t.record.id for t in sorted(found, key=lambda t: -t.record.created)][:limit]

    async def unfinished_tables(self, active_since: float | None = None) -> list[str]:
        return [
            i
            for i, t in self._tables.items()
            if not t.finished
            and (
                active_since is None
                or t.record.turn_based
                or self._active.get(i, t.record.created) >= active_since
            )
        ]
