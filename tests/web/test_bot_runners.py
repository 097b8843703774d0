"""Where the server's bots think: light bots on threads, search bots in processes (the measured best)."""

from __future__ import annotations

import asyncio

from oriflamme.engine.game import Game
from oriflamme.web.bot_runners import LIGHT_BOTS, SplitBotRunner


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
