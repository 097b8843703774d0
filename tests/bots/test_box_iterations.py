"""A level's budget per box (``SearchLevel.box_iterations``): read, checked, and really searched."""

from __future__ import annotations

import dataclasses

import pytest

from oriflamme.bots.ismcts import IsmctsBot
from oriflamme.bots.search_levels import LEVELS, SearchLevel, parse_level
from oriflamme.engine.game import Game
from oriflamme.engine.recipes import PRESETS, parse_recipe
from oriflamme.engine.view import SeatView

LEVEL = SearchLevel(
    iterations=40, max_seconds=30.0, box_iterations=(("ablaze", 64),), early_stop=False, reuse=False
)


def _view(deck: str) -> SeatView:
    g = Game.new(4, deck, seed=3)
    while len(g.legal_actions()) < 2:
        g.apply(g.legal_actions()[0])
    return g.view(g.current_player())


def test_a_named_box_reads_its_own_count_and_every_other_deck_the_level_s() -> None:
    assert LEVEL.iterations_for(PRESETS["ablaze"]) == 64
    assert LEVEL.iterations_for(PRESETS["base"]) == 40
    assert LEVEL.iterations_for(PRESETS["alliance"]) == 40
    # A deck mixing the boxes, even one holding the named box's kinds, is not that box.
    mixed = parse_recipe("random:ablaze+base", seed=5)
    assert mixed != PRESETS["ablaze"] and set(mixed) & set(PRESETS["ablaze"])
    assert LEVEL.iterations_for(mixed) == 40


@pytest.mark.parametrize(
    ("pairs", "message"),
    [
        ((("ablase", 64),), "unknown box 'ablase'; boxes: base, ablaze, alliance"),
        ((("ablaze", 0),), "box_iterations for ablaze must be 1 to 1,000,000, got 0"),
        ((("base", 2_000_000),), "box_iterations for base must be 1 to 1,000,000"),
    ],
)
def test_a_level_built_with_a_bad_box_budget_is_refused(
    pairs: tuple[tuple[str, int], ...], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        SearchLevel(iterations=40, max_seconds=30.0, box_iterations=pairs)


@pytest.mark.parametrize(("deck", "expected"), [("ablaze", 64), ("base", 40)])
def test_one_search_runs_the_budget_of_the_game_s_box(deck: str, expected: int) -> None:
    bot = IsmctsBot(LEVEL, 1)
    bot.choose(_view(deck))
    assert (bot.last_budget, bot.last_iterations) == (expected, expected)


@pytest.mark.parametrize(("deck", "expected"), [("ablaze", 64), ("base", 40)])
def test_root_parallel_searches_each_run_the_budget_of_the_game_s_box(deck: str, expected: int) -> None:
    """The budget travels to the worker processes with the rest of the level."""
    bot = IsmctsBot(dataclasses.replace(LEVEL, workers=2), 1)
    bot.choose(_view(deck))
    assert bot.last_iterations == 2 * expected


def test_master_searches_more_in_ablaze_only_and_its_variants_keep_that() -> None:
    """``master`` is calibrated to a time per decision: 4,500 iterations per process in *Ablaze*."""
    master = LEVELS["master"]
    assert [master.iterations_for(PRESETS[box]) for box in ("base", "ablaze", "alliance")] == [
        3500,
        4500,
        3500,
    ]
    name, variant = parse_level("master+widening=2@3")
    assert name == "master+widening=2@3"
    assert variant.iterations_for(PRESETS["ablaze"]) == 4500 and variant.workers == 3
    # A number of iterations is the same budget on every deck.
    assert parse_level("4000+places=fitted@2")[1].box_iterations == ()
