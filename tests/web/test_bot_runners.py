"""Where the server's bots think: light bots on threads, search bots in processes (the measured best)."""

from __future__ import annotations

import asyncio
import multiprocessing.process
import time

from oriflamme.engine.game import Game
from oriflamme.web.bot_runners import LIGHT_BOTS, ExecutorBotRunner, SplitBotRunner


def test_light_bots_think_here_and_search_bots_in_the_process_pool() -> None:
    g = Game.new(3, "base", seed=4)
    view = g.view(g.current_player())

    async def scenario() -> None:
        runner = SplitBotRunner(workers=1)
        try:
            for spec in ("random", "heuristic"):
                assert await runner.choose(spec, 1, view) in view.legal_actions
            pool = runner._heavy.executor
            assert not getattr(pool, "_processes", None)  # no process was started for light bots
            assert await runner.choose("ismcts:easy", 1, view) in view.legal_actions
            assert getattr(pool, "_processes", None)  # the search went to a worker process
        finally:
            runner.close()

    asyncio.run(scenario())
    assert {"random", "heuristic"} == set(LIGHT_BOTS)


def test_closing_the_runner_ends_a_worker_in_the_middle_of_a_move() -> None:
    """Bot processes once thought on after the server got its SIGTERM, for as long as a move took."""

    async def scenario() -> list[multiprocessing.process.BaseProcess]:
        runner = ExecutorBotRunner(workers=1)
        move = asyncio.ensure_future(runner.analyse(time.sleep, 120))  # a move that would take 2 minutes
        pool = runner.executor
        while not getattr(pool, "_processes", None):
            await asyncio.sleep(0.01)
        processes = list(pool._processes.values())  # type: ignore[attr-defined]
        await asyncio.sleep(0.5)  # the worker has taken the move
        runner.close()
        move.cancel()
        return processes

    processes = asyncio.run(scenario())
    for process in processes:
        process.join(timeout=20)
        assert not process.is_alive()
