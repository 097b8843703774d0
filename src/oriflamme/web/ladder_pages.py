"""A page of a ladder, as the ladder pages (``/ladders/duel``, ``/ladders/multi``) show it.

The accounts are ranked and paged; the bots are not ranked (no game moves their
ratings) but shown among them as anchors, each on the one page whose accounts
its rating falls between, so that a reader sees where "beats the expert bot"
sits on the ladder.
"""

from __future__ import annotations

import math
from functools import cache
from typing import Any

from ..bots.registry import available_kinds
from .ratings import BOT_ANCHORS, BOT_SIGMA, Ratings

__all__ = [
    "LADDER_PAGE",
    "MAX_LADDER_PAGE",
    "anchors_between",
    "bot_anchors",
    "ladder_page",
    "offered_anchors",
]

#: Accounts on a page of a ladder, unless asked otherwise.
LADDER_PAGE = 50
#: The most accounts one request may ask for.
MAX_LADDER_PAGE = 100
#: The furthest a page may start (beyond any ladder; a bound that every database's integers hold).
MAX_OFFSET = 1_000_000_000


def bot_anchors(kinds: list[str]) -> list[dict[str, Any]]:
    """The anchors of the bots of ``kinds`` (those this server offers), best first, rated as accounts
    are (mu - 3 sigma)."""
    rows = [
        {"bot": spec, "rating": round(mu - 3 * BOT_SIGMA, 2)}
        for spec, mu in BOT_ANCHORS.items()
        if spec.split(":")[0] in kinds
    ]
    return sorted(rows, key=lambda row: (-row["rating"], row["bot"]))


@cache
def offered_anchors() -> tuple[dict[str, Any], ...]:
    """The anchors of the bots this server offers (what it can build does not change while it runs)."""
    return tuple(bot_anchors(available_kinds()))


def anchors_between(
    anchors: tuple[dict[str, Any], ...] | list[dict[str, Any]], above: float, below: float
) -> list[dict[str, Any]]:
    """The anchors a page shows: rated at most ``above`` (the last account of the pages before; an
    anchor tied with an account comes after it) and more than ``below`` (the last account of this
    page, when pages follow). Consecutive pages share their bound, so each anchor is on one page."""
    return [a for a in anchors if below < a["rating"] <= above]


async def ladder_page(
    ratings: Ratings,
    ladder: str,
    season: int,
    offset: int,
    limit: int,
    anchors: tuple[dict[str, Any], ...] | list[dict[str, Any]],
) -> dict[str, Any]:
    """The accounts ranked ``offset + 1`` to ``offset + limit`` on a season's ladder, how many it lists,
    and the bots' anchors that fall among them."""
    # One account more on each side: the bounds of this page's anchors.
    start = max(0, offset - 1)
    rows = await ratings.board(ladder, limit=limit + 1 + (offset - start), season=season, offset=start)
    before = rows[0] if offset > 0 and rows and rows[0]["rank"] == offset else None
    shown = rows[(1 if before else 0) :][:limit]
    more = len(rows) > len(shown) + (1 if before else 0)
    above = before["rating"] if before else math.inf
    below = shown[-1]["rating"] if more and shown else -math.inf
    placed = anchors_between(anchors, above, below) if shown or offset == 0 else []
    return {
        "ladder": ladder,
        "season": season,
        "offset": offset,
        "limit": limit,
        "total": await ratings.board_size(ladder, season),
        "players": shown,
        "anchors": placed,
    }
