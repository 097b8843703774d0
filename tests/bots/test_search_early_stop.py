"""Early stop: a search ends once no iteration left can change its move, and plays that move.

The move a search plays is its most-visited root action. Each iteration adds
one visit to one root action, so once the leader is ahead of every other
action by more than the iterations still to run, they cannot change the move.
These tests pin that the stop is exact (the same move as the whole budget,
from the same seed, at every decision of seeded games of every box), that it
does save iterations, and that an evaluation, whose figures cover every
action, still runs the whole budget. A level may stop sooner, on a lead of a
share of the iterations left (``settle``, ``master``'s 0.5): the tests pin
where such a search stops, that the share reaches root-parallel workers, and
that ``master+settle=1`` is ``master`` as it was before.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from oriflamme import Game
from oriflamme.bots.heuristic import heuristic_action
from oriflamme.bots.ismcts import LEVELS, IsmctsBot, SearchLevel, _root_statistics, _settled
from oriflamme.bots.search_levels import parse_level
from oriflamme.engine.view import SeatView


def _views(deck: str, games: int) -> list[SeatView]:
    """Every third decision with a choice of heuristic games, from the deciding seat's view."""
    views = []
    for seed in range(games):
        g = Game.new(4, deck, seed=seed)
        rng = random.Random(seed)
        n = 0
        while not g.is_over():
            if len(g.legal_actions()) > 1:
                n += 1
                if n % 3 == 0:
                    views.append(g.view(g.current_player()))
            g.apply(heuristic_action(g, rng))
    return views


def test_settled_means_no_iteration_left_can_change_the_most_visited_action() -> None:
    stats = {1: [10.0, 5.0, 10.0], 2: [4.0, 3.0, 10.0], 3: [1.0, 0.0, 10.0]}
    assert _settled(stats, 5)  # 4 + 5 = 9 < 10
    assert not _settled(stats, 6)  # 4 + 6 = 10: a tie, which the reward sum would break
    assert _settled({7: [3.0, 1.0, 3.0]}, 2)  # an untried or lone rival counts 0 visits
    assert not _settled({}, 0)  # nothing tried: nothing is settled


@pytest.mark.parametrize("deck", ["base", "ablaze", "alliance"])
def test_an_early_stop_plays_the_move_of_the_whole_budget_with_fewer_iterations(deck: str) -> None:
    level = SearchLevel(iterations=300, max_seconds=30.0, reuse=False)
    assert level.early_stop
    whole_level = dataclasses.replace(level, early_stop=False)
    views = _views(deck, 2)
    assert len(views) > 15
    run = whole = stopped = 0
    for i, view in enumerate(views):
        bot, full = IsmctsBot(level, i), IsmctsBot(whole_level, i)
        assert bot.choose(view) == full.choose(view), f"decision {i} of {deck}"
        assert full.last_iterations == 300 and bot.last_iterations <= 300
        run += bot.last_iterations
        whole += full.last_iterations
        stopped += bot.last_iterations < 300
    assert stopped > len(views) // 4, "most searches of a few options settle before the budget ends"
    assert run < 0.95 * whole


def test_an_evaluation_runs_the_whole_budget() -> None:
    """Its figures cover every action, so it never stops early, even where choose() would."""
    view = next(v for v in _views("base", 1) if len(v.legal_actions) > 1)
    level = SearchLevel(iterations=200, max_seconds=30.0, reuse=False)
    values = IsmctsBot(level, 3).evaluate(view)
    assert sum(v.visits for v in values) == 200
    assert values[0].action == IsmctsBot(level, 3).choose(view)


def test_every_level_stops_early_and_the_knob_turns_it_off() -> None:
    assert all(level.early_stop for level in LEVELS.values())
    name, level = parse_level("expert+early_stop=off")
    assert name == "expert+early_stop=off" and not level.early_stop
    assert parse_level("hard+early_stop=off@2")[1] == dataclasses.replace(
        LEVELS["hard"], early_stop=False, workers=2
    )


