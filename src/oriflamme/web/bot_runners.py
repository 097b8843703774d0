"""Where bots think for the web server: a process pool by default, threads for cheap bots.

A bot sees only its seat's view; a runner takes that view and the bot's spec
and seed to another process or thread, so a slow search never holds up the
event loop, and hands back the bot's action.
"""

from __future__ import annotations

import asyncio
import dataclasses
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any, Protocol, TypeVar

from ..bots import make_bot
from ..engine.view import SeatView

T = TypeVar("T")

#: How long :meth:`ExecutorBotRunner.close` waits for terminated workers before killing them.
_TERMINATE_GRACE_S = 2.0


class BotRunner(Protocol):
    """Runs a bot's choice, and the search's analyses (hints, reviews), away from the event loop."""

    async def choose(self, spec: str, seed: int, view: SeatView) -> int: ...

    async def analyse(self, job: Callable[..., T], *args: Any) -> T:
        """Run ``job(*args)`` (a module-level function: it may go to another process)."""
        ...

    def close(self) -> None: ...


def bot_choose(spec: str, seed: int, view: SeatView) -> int:
    """One bot decision, in whatever worker runs it (module-level so a process pool can pickle it)."""
    return make_bot(spec, seed).choose(view)


def plain_view(view: SeatView) -> SeatView:
    """A view whose parts all pickle (its rules may be a read-only mapping shared between games)."""
    return view if isinstance(view.rules, dict) else dataclasses.replace(view, rules=dict(view.rules))


def is_search(spec: str) -> bool:
    """Whether a bot of ``spec`` thinks for long (a search, a network): it waits for a turn at the
    bot processes (:mod:`.bot_share`) and only at a table somebody has open."""
    return spec.partition(":")[0] not in LIGHT_BOTS


class ExecutorBotRunner:
    """Bots in a :class:`concurrent.futures.Executor`: processes by default, threads for cheap bots."""

    def __init__(self, executor: Executor | None = None, workers: int = 2) -> None:
        #: Search moves that run at once (a turn each: :class:`~.bot_share.BotShare`).
        self.search_slots = max(1, workers)
        if executor is None:
            import multiprocessing

            # A fresh interpreter per worker: forking a process that runs an event
            # loop and a database thread is not safe.
            executor = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"))
        self.executor = executor

    async def choose(self, spec: str, seed: int, view: SeatView) -> int:
        return await self.analyse(bot_choose, spec, seed, plain_view(view))

    async def analyse(self, job: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self.executor, job, *args)

    def close(self) -> None:
        """Stop the workers now, a search in the middle of its move included: a SIGTERM reaches the
        server alone, and its bot processes would otherwise think on for as long as their move takes."""
        processes = list((getattr(self.executor, "_processes", None) or {}).values())
        self.executor.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            if process.is_alive():
                process.terminate()
        # A worker once outlived its SIGTERM on a loaded machine (the cause was not found): each gets
        # a moment to end, then a SIGKILL, which nothing survives.
        deadline = time.monotonic() + _TERMINATE_GRACE_S
        for process in processes:
            process.join(max(0.0, deadline - time.monotonic()))
            if process.is_alive():
                process.kill()


class InlineBotRunner:
    """Bots on a thread of the default pool: for tests and the random bot, which think in microseconds."""

    async def choose(self, spec: str, seed: int, view: SeatView) -> int:
        return await asyncio.to_thread(bot_choose, spec, seed, view)

    async def analyse(self, job: Callable[..., T], *args: Any) -> T:
        return await asyncio.to_thread(job, *args)

    def close(self) -> None:
        return None


#: Bots that decide in well under a millisecond: sending their view to another process costs more
#: than their thinking, so they run on a thread of this process.
LIGHT_BOTS = frozenset({"random", "heuristic"})


class SplitBotRunner:
    """Light bots on threads here, search bots in worker processes: the server's default.

    Measured with ``oriflamme bench server --shipped``: with heuristic bots,
    threads answer faster than processes (no pickling, no inter-process
    round trip), while a search holding the interpreter for a tenth of a
    second on a thread would delay every broadcast of the server. So each
    kind goes where it costs least.
    """

    def __init__(self, workers: int = 2) -> None:
        self.search_slots = max(1, workers)
        self._light = InlineBotRunner()
        self._heavy = ExecutorBotRunner(workers=workers)

    async def choose(self, spec: str, seed: int, view: SeatView) -> int:
        runner: BotRunner = self._heavy if is_search(spec) else self._light
        return await runner.choose(spec, seed, view)

    async def analyse(self, job: Callable[..., T], *args: Any) -> T:
        # A search: it goes where the searching bots go.
        return await self._heavy.analyse(job, *args)

    def close(self) -> None:
        self._light.close()
        self._heavy.close()
