"""``tools/fit_keep_rates.py``: how often a bot kept each kind hidden, counted by replaying records."""

from __future__ import annotations

import ast
import gzip
from pathlib import Path

import pytest
from support.tools import ROOT, load_tool
from support.tournament import heuristic_record

from oriflamme.bots.heuristic import KEEP_LIKELIHOOD
from oriflamme.engine.cards import SLUGS
from oriflamme.engine.errors import SetupError


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Twelve seeded base games, a heuristic bot against three random ones."""
    return heuristic_record(tmp_path_factory.mktemp("keeps") / "games.jsonl", 12)


def test_each_bots_decisions_are_counted_apart_and_the_random_bot_keeps_about_half(record: Path) -> None:
    tool = load_tool("fit_keep_rates")
    heuristic = tool.count([record], "heuristic")
    random_bots = tool.count([record], "random")
    assert tool.count([record], "Heuristic") == heuristic, "a spec is read as the record writes it"
    with pytest.raises(SetupError, match="no entrant is ismcts:normal; its entrants are heuristic, random"):
        tool.count([record], "ismcts:normal")
    with pytest.raises(SetupError, match="--bot: unknown bot"):
        tool.count([record], "dragon")
    decided = sum(n for _, n in random_bots.values())
    assert decided > 100
    # A uniformly random choice between keeping and revealing.
    assert 0.4 < sum(k for k, _ in random_bots.values()) / decided < 0.6
    for keeps, n in [*heuristic.values(), *random_bots.values()]:
        assert 0 <= keeps <= n and n > 0
    # The heuristic keeps its bait hidden, as its own table says it would.
    rates = tool.rates(heuristic)
    for slug, row in rates.items():
        assert row["guess"] == KEEP_LIKELIHOOD[SLUGS.index(slug)]
    assert rates["conspiracy"]["rate"] > rates["lord"]["rate"]


def test_a_gzipped_record_counts_alike_and_the_rates_print_as_a_literal(
    record: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tool = load_tool("fit_keep_rates")
    packed = tmp_path / "games.jsonl.gz"
    packed.write_bytes(gzip.compress(record.read_bytes()))
    assert tool.count([packed], "random") == tool.count([record], "random")
    assert tool.main([str(packed), "--bot", "random", "--python"]) == 0
    printed = ast.literal_eval(capsys.readouterr().out)
    assert printed == {slug: row["rate"] for slug, row in tool.rates(tool.count([record], "random")).items()}
    assert tool.main([str(tmp_path / "missing.jsonl")]) == 2
    assert "cannot read the record file" in capsys.readouterr().err


def test_the_searchs_fitted_rates_are_those_of_the_committed_master_runs() -> None:
    """``FITTED_KEEP_RATE`` is what the tool reads from the records it names, not a hand-made table."""
    from oriflamme.bots.inference import FITTED_KEEP_RATE

    tool = load_tool("fit_keep_rates")
    records = sorted((ROOT / "docs" / "measurements").glob("*-ismcts-master-vs-normal.jsonl.gz"))
    assert len(records) == 3
    measured = tool.rates(tool.count(records, "ismcts:normal"))
    assert {slug: row["rate"] for slug, row in measured.items()} == FITTED_KEEP_RATE
