"""``tools/fit_share_temperature.py``: the fit behind ``share_scale`` finds the likeliest temperature."""

from __future__ import annotations

import importlib.util
import json
import math
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).parents[2]


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "fit_share_temperature", ROOT / "tools" / "fit_share_temperature.py"
    )
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    return tool


def test_a_sure_reading_of_a_wrong_lead_is_unlikely_and_a_sure_reading_of_the_right_one_likely() -> None:
    tool = _tool()
    right = [([10.0, 0.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0])]
    wrong = [([10.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0])]
    assert tool.log_likelihood(right, 1.0) > tool.log_likelihood(right, 10.0) > math.log(0.25)
    assert tool.log_likelihood(wrong, 1.0) < tool.log_likelihood(wrong, 10.0) < math.log(0.25)
    # A tie counts each winner's share.
    tie = [([5.0, 5.0, 0.0, 0.0], [0.5, 0.5, 0.0, 0.0])]
    assert tool.log_likelihood(tie, 2.0) == pytest.approx(math.log(projected(5.0, 2.0)))


def projected(lead: float, t: float) -> float:
    """The share of each of two leaders ``lead`` IP ahead of two others."""
    return 1.0 / (2.0 + 2.0 * math.exp(-lead / t))


def test_the_fit_finds_the_best_temperature_of_each_round_and_the_slope(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """On a few real games: the fitted temperature is at least as likely as the fixed one and as
    its neighbours, and the per-round slope is at least as likely as any other tried."""
    tool = _tool()
    by_round, rounds = tool.collect("base", 12, 5)
    assert rounds == 6 and sorted(by_round) == [2, 3, 4, 5, 6]
    assert all(len(samples) == 12 for samples in by_round.values())
    result = tool.fit(by_round, rounds)
    for r, row in result["rounds"].items():
        best = row["best_temperature"]
        ll = tool.log_likelihood(by_round[r], best)
        assert ll >= tool.log_likelihood(by_round[r], 2.0) - 1e-9
        assert ll >= tool.log_likelihood(by_round[r], best * 1.2) - 1e-6
        assert ll >= tool.log_likelihood(by_round[r], best / 1.2) - 1e-6
        assert row["rounds_left"] == rounds - r + 1
    k = result["share_scale"]
    horizon = {r: s for r, s in by_round.items() if r >= 3}

    def pooled(slope: float) -> float:
        return sum(tool.log_likelihood(s, slope * (rounds - r + 1)) * len(s) for r, s in horizon.items())

    assert pooled(k) >= max(pooled(k * 1.2), pooled(k / 1.2), pooled(1.0)) - 1e-6
    assert tool.main(["--deck", "base", "--games", "3", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["games"] == 3 and set(printed["decks"]) == {"base"}
