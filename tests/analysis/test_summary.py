"""Sums over games: exact, independent of order, and the intervals the report quotes."""

from __future__ import annotations

import json
import math
import random

import pytest

from oriflamme.analysis.facts import GameFacts, facts_of
from oriflamme.analysis.summary import SHARE_UNIT, Mean, Totals, difference
from oriflamme.tournament import TournamentConfig, play_tournament_game
from oriflamme.tournament.results import wilson_interval


def _games() -> list[GameFacts]:
    out = []
    for players, deck in ((2, "random"), (3, "base"), (4, "random")):
        specs = tuple(("heuristic", "random")[s % 2] for s in range(players))
        config = TournamentConfig(specs=specs, deck=deck, games=12, seed=8)
        out += [facts_of(config, play_tournament_game(config, g)) for g in range(12)]
    return out


def test_totals_do_not_depend_on_the_order_games_arrive_in() -> None:
    """Workers finish in any order: the summary must be the same to the last digit."""
    games = _games()
    forward = Totals()
    forward.add_all(games)
    shuffled = games[:]
    random.Random(1).shuffle(shuffled)
    other = Totals()
    other.add_all(shuffled)
    assert json.dumps(forward.to_dict(), sort_keys=True) == json.dumps(other.to_dict(), sort_keys=True)


def test_seat_shares_of_a_study_add_up_to_one_and_match_the_games() -> None:
    games = _games()
    totals = Totals()
    totals.add_all(games)
    for study in totals.to_dict()["studies"]:
        mine = [g for g in games if (g.players, g.deck) == (study["players"], study["deck"])]
        assert study["games"] == len(mine) == 12
        means = [e["mean"] for e in study["seat_win_share"]]
        assert math.isclose(sum(means), 1.0, abs_tol=1e-5)
        p1 = sum(g.shares[0] for g in mine)
        lo, hi = wilson_interval(p1, 12)
        assert study["first_player_win_share"]["ci95"] == [round(lo, 6), round(hi, 6)]
        assert study["decisions"]["n"] == 12
        assert study["decisions"]["mean"] == pytest.approx(sum(g.decisions for g in mine) / 12, abs=1e-6)


def test_a_kind_that_wins_for_whoever_holds_it_shows_a_positive_hand_effect() -> None:
    """Synthetic games: the seat dealt 'queen' always wins. Dealt: 2 (x players), set aside: 0."""
    games = []
    for i in range(20):
        holder = i % 2
        games.append(
            GameFacts(
                players=2,
                deck="base",
                index=i,
                recipe=("queen",),
                specs=("random", "random"),
                scores=(5, 1) if holder == 0 else (1, 5),
                shares=(1.0, 0.0) if holder == 0 else (0.0, 1.0),
                ranks=(1.0, 2.0) if holder == 0 else (2.0, 1.0),
                rounds=6,
                decisions=40,
                round_scores=((1, 1),) * 5 + (((5, 1) if holder == 0 else (1, 5)),),
                held={"queen": (1, 0) if holder == 0 else (0, 1)},
            )
        )
    totals = Totals()
    totals.add_all(games)
    queen = totals.to_dict()["kinds"]["queen"]
    assert queen["relative_win_share_dealt"]["mean"] == 2.0
    assert queen["relative_win_share_set_aside"]["mean"] == 0.0
    assert queen["hand_effect"]["difference"] == 2.0


def test_means_and_differences() -> None:
    m = Mean(SHARE_UNIT)
    for share in (1.0, 0.5, 0.0, 0.0):
        m.add(round(share * SHARE_UNIT))
    assert m.mean == pytest.approx(0.375)
    assert m.wilson() == wilson_interval(1.5, 4)
    a, b = Mean(), Mean()
    for v in (4, 6):
        a.add(v)
    for v in (1, 3):
        b.add(v)
    d = difference(a, b)
    half = 1.959963984540054 * math.sqrt(2 / 2 + 2 / 2)
    assert d["difference"] == 3.0
    assert d["ci95"] == [round(3 - half, 6), round(3 + half, 6)]
    assert difference(Mean(), b)["difference"] is None


def test_the_skill_gap_interval_is_taken_over_games() -> None:
    """2 players, the strong bot wins 3 games in 4: each game's difference is +1 or -1, and the interval
    is that of their mean over games (seats of one game are not independent)."""
    games = []
    for i in range(40):
        strong_wins = i % 4 != 0
        strong_seat = i % 2
        shares = [0.0, 0.0]
        shares[strong_seat if strong_wins else 1 - strong_seat] = 1.0
        specs = ["random", "random"]
        specs[strong_seat] = "heuristic"
        games.append(
            GameFacts(
                players=2,
                deck="base",
                index=i,
                recipe=(),
                specs=tuple(specs),
                scores=(1, 1),
                shares=tuple(shares),
                ranks=(1.0, 2.0),
                replayed=False,
            )
        )
    totals = Totals()
    totals.add_all(games)
    gap = totals.to_dict()["studies"][0]["skill_gap"]
    diffs = [1.0 if i % 4 else -1.0 for i in range(40)]
    mean = sum(diffs) / 40
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / 39)
    half = 1.959963984540054 * sd / math.sqrt(40)
    assert gap["strong"] == "heuristic" and gap["weak"] == "random" and gap["n"] == 40
    assert gap["difference"] == pytest.approx(0.5)
    assert gap["ci95"] == [pytest.approx(mean - half, abs=1e-6), pytest.approx(mean + half, abs=1e-6)]
