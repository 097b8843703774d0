"""``oriflamme review FILE``: a saved game, move by move, against what the search would have played.

The review itself (:mod:`oriflamme.bots.review`) searches each decision again
from the deciding seat's view; this module words it for the terminal, in the
player's language. A move is told with its card and where it went
("Archer placed at the right end of the queue (4th)"), from the facts the
review gives (:class:`~oriflamme.bots.review.MoveFacts`), so that a line reads
without the table in front of one.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ..bots.review import Describe, MoveFacts, MoveReview, game_record, win_percent
from ..engine.errors import OriflammeError
from ..engine.events import Event
from ..engine.game import Game
from ..i18n import Translator
from ..notation.replay import replay
from .prompt import action_label

_GRADE_STYLE = {"blunder": "bold red", "mistake": "red", "inaccuracy": "yellow"}


def describer(t: Translator) -> Describe:
    """Words actions as the terminal's menus do, in ``t``'s language."""

    def describe(game: Game, action: int) -> str:
        return action_label(game, t, action)

    return describe


#: The verbs whose review words name a card and a position (other moves keep the menu's words).
_MOVE_VERBS = frozenset({"place", "keep", "reveal", "target", "to", "use"})


def _percent(p: float) -> str:
    shown = win_percent(p)
    return "–" if shown is None else f"{shown}%"


def where_words(t: Translator, facts: MoveFacts) -> str:
    """Where in the queue a move is about: an end of the queue with its ordinal, or a position."""
    n, length = facts.position, facts.queue_length
    if facts.text.startswith("place") and " on " in facts.text:
        return t("review.where.on", n=n)
    if n == 1:
        return t("review.where.left", nth=t.ordinal(n))
    if n == length:
        return t("review.where.right", nth=t.ordinal(n))
    return t("review.where.middle", n=n)


def move_words(t: Translator, facts: MoveFacts | None, fallback: str) -> str:
    """A move with its card and position ("Archer placed at the right end of the queue (4th)").

    ``fallback`` (the menu's words) serves the moves that name no card in the queue:
    a Spy's victim, a mode, a pile.
    """
    if facts is None or facts.verb not in _MOVE_VERBS or facts.position < 1:
        return fallback
    card = t("review.card", name=t.card(facts.card)) if facts.card else t("review.card.hidden")
    return t(f"review.move.{facts.verb}", card=card, where=where_words(t, facts))


def summary_line(t: Translator, seat: int, reviews: Sequence[MoveReview]) -> str:
    """The review's last line: decisions, agreement, mean cost and the grades, each count in its plural."""
    counts = [t(f"review.count.{name}", n=sum(r.grade == name for r in reviews)) for name in _GRADE_STYLE]
    return t(
        "review.summary",
        player=t.player(seat),
        moves=t("review.decisions", n=len(reviews)),
        agree=sum(r.played == r.best for r in reviews),
        cost=f"{sum(r.cost for r in reviews) / len(reviews):.1f}",
        grades=t.join(counts),
    )


def past_events(game: Game) -> list[Event]:
    """Every event of ``game`` from its deal, for the log of a game resumed from a save file.

    A game read from a file holds its actions but not their events: they are
    replayed from the deal. A built position (no deal to replay) has only its own.
    """
    try:
        setup, actions = game_record(game)
        events: list[Event] = []
        replay(setup, actions, lambda _g, step, *_: events.extend(step))
    except OriflammeError:
        return list(game.events)
    return events


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
        cost = Text(str(r.cost) if not same else "", style=_GRADE_STYLE.get(grade or "", ""))
        if grade is not None:
            cost.append(" " + t(f"review.grade.{grade}"))
        table.add_row(
            str(r.round),
            move_words(t, r.played_move, r.played),
            _percent(r.played_win),
            "=" if same else move_words(t, r.best_move, r.best),
            "" if same else _percent(r.best_win),
            cost,
        )
    summary = summary_line(t, seat, reviews)
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
            "cost": r.cost,
            "grade": r.grade,
            "played_move": r.played_move.to_dict() if r.played_move else None,
            "best_move": r.best_move.to_dict() if r.best_move else None,
            "options": [
                {"action": text, "simulations": v.visits, "win": num(v.win), "value": num(v.value)}
                for text, v in r.options
            ],
        }
        for r in reviews
    ]


__all__ = [
    "describer",
    "move_words",
    "past_events",
    "render_review",
    "review_json",
    "summary_line",
    "where_words",
]
