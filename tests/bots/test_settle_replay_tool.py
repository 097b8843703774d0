"""``tools/settle_replay.py``: where each ``settle`` would stop a level's searches, from whole-budget traces."""

from __future__ import annotations

import sys

import pytest
from support.tools import load_tool

from oriflamme.build import build_kind

tool = load_tool("settle_replay")
# Its searches run in worker processes, which find the traced function by its module's name.
sys.modules["settle_replay"] = tool


def test_a_search_stops_at_the_first_check_whose_lead_passes_the_share_of_what_is_left() -> None:
    # A budget of 32: checks after 8, 16 and 24 iterations, then the whole budget's root.
    trace = [(24, {1: 6, 2: 2}), (16, {1: 13, 2: 3}), (8, {1: 20, 2: 4}), (0, {1: 27, 2: 5})]
    assert tool.stop(trace, 1.0) == (24, {1: 20, 2: 4})  # 16 > 8, where 10 was not > 16
    assert tool.stop(trace, 0.5) == (16, {1: 13, 2: 3})  # 10 > 8, where 4 was not > 12
    assert tool.stop(trace, 0.1) == (8, {1: 6, 2: 2})
    # A lead that never passes what is left runs the whole budget.
    close = [(24, {1: 4, 2: 4}), (16, {1: 8, 2: 8}), (8, {1: 12, 2: 12}), (0, {1: 16, 2: 16})]
    assert tool.stop(close, 0.5) == (32, {1: 16, 2: 16})


def test_the_move_is_the_most_visited_action_of_the_searches_summed() -> None:
    assert tool.move([{1: 10, 2: 6}, {1: 2, 2: 9}]) == 2  # 12 against 15
    assert tool.move([{3: 5, 1: 5}]) == 1  # a tie goes to the lowest action


@pytest.mark.skipif(build_kind() != "pure Python", reason="the tool records the pure build's settle test")
def test_replayed_games_stop_no_later_with_a_smaller_share_and_the_exact_stop_keeps_every_move() -> None:
    decisions = tool.replay("40@2", "base", 1)
    assert len(decisions) > 10 and all(len(traces) == 2 for traces in decisions)
    for traces in decisions:
        for trace in traces:
            assert sum(trace[-1][1].values()) == 40  # the whole budget ran
    rows = tool.summary(decisions, [1.0, 0.5, 0.0])
    assert [r["settle"] for r in rows] == [1.0, 0.5, 0.0]
    assert rows[0]["moves_unlike_the_exact_stop"] == 0
    assert rows[0]["mean_iterations"] >= rows[1]["mean_iterations"] >= rows[2]["mean_iterations"]
    assert rows[2]["mean_iterations"] < rows[0]["mean_iterations"]
