"""``oriflamme review FILE``: a saved game, move by move, against what the search would have played.

The review itself (:mod:`oriflamme.bots.review`) searches each decision again
from the deciding seat's view; this module words it for the terminal, in the
player's language.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ..bots.review import Describe, MoveReview
from ..engine.game import Game
from ..i18n import Translator
from .prompt import action_label

_GRADE_STYLE = {"blunder": "bold red", "mistake": "red", "inaccuracy": "yellow"}


def describer(t: Translator) -> Describe:
    """Words actions as the terminal's menus do, in ``t``'s language."""

    def describe(game: Game, action: int) -> str:
        return action_label(game, t, action)

    return describe


def _percent(p: float) -> str:
    return "–" if math.isnan(p) else f"{100 * p:.0f}%"


def render_review(t: Translator, seat: int, reviews: Sequence[MoveReview], level: str) -> RenderableType:
    """One seat's reviewed decisions as a table, then a summary line."""
    title = t("review.title", player=t.player(seat), level=level)
    if not reviews:
        return Group(Text(title, style="bold"), Text(t("review.none", player=t.player(seat))))
    table = Table(title=title, title_justify="left", expand=False, pad_edge=False)
    table.add_column(t("review.col.round"), justify="right")
    table.add_column(t("review.col.played"))
    table.add_column(t("review.col.win"), justify="right")
    table.add_column(t("review.col.best"))
    table.add_column(t("review.col.win"), justify="right")
    table.add_column(t("review.col.cost"), justify="right")
    for r in reviews:
        grade = r.grade
        same = r.played == r.best
        cost = Text(f"{r.cost:.0f}" if not same else "", style=_GRADE_STYLE.get(grade or "", ""))
        if grade is not None:
            cost.append(" " + t(f"review.grade.{grade}"))
        table.add_row(
            str(r.round),
            r.played,
            _percent(r.played_win),
            "=" if same else r.best,
            "" if same else _percent(r.best_win),
            cost,
        )
    agree = sum(r.played == r.best for r in reviews)
    mean_cost = sum(r.cost for r in reviews) / len(reviews)
    counts = {name: sum(r.grade == name for r in reviews) for name in _GRADE_STYLE}
    summary = t(
        "review.summary",
        player=t.player(seat),
        moves=len(reviews),
        agree=agree,
        cost=f"{mean_cost:.1f}",
        blunders=counts["blunder"],
        mistakes=counts["mistake"],
        inaccuracies=counts["inaccuracy"],
    )
    return Group(table, Text(summary))


def review_json(seat: int, reviews: Sequence[MoveReview]) -> list[dict[str, object]]:
    """The reviewed decisions of ``seat`` as plain data (action text forms, probabilities 0 to 1)."""

    def num(x: float) -> float | None:
        return None if math.isnan(x) else round(x, 4)

    return [
        {
            "index": r.index,
            "seat": seat,
            "round": r.round,
            "decision": r.decision,
            "played": r.played,
            "best": r.best,
            "played_win": num(r.played_win),
            "best_win": num(r.best_win),
            "played_simulations": r.played_visits,
            "best_simulations": r.best_visits,
            "cost": round(r.cost, 2),
            "grade": r.grade,
            "options": [
                {"action": text, "simulations": v.visits, "win": num(v.win), "value": num(v.value)}
                for text, v in r.options
            ],
        }
        for r in reviews
    ]


__all__ = ["describer", "render_review", "review_json"]
