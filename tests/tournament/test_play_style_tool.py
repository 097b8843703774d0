"""``tools/play_style.py``: each bot's IP by cause and what becomes of its cards, from a record."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from support.tools import load_tool

from oriflamme.engine.cards import SLUGS
from oriflamme.tournament.games import deal, replay
from oriflamme.tournament.record import read_record

GAMES = 6


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("style") / "games.jsonl"
    subprocess.run(
        [sys.executable, "-m", "oriflamme", "tournament", "--bots", "heuristic,random,random,random",
         "--deck", "base", "-n", str(GAMES), "--seed", "5", "--workers", "1", "--record", str(path), "--json"],
        check=True, capture_output=True,
    )  # fmt: skip
    return path


def test_ip_by_cause_sums_to_the_scores_and_every_card_held_has_one_fate(record: Path) -> None:
    result = load_tool("play_style").as_json(load_tool("play_style").play_style(record))
    recorded = read_record(record)
    config = recorded.config
    assert set(result) == {"heuristic", "random"}
    assert (result["heuristic"]["games"], result["random"]["games"]) == (GAMES, 3 * GAMES)
    for spec in result:
        entrants = [e for e, s in enumerate(config.specs) if s == spec]
        scores = sum(g.scores[e] for g in recorded.games for e in entrants)
        per_game = result[spec]["ip_per_game"]
        assert sum(per_game.values()) * result[spec]["games"] == pytest.approx(scores)
        # The cards dealt into its hands, and those still in hand at the end, counted from the games.
        held: Counter[str] = Counter()
        kept: Counter[str] = Counter()
        for g in recorded.games:
            start, end = deal(config, g.index), replay(config, g)
            for e in entrants:
                seat = g.seats[e]
                held.update(SLUGS[start.kind[c]] for c in start.hands[seat])
                kept.update(SLUGS[end.kind[c]] for c in end.hands[seat])
        cards = result[spec]["cards"]
        for kind, n in held.items():
            row = cards[kind]
            assert row["held_per_game"] * result[spec]["games"] == pytest.approx(n)
            fates = [row[f] for f in load_tool("play_style").FATES]
            assert sum(fates) == pytest.approx(1.0)
            assert row["never placed"] * n == pytest.approx(kept[kind])
    # The heuristic reveals what it places; random play leaves cards face down too.
    assert any(row["revealed"] > 0 for row in result["heuristic"]["cards"].values())


def test_the_command_prints_the_table_and_json_and_refuses_a_bad_file(record: Path, tmp_path: Path) -> None:
    tool = [sys.executable, str(Path(__file__).parents[2] / "tools" / "play_style.py")]
    table = subprocess.run([*tool, str(record), "--kinds", "conspiracy"], capture_output=True, text=True)
    assert table.returncode == 0, table.stderr
    assert (
        "heuristic: 6 games" in table.stdout
        and "conspiracy" in table.stdout
        and "\n  lord " not in table.stdout
    )
    as_json = subprocess.run([*tool, str(record), "--json"], capture_output=True, text=True)
    assert json.loads(as_json.stdout)["random"]["games"] == 3 * GAMES
    (tmp_path / "bad.jsonl").write_text("not a record\n")
    bad = subprocess.run([*tool, str(tmp_path / "bad.jsonl")], capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stderr.startswith("error: ") and "bad.jsonl" in bad.stderr