def test_a_looser_settle_stops_at_the_first_check_where_the_lead_passes_its_share() -> None:
    """``settle=0.5``: the search stops at the first check (every 8 iterations) where the leader is
    ahead by more than half the iterations left, having run exactly the iterations the same seed
    runs up to there, and no later than the exact stop."""
    budget = 400
    loose = SearchLevel(iterations=budget, max_seconds=30.0, reuse=False, settle=0.5)
    exact = dataclasses.replace(loose, settle=1.0)
    earlier = 0
    views = _views("ablaze", 1)[:12]
    assert len(views) >= 8
    for i, view in enumerate(views):
        bot = IsmctsBot(loose, i)
        stopped, _ = bot._one_search(view)
        done = bot.last_iterations
        whole = IsmctsBot(exact, i)
        whole._one_search(view)
        assert done <= whole.last_iterations
        earlier += done < whole.last_iterations
        if done == budget:
            continue
        assert bot.last_settled and done % 8 == 0
        # The same seed with a budget of exactly ``done`` iterations and no stop builds the same root...
        upto = IsmctsBot(dataclasses.replace(loose, iterations=done, early_stop=False), i)
        root, _ = upto._one_search(view)
        assert root.stats == stopped.stats
        assert _settled(root.stats, (budget - done) * 0.5)
        assert not _settled(root.stats, budget - done) or whole.last_iterations == done
        # ... and eight iterations before, the lead had not passed half of what was left.
        if done > 8:
            before, _ = IsmctsBot(dataclasses.replace(upto.level, iterations=done - 8), i)._one_search(view)
            assert not _settled(before.stats, (budget - done + 8) * 0.5)
    assert earlier >= 3, "a looser settle stops sooner than the exact stop at many decisions"


def test_settle_is_a_knob_from_0_to_1() -> None:
    name, level = parse_level("expert+settle=0.5")
    assert name == "expert+settle=0.5" and level.settle == 0.5
    assert SearchLevel(iterations=10, max_seconds=1.0).settle == 1.0
    # Only master stops on a lead short of certain; every other level plays the whole budget's move.
    assert {name: level.settle for name, level in LEVELS.items()} == {
        "easy": 1.0,
        "normal": 1.0,
        "hard": 1.0,
        "expert": 1.0,
        "master": 0.5,
    }
    for bad in ("expert+settle=1.5", "expert+settle=-0.1", "expert+settle=half"):
        with pytest.raises(ValueError, match=r"settle in .* must be a number from 0 to 1"):
            parse_level(bad)


def test_a_root_parallel_worker_stops_at_the_level_settle() -> None:
    """The share travels with the level to each worker process's search."""
    exact = SearchLevel(iterations=400, max_seconds=30.0, reuse=False)
    loose = dataclasses.replace(exact, settle=0.5)
    views = _views("base", 1)[:8]
    ran = {0.5: 0, 1.0: 0}
    for i, view in enumerate(views):
        for level in (exact, loose):
            _, _, iterations = _root_statistics((dataclasses.asdict(level), 100 + i, view))
            ran[level.settle] += iterations
    assert ran[0.5] < ran[1.0]


def test_master_with_settle_1_is_master_before_settle() -> None:
    """The records played before ``settle`` replay as ``ismcts:master+settle=1``."""
    name, level = parse_level("master+settle=1")
    assert name == "master+settle=1"
    assert level == SearchLevel(
        iterations=3500, max_seconds=60.0, workers=2, places="fitted", box_iterations=(("ablaze", 4500),)
    )


def test_a_level_built_by_hand_refuses_a_settle_outside_0_to_1() -> None:
    for bad in (-0.5, 1.5, float("nan")):
        with pytest.raises(ValueError, match="settle must be a share from 0 to 1"):
            SearchLevel(iterations=10, max_seconds=1.0, settle=bad)
