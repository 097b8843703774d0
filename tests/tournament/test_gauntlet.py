"""The gauntlet: one bot against copies of each opponent, as the tournament plays it."""

from __future__ import annotations

import pytest

from oriflamme.engine.errors import OriflammeError, SetupError
from oriflamme.tournament import TournamentConfig, parse_entrants, run_tournament
from oriflamme.tournament.gauntlet import play_gauntlet


def test_each_row_is_the_tournament_of_the_candidate_against_copies_of_the_opponent() -> None:
    rows = play_gauntlet(
        "heuristic", ["random", "heuristic"], players=3, deck="base", games=12, seed=5, workers=1
    )
    assert [(r.opponent, r.players, r.deck, r.games) for r in rows] == [
        ("random", 3, "base", 12),
        ("heuristic", 3, "base", 12),
    ]
    same = run_tournament(
        TournamentConfig(parse_entrants(["heuristic", "random", "random"]), deck="base", games=12, seed=5), 1
    )
    assert rows[0].wins == same.entrants[0].wins
    assert rows[0].to_dict()["win_share"] == pytest.approx(same.entrants[0].win_rate)
    lo, hi = rows[0].ci95
    assert lo <= rows[0].share <= hi
    # The heuristic bot beats random ones far more often than one game in three.
    assert rows[0].share > 0.6


def test_a_bad_opponent_is_refused_before_any_game() -> None:
    with pytest.raises(SetupError, match="unknown bot 'nobody'"):
        play_gauntlet("heuristic", ["random", "nobody"], games=2, workers=1)
    with pytest.raises(OriflammeError, match="unknown deck 'nonsense'"):
        play_gauntlet("heuristic", ["random"], deck="nonsense", games=2, workers=1)
