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
from oriflamme.bots.net.model import load as load_network
from oriflamme.cli.app import app
from oriflamme.cli.selfplay import _evaluator
from oriflamme.rl.selfplay import Best, kept_best
from oriflamme.tournament import gauntlet
from oriflamme.tournament.gauntlet import GauntletRow

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

    again = runner.invoke(app, ["selfplay", str(run), "-i", "3", "--gauntlet", "", "--snapshot-every", "3"])
    assert again.exit_code == 0, again.output
    assert "resuming" in again.stderr and "iteration 3" in again.stdout
    # A snapshot is not one of the run's settings: taken up with it, the run keeps iteration 3's network.
    assert [p.name for p in (run / "snapshots").iterdir()] == ["it3.npz"]
    assert load_network(run / "snapshots" / "it3.npz").meta["trained"]["iteration"] == 3
    iterations = [json.loads(line).get("iteration") for line in (run / "log.jsonl").read_text().splitlines()]
    assert [i for i in iterations if i is not None] == [1, 2, 3]

    other = runner.invoke(app, ["selfplay", str(run), "--batch", "8"])
    assert other.exit_code == 2
    assert "started with other settings" in other.stderr
    bootstrapped = runner.invoke(app, ["selfplay", str(run), "-i", "3", "--bootstrap"])
    assert bootstrapped.exit_code == 2 and "started with other settings" in bootstrapped.stderr
    scored = runner.invoke(app, ["selfplay", str(run), "-i", "3", "--score-weight", "0.5"])
    assert scored.exit_code == 2 and "started with other settings" in scored.stderr

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
        (["--gauntlet", "heuristic", "--keep-best-by", "random"], "--keep-best-by: 'random' is not one of"),
    ],
)
def test_bad_settings_are_one_line_and_exit_code_2(tmp_path: Path, args: list[str], message: str) -> None:
    result = runner.invoke(app, ["selfplay", str(tmp_path / "run"), *args])
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("error: ") and len(result.stderr.strip().splitlines()) == 1
    assert re.search(message, result.stderr), result.stderr
    assert not (tmp_path / "run" / "checkpoint.npz").exists()


def test_an_init_file_sets_the_trunk_and_one_that_cannot_is_refused_in_one_line(tmp_path: Path) -> None:
    import jax

    from oriflamme.bots.net.model import save
    from oriflamme.encoding.observation import observation_size
    from oriflamme.rl.train import _init, to_network

    save(to_network(_init(jax.random.key(0), [observation_size(), 16], 1502), {}), tmp_path / "w.npz")
    base = ["selfplay", str(tmp_path / "run"), "--init", str(tmp_path / "w.npz"), "-i", "1"]
    shrunk = runner.invoke(app, [*base, "--hidden", "8"])
    assert shrunk.exit_code == 2, shrunk.output
    assert shrunk.stderr.startswith("error: ") and len(shrunk.stderr.strip().splitlines()) == 1
    assert "w.npz: cannot grow a trunk of 16 into 8" in shrunk.stderr
    assert not (tmp_path / "run" / "checkpoint.npz").exists()
    (tmp_path / "bad.npz").write_bytes(b"not a zip")
    bad = runner.invoke(app, ["selfplay", str(tmp_path / "run"), "--init", str(tmp_path / "bad.npz")])
    assert bad.exit_code == 2 and "--init: " in bad.stderr and "not a readable weights file" in bad.stderr
    # Without --hidden, the run keeps the file's trunk (not the default 256,256).
    kept = runner.invoke(app, [*base, *[a for a in TINY if a not in ("--hidden", "16")], "--gauntlet", ""])
    assert kept.exit_code == 0, kept.output
    assert load_network(tmp_path / "run" / "latest.npz").hidden == (16,)


def _row(opponent: str, share: float, games: int = 100) -> GauntletRow:
    return GauntletRow(opponent, 4, "base", games, games * share, 0.3)


