"""``tools/fit_share_temperature.py``: the fit behind ``share_scale`` finds the likeliest temperature."""

from __future__ import annotations

import json
import math
from types import ModuleType

import pytest
from support.tools import load_tool


def test_a_sure_reading_of_a_wrong_lead_is_unlikely_and_a_sure_reading_of_the_right_one_likely() -> None:
    tool = load_tool("fit_share_temperature")
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


def test_the_fit_finds_the_best_temperature_of_each_round_the_slope_and_the_survival(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """On a few real games: each round's fitted temperature is at least as likely as the fixed one
    and as its neighbours; each survival's slope as any other tried; the best survival is the
    likeliest tried; and a lower survival lowers only the seats with revealed characters."""
    tool = load_tool("fit_share_temperature")
    by_survival, rounds = tool.collect("base", 12, 5, survivals=(1.0, 0.5))
    assert rounds == 6 and set(by_survival) == {1.0, 0.5}
    by_round = by_survival[1.0]
    assert sorted(by_round) == [2, 3, 4, 5, 6]
    assert all(len(samples) == 12 for samples in by_round.values())
    for r, samples in by_round.items():
        for (full, shares), (half, same) in zip(samples, by_survival[0.5][r], strict=True):
            assert shares == same and all(h <= f + 1e-9 for h, f in zip(half, full, strict=True))
    result = tool.fit(by_survival, rounds)
    for r, row in result["rounds"].items():
        best = row["best_temperature"]
        ll = tool.log_likelihood(by_round[r], best)
        assert ll >= tool.log_likelihood(by_round[r], 2.0) - 1e-9
        assert ll >= tool.log_likelihood(by_round[r], best * 1.2) - 1e-6
        assert ll >= tool.log_likelihood(by_round[r], best / 1.2) - 1e-6
        assert row["rounds_left"] == rounds - r + 1

    def pooled(survival: float, slope: float) -> float:
        horizon = {r: s for r, s in by_survival[survival].items() if r >= 3}
        n = sum(len(s) for s in horizon.values())
        return sum(tool.log_likelihood(s, slope * (rounds - r + 1)) * len(s) for r, s in horizon.items()) / n

    for row in result["tried"]:
        p, k = row["survival"], row["share_scale"]
        assert row["log_likelihood"] == pytest.approx(pooled(p, k), abs=1e-4)
        assert pooled(p, k) >= max(pooled(p, k * 1.2), pooled(p, k / 1.2), pooled(p, 1.0)) - 1e-6
    assert result["best"] == max(result["tried"], key=lambda row: row["log_likelihood"])
    assert result["fixed_log_likelihood"] == pytest.approx(_fixed(tool, by_round), abs=1e-4)
    assert tool.main(["--deck", "base", "--games", "3", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["games"] == 3 and set(printed["decks"]) == {"base"}
    assert [row["survival"] for row in printed["decks"]["base"]["tried"]] == list(tool.SURVIVALS)


def _fixed(tool: ModuleType, by_round: dict[int, list[tuple[list[float], list[float]]]]) -> float:
    """The fixed temperature's fit over the horizon rounds, counted position by position."""
    horizon = [sample for r, samples in by_round.items() if r >= 3 for sample in samples]
    return float(tool.log_likelihood(horizon, 2.0))


def test_reliability_counts_each_seats_forecast_in_its_band() -> None:
    """Two positions, four forecasts each: an even table (0.25 each, one winner) and a sure leader
    who wins; a forecast of exactly 1 falls in the top band."""
    tool = load_tool("fit_share_temperature")
    even = ([0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0], 2.0)
    sure = ([100.0, 0.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0], 1.0)
    bands = tool.reliability([even, sure])
    assert [b["band"] for b in bands] == [[0.0, 0.2], [0.2, 0.4], [0.4, 0.6], [0.6, 0.8], [0.8, 1.0]]
    assert [b["forecasts"] for b in bands] == [3, 4, 0, 0, 1]
    assert bands[1]["mean_forecast"] == 0.25 and bands[1]["won"] == 0.25
    assert bands[0]["mean_forecast"] == 0.0 and bands[0]["won"] == 0.0
    assert bands[4]["mean_forecast"] == 1.0 and bands[4]["won"] == 1.0
    assert bands[2]["mean_forecast"] is None
