"""``oriflamme bench openspiel``: a project bot in one seat against OpenSpiel's own ISMCTSBot."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("pyspiel")

from typer.testing import CliRunner

from oriflamme.bots import make_bot
from oriflamme.bots.base import Bot
from oriflamme.cli.app import app
from oriflamme.engine.errors import SetupError
from oriflamme.engine.view import SeatView
from oriflamme.rl import openspiel_match
from oriflamme.rl.openspiel_match import deal_seed, play_match


class _Probe:
    """The heuristic bot, noting every view it is given."""

    spec = "probe"

    def __init__(self) -> None:
        self.inner = make_bot("heuristic", seed=0)
        self.views: list[SeatView] = []

    def choose(self, view: SeatView) -> int:
        self.views.append(view)
        return self.inner.choose(view)


class _Illegal:
    spec = "illegal"

    def choose(self, view: SeatView) -> int:
        return -12345


def _bots(monkeypatch: pytest.MonkeyPatch, bot: Bot) -> None:
    """Play ``bot`` for whatever spec the match asks for (games in this process only)."""
    real = openspiel_match.make_bot
    monkeypatch.setattr(
        openspiel_match, "make_bot", lambda spec, seed=None: bot if seed else real(spec, seed)
    )


def test_each_deal_is_played_once_per_seat_and_the_bots_share_is_the_engines() -> None:
    result = play_match("heuristic", players=2, deck="ablaze", games=4, simulations=3, seed=5)
    games = result.games
    assert [g.seat for g in games] == [0, 1, 0, 1]
    assert games[0].deal_seed == games[1].deal_seed == deal_seed(5, 0)
    assert games[2].deal_seed == games[3].deal_seed == deal_seed(5, 1) != games[0].deal_seed
    for g in games:
        assert g.win == pytest.approx(1 / len(g.winners) if g.seat in g.winners else 0.0)
        assert g.bot_seconds and g.openspiel_seconds
    assert result.to_dict()["seat_games"] == [2, 2]


def test_the_bot_is_given_its_own_seats_view_and_nothing_else(monkeypatch: pytest.MonkeyPatch) -> None:
    probe = _Probe()
    _bots(monkeypatch, probe)
    result = play_match("heuristic", players=3, games=3, simulations=2, seed=4)
    assert [g.seat for g in result.games] == [0, 1, 2]
    seats = [v.seat for v in probe.views]
    assert all(type(v) is SeatView and v.seat == v.to_move for v in probe.views)
    assert set(seats) == {0, 1, 2} and seats == sorted(seats)
    assert len(probe.views) == sum(len(g.bot_seconds) for g in result.games)


def test_a_bot_that_plays_an_illegal_move_stops_the_match_naming_the_game(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _bots(monkeypatch, _Illegal())
    with pytest.raises(RuntimeError, match=r"heuristic chose -12345, not a legal move, in seat 0 of game 0"):
        play_match("heuristic", players=2, games=2, simulations=2)


def test_a_match_replays_from_its_seed_whether_played_in_one_process_or_two() -> None:
    one = play_match("random", players=3, games=3, simulations=2, seed=1, workers=1)
    two = play_match("random", players=3, games=3, simulations=2, seed=1, workers=2)
    assert [(g.seat, g.scores, g.winners) for g in one.games] == [
        (g.seat, g.scores, g.winners) for g in two.games
    ]
    other = play_match("random", players=3, games=3, simulations=2, seed=2, workers=1)
    assert other.games[0].deal_seed != one.games[0].deal_seed
    assert {deal_seed(1, k) for k in range(50)}.isdisjoint(deal_seed(2, k) for k in range(50))


def test_a_search_beats_openspiels_ismcts_starved_of_simulations() -> None:
    """Two simulations per decision (the least OpenSpiel's bot takes) are close to random play; the
    heuristic bot wins most 2-player deals in both seats (reading the win share from another seat
    would halve it)."""
    result = play_match("heuristic", players=2, games=8, simulations=2, seed=3)
    assert result.win_rate >= 0.75
    assert result.to_dict()["mean_score"] > 0


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"spec": "nobody"}, SetupError, "unknown bot"),
        ({"spec": "heuristic", "deck": "random"}, ValueError, "random recipe"),
        ({"spec": "heuristic", "simulations": 1}, ValueError, "at least 2 simulations"),
        ({"spec": "heuristic", "games": 0}, ValueError, "at least 1"),
        ({"spec": "heuristic", "games": 3}, ValueError, "multiple of 2"),
    ],
)
def test_a_bad_argument_is_refused_before_any_game(
    kwargs: dict[str, object], error: type[Exception], message: str
) -> None:
    spec = str(kwargs.pop("spec"))
    with pytest.raises(error, match=message):
        play_match(spec, **{"players": 2, "games": 2, **kwargs})  # type: ignore[arg-type]


def test_the_command_writes_the_result_and_refuses_bad_arguments_before_playing(tmp_path: Path) -> None:
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
    for args, message in (
        (["--deck", "random"], "random recipe"),
        (["-n", "3"], "multiple of 4"),
        (["--bot", "nobody"], "unknown bot"),
        (["--out", str(tmp_path / "no" / "x.json")], "does not exist"),
    ):
        refused = runner.invoke(app, ["bench", "openspiel", "-n", "4", "-s", "2", *args])
        assert refused.exit_code == 2, refused.output
        assert message in refused.output and "Traceback" not in refused.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["match.json"]
