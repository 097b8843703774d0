"""Standings from game records: wins with Wilson intervals, mean IP and rank, openskill ratings, timings."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from statistics import median
from typing import Any

from ..build import build_kind
from ..stats import percentile, wilson_interval
from .config import JSON_SCHEMA, TournamentConfig
from .games import GameRecord
from .seating import seating_rule


@dataclass(frozen=True, slots=True)
class Rating:
    """A Plackett-Luce rating (openskill): skill estimate ``mu`` and its uncertainty ``sigma``."""

    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """``mu - 3 sigma``: a conservative skill estimate, what the leaderboard sorts by."""
        return self.mu - 3 * self.sigma

    def to_dict(self) -> dict[str, float]:
        return {"mu": self.mu, "sigma": self.sigma, "ordinal": self.ordinal}


def rate_games(players: int, records: Iterable[GameRecord]) -> list[Rating]:
    """Rate entrants with openskill's Plackett-Luce model, one update per game, in the given order."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    current = [[model.rating()] for _ in range(players)]
    for r in records:
        current = model.rate(current, ranks=list(r.ranks))
    return [Rating(mu=float(team[0].mu), sigma=float(team[0].sigma)) for team in current]


@dataclass(frozen=True, slots=True)
class Standing:
    """One row of the results: an entrant, or all entrants with the same spec summed."""

    name: str
    spec: str
    #: Entrant-games: a spec held by two entrants counts each game twice.
    games: int
    wins: float
    mean_score: float
    mean_rank: float
    #: Games played at each seat (seat 0 starts the first round).
    seat_games: tuple[int, ...]
    decisions: int
    decision_median_ms: float
    decision_p95_ms: float
    rating: Rating | None = None

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def win_rate_ci95(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.games)

    def to_dict(self) -> dict[str, Any]:
        lo, hi = self.win_rate_ci95
        data: dict[str, Any] = {
            "name": self.name,
            "spec": self.spec,
            "games": self.games,
            "wins": self.wins,
            "win_rate": self.win_rate,
            "win_rate_ci95": [lo, hi],
            "mean_score": self.mean_score,
            "mean_rank": self.mean_rank,
            "seat_games": list(self.seat_games),
        }
        if self.rating is not None:
            data["rating"] = self.rating.to_dict()
        return data

    def timing_dict(self) -> dict[str, Any]:
        return {
            "decisions": self.decisions,
            "median_ms": self.decision_median_ms,
            "p95_ms": self.decision_p95_ms,
        }


def standing(
    name: str, spec: str, entrants: Sequence[int], records: Sequence[GameRecord], rating: Rating | None
) -> Standing:
    """Sum the results of ``entrants`` over ``records``."""
    games = len(records) * len(entrants)
    players = len(records[0].seats) if records else 0
    seat_games = [0] * players
    times: list[float] = []
    wins = score = rank = 0.0
    for r in records:
        for e in entrants:
            wins += r.shares[e]
            score += r.scores[e]
            rank += r.ranks[e]
            seat_games[r.seats[e]] += 1
            times.extend(r.decision_seconds[e])
    times.sort()
    return Standing(
        name=name,
        spec=spec,
        games=games,
        wins=wins,
        mean_score=score / games if games else 0.0,
        mean_rank=rank / games if games else 0.0,
        seat_games=tuple(seat_games),
        decisions=len(times),
        decision_median_ms=median(times) * 1000 if times else 0.0,
        decision_p95_ms=percentile(times, 95) * 1000,
        rating=rating,
    )


@dataclass(frozen=True, slots=True)
class TournamentResult:
    """Standings of a (possibly interrupted) tournament, and how the run went."""

    config: TournamentConfig
    #: Games finished, in game index order (all of them unless interrupted).
    records: tuple[GameRecord, ...]
    entrants: tuple[Standing, ...]
    #: One row per distinct spec, in order of first appearance.
    specs: tuple[Standing, ...]
    interrupted: bool
    seconds: float
    backend: str
    workers: int
    #: Games taken from a record file rather than played in this run (not in ``seconds``).
    resumed: int = 0

    @property
    def games(self) -> int:
        return len(self.records)

    @property
    def games_requested(self) -> int:
        return self.config.games

    @property
    def games_played(self) -> int:
        """Games played in this run: all of them but the resumed ones."""
        return self.games - self.resumed

    @property
    def games_per_second(self) -> float:
        """The speed of this run: games played in it over its wall time."""
        return self.games_played / self.seconds if self.seconds > 0 else 0.0

    @property
    def recipes(self) -> int:
        """How many distinct recipes were played."""
        return len({r.recipe for r in self.records})

    def to_dict(self) -> dict[str, Any]:
        """The ``--json`` document. Everything but ``run`` depends only on the configuration."""
        return {
            "schema": JSON_SCHEMA,
            "players": self.config.players,
            "bots": list(self.config.specs),
            "deck": self.config.deck,
            "seed": self.config.seed,
            "rules": self.config.rules.to_dict(),
            "seating_scheme": self.config.seating,
            "seating": seating_rule(self.config.seating),
            "games_requested": self.games_requested,
            "games": self.games,
            "interrupted": self.interrupted,
            "recipes": self.recipes,
            "entrants": [s.to_dict() for s in self.entrants],
            "specs": [s.to_dict() for s in self.specs],
            "run": {
                "backend": self.backend,
                "build": build_kind(),
                "workers": self.workers,
                "resumed_games": self.resumed,
                "seconds": self.seconds,
                "games_per_second": self.games_per_second,
                "decision_time": {s.name: s.timing_dict() for s in self.entrants},
                "decision_time_by_spec": {s.spec: s.timing_dict() for s in self.specs},
            },
        }


def summarize(
    config: TournamentConfig,
    records: Iterable[GameRecord],
    *,
    interrupted: bool = False,
    seconds: float = 0.0,
    backend: str = "local",
    workers: int = 1,
    resumed: int = 0,
) -> TournamentResult:
    """Aggregate game records (in any order) into standings, rating them in game index order."""
    ordered = tuple(sorted(records, key=lambda r: r.index))
    names = config.names
    ratings = rate_games(config.players, ordered)
    entrants = tuple(
        standing(names[e], spec, [e], ordered, ratings[e]) for e, spec in enumerate(config.specs)
    )
    by_spec: dict[str, list[int]] = {}
    for e, spec in enumerate(config.specs):
        by_spec.setdefault(spec, []).append(e)
    specs = tuple(standing(spec, spec, es, ordered, None) for spec, es in by_spec.items())
    return TournamentResult(
        config=config,
        records=ordered,
        entrants=entrants,
        specs=specs,
        interrupted=interrupted,
        seconds=seconds,
        backend=backend,
        workers=workers,
        resumed=resumed,
    )
