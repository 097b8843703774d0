"""``oriflamme analyze``: the files it writes, reproducibility, records, Ctrl-C and bad input."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

import oriflamme.analysis.run as analysis_run
from oriflamme.cli.app import app
from oriflamme.tournament import GameRecord, TournamentConfig

runner = CliRunner()
SMALL = ["-n", "6", "-p", "2-3", "-d", "base", "-d", "random", "--seed", "5"]


def analyze(out: Path, *args: str) -> Any:
    return runner.invoke(app, ["analyze", "-o", str(out), *args])


def summary(out: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((out / "summary.json").read_text())
    return data


def without_run(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k != "run"}


def test_a_study_writes_summary_report_figures_and_tables(tmp_path: Path) -> None:
    out = tmp_path / "study"
    result = analyze(out, *SMALL, "-w", "1")
    assert result.exit_code == 0, result.output
    data = summary(out)
    assert data["schema"] == "oriflamme.analysis/1"
    assert data["run"]["games"] == 24 and data["run"]["bots"] == ["heuristic"]
    assert [(s["players"], s["deck"]) for s in data["studies"]] == [
        (2, "base"),
        (2, "random"),
        (3, "base"),
        (3, "random"),
    ]
    assert all(s["games"] == 6 and s["replayed"] == 6 for s in data["studies"])
    assert "heir" in data["kinds"]
    for name in (
        "seat-advantage",
        "cards",
        "recipe-effect",
        "game-length",
        "score-by-round",
        "drama",
        "balance",
    ):
        assert (out / "figures" / f"{name}.png").read_bytes().startswith(b"\x89PNG")
        assert f"](figures/{name}.png)" in (out / "report.md").read_text()
    page = (out / "report.html").read_text()
    assert page.count("data:image/png;base64,") == 7 and "figures/" not in page
    assert "<h1>Oriflamme balance study</h1>" in page
    games_csv = (out / "data" / "games.csv").read_text().splitlines()
    assert len(games_csv) == 1 + 24
    assert len((out / "data" / "seats.csv").read_text().splitlines()) == 1 + 6 * 2 * 2 + 6 * 3 * 2
    table = pq.read_table(out / "data" / "games.parquet")
    assert table.num_rows == 24
    assert table.column("game").to_pylist() == [0, 1, 2, 3, 4, 5] * 4
    assert "Seat advantage" in result.stdout and "report.html" in result.stdout


def test_the_same_seed_gives_the_same_files_whatever_the_workers(tmp_path: Path) -> None:
    one, two = tmp_path / "one", tmp_path / "two"
    assert analyze(one, *SMALL, "-w", "1").exit_code == 0
    assert analyze(two, *SMALL, "-w", "2").exit_code == 0
    assert summary(one) == summary(two)
    for name in ("report.md", "data/games.csv", "data/seats.csv", "data/cards.csv"):
        assert (one / name).read_bytes() == (two / name).read_bytes(), name


def test_recorded_games_read_back_give_the_same_figures(tmp_path: Path) -> None:
    """--record keeps one tournament record per study; --from those files recomputes every figure."""
    records = tmp_path / "records"
    played = tmp_path / "played"
    assert analyze(played, *SMALL, "-w", "1", "--record", str(records)).exit_code == 0
    files = sorted(records.glob("*.jsonl"))
    assert [f.name for f in files] == ["2p-base.jsonl", "2p-random.jsonl", "3p-base.jsonl", "3p-random.jsonl"]
    read = tmp_path / "read"
    args = [a for f in files for a in ("--from", str(f))]
    result = analyze(read, *args)
    assert result.exit_code == 0, result.output
    assert without_run(summary(read)) == without_run(summary(played))
    # Resuming a complete record plays nothing and writes the same report.
    again = tmp_path / "again"
    assert analyze(again, *SMALL, "-w", "1", "--record", str(records)).exit_code == 0
    assert without_run(summary(again)) == without_run(summary(played))


def test_a_record_of_schema_2_counts_for_outcomes_only(tmp_path: Path) -> None:
    records = tmp_path / "records"
    assert (
        analyze(
            tmp_path / "a", "-n", "4", "-p", "3", "-d", "base", "-w", "1", "--record", str(records)
        ).exit_code
        == 0
    )
    path = records / "3p-base.jsonl"
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    rows[0]["schema"] = "oriflamme.tournament-games/2"
    for row in rows[1:]:
        del row["aside"], row["actions"]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    result = analyze(tmp_path / "b", "--from", str(path))
    assert result.exit_code == 0, result.output
    assert "4 games keep their outcomes only (recorded before version 3" in result.stderr
    data = summary(tmp_path / "b")
    assert data["run"]["without_actions"] == 4
    study = data["studies"][0]
    assert study["games"] == 4 and study["replayed"] == 0
    assert study["decisions"] == {"n": 0}
    assert data["kinds"] == {}
    assert "keep outcomes but not actions" in (tmp_path / "b" / "report.md").read_text()


def test_ctrl_c_keeps_the_finished_games_and_a_rerun_with_the_record_completes_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    records = tmp_path / "records"
    real = analysis_run.play_tournament_game

    def stopped(config: TournamentConfig, index: int) -> GameRecord:
        if index == 3:
            raise KeyboardInterrupt
        return real(config, index)

    args = ["-n", "6", "-p", "3", "-d", "base", "-w", "1", "--seed", "2"]
    with monkeypatch.context() as patch:
        patch.setattr(analysis_run, "play_tournament_game", stopped)
        result = analyze(tmp_path / "stopped", *args, "--record", str(records))
    assert result.exit_code == 130, result.output
    assert "the report covers the 3 games that finished" in result.stderr
    data = summary(tmp_path / "stopped")
    assert data["run"]["interrupted"] is True and data["studies"][0]["games"] == 3
    resumed = analyze(tmp_path / "resumed", *args, "--record", str(records))
    assert resumed.exit_code == 0, resumed.output
    assert "3 of 6 games already played" in resumed.stderr
    assert analyze(tmp_path / "whole", *args).exit_code == 0
    assert without_run(summary(tmp_path / "resumed")) == without_run(summary(tmp_path / "whole"))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-p", "1-3"], "each must be 2 to 5"),
        (["-p", "four"], "write a count (4), a range (2-5) or a list (2,4)"),
        (["-d", "dragons"], "dragons"),
        (["-b", "heuristic,,random"], "empty bot spec"),
        (["-b", "grandmaster"], "grandmaster"),
        (["-w", "0"], "at least 1"),
        (["--from", "missing.jsonl"], "cannot read the record file missing.jsonl"),
        (["--from", "x.jsonl", "-b", "random"], "--from reads recorded games"),
        (["-n", "0"], "at least 1"),
    ],
)
def test_bad_input_is_one_clear_line_and_writes_nothing(
    tmp_path: Path, args: list[str], message: str
) -> None:
    out = tmp_path / "out"
    result = analyze(out, *args)
    assert result.exit_code == 2, result.output
    assert message in result.stderr
    assert "Traceback" not in result.output
    assert not out.exists()


def test_an_output_path_that_is_a_file_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "file"
    out.write_text("keep me")
    result = analyze(out, "-n", "2", "-p", "2", "-d", "base")
    assert result.exit_code == 2 and "is a file, not a directory" in result.stderr
    assert out.read_text() == "keep me"


@pytest.mark.skipif(
    importlib.util.find_spec("ray") is None, reason="needs the optional 'cluster' extra (ray)"
)
def test_a_study_on_a_local_ray_instance_writes_what_a_local_run_writes(tmp_path: Path) -> None:
    """Thousands of games as Ray tasks (2 CPUs): the same summary and tables as in one process."""
    args = ["-b", "random", "-n", "1000", "-p", "2-3", "-d", "random", "--seed", "9"]
    local, remote = tmp_path / "local", tmp_path / "ray"
    assert analyze(local, *args, "-w", "1").exit_code == 0
    result = analyze(remote, *args, "-w", "2", "--ray")
    assert result.exit_code == 0, result.output
    assert summary(remote)["run"]["games"] == 2000
    assert without_run(summary(remote)) == without_run(summary(local))
    assert (remote / "data" / "games.csv").read_bytes() == (local / "data" / "games.csv").read_bytes()


def test_the_report_quotes_a_command_that_reproduces_the_study(tmp_path: Path) -> None:
    out = tmp_path / "out"
    args = [
        "-b",
        "heuristic,random",
        "-p",
        "2,4",
        "-d",
        "Base",
        "-n",
        "2",
        "--seed",
        "3",
        "--rounds",
        "5",
        "-w",
        "1",
    ]
    assert analyze(out, *args).exit_code == 0
    command = summary(out)["run"]["command"]
    assert command == (
        "oriflamme analyze --bots heuristic,random --players 2,4 --deck base --games 2 --seed 3 --rounds 5"
    )
    assert f"`{command}`" in (out / "report.md").read_text()
    again = tmp_path / "again"
    assert analyze(again, *command.split()[2:], "-w", "1").exit_code == 0
    assert summary(again) == summary(out)


def test_a_record_whose_actions_were_edited_is_refused_by_name(tmp_path: Path) -> None:
    records = tmp_path / "records"
    assert (
        analyze(
            tmp_path / "a", "-n", "2", "-p", "3", "-d", "base", "-w", "1", "--record", str(records)
        ).exit_code
        == 0
    )
    path = records / "3p-base.jsonl"
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    rows[2]["actions"][5] = 999_999
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    result = analyze(tmp_path / "b", "--from", str(path))
    assert result.exit_code == 2, result.output
    assert f"{path}: game 1: action 6" in result.stderr
    assert "Traceback" not in result.output
    assert not (tmp_path / "b").exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no scratch left behind


def test_the_python_example_of_the_guide_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/analysis.md's example, made small (and pandas is not a dependency: left out)."""
    import re

    guide = (Path(__file__).parents[2] / "docs" / "analysis.md").read_text(encoding="utf-8")
    example = next(b for b in re.findall(r"```python\n(.*?)```", guide, flags=re.S) if "run_study" in b)
    monkeypatch.chdir(tmp_path)
    code = example.replace(", 500, 0,", ", 4, 0,").replace("workers=2", "workers=1")
    scope: dict[str, Any] = {}
    exec(compile(code, "docs/analysis.md", "exec"), scope)
    first = scope["result"].summary["studies"][0]
    assert first["players"] == 2 and first["games"] == 4
    assert (tmp_path / "study" / "report.html").exists()


