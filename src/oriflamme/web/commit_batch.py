"""Writes made while one is being committed go together in the next commit: the stores' action batching.

Under load hundreds of tables store an action at nearly the same moment. Waking
the database (a thread for SQLite, a round trip for PostgreSQL) once per batch
rather than once per action keeps the event loop's share of each action small,
and the order in which the rows were handed in is the order they are written.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import Generic, TypeVar

from .store_errors import StorageError

Row = TypeVar("Row")

#: Writes rows in one transaction and says, per row, None (committed) or why it was refused.
WriteRows = Callable[[list[Row]], Awaitable[Sequence[StorageError | None]]]


class CommitBatch(Generic[Row]):
    """Rows handed to :meth:`commit` while a batch is being written are written together in the next one.

    Each caller gets its own row's outcome: its write returns once the row is
    committed, or raises the :class:`StorageError` that refused that row alone.
    When the whole write fails, nothing of the batch was stored, and every
    caller of the batch hears why.
    """

    def __init__(self, write: WriteRows[Row], *, failure: str) -> None:
        """``write`` stores a batch; ``failure`` begins the message of a write that failed as a whole."""
        self._write = write
        self._failure = failure
        self._waiting: list[tuple[Row, asyncio.Future[None]]] = []
        #: The task writing batches until none is waiting (held here so that it is not collected).
        self._flushing: asyncio.Task[None] | None = None

    async def commit(self, row: Row) -> None:
        """Write ``row`` with whatever else is waiting; returns once it is committed."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        self._waiting.append((row, future))
        if self._flushing is None:
            self._flushing = loop.create_task(self._flush())
        await future

    async def _flush(self) -> None:
        try:
            while self._waiting:
                batch, self._waiting = self._waiting, []
                try:
                    problems = await self._write([row for row, _ in batch])
                except Exception as exc:  # the transaction failed: nothing of the batch was stored
                    problems = [StorageError(f"{self._failure}: {str(exc).strip()}")] * len(batch)
                for (_, future), problem in zip(batch, problems, strict=True):
                    if future.done():  # its caller gave up waiting
                        continue
                    if problem is None:
                        future.set_result(None)
                    else:
                        future.set_exception(problem)
        finally:
            self._flushing = None
