"""``oriflamme bench openspiel``: a project bot in one seat against OpenSpiel's own ISMCTSBot."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("pyspiel")

from typer.testing import CliRunner

from oriflamme.cli.app import app
from oriflamme.engine.errors import SetupError
from oriflamme.engine.game import Game
from oriflamme.rl.openspiel_match import play_match


def test_each_deal_is_played_once_per_seat_and_the_bots_share_is_the_engines() -> None:
    result = play_match("heuristic", players=2, deck="ablaze", games=4, simulations=3, seed=5)
    assert [g.seat for g in result.games] == [0, 1, 0, 1]
    for g in result.games:
        expected = 1 / len(g.winners) if g.seat in g.winners else 0.0
        assert g.win == pytest.approx(expected)
        assert max(g.scores) == max(g.scores[w] for w in g.winners)
        assert g.bot_seconds and g.openspiel_seconds
    # Games 0 and 1 share a deal: the same first player as a fresh game of that seed.
    assert Game.new(2, "ablaze", seed=5).first == Game.new(2, "ablaze", seed=5 + 1 // 2).first
    assert result.wins == pytest.approx(sum(g.win for g in result.games))
    lo, hi = result.win_rate_ci95
    assert lo <= result.win_rate <= hi
    assert result.to_dict()["seat_games"] == [2, 2]


def test_a_match_replays_from_its_seed_whether_played_in_one_process_or_two() -> None:
    one = play_match("random", players=3, games=3, simulations=2, seed=1, workers=1)
    two = play_match("random", players=3, games=3, simulations=2, seed=1, workers=2)
    assert [(g.seat, g.scores, g.winners) for g in one.games] == [
        (g.seat, g.scores, g.winners) for g in two.games
    ]
    other = play_match("random", players=3, games=3, simulations=2, seed=2, workers=1)
    assert [g.scores for g in other.games] != [g.scores for g in one.games]


def test_a_search_beats_openspiels_ismcts_starved_of_simulations() -> None:
    """Two simulations per decision (the least OpenSpiel's bot takes) are close to random play; the
    heuristic bot wins most 2-player deals in both seats (reading the win share from another seat
    would halve it)."""
    result = play_match("heuristic", players=2, games=8, simulations=2, seed=3)
    assert result.win_rate >= 0.75
    assert result.to_dict()["mean_score"] > 0


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"spec": "nobody"}, "unknown bot"),
        ({"spec": "heuristic", "deck": "random"}, "random"),
        ({"spec": "heuristic", "simulations": 1}, "at least 2 simulations"),
        ({"spec": "heuristic", "games": 0}, "at least 1"),
    ],
)
def test_a_bad_argument_is_refused_before_any_game(kwargs: dict[str, object], message: str) -> None:
    spec = str(kwargs.pop("spec"))
    with pytest.raises((SetupError, ValueError), match=message):
        play_match(spec, **{"players": 2, "games": 1, **kwargs})  # type: ignore[arg-type]


def test_the_command_writes_the_result_and_refuses_a_random_deck(tmp_path: Path) -> None:
    out = tmp_path / "match.json"
    runner = CliRunner()
    done = runner.invoke(
        app, ["bench", "openspiel", "--bot", "heuristic", "-p", "2", "-n", "2", "-s", "2", "--workers", "1",
              "--json", "--out", str(out)]
    )  # fmt: skip
    assert done.exit_code == 0, done.output
    report = json.loads(out.read_text())
    assert report["games"] == 2 and report["bot"] == "heuristic" and report["seat_games"] == [1, 1]
    assert report["openspiel_decisions"] > 0 and "ISMCTSBot (2 simulations" in report["opponent"]
    refused = runner.invoke(app, ["bench", "openspiel", "--deck", "random", "-n", "1"])
    assert refused.exit_code == 2
    assert "random recipe" in refused.output
