"""``tools/paired_records.py``: two records of the same deals compared game by game."""

from __future__ import annotations

import gzip
import json
import math
import subprocess
import sys
from pathlib import Path

import pytest
from support.tools import load_tool

from oriflamme.engine.errors import SetupError

GAMES = 8


def _record(path: Path, first: str, seed: int = 3, other: str = "random") -> list[float]:
    """Play a small seeded tournament into ``path``; the first entrant's win share of each game."""
    bots = ",".join([first, other, other, other])
    subprocess.run(
        [sys.executable, "-m", "oriflamme", "tournament", "--bots", bots, "-n", str(GAMES),
         "--seed", str(seed), "--workers", "1", "--record", str(path), "--json"],
        check=True, capture_output=True,
    )  # fmt: skip
    games = [json.loads(line) for line in path.read_text().splitlines()[1:]]
    return [g["shares"][0] for g in sorted(games, key=lambda g: g["game"])]


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, list[float], list[float]]:
    tmp = tmp_path_factory.mktemp("paired")
    a, b = tmp / "random.jsonl", tmp / "heuristic.jsonl"
    return a, b, _record(a, "random"), _record(b, "heuristic")


def test_the_difference_is_the_mean_of_the_games_differences_with_its_interval(
    records: tuple[Path, Path, list[float], list[float]],
) -> None:
    a, b, shares_a, shares_b = records
    result = load_tool("paired_records").compare(a, b)
    diffs = [y - x for x, y in zip(shares_a, shares_b, strict=True)]
    mean = sum(diffs) / GAMES
    half = 1.96 * math.sqrt(sum((d - mean) ** 2 for d in diffs) / (GAMES - 1)) / math.sqrt(GAMES)
    assert result["games"] == GAMES
    assert result["first"] == {"bot": "random", "win_rate": pytest.approx(sum(shares_a) / GAMES)}
    assert result["second"] == {"bot": "heuristic", "win_rate": pytest.approx(sum(shares_b) / GAMES)}
    assert result["difference"] == pytest.approx(mean)
    assert result["difference_ci95"] == pytest.approx([mean - half, mean + half])


def test_a_gzipped_record_reads_as_the_plain_one(
    records: tuple[Path, Path, list[float], list[float]],
) -> None:
    a, b, _, _ = records
    packed = b.with_suffix(".jsonl.gz")
    packed.write_bytes(gzip.compress(b.read_bytes()))
    tool = load_tool("paired_records")
    assert tool.compare(a, packed) == tool.compare(a, b)


def test_records_of_other_deals_are_refused(
    records: tuple[Path, Path, list[float], list[float]], tmp_path: Path
) -> None:
    a, _, _, _ = records
    other = tmp_path / "other.jsonl"
    _record(other, "heuristic", seed=4)
    with pytest.raises(SetupError, match="not the same deals: seed is 3"):
        load_tool("paired_records").compare(a, other)
    against = tmp_path / "against-heuristic.jsonl"
    _record(against, "random", other="heuristic")
    with pytest.raises(SetupError, match="not the same deals: others is \\('random', "):
        load_tool("paired_records").compare(a, against)


def test_the_command_prints_the_comparison_and_refuses_with_a_message(
    records: tuple[Path, Path, list[float], list[float]], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    a, b, _, _ = records
    tool = load_tool("paired_records")
    assert tool.main([str(a), str(b), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == json.loads(json.dumps(tool.compare(a, b)))
    assert tool.main([str(a), str(tmp_path / "missing.jsonl")]) == 2
    assert "cannot read the record file" in capsys.readouterr().err


def test_pairs_of_several_seeds_pool_their_games_and_a_seed_counted_twice_is_refused(
    records: tuple[Path, Path, list[float], list[float]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a, b, shares_a, shares_b = records
    a4, b4 = tmp_path / "random-4.jsonl", tmp_path / "heuristic-4.jsonl"
    shares_a += _record(a4, "random", seed=4)
    shares_b += _record(b4, "heuristic", seed=4)
    tool = load_tool("paired_records")
    result = tool.pooled([(a, b), (a4, b4)])
    diffs = [y - x for x, y in zip(shares_a, shares_b, strict=True)]
    n = 2 * GAMES
    mean = sum(diffs) / n
    half = 1.96 * math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1)) / math.sqrt(n)
    assert result["games"] == n and result["seed"] == [3, 4]
    assert result["first"] == {"bot": "random", "win_rate": pytest.approx(sum(shares_a) / n)}
    assert result["second"]["win_rate"] == pytest.approx(sum(shares_b) / n)
    assert result["difference_ci95"] == pytest.approx([mean - half, mean + half])
    assert tool.main([str(a), str(b), str(a4), str(b4)]) == 0
    assert capsys.readouterr().out.startswith(f"{n} games of random (seeds 3, 4): random ")
    with pytest.raises(SetupError, match="seed 3 is in two pairs"):
        tool.pooled([(a, b), (a, b)])
    with pytest.raises(SetupError, match="the pairs compare other bots"):
        tool.pooled([(a, b), (b4, a4)])
    with pytest.raises(SystemExit) as odd:
        tool.main([str(a), str(b), str(a4)])
    assert odd.value.code == 2
    assert "records come in pairs" in capsys.readouterr().err
