"""`oriflamme review FILE`: the command over bots.review (tested in tests/bots/test_review.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from oriflamme import Game, build_position, savefile
from oriflamme.bots import make_bot
from oriflamme.cli.app import app as cli_app


def _finished_save(tmp_path: Path) -> Path:
    g = Game.new(3, "alliance", seed=5)
    bots = [make_bot("heuristic", s) for s in range(3)]
    while not g.is_over():
        s = g.current_player()
        g.apply(bots[s].choose(g.view(s)))
    path = tmp_path / "game.json"
    path.write_text(savefile.dumps(g, ["heuristic", "you", "heuristic"]), encoding="utf-8")
    return path


def test_the_review_command_reviews_the_people_and_speaks_json(tmp_path: Path) -> None:
    path = _finished_save(tmp_path)
    result = CliRunner().invoke(cli_app, ["review", str(path), "--level", "20", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["level"] == "20" and list(data["seats"]) == ["2"]  # only the person's seat
    moves = data["seats"]["2"]
    assert moves and all(m["seat"] == 1 and m["options"] for m in moves)
    for m in moves:
        assert m["best"] == m["options"][0]["action"]
        assert sum(o["simulations"] for o in m["options"]) == 20
        assert m["cost"] >= 0 and (m["grade"] is None) == (m["cost"] < 5)
    text = CliRunner().invoke(cli_app, ["review", str(path), "--level", "20", "--seat", "3", "--lang", "en"])
    assert text.exit_code == 0, text.output
    assert "p3's moves, judged by the search (20)" in text.output
    assert "decisions," in text.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--seat", "4"], "--seat must be from 1 to 3"),
        (["--level", "superb"], "--level: unknown ISMCTS level"),
    ],
)
def test_the_review_command_refuses_bad_options(tmp_path: Path, args: list[str], message: str) -> None:
    path = _finished_save(tmp_path)
    result = CliRunner().invoke(cli_app, ["review", str(path), *args])
    assert result.exit_code == 2 and message in result.output


def test_a_position_without_actions_cannot_be_reviewed(tmp_path: Path) -> None:
    path = tmp_path / "puzzle.json"
    path.write_text(savefile.dumps(build_position(3, "base", "p1:~spy p2:~heir")), encoding="utf-8")
    result = CliRunner().invoke(cli_app, ["review", str(path)])
    assert result.exit_code == 2 and "holds a position without its actions" in result.output
