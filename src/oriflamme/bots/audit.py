"""Auditing a bot: where its choices differ from a search's, by decision and card, and what they cost.

A review (:mod:`oriflamme.bots.review`) grades one game; an audit grades a
bot's *policy* over many positions. Seeded games are played with the audited
bot in every seat; a random sample of the decisions that had a choice is
reviewed by a search from the deciding seat's view (so nothing hidden is
used), and the costs are summed by decision kind and by the card the decision
is about: the card placed, or the card whose keep, reveal or ability asks.

This is how the search's weaknesses are looked for. The search plays the
heuristic's moves in its playouts and scores positions with the heuristic's
projection, so a kind of decision the heuristic gets badly wrong bends every
simulation that passes through it: the rows that lose the most points are
where a better rule of thumb pays twice, in the heuristic bot and in every
search level. The search's own estimates come from the same playouts, so an
audit points at suspects; a tournament decides.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from ..engine.actions import placed_card
from ..engine.cards import SLUGS
from ..engine.game import Game
from ..engine.registry import P_ACTOR
from ..engine.seeds import derive_seed
from .registry import make_bot
from .review import DEFAULT_LEVEL, MoveReview, review_position

__all__ = ["AuditRow", "audit_bot", "subject"]


@dataclass(frozen=True, slots=True)
class AuditRow:
    """The reviewed decisions of one kind about one card."""

    decision: str
    #: The card's kind (its slug), or ``-`` for a decision about no card.
    card: str
    positions: int
    #: Decisions where the bot's choice was not the search's.
    disagreements: int
    #: Win-probability points lost, summed over the positions (see MoveReview.cost).
    cost: float
    #: Positions that lost 10 points or more (a mistake or a blunder).
    mistakes: int

    @property
    def mean_cost(self) -> float:
        return self.cost / self.positions


def subject(g: Game, action: int) -> str:
    """The card a decision is about: the card placed, else the card asking (its kind's slug)."""
    if g.decision() == "place":
        return SLUGS[g.kind[placed_card(action)]]
    pending = g.pending
    actor = pending[P_ACTOR] if pending is not None else -1
    return SLUGS[g.kind[actor]] if actor >= 0 else "-"


def audit_bot(
    spec: str = "heuristic",
    deck: str = "alliance",
    positions: int = 300,
    players: int = 4,
    level: str = DEFAULT_LEVEL,
    share: float = 0.3,
    seed: int = 0,
    on_review: Callable[[MoveReview], None] | None = None,
) -> list[AuditRow]:
    """Review ``positions`` decisions of ``spec`` playing every seat; rows by total cost, worst first.

    Each decision with a choice is reviewed with probability ``share``, so the
    sample spreads over whole games rather than their openings. Everything is
    seeded: the same arguments give the same rows.
    """
    if positions < 1:
        raise ValueError("an audit needs at least one position")
    if not 0.0 < share <= 1.0:
        raise ValueError(f"share must be in (0, 1], not {share}")
    pick = random.Random(derive_seed("audit", seed))
    totals: dict[tuple[str, str], list[float]] = {}
    done = 0
    game = 0
    while done < positions:
        g = Game.new(players=players, deck=deck, seed=derive_seed("audit-game", seed, game))
        bots = [make_bot(spec, derive_seed("audit-bot", seed, game, s)) for s in range(players)]
        game += 1
        while g.pending is not None:
            seat = g.current_player()
            action = bots[seat].choose(g.view(seat))
            if len(g.options) > 1 and done < positions and pick.random() < share:
                review = review_position(g, action, level, derive_seed("audit-review", seed, done))
                row = totals.setdefault((review.decision, subject(g, action)), [0, 0, 0.0, 0])
                row[0] += 1
                row[1] += review.played != review.best
                row[2] += review.cost
                row[3] += review.cost >= 10.0
                done += 1
                if on_review is not None:
                    on_review(review)
            g.apply(action)
    rows = [
        AuditRow(decision, card, int(n), int(dis), cost, int(bad))
        for (decision, card), (n, dis, cost, bad) in totals.items()
    ]
    rows.sort(key=lambda r: (-r.cost, r.decision, r.card))
    return rows
