"""The turns at the bot processes: at most half to one owner, the fewest-holding waiter next."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import pytest

from oriflamme.web.bot_share import BotShare


class Jobs:
    """Jobs that start when given a turn and end when the test says so."""

    def __init__(self) -> None:
        self.started: list[str] = []
        self.finish: dict[str, asyncio.Event] = {}

    def job(self, name: str) -> Callable[[], Awaitable[str]]:
        async def run() -> str:
            self.started.append(name)
            self.finish[name] = asyncio.Event()
            await self.finish[name].wait()
            return name

        return run

    async def end(self, name: str) -> None:
        self.finish[name].set()
        await settle()


async def settle() -> None:
    """Let every task that can run, run (a turn given, a job started, a result passed on)."""
    for _ in range(10):
        await asyncio.sleep(0)


def test_one_owner_holds_half_the_processes_and_the_fewest_holding_waiter_goes_next() -> None:
    async def scenario() -> None:
        share, jobs = BotShare(4), Jobs()
        asks = [asyncio.ensure_future(share.run("hog", jobs.job(f"hog{i}"))) for i in range(5)]
        await settle()
        assert jobs.started == ["hog0", "hog1"]  # two of four, however many it asks
        other = asyncio.ensure_future(share.run("ann", jobs.job("ann0")))
        bob = asyncio.ensure_future(share.run("bob", jobs.job("bob0")))
        await settle()
        assert jobs.started[2:] == ["ann0", "bob0"]  # free processes: no wait
        late = asyncio.ensure_future(share.run("cyd", jobs.job("cyd0")))
        await jobs.end("hog0")
        # Free: hog (1 held, 3 waiting since long before) and cyd (0 held): cyd goes first.
        assert jobs.started[4:] == ["cyd0"]
        await jobs.end("ann0")
        assert jobs.started[5:] == ["hog2"]
        for name in ("hog1", "hog2", "bob0", "cyd0"):
            await jobs.end(name)
        await jobs.end("hog3")
        await jobs.end("hog4")
        assert await asyncio.gather(*asks, other, bob, late) == [
            "hog0",
            "hog1",
            "hog2",
            "hog3",
            "hog4",
            "ann0",
            "bob0",
            "cyd0",
        ]
        assert share.running == 0 and not share.busy

    asyncio.run(scenario())


def test_a_caller_that_stops_waiting_leaves_the_queue_and_a_running_move_keeps_its_process() -> None:
    async def scenario() -> None:
        share, jobs = BotShare(1), Jobs()
        first = asyncio.ensure_future(share.run("a", jobs.job("a0")))
        waiting = asyncio.ensure_future(share.run("b", jobs.job("b0")))
        third = asyncio.ensure_future(share.run("c", jobs.job("c0")))
        await settle()
        waiting.cancel()
        first.cancel()  # the move goes on in its process: its turn is not over
        await settle()
        assert jobs.started == ["a0"] and share.busy == {"a": 1}
        await jobs.end("a0")
        assert jobs.started == ["a0", "c0"]  # b stopped waiting: it gets no turn
        await jobs.end("c0")
        assert await third == "c0" and share.running == 0
        for task in (first, waiting):
            with pytest.raises(asyncio.CancelledError):
                await task

    asyncio.run(scenario())


def test_a_share_needs_a_process() -> None:
    with pytest.raises(ValueError, match="at least 1 process"):
        BotShare(0)
