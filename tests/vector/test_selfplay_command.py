"""``oriflamme selfplay``: a run in a directory, its gauntlet and best network, resumption, bad input."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

pytest.importorskip("jax", reason="the vector engine needs JAX: pip install 'oriflamme[vector]'")
pytest.importorskip("optax", reason="self-play trains with optax: pip install 'oriflamme[train]'")

from oriflamme.bots import make_bot
from oriflamme.cli.app import app

runner = CliRunner()
#: The settings of test_selfplay.py's TINY run (the same program: compiled once per test session).
TINY = ["--setups", "2:base", "--batch", "6", "--horizon", "48", "--hidden", "16", "--epochs", "2"]
TINY += ["--minibatches", "2", "--seed", "3"]
GAUNTLET = ["--gauntlet", "random", "--gauntlet-games", "4", "--gauntlet-players", "2", "--workers", "1"]


def test_a_run_evaluates_keeps_its_best_and_goes_on_after_a_stop(tmp_path: Path) -> None:
    run = tmp_path / "run"
    first = runner.invoke(
        app, ["selfplay", str(run), *TINY, "-i", "2", "--evaluate-every", "1", *GAUNTLET, "--json"]
    )
    assert first.exit_code == 0, first.output
    report = json.loads(first.stdout)
    assert (report["iteration"], report["best"]) == (2, str(run / "best.npz"))
    records = [json.loads(line) for line in (run / "log.jsonl").read_text().splitlines()]
    evaluations = [r for r in records if "evaluation" in r]
    assert [r["evaluation"] for r in evaluations] == [1, 2]
    assert evaluations[0]["best"] is True  # the first network has nobody to beat
    row = evaluations[0]["gauntlet"][0]
    assert (row["opponent"], row["players"], row["games"]) == ("random", 2, 4)
    assert row["win_share_ci95"][0] <= row["win_share"] <= row["win_share_ci95"][1]
    assert evaluations[1]["against_best"]["opponent"] == "best"
    # The kept network plays as the zero bot.
    assert make_bot(f"zero:{run / 'best.npz'}").spec == f"zero:{run / 'best.npz'}"

    again = runner.invoke(app, ["selfplay", str(run), "-i", "3", "--gauntlet", ""])
    assert again.exit_code == 0, again.output
    assert "resuming" in again.stderr and "iteration 3" in again.stdout
    iterations = [json.loads(line).get("iteration") for line in (run / "log.jsonl").read_text().splitlines()]
    assert [i for i in iterations if i is not None] == [1, 2, 3]

    other = runner.invoke(app, ["selfplay", str(run), "--batch", "8"])
    assert other.exit_code == 2
    assert "started with other settings" in other.stderr
    bootstrapped = runner.invoke(app, ["selfplay", str(run), "-i", "3", "--bootstrap"])
    assert bootstrapped.exit_code == 2 and "started with other settings" in bootstrapped.stderr

    curve = runner.invoke(app, ["selfplay", str(run), "--plot", str(tmp_path / "curve.png")])
    assert curve.exit_code == 0, curve.output
    assert (tmp_path / "curve.png").read_bytes().startswith(b"\x89PNG")
    empty = runner.invoke(app, ["selfplay", str(tmp_path / "none"), "--plot", str(tmp_path / "c.png")])
    assert empty.exit_code == 2 and "has no log.jsonl" in empty.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--setups", "4:bass"], "write PLAYERS:DECK"),
        (["--hidden", "0"], "--hidden: 1 to 8 widths"),
        (["--gauntlet", "heuristic,nobody"], "unknown bot 'nobody'"),
        (["--gauntlet-deck", "nonsense"], "unknown deck 'nonsense'"),
        (["--init", "missing.npz"], "--init: no file"),
        (["--batch", "6", "--horizon", "5", "--minibatches", "4"], "minibatches .4. must divide"),
        (["--rivals", "1.5"], "rivals must be a share from 0 to 1"),
    ],
)
def test_bad_settings_are_one_line_and_exit_code_2(tmp_path: Path, args: list[str], message: str) -> None:
    result = runner.invoke(app, ["selfplay", str(tmp_path / "run"), *args])
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("error: ") and len(result.stderr.strip().splitlines()) == 1
    assert re.search(message, result.stderr), result.stderr
    assert not (tmp_path / "run" / "checkpoint.npz").exists()
