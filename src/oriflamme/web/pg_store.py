"""Tables in PostgreSQL: the storage of a server that outgrows one SQLite file.

The same layout and the same guarantees as :class:`~oriflamme.web.sqlite_store.SqliteStore`
(an action's row is committed before anybody is told of it, the game's end in
the same transaction as its last action), on a database several server
processes and machines can share. Queries go through a pool of asynchronous
connections (psycopg 3), so the event loop never waits on the network; the
layout is created and migrated by :mod:`.schema` (Alembic), as SQLite's is.

``oriflamme serve --db postgresql://user@host/dbname`` uses it; the driver
comes with the ``postgres`` extra.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from typing import Any

from ..notation.replay import ACTIONS_VERSION
from .channels import table_channel
from .commit_batch import CommitBatch
from .store import (
    TURN_BASED_SECONDS,
    OpenTable,
    Statement,
    StorageError,
    StoredTable,
    TableRecord,
    TokenRef,
    left_out,
    new_seat_rows,
    open_table,
    stored_table,
    token_refs,
)
from .store_errors import LeaseLost, StorageConflict

#: The database's clock in seconds since the epoch: leases are timed by it, so that the clocks of
#: the machines sharing the database need not agree.
NOW = "extract(epoch from clock_timestamp())"


class PostgresStore:
    """Tables in a PostgreSQL database, shared by any number of server processes."""

    def __init__(self, dsn: str, *, max_connections: int = 8, owner: str | None = None) -> None:
        self.dsn = dsn
        self.max_connections = max_connections
        #: The id of this server process among those sharing the database. When set, an action is
        #: stored only while this process holds the table's lease, and announced on the bus in the
        #: same transaction (see :mod:`.cluster`).
        self.owner = owner
        self._pool: Any = None
        self._actions = CommitBatch(self._write_actions, failure="cannot store actions")

    @property
    def pool(self) -> Any:
        if self._pool is None:
            raise StorageError("the store is not open")
        return self._pool

    async def open(self) -> None:
        try:
            from psycopg_pool import AsyncConnectionPool
        except ImportError:
            raise StorageError(
                "a PostgreSQL database needs the 'postgres' extra: pip install 'oriflamme[postgres]'"
            ) from None
        from .schema import migrate_postgres

        # The layout first (Alembic, on a thread: it is synchronous), then the pool for queries.
        await asyncio.to_thread(migrate_postgres, self.dsn)
        # Autocommit: a statement outside an explicit transaction is its own (one round trip, not two).
        pool = AsyncConnectionPool(
            self.dsn, min_size=1, max_size=self.max_connections, open=False, kwargs={"autocommit": True}
        )
        try:
            await pool.open(wait=True, timeout=10)
        except Exception as exc:
            await pool.close()
            raise StorageError(f"cannot reach the database: {exc}") from None
        self._pool = pool

    async def close(self) -> None:
        if self._pool is not None:
            await self._pool.close()
            self._pool = None

    async def create_table(self, record: TableRecord) -> None:
        import psycopg

        try:
            async with self.pool.connection() as conn, conn.transaction():
                await conn.execute(
                    "INSERT INTO tables (id, created, setup, spectator_token, host_token, actions_version, open, "
                    "watchable, turn_seconds) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)",
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
                async with conn.cursor() as cur:
                    await cur.executemany(
                        "INSERT INTO seats (table_id, seat, kind, name, token, bot, lang, joined) "
                        "VALUES (%s, %s, %s, %s, %s, %s, %s, %s)",
                        new_seat_rows(record),
                    )
                    await cur.executemany(
                        "INSERT INTO tokens (token, table_id, role, seat) VALUES (%s, %s, %s, %s)",
                        [(tok, ref.table_id, ref.role, ref.seat) for tok, ref in token_refs(record)],
                    )
        except psycopg.errors.IntegrityError as exc:
            raise StorageError(str(exc).strip()) from None

    async def load_table(self, table_id: str) -> StoredTable | None:
        async with self.pool.connection() as conn:
            row = await (
                await conn.execute(
                    "SELECT created, setup, spectator_token, host_token, finished, actions_version "
                    "FROM tables WHERE id=%s",
                    (table_id,),
                )
            ).fetchone()
            if row is None:
                return None
            seat_rows = await (
                await conn.execute(
                    "SELECT seat, kind, name, token, bot, lang, joined, conceded FROM seats WHERE table_id=%s ORDER BY seat",
                    (table_id,),
                )
            ).fetchall()
            rows = await (
                await conn.execute(
                    "SELECT action, at FROM actions WHERE table_id=%s ORDER BY idx", (table_id,)
                )
            ).fetchall()
        return stored_table(table_id, row, seat_rows, [a for a, _ in rows], rows[-1][1] if rows else None)

    async def actions_since(self, table_id: str, start: int) -> list[str]:
        """The table's stored actions from number ``start`` on (a replica catching up)."""
        async with self.pool.connection() as conn:
            rows = await (
                await conn.execute(
                    "SELECT action FROM actions WHERE table_id=%s AND idx >= %s ORDER BY idx",
                    (table_id, start),
                )
            ).fetchall()
        return [r[0] for r in rows]

    async def resolve_token(self, token: str) -> TokenRef | None:
        async with self.pool.connection() as conn:
            row = await (
                await conn.execute("SELECT table_id, role, seat FROM tokens WHERE token=%s", (token,))
            ).fetchone()
        return None if row is None else TokenRef(row[0], row[1], row[2])

    async def append_action(self, table_id: str, index: int, action: str, *, finishes: bool = False) -> None:
        """Store one action (and the game's end, if it ends it); returns once its row is committed.

        Appends made while a batch is being written go together in the next one: a single
        statement (one round trip, one commit) stores them all, which keeps the event loop's
        share of each action small when hundreds of tables play at once. With an :attr:`owner`,
        each action is stored only while this process holds its table's lease (the lease row is
        locked until the commit, so a process taking the table over waits for it and then reads
        it) and announced on the bus by the same statement, at the commit, in commit order.
        """
        await self._actions.commit((table_id, index, action, finishes))

    async def _write_actions(self, rows: list[tuple[str, int, str, bool]]) -> list[StorageError | None]:
        """Insert action rows in one statement; per row, None or why it was refused."""
        tables = [r[0] for r in rows]
        indices = [r[1] for r in rows]
        actions = [r[2] for r in rows]
        ends = [r[3] for r in rows]
        if self.owner is None:
            allowed = "SELECT table_id FROM req"
            announce = "SELECT 0"
        else:
            allowed = "SELECT l.table_id FROM leases l JOIN req USING (table_id) WHERE l.owner = %(owner)s FOR SHARE OF l"
            announce = (
                "SELECT pg_notify(%(channel)s || r.table_id, json_build_object('k', 'a', 'i', r.idx, 'a', r.action, "
                "'w', %(owner)s::text)::text) FROM req r JOIN ins USING (table_id, idx)"
            )
        query = (
            "WITH req AS (SELECT * FROM unnest(%(tables)s::text[], %(indices)s::int[], %(actions)s::text[], "
            "%(ends)s::bool[]) AS r(table_id, idx, action, finishes)), "
            f"allowed AS ({allowed}), "
            "ins AS (INSERT INTO actions (table_id, idx, action, at) SELECT r.table_id, r.idx, r.action, %(at)s "
            "FROM req r JOIN allowed USING (table_id) ON CONFLICT DO NOTHING RETURNING table_id, idx), "
            "fin AS (UPDATE tables t SET finished = TRUE FROM req r JOIN ins USING (table_id, idx) "
            "WHERE t.id = r.table_id AND r.finishes RETURNING t.id), "
            f"note AS ({announce}) "
            "SELECT (SELECT array_agg(table_id) FROM allowed), (SELECT array_agg(table_id) FROM ins), "
            "(SELECT count(*) FROM note), (SELECT count(*) FROM fin)"
        )
        params = {
            "tables": tables,
            "indices": indices,
            "actions": actions,
            "ends": ends,
            "at": time.time(),
            "owner": self.owner,
            "channel": table_channel(""),
        }
        async with self.pool.connection() as conn:
            row = await (await conn.execute(query, params)).fetchone()
        assert row is not None
        allowed_ids = set(row[0] or ())
        stored_ids = set(row[1] or ())
        problems: list[StorageError | None] = []
        for table_id, index, _, _ in rows:
            if table_id not in allowed_ids:
                problems.append(LeaseLost(f"table {table_id} is now played by another server process"))
            elif table_id not in stored_ids:
                problems.append(
                    StorageError(f"table {table_id}: cannot store action {index}: it is stored already")
                )
            else:
                problems.append(None)
        return problems

    async def upgrade_actions(self, table_id: str, actions: list[str], version: int) -> None:
        now = time.time()
        async with self.pool.connection() as conn, conn.transaction():
            await conn.execute("DELETE FROM actions WHERE table_id=%s", (table_id,))
            async with conn.cursor() as cur:
                await cur.executemany(
                    "INSERT INTO actions (table_id, idx, action, at) VALUES (%s, %s, %s, %s)",
                    [(table_id, i, a, now) for i, a in enumerate(actions)],
                )
            await conn.execute("UPDATE tables SET actions_version=%s WHERE id=%s", (version, table_id))

    async def mark_joined(self, table_id: str, seat: int) -> None:
        async with self.pool.connection() as conn:
            await conn.execute(
                "UPDATE seats SET joined=TRUE WHERE table_id=%s AND seat=%s AND NOT joined", (table_id, seat)
            )

    async def rename_seat(self, table_id: str, seat: int, name: str) -> None:
        async with self.pool.connection() as conn:
            await conn.execute(
                "UPDATE seats SET name=%s WHERE table_id=%s AND seat=%s", (name, table_id, seat)
            )

    async def claim_seat(self, table_id: str, seat: int, token: str) -> bool:
        async with self.pool.connection() as conn, conn.transaction():
            cursor = await conn.execute(
                "UPDATE seats SET joined=TRUE, token=%s "
                "WHERE table_id=%s AND seat=%s AND kind='person' AND NOT joined",
                (token, table_id, seat),
            )
            if cursor.rowcount != 1:
                return False
            await conn.execute(
                "UPDATE tokens SET token=%s WHERE table_id=%s AND role='person' AND seat=%s",
                (token, table_id, seat),
            )
            return True

    async def open_tables(self, limit: int = 50) -> list[OpenTable]:
        import psycopg

        async with self.pool.connection() as conn:
            cursor = await conn.execute(
                "SELECT id FROM tables WHERE open AND NOT finished AND EXISTS (SELECT 1 FROM seats WHERE "
                "seats.table_id=tables.id AND kind='person' AND NOT joined) ORDER BY created LIMIT %s",
                (limit,),
            )
            ids = [i for (i,) in await cursor.fetchall()]
        tables = []
        for table_id in ids:
            try:
                tables.append(await self.load_table(table_id))
            except (StorageError, psycopg.Error):
                raise
            except Exception as exc:  # a damaged table's rows: left out, not a failure for everyone
                left_out(table_id, exc)
        return [t for t in (open_table(stored) for stored in tables if stored is not None) if t.free]

    async def watchable_tables(self, limit: int = 20) -> list[str]:
        async with self.pool.connection() as conn:
            cursor = await conn.execute(
                "SELECT id FROM tables WHERE watchable AND NOT finished ORDER BY created DESC LIMIT %s",
                (limit,),
            )
            return [i for (i,) in await cursor.fetchall()]

    async def concede(self, table_id: str, seat: int) -> None:
        async with self.pool.connection() as conn:
            await conn.execute(
                "UPDATE seats SET conceded=TRUE WHERE table_id=%s AND seat=%s", (table_id, seat)
            )

    async def run_statements(
        self, statements: Sequence[Statement], *, must_change: bool = False
    ) -> list[tuple[Any, ...]]:
        import psycopg

        rows: list[tuple[Any, ...]] = []
        try:
            async with self.pool.connection() as conn, conn.transaction():
                for sql, values in statements:
                    # The statements are written with ? for SQLite; none holds a ? or % of its own.
                    assert sql.count("?") == len(values) and "%" not in sql, sql
                    cursor = await conn.execute(sql.replace("?", "%s"), values)
                    if must_change and cursor.rowcount == 0:
                        raise StorageConflict(f"no row changed by: {sql}")
                    rows = await cursor.fetchall() if cursor.description is not None else []
        except (
            psycopg.errors.UniqueViolation,
            psycopg.errors.DeadlockDetected,
            psycopg.errors.SerializationFailure,
        ) as exc:
            raise StorageConflict(str(exc).strip()) from None
        except psycopg.errors.IntegrityError as exc:
            raise StorageError(str(exc).strip()) from None
        return rows

    async def mark_finished(self, table_id: str) -> None:
        async with self.pool.connection() as conn:
            await conn.execute("UPDATE tables SET finished=TRUE WHERE id=%s", (table_id,))

    async def unfinished_tables(self, active_since: float | None = None) -> list[str]:
        async with self.pool.connection() as conn:
            if active_since is None:
                cursor = await conn.execute("SELECT id FROM tables WHERE NOT finished ORDER BY created")
            else:
                cursor = await conn.execute(
                    "SELECT id FROM tables WHERE NOT finished AND (created >= %s OR EXISTS "
                    "(SELECT 1 FROM actions WHERE actions.table_id = tables.id AND actions.at >= %s) "
                    "OR turn_seconds >= %s) "
                    "ORDER BY created",
                    (active_since, active_since, TURN_BASED_SECONDS),
                )
            return [i for (i,) in await cursor.fetchall()]

    # -- ownership of tables among server processes (see .cluster)

    async def claim(self, table_id: str, seconds: float) -> bool:
        """Take the table's lease for ``seconds`` unless another process holds a live one; whether we hold it."""
        assert self.owner is not None
        async with self.pool.connection() as conn:
            row = await (
                await conn.execute(
                    f"INSERT INTO leases (table_id, owner, expires) VALUES (%s, %s, {NOW} + %s) "
                    "ON CONFLICT (table_id) DO UPDATE SET owner = EXCLUDED.owner, expires = EXCLUDED.expires, "
                    "epoch = leases.epoch + (leases.owner <> EXCLUDED.owner)::int "
                    f"WHERE leases.owner = EXCLUDED.owner OR leases.expires < {NOW} RETURNING owner",
                    (table_id, self.owner, seconds),
                )
            ).fetchone()
        return row is not None

    async def heartbeat(self, seconds: float) -> set[str]:
        """Say this process lives and extend every lease it holds; the tables it still owns."""
        assert self.owner is not None
        async with self.pool.connection() as conn, conn.transaction():
            await conn.execute(
                f"INSERT INTO workers (id, seen, started) VALUES (%s, {NOW}, {NOW}) "
                "ON CONFLICT (id) DO UPDATE SET seen = EXCLUDED.seen",
                (self.owner,),
            )
            rows = await (
                await conn.execute(
                    f"UPDATE leases SET expires = {NOW} + %s WHERE owner = %s RETURNING table_id",
                    (seconds, self.owner),
                )
            ).fetchall()
        return {r[0] for r in rows}

    async def expire(self, table_id: str) -> None:
        """Let the table's lease lapse now (a take-over that failed half-way): the next sweep of any
        process takes the table over again, instead of it staying held by a process not playing it."""
        async with self.pool.connection() as conn:
            await conn.execute(
                f"UPDATE leases SET expires = {NOW} - 1 WHERE table_id=%s AND owner=%s",
                (table_id, self.owner),
            )

    async def release(self, table_id: str) -> None:
        """Give up the table's lease (the table left this process's memory)."""
        async with self.pool.connection() as conn:
            await conn.execute("DELETE FROM leases WHERE table_id=%s AND owner=%s", (table_id, self.owner))

    async def release_all(self) -> None:
        """Give up every lease and the heartbeat (a clean stop: the others take the tables over at once)."""
        async with self.pool.connection() as conn, conn.transaction():
            # Expired rather than deleted: the other processes find them at their next beat.
            await conn.execute("UPDATE leases SET expires = 0 WHERE owner=%s", (self.owner,))
            await conn.execute("DELETE FROM workers WHERE id=%s", (self.owner,))

    async def lease_owner(self, table_id: str) -> str | None:
        """The process holding a live lease on the table, if any."""
        async with self.pool.connection() as conn:
            row = await (
                await conn.execute(
                    f"SELECT owner FROM leases WHERE table_id=%s AND expires >= {NOW}", (table_id,)
                )
            ).fetchone()
        return None if row is None else str(row[0])

    async def orphaned_tables(self, limit: int = 100) -> list[str]:
        """Unfinished tables whose owner stopped renewing its lease: a process died, they need a new one."""
        async with self.pool.connection() as conn:
            rows = await (
                await conn.execute(
                    "SELECT l.table_id FROM leases l JOIN tables t ON t.id = l.table_id "
                    f"WHERE l.expires < {NOW} AND NOT t.finished ORDER BY random() LIMIT %s",
                    (limit,),
                )
            ).fetchall()
        return [r[0] for r in rows]

    async def live_workers(self, seconds: float) -> set[str]:
        """The server processes that said they lived within the last ``seconds``."""
        async with self.pool.connection() as conn:
            rows = await (
                await conn.execute(f"SELECT id FROM workers WHERE seen >= {NOW} - %s", (seconds,))
            ).fetchall()
        return {r[0] for r in rows}

    async def publish(self, channel: str, payload: str) -> None:
        """Send one message on the bus (PostgreSQL NOTIFY; at most 8000 bytes)."""
        async with self.pool.connection() as conn:
            await conn.execute("SELECT pg_notify(%s, %s)", (channel, payload))
