"""Sums over games, and the figures of a balance study with their 95% intervals.

The sums are integers (a win share of 1/k is counted in sixtieths, exact for
k up to 5), so adding games in any order gives the same totals to the last
bit: a study's numbers do not depend on the workers, the backend or the
order in which games finish. Memory does not grow with the number of games.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ..engine.cards import SLUGS
from ..stats import Z95, wilson_interval
from .facts import GameFacts

#: Distinct recipes counted per study: beyond it, memory would grow with the games.
RECIPES_COUNTED = 1000

#: Win shares are counted in units of 1/60: 1, 1/2, 1/3, 1/4 and 1/5 are all whole numbers of them.
SHARE_UNIT = 60


@dataclass(slots=True)
class Mean:
    """A running mean of whole numbers (in ``unit``-ths), with the sums its interval needs."""

    unit: int = 1
    count: int = 0
    total: int = 0
    squares: int = 0

    def add(self, value: int) -> None:
        self.count += 1
        self.total += value
        self.squares += value * value

    @property
    def mean(self) -> float:
        return self.total / self.count / self.unit if self.count else math.nan

    @property
    def sd(self) -> float:
        if self.count < 2:
            return math.nan
        variance = (self.squares - self.total * self.total / self.count) / (self.count - 1)
        return math.sqrt(max(variance, 0.0)) / self.unit

    def interval(self) -> tuple[float, float]:
        """A normal 95% interval of the mean (for shares, see :meth:`wilson`)."""
        if self.count < 2:
            return (math.nan, math.nan)
        half = Z95 * self.sd / math.sqrt(self.count)
        return (self.mean - half, self.mean + half)

    def wilson(self) -> tuple[float, float]:
        """The Wilson 95% interval of a mean of shares in 0..1 (the tournament's interval)."""
        if not self.count:
            return (math.nan, math.nan)
        return wilson_interval(self.total / self.unit, self.count)

    def to_dict(self, *, share: bool = False) -> dict[str, Any]:
        lo, hi = self.wilson() if share else self.interval()
        return {"n": self.count, "mean": _num(self.mean), "ci95": [_num(lo), _num(hi)]}


def difference(a: Mean, b: Mean) -> dict[str, Any]:
    """``a`` minus ``b`` (two independent means) with a normal 95% interval (Welch)."""
    if a.count < 2 or b.count < 2:
        return {"difference": None, "ci95": [None, None], "n": [a.count, b.count]}
    d = a.mean - b.mean
    half = Z95 * math.sqrt(a.sd**2 / a.count + b.sd**2 / b.count)
    return {"difference": _num(d), "ci95": [_num(d - half), _num(d + half)], "n": [a.count, b.count]}


def _num(x: float) -> float | None:
    """A float for JSON: rounded to 6 places (the data is not that precise), NaN as null."""
    return None if math.isnan(x) else round(x, 6)


def _shares(share: float) -> int:
    return round(share * SHARE_UNIT)


@dataclass(slots=True)
class StudyTotals:
    """The sums of one study: one player count and one deck, every game of it."""

    players: int
    deck: str
    games: int = 0
    #: Games replayed (the others came from records without actions: outcome figures only).
    replayed: int = 0
    seat_share: list[Mean] = field(default_factory=list)
    spec_share: dict[str, Mean] = field(default_factory=dict)
    #: Per pair of specs (a < b), each game's mean share of a's seats minus b's, in 1/3600ths:
    #: seats of one game are not independent, so the skill gap's interval is taken over games.
    spec_gaps: dict[tuple[str, str], Mean] = field(default_factory=dict)
    decisions: Counter[int] = field(default_factory=Counter)
    rounds: Counter[int] = field(default_factory=Counter)
    final_scores: Counter[int] = field(default_factory=Counter)
    winner_scores: Counter[int] = field(default_factory=Counter)
    #: Per round (0-based): the mean score at its end of the eventual winners, and of the others.
    winners_by_round: list[Mean] = field(default_factory=list)
    others_by_round: list[Mean] = field(default_factory=list)
    lead_changes: Mean = field(default_factory=Mean)
    late_leader_lost: Mean = field(default_factory=Mean)
    #: The distinct recipes seen, up to :data:`RECIPES_COUNTED` (random decks draw ~one per game).
    recipes: set[tuple[str, ...]] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.seat_share = [Mean(SHARE_UNIT) for _ in range(self.players)]

    def add(self, f: GameFacts) -> None:
        self.games += 1
        if len(self.recipes) <= RECIPES_COUNTED:
            self.recipes.add(f.recipe)
        per_spec: dict[str, list[int]] = {}
        for s, share in enumerate(f.shares):
            self.seat_share[s].add(_shares(share))
            self.spec_share.setdefault(f.specs[s], Mean(SHARE_UNIT)).add(_shares(share))
            per_spec.setdefault(f.specs[s], []).append(_shares(share))
            self.final_scores[f.scores[s]] += 1
            if share:
                self.winner_scores[f.scores[s]] += 1
        if len(per_spec) > 1:
            # A mean over k <= 5 seats of sixtieths is a whole number of 3600ths.
            means = {spec: sum(v) * (SHARE_UNIT // len(v)) for spec, v in per_spec.items()}
            for a in means:
                for b in means:
                    if a < b:
                        self.spec_gaps.setdefault((a, b), Mean(SHARE_UNIT * SHARE_UNIT)).add(
                            means[a] - means[b]
                        )
        if not f.replayed:
            return
        self.replayed += 1
        self.decisions[f.decisions] += 1
        self.rounds[f.rounds] += 1
        for r, scores in enumerate(f.round_scores):
            while len(self.winners_by_round) <= r:
                self.winners_by_round.append(Mean())
                self.others_by_round.append(Mean())
            for s, v in enumerate(scores):
                (self.winners_by_round if f.shares[s] else self.others_by_round)[r].add(v)
        self.lead_changes.add(f.lead_changes)
        lost = f.late_leader_lost
        if lost is not None:
            self.late_leader_lost.add(int(lost))

    @property
    def key(self) -> str:
        return f"{self.players}p {self.deck}"

    def to_dict(self) -> dict[str, Any]:
        seats = [m.to_dict(share=True) for m in self.seat_share]
        means = [m.mean for m in self.seat_share]
        return {
            "players": self.players,
            "deck": self.deck,
            "games": self.games,
            "replayed": self.replayed,
            # The count, or RECIPES_COUNTED + 1 for "more than RECIPES_COUNTED" (the same in any order).
            "recipes": len(self.recipes),
            "fair_share": _num(1 / self.players),
            "seat_win_share": seats,
            "first_player_win_share": seats[0],
            "seat_spread": _num(max(means) - min(means)) if self.games else None,
            "spec_win_share": {spec: m.to_dict(share=True) for spec, m in sorted(self.spec_share.items())},
            "skill_gap": _skill_gap(self.spec_share, self.spec_gaps),
            "decisions": _distribution(self.decisions),
            "rounds": _distribution(self.rounds),
            "final_score": _distribution(self.final_scores),
            "winner_score": _distribution(self.winner_scores),
            "score_by_round": {
                "winners": [m.to_dict() for m in self.winners_by_round],
                "others": [m.to_dict() for m in self.others_by_round],
            },
            "lead_changes": self.lead_changes.to_dict(),
            "late_leader_lost": self.late_leader_lost.to_dict(share=True),
        }


def _skill_gap(specs: dict[str, Mean], gaps: dict[tuple[str, str], Mean]) -> dict[str, Any] | None:
    """The best spec's win share minus the worst's, when the study seats different bots.

    The interval comes from each game's difference (the seats of one game
    share one win, so their shares are not independent).
    """
    if len(specs) < 2:
        return None
    ranked = sorted(specs.items(), key=lambda item: (-item[1].mean, item[0]))
    best, worst = ranked[0][0], ranked[-1][0]
    per_game = gaps.get((min(best, worst), max(best, worst)))
    if per_game is None or per_game.count < 2:
        return {"strong": best, "weak": worst, "difference": None, "ci95": [None, None], "n": 0}
    sign = 1 if best < worst else -1
    lo, hi = per_game.interval()
    ends = sorted((sign * lo, sign * hi))
    return {
        "strong": best,
        "weak": worst,
        "difference": _num(sign * per_game.mean),
        "ci95": [_num(ends[0]), _num(ends[1])],
        "n": per_game.count,
    }


def _distribution(counts: Counter[int]) -> dict[str, Any]:
    """Mean, spread and quartiles of a counted whole-number quantity, and the counts themselves."""
    n = sum(counts.values())
    if not n:
        return {"n": 0}
    total = sum(v * c for v, c in counts.items())
    mean = total / n
    var = sum(c * (v - mean) ** 2 for v, c in counts.items()) / max(1, n - 1)
    values = sorted(counts)

    def quantile(q: float) -> int:
        rank = max(1, math.ceil(q * n))
        seen = 0
        for v in values:
            seen += counts[v]
            if seen >= rank:
                return v
        return values[-1]

    return {
        "n": n,
        "mean": _num(mean),
        "sd": _num(math.sqrt(var)),
        "min": values[0],
        "quartiles": [quantile(0.25), quantile(0.5), quantile(0.75)],
        "max": values[-1],
        "counts": {str(v): counts[v] for v in values},
    }


@dataclass(slots=True)
class KindTotals:
    """The sums of one card kind over every replayed game whose recipe has it."""

    kind: str
    games: int = 0
    gained: Mean = field(default_factory=Mean)
    lost: Mean = field(default_factory=Mean)
    revealed_ip: Mean = field(default_factory=Mean)
    made: Mean = field(default_factory=Mean)
    suffered: Mean = field(default_factory=Mean)
    #: Win share times the player count (1 is fair), of seats dealt the kind and of seats that set it aside.
    holders: Mean = field(default_factory=lambda: Mean(SHARE_UNIT))
    aside: Mean = field(default_factory=lambda: Mean(SHARE_UNIT))
    #: In random recipes: the round-1 first player's win share times the player count, with the kind
    #: in the recipe and without it.
    first_with: Mean = field(default_factory=lambda: Mean(SHARE_UNIT))
    first_without: Mean = field(default_factory=lambda: Mean(SHARE_UNIT))

    def to_dict(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "ip_gained_per_game": self.gained.to_dict(),
            "ip_lost_per_game": self.lost.to_dict(),
            "ip_taken_on_reveal_per_game": self.revealed_ip.to_dict(),
            "eliminations_made_per_game": self.made.to_dict(),
            "eliminations_suffered_per_game": self.suffered.to_dict(),
            "relative_win_share_dealt": self.holders.to_dict(),
            "relative_win_share_set_aside": self.aside.to_dict(),
            "hand_effect": difference(self.holders, self.aside),
            "first_player_with_kind": self.first_with.to_dict(),
            "first_player_without_kind": self.first_without.to_dict(),
            "recipe_effect_on_first_player": difference(self.first_with, self.first_without),
        }


@dataclass(slots=True)
class Totals:
    """Everything a study adds up: per study (player count and deck) and per card kind."""

    studies: dict[tuple[int, str], StudyTotals] = field(default_factory=dict)
    kinds: dict[str, KindTotals] = field(default_factory=dict)

    def add(self, f: GameFacts) -> None:
        key = (f.players, f.deck)
        study = self.studies.get(key)
        if study is None:
            study = self.studies[key] = StudyTotals(f.players, f.deck)
        study.add(f)
        if not f.replayed:
            return
        n = f.players
        for kind, held in f.held.items():
            k = self._kind(kind)
            k.games += 1
            k.gained.add(f.gained.get(kind, 0))
            k.lost.add(f.lost.get(kind, 0))
            k.revealed_ip.add(f.revealed_ip.get(kind, 0))
            k.made.add(f.eliminations_made.get(kind, 0))
            k.suffered.add(f.eliminations_suffered.get(kind, 0))
            for s, copies in enumerate(held):
                (k.holders if copies else k.aside).add(_shares(f.shares[s] * n))
        if f.deck == "random":
            # Every kind, not only those seen so far: the sums must not depend on the order of games.
            first = _shares(f.shares[0] * n)
            for kind in SLUGS:
                k = self._kind(kind)
                (k.first_with if kind in f.held else k.first_without).add(first)

    def _kind(self, kind: str) -> KindTotals:
        k = self.kinds.get(kind)
        if k is None:
            k = self.kinds[kind] = KindTotals(kind)
        return k

    def add_all(self, facts: Iterable[GameFacts]) -> None:
        for f in facts:
            self.add(f)

    @property
    def games(self) -> int:
        return sum(s.games for s in self.studies.values())

    def to_dict(self) -> dict[str, Any]:
        return {
            "studies": [self.studies[k].to_dict() for k in sorted(self.studies)],
            "kinds": {k: self.kinds[k].to_dict() for k in sorted(self.kinds) if self.kinds[k].games},
        }