def test_bench_analysis_plays_reads_back_and_agrees(tmp_path: Path) -> None:
    result = runner.invoke(
        app, ["bench", "analysis", "-n", "32", "-p", "2,3", "-d", "base", "-w", "1", "--json"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["games"] == 32 and data["studies"] == 2
    assert data["same_figures_read_back"] is True
    assert data["read_and_recompute_seconds"] > 0 and data["playing_seconds"] > 0


def _record(tmp_path: Path, name: str, *args: str) -> Path:
    records = tmp_path / name
    assert (
        analyze(
            tmp_path / f"{name}-out",
            "-n",
            "2",
            "-p",
            "2",
            "-d",
            "base",
            "-w",
            "1",
            "--record",
            str(records),
            *args,
        ).exit_code
        == 0
    )
    return records / "2p-base.jsonl"


def test_from_refuses_options_the_files_decide_and_files_that_would_count_twice(tmp_path: Path) -> None:
    one = _record(tmp_path, "one")
    copy = tmp_path / "copy.jsonl"
    copy.write_bytes(one.read_bytes())
    other_rules = _record(tmp_path, "rules", "--rounds", "5")
    cases = [
        (["--from", str(one), "-n", "10"], "leave out --games"),
        (["--from", str(one), "--seed", "3", "--rounds", "5"], "leave out --seed, --rounds"),
        (["--from", str(one), "--from", str(one)], "the same file as --from"),
        (["--from", str(one), "--from", str(copy)], "records the same tournament as"),
        (["--from", str(one), "--from", str(other_rules)], "under different rule options"),
    ]
    for args, message in cases:
        result = analyze(tmp_path / "out", *args)
        assert result.exit_code == 2, (args, result.output)
        assert message in result.stderr, (args, result.stderr)
        assert not (tmp_path / "out").exists()


def test_an_output_path_under_a_file_is_refused_before_playing(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    result = analyze(tmp_path / "file" / "sub", "-n", "2", "-p", "2", "-d", "base")
    assert result.exit_code == 2, result.output
    assert "is a file, not a directory" in result.stderr
    assert "Traceback" not in result.output


def test_a_rerun_replaces_the_earlier_studys_files_and_leaves_others_alone(tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert analyze(out, "-n", "12", "-p", "2", "-d", "random", "-w", "1").exit_code == 0
    assert (out / "figures" / "recipe-effect.png").exists()
    (out / "notes.txt").write_text("mine")
    assert analyze(out, "-n", "3", "-p", "2", "-d", "base", "-w", "1").exit_code == 0
    assert not (out / "figures" / "recipe-effect.png").exists()  # base has no random recipes to draw it from
    assert (out / "notes.txt").read_text() == "mine"
    assert summary(out)["studies"][0]["deck"] == "base"
