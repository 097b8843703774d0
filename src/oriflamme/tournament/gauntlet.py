"""A gauntlet: one bot against three (or n - 1) copies of each of several opponents, seats rotated.

What a training run measures a network with (``oriflamme selfplay``): a row
per opponent with the candidate's win share and its Wilson interval, played
through :func:`~.runner.run_tournament`, so the games are the tournament's
(seeded per game, the same on any number of workers) and a row can be
checked with ``oriflamme tournament --bots CANDIDATE,OPP,OPP,OPP``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from ..stats import wilson_interval
from .config import TournamentConfig, parse_entrants
from .runner import run_tournament

__all__ = ["GauntletRow", "play_gauntlet"]


@dataclasses.dataclass(frozen=True)
class GauntletRow:
    """The candidate's results against ``players - 1`` copies of ``opponent``."""

    opponent: str
    players: int
    deck: str
    games: int
    #: Games won (a shared win counts 1/k).
    wins: float
    #: The candidate's median time per decision, in milliseconds.
    decision_ms: float

    @property
    def share(self) -> float:
        return self.wins / self.games

    @property
    def ci95(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.games)

    def to_dict(self) -> dict[str, Any]:
        lo, hi = self.ci95
        return {
            "opponent": self.opponent,
            "players": self.players,
            "deck": self.deck,
            "games": self.games,
            "wins": self.wins,
            "win_share": self.share,
            "win_share_ci95": [lo, hi],
            "decision_ms": self.decision_ms,
        }


def play_gauntlet(
    candidate: str,
    opponents: Sequence[str],
    *,
    players: int = 4,
    deck: str = "base",
    games: int = 100,
    seed: int = 0,
    workers: int | None = None,
) -> list[GauntletRow]:
    """Play ``candidate`` against each opponent in turn; a row each, in the opponents' order.

    Raises :class:`~oriflamme.engine.errors.SetupError` for a spec, deck or
    count that is not one, before any game.
    """
    configs = []
    for opponent in opponents:
        specs = parse_entrants([candidate] + [opponent] * (players - 1))
        config = TournamentConfig(specs=specs, deck=deck, games=games, seed=seed)
        config.check()
        configs.append((opponent, config))
    rows = []
    for opponent, config in configs:
        result = run_tournament(config, workers)
        me = result.entrants[0]
        rows.append(GauntletRow(opponent, players, deck, me.games, me.wins, me.decision_median_ms))
    return rows
