"""Turns at the search bots' processes, shared fairly between the people who made the tables.

The bot processes are few (two by default) and a search move takes them for
seconds. Handed out first come, first served, six all-bot tables of the
hardest level made from one address kept them busy for good, and an
unrelated table's bot waited behind every one of those moves. So a turn is
given here before a search bot's move goes to the processes:

* one owner (the address that made the table) holds at most half of the
  processes at once (rounded up), so the others always find one free soon;
* when a process comes free, the waiting owner holding the fewest goes next
  (the earliest asker among equals).

Tables nobody has open get no turn at all (:meth:`~.live_table.LiveTable.schedule_bot`).
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import TypeVar

T = TypeVar("T")


class BotShare:
    """The turns at ``slots`` bot processes, by owner."""

    def __init__(self, slots: int) -> None:
        if slots < 1:
            raise ValueError(f"a bot share needs at least 1 process, got {slots}")
        self.slots = slots
        #: Processes one owner may hold at once.
        self.per_owner = (slots + 1) // 2
        self.busy: Counter[str] = Counter()
        self._waiting: list[tuple[str, asyncio.Future[None]]] = []

    @property
    def running(self) -> int:
        return sum(self.busy.values())

    def _may_start(self, owner: str) -> bool:
        return self.running < self.slots and self.busy[owner] < self.per_owner

    async def run(self, owner: str, job: Callable[[], Awaitable[T]]) -> T:
        """``job()`` once ``owner`` has a turn. Its turn lasts until the job ends, even if the caller
        stops waiting (a move cancelled midway still occupies its process until it is done)."""
        await self._turn(owner)
        task = asyncio.ensure_future(job())
        task.add_done_callback(lambda _: self._release(owner))
        return await asyncio.shield(task)

    async def _turn(self, owner: str) -> None:
        if self._may_start(owner):
            self.busy[owner] += 1
            return
        granted: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        entry = (owner, granted)
        self._waiting.append(entry)
        try:
            await granted
        except asyncio.CancelledError:
            if entry in self._waiting:
                self._waiting.remove(entry)
            elif not granted.cancelled():
                self._release(owner)  # given a turn just as the caller stopped waiting: hand it on
            raise

    def _release(self, owner: str) -> None:
        self.busy[owner] -= 1
        if self.busy[owner] <= 0:
            del self.busy[owner]
        self._hand_on()

    def _hand_on(self) -> None:
        """Give free processes to the waiting owners holding fewest, earliest asker first."""
        while self.running < self.slots:
            eligible = [e for e in self._waiting if self.busy[e[0]] < self.per_owner]
            if not eligible:
                return
            owner, granted = min(eligible, key=lambda e: self.busy[e[0]])
            self._waiting.remove((owner, granted))
            self.busy[owner] += 1
            granted.set_result(None)
