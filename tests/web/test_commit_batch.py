"""The batching both stores use for actions: writes made during a commit share the next one, each
caller hears its own row's outcome."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import pytest

from oriflamme.web.commit_batch import CommitBatch
from oriflamme.web.store_errors import StorageError


class Writer:
    """A store's write, held open until released, refusing the rows it is told to."""

    def __init__(self, refuse: frozenset[str] = frozenset(), fail: bool = False) -> None:
        self.batches: list[list[str]] = []
        self.refuse = refuse
        self.fail = fail
        self.release = asyncio.Event()

    async def write(self, rows: list[str]) -> Sequence[StorageError | None]:
        self.batches.append(rows)
        await self.release.wait()
        if self.fail:
            raise OSError("the disk is full\n")
        return [StorageError(f"refused {row}") if row in self.refuse else None for row in rows]


async def _settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


def test_rows_handed_in_during_a_commit_share_the_next_one_in_order() -> None:
    async def run() -> list[list[str]]:
        writer = Writer()
        batch = CommitBatch(writer.write, failure="cannot store actions")
        first = asyncio.create_task(batch.commit("a"))
        await _settle()
        later = [asyncio.create_task(batch.commit(row)) for row in "bcd"]
        await _settle()
        assert not first.done() and not any(task.done() for task in later)
        writer.release.set()
        await asyncio.gather(first, *later)
        return writer.batches

    assert asyncio.run(run()) == [["a"], ["b", "c", "d"]]


def test_a_refused_row_fails_its_own_caller_only() -> None:
    async def run() -> list[BaseException | None]:
        writer = Writer(refuse=frozenset({"b"}))
        writer.release.set()
        batch = CommitBatch(writer.write, failure="cannot store actions")
        return await asyncio.gather(*(batch.commit(row) for row in "abc"), return_exceptions=True)

    outcomes = asyncio.run(run())
    assert outcomes[0] is None and outcomes[2] is None
    assert isinstance(outcomes[1], StorageError) and str(outcomes[1]) == "refused b"


def test_a_failed_write_fails_every_caller_of_its_batch_and_the_next_batch_is_written() -> None:
    async def run() -> tuple[list[BaseException | None], list[list[str]]]:
        writer = Writer(fail=True)
        batch = CommitBatch(writer.write, failure="cannot store actions")
        failed = [asyncio.create_task(batch.commit(row)) for row in "ab"]
        await _settle()
        writer.release.set()
        outcomes = await asyncio.gather(*failed, return_exceptions=True)
        writer.fail = False
        await batch.commit("c")
        return outcomes, writer.batches

    outcomes, batches = asyncio.run(run())
    for outcome in outcomes:
        assert isinstance(outcome, StorageError)
        assert str(outcome) == "cannot store actions: the disk is full"
    assert batches == [["a", "b"], ["c"]]


def test_a_caller_that_stops_waiting_leaves_the_others_their_outcome() -> None:
    async def run() -> list[list[str]]:
        writer = Writer()
        batch = CommitBatch(writer.write, failure="cannot store actions")
        gone = asyncio.create_task(batch.commit("a"))
        kept = asyncio.create_task(batch.commit("b"))
        await _settle()
        gone.cancel()
        writer.release.set()
        await kept
        with pytest.raises(asyncio.CancelledError):
            await gone
        return writer.batches

    assert asyncio.run(run()) == [["a", "b"]]
