"""The search's analyses the server offers people: a hint for a decision, a review of a finished game.

Each is a module-level function of plain arguments, so that the bot runner may
send it to a worker process (:meth:`~.bot_runners.BotRunner.analyse`), and
returns plain data; the HTTP layer (:mod:`.app`) decides who may ask, how often.
Both search from one seat's view only (:meth:`IsmctsBot.evaluate`), so they tell
a person nothing that seat could not know.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from ..bots.ismcts import IsmctsBot
from ..bots.review import review_game
from ..engine.setup import Setup
from ..engine.view import SeatView

#: The level hints and reviews search at: the level that beats three heuristic bots.
LEVEL = "normal"


def _win(p: float) -> float | None:
    return None if math.isnan(p) else round(p, 4)


def hint(view: SeatView, seed: int) -> list[tuple[int, float | None, int]]:
    """Every legal action of ``view``'s decision as (action, estimated win chance, simulations), best first."""
    return [(v.action, _win(v.win), v.visits) for v in IsmctsBot(LEVEL, seed).evaluate(view)]


def review(setup: Setup, actions: Sequence[str], seat: int, seed: int) -> list[dict[str, Any]]:
    """``seat``'s decisions in a finished game, each with the move the search preferred and its cost."""
    rows = []
    for r in review_game(setup, actions, [seat], LEVEL, seed):
        rows.append(
            {
                "index": r.index,
                "round": r.round,
                "decision": r.decision,
                "played": r.played,
                "best": r.best,
                "played_win": _win(r.played_win),
                "best_win": _win(r.best_win),
                "cost": round(r.cost, 1),
                "grade": r.grade,
                "visits": r.best_visits,
            }
        )
    return rows
