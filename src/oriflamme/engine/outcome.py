"""How a game stands or ended: scores, ranks, winners, how a tie was broken, and each seat's IP ledger.

The one implementation of the ranking rules (docs/rules.md §3, end of game): most IP
wins; a tie goes to the tied player controlling most positions; a remaining
tie is shared. Every client reads :meth:`Game.outcome
<oriflamme.engine.game.Game.outcome>`: the end screens of the terminal and
the browser, tournament standings, save-file checks, and learning rewards.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from .causes import cause_name
from .state import State
from .zones import OVER

#: How the winner was decided: one player had the most IP; a tie on IP was broken by
#: positions controlled; or a tie remained and the win is shared.
DecidedBy = Literal["score", "positions", "shared"]


@dataclass(frozen=True, slots=True)
class Outcome:
    """The standing of every seat; final when ``finished``."""

    finished: bool
    scores: tuple[int, ...]
    #: Positions whose top card each seat controls: the tie-break count.
    positions: tuple[int, ...]
    #: Seats from first to last (IP, then positions, then seat order).
    order: tuple[int, ...]
    #: 1 for first; seats equal on IP and positions share the average of their places.
    ranks: tuple[float, ...]
    #: The seats tied on the highest score (one seat when nobody tied).
    leaders: tuple[int, ...]
    winners: tuple[int, ...]
    decided_by: DecidedBy
    #: Per seat, IP by cause (net, non-zero causes only, largest first); sums to the score.
    ledger: tuple[tuple[tuple[str, int], ...], ...]

    def returns(self) -> list[float]:
        """1 shared among the winners, 0 for the others (all 0 before the end)."""
        if not self.finished:
            return [0.0] * len(self.scores)
        share = 1.0 / len(self.winners)
        return [share if s in self.winners else 0.0 for s in range(len(self.scores))]

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data."""
        return {
            "finished": self.finished,
            "scores": list(self.scores),
            "positions": list(self.positions),
            "order": list(self.order),
            "ranks": list(self.ranks),
            "leaders": list(self.leaders),
            "winners": list(self.winners),
            "decided_by": self.decided_by,
            "ledger": [[list(line) for line in seat] for seat in self.ledger],
        }


def tie_averaged_ranks(keys: Sequence[Any]) -> list[float]:
    """1-based ranks for comparable ``keys`` (higher is better); equal keys share the mean of their places."""
    return [
        sum(1 for other in keys if other > k) + (sum(1 for other in keys if other == k) + 1) / 2 for k in keys
    ]


def winners_of(scores: Sequence[int], positions: Callable[[int], int]) -> tuple[tuple[int, ...], DecidedBy]:
    """The winning seats and how they were decided, from scores and ``positions(seat)`` controlled.

    Positions are counted only when the score leaves a tie (the engine calls this at every game's end).
    """
    best = max(scores)
    tied = [s for s in range(len(scores)) if scores[s] == best]
    if len(tied) == 1:
        return tuple(tied), "score"
    counts = {s: positions(s) for s in tied}
    top = max(counts.values())
    winners = tuple(s for s in tied if counts[s] == top)
    return winners, "positions" if len(winners) == 1 else "shared"


def ledger_of(state: State, seat: int) -> tuple[tuple[str, int], ...]:
    """``seat``'s net IP by cause, largest first (ties in cause order)."""
    row = state.ledger_row(seat)
    lines = [(cause_name(c), n) for c, n in enumerate(row) if n]
    lines.sort(key=lambda line: -line[1])
    return tuple(lines)


def outcome(state: State) -> Outcome:
    """The outcome of ``state``: final once the game is over, the standing so far before."""
    n = state.players
    scores = tuple(state.score)
    positions = tuple(state.positions_controlled(s) for s in range(n))
    keys = [(scores[s], positions[s]) for s in range(n)]
    order = tuple(sorted(range(n), key=lambda s: (-scores[s], -positions[s], s)))
    best = max(scores)
    winners, decided_by = winners_of(scores, positions.__getitem__)
    return Outcome(
        finished=state.phase == OVER,
        scores=scores,
        positions=positions,
        order=order,
        ranks=tuple(tie_averaged_ranks(keys)),
        leaders=tuple(s for s in range(n) if scores[s] == best),
        winners=winners,
        decided_by=decided_by,
        ledger=tuple(ledger_of(state, s) for s in range(n)),
    )
