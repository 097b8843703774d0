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
from ..bots.review import DEFAULT_LEVEL, by_shown_win, review_game, review_level
from ..engine.setup import Setup
from ..engine.view import SeatView

#: The level hints and reviews search at: the review's own default, as in the terminal.
LEVEL = DEFAULT_LEVEL


def _win(p: float) -> float | None:
    return None if math.isnan(p) else round(p, 4)


def hint(view: SeatView, seed: int) -> list[tuple[int, float | None, int]]:
    """Every legal action of ``view``'s decision as (action, estimated win chance, simulations).

    Highest win chance as shown (whole percent) first, ties in the search's order: a list
    that shows percentages reads in their order.
    """
    values = IsmctsBot(review_level(LEVEL), seed).evaluate(view)
    return [(v.action, _win(v.win), v.visits) for v in by_shown_win(values)]


def review(setup: Setup, actions: Sequence[str], seat: int) -> list[dict[str, Any]]:
    """``seat``'s decisions in a finished game, each with the move the search preferred and its cost.

    The same review as the terminal's and ``oriflamme review`` on the game's save file:
    the same function, level and seed (:func:`~oriflamme.bots.review.review_seed`).
    """
    rows = []
    for r in review_game(setup, actions, [seat], LEVEL):
        rows.append(
            {
                "index": r.index,
                "round": r.round,
                "decision": r.decision,
                "played": r.played,
                "best": r.best,
                "played_win": _win(r.played_win),
                "best_win": _win(r.best_win),
                "cost": r.cost,
                "grade": r.grade,
                "visits": r.best_visits,
                "played_move": r.played_move.to_dict() if r.played_move else None,
                "best_move": r.best_move.to_dict() if r.best_move else None,
            }
        )
    return rows