def test_keep_best_by_compares_the_share_against_that_opponent_not_the_head_to_head(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """With --keep-best-by, the best is the network that did best against that opponent, on the
    same games; by default, the one that beats the best so far more often than chance."""
    latest, best_file = tmp_path / "latest.npz", tmp_path / "best.npz"
    shares: dict[str, dict[str, float]] = {"latest": {}, "best": {"ismcts:normal": 0.05}}
    played: list[tuple[str, str]] = []

    def play(candidate: str, opponents: list[str], **kw: object) -> list[GauntletRow]:
        assert (kw["players"], kw["deck"], kw["games"]) == (4, "base", 100)
        who = "best" if candidate == f"zero:{best_file}" else "latest"
        played.extend((who, o) for o in opponents)
        return [_row(o, shares[who]["best" if o == f"zero:{best_file}" else o]) for o in opponents]

    monkeypatch.setattr(gauntlet, "play_gauntlet", play)
    by_search = _evaluator(["heuristic", "ismcts:normal"], 4, "base", 100, 0, 1, "ismcts:normal")
    head_to_head = _evaluator(["heuristic", "ismcts:normal"], 4, "base", 100, 0, 1)
    kept = {"gauntlet": [_row("heuristic", 0.5).to_dict(), _row("ismcts:normal", 0.20).to_dict()]}
    best = Best(best_file, kept)

    # Weaker against the search, yet beating its predecessor: kept only head to head.
    shares["latest"].update({"heuristic": 0.6, "ismcts:normal": 0.15, "best": 0.40})
    assert by_search(latest, best)[1] is False
    assert head_to_head(latest, best)[1] is True
    # Stronger against the search, losing to its predecessor: kept only by the search's share.
    shares["latest"].update({"ismcts:normal": 0.21, "best": 0.20})
    record, is_best = by_search(latest, best)
    assert is_best is True and record["kept_by"] == "ismcts:normal"
    assert head_to_head(latest, best)[1] is False
    shares["latest"]["ismcts:normal"] = 0.20
    assert by_search(latest, best)[1] is False  # a tie keeps the best
    first, is_best = by_search(latest, None)
    assert is_best is True and first["kept_by"] == "ismcts:normal"  # the first has nobody to beat
    assert ("best", "ismcts:normal") not in played  # the logged share stood for the best so far

    # A best whose record is lost, or measured on other games, is measured again on these.
    for record_of_best in (None, {"gauntlet": [_row("ismcts:normal", 0.30, games=400).to_dict()]}):
        played.clear()
        record, is_best = by_search(latest, Best(best_file, record_of_best))
        assert ("best", "ismcts:normal") in played
        assert record["best_measured_again"]["win_share"] == 0.05
        assert is_best is True  # 0.20 against the best's 0.05 on the same games


def test_a_run_keeping_the_best_by_an_opponent_follows_the_logged_shares(tmp_path: Path) -> None:
    run = tmp_path / "run"
    args = [*TINY, "-i", "3", "--evaluate-every", "1", *GAUNTLET, "--keep-best-by", "random"]
    result = runner.invoke(app, ["selfplay", str(run), *args])
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in (run / "log.jsonl").read_text().splitlines()]
    evaluations = [r for r in records if "evaluation" in r]
    assert [r["evaluation"] for r in evaluations] == [1, 2, 3]
    top = -1.0
    for record in evaluations:
        share = record["gauntlet"][0]["win_share"]
        assert record["best"] is (share > top) and record["kept_by"] == "random"
        top = max(top, share)
    kept = [r for r in evaluations if r["best"]][-1]
    assert load_network(run / "best.npz").meta["trained"]["iteration"] == kept["evaluation"]
    found = kept_best(run)
    assert found is not None and found.record == kept

    # A run killed after writing best.npz, before its next checkpoint, loses that evaluation's line
    # when it resumes: the best then has no record, rather than an older network's.
    lines = (run / "log.jsonl").read_text().splitlines()
    (run / "log.jsonl").write_text("".join(f"{x}\n" for x in lines if json.loads(x) != kept))
    found = kept_best(run)
    assert found is not None and found.path == run / "best.npz" and found.record is None


def test_a_run_started_afresh_drops_what_a_run_killed_before_its_first_checkpoint_logged(
    tmp_path: Path,
) -> None:
    run = tmp_path / "run"
    run.mkdir()
    (run / "log.jsonl").write_text('{"iteration": 1, "loss": 9.0}\n{"evaluation": 1, "best": true}\n')
    result = runner.invoke(app, ["selfplay", str(run), *TINY, "-i", "1", "--gauntlet", ""])
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in (run / "log.jsonl").read_text().splitlines()]
    assert [r["iteration"] for r in records] == [1] and records[0]["loss"] != 9.0
