"""The fitted projection (``bots.heuristic.fitted``) and the tool that fits it (``tools/fit_projection.py``).

Whether steering by it plays better is measured with ``oriflamme tournament``
(README); these tests pin that the search's fast scoring and the fit's
features are the same numbers, that the hand-made projection is one of its
tables, and that the fit finds weights that predict the winners.
"""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest
from support.positions import heuristic_positions
from support.tools import load_tool
from support.tournament import heuristic_record

from oriflamme.bots.heuristic.fitted import FEATURES, FITTED_WEIGHTS, fitted_scores, weights_for
from oriflamme.bots.heuristic.projection import HAND_WEIGHT, projected_scores
from oriflamme.bots.ismcts import IsmctsBot
from oriflamme.bots.search_levels import LEVELS, SearchLevel, parse_level
from oriflamme.engine.cards import KIND_BY_SLUG
from oriflamme.engine.game import Game

np = pytest.importorskip("numpy")


def _positions(deck: str) -> list[Game]:
    return heuristic_positions(deck, range(20), 0, 150)


@pytest.mark.parametrize("deck", ["base", "ablaze", "alliance"])
def test_the_searchs_scoring_is_the_fits_features_times_the_weights(deck: str) -> None:
    tool = load_tool("fit_projection")
    rng = random.Random(1)
    for g in _positions(deck):
        # A table's weights read in IP: the IP's own weight is 1.
        w = (1.0,) + tuple(rng.uniform(-2.0, 2.0) for _ in range(FEATURES - 1))
        assert fitted_scores(g, w) == pytest.approx(list(tool.features(g) @ np.array(w)))


@pytest.mark.parametrize("deck", ["base", "ablaze", "alliance"])
def test_the_hand_made_projection_is_one_table(deck: str) -> None:
    """IP, the four terms at 1, 1, HAND_WEIGHT and 1, and nothing else: the hand-made projection."""
    w = (1.0, 1.0, 1.0, HAND_WEIGHT, 1.0) + (0.0,) * (FEATURES - 5)
    for g in _positions(deck):
        assert fitted_scores(g, w) == pytest.approx(projected_scores(g))


def test_a_table_per_box_and_none_for_a_mixed_deck() -> None:
    assert all(len(w) == FEATURES and w[0] == 1.0 for w in FITTED_WEIGHTS.values())
    assert weights_for(Game.new(4, "alliance", seed=1).recipe) is FITTED_WEIGHTS["alliance"]
    mixed = tuple(KIND_BY_SLUG[s] for s in ("lord", "soldier", "empress", "deserter"))
    assert weights_for(mixed) is None


def test_the_search_steers_by_the_fitted_table_where_its_box_has_one() -> None:
    """``evaluation=fitted`` changes an *Alliance* search; on a mixed deck (no table) it is the
    search of before, figure for figure; no level uses it by default."""
    level = dataclasses.replace(parse_level("60")[1], early_stop=False)
    fitted = dataclasses.replace(level, evaluation="fitted")

    def figures(g: Game, lv: SearchLevel) -> list[tuple[int, int, float]]:
        bot = IsmctsBot(lv, 3)
        return [(v.action, v.visits, v.value) for v in bot.evaluate(g.view(g.current_player()))]

    g = Game.new(4, "alliance", seed=11)
    assert figures(g, level) != figures(g, fitted)
    mixed = Game.new(4, "lord,soldier,spy,heir,archer,empress,deserter,judge,fanatic,diplomat", seed=11)
    assert weights_for(mixed.recipe) is None
    assert figures(mixed, level) == figures(mixed, fitted)
    assert all(lv.evaluation == "projection" for lv in LEVELS.values())


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Sixty seeded *Alliance* games of a heuristic bot against three random ones."""
    return heuristic_record(tmp_path_factory.mktemp("projection") / "games.jsonl", 60, "alliance")


def test_the_fit_predicts_the_winners_better_than_a_uniform_guess(record: Path) -> None:
    """On the games it was fitted to, the fitted weights make the winners likelier than the
    hand-made projection at its own likeliest temperature does (it has more freedom), and both
    likelier than a uniform guess; a position a game has at the start of each round from the
    second on is sampled once."""
    tool = load_tool("fit_projection")
    data = tool.collect([record])
    assert set(data) == {"alliance"}
    x, y, left, games = data["alliance"]
    assert x.shape[1:] == (4, FEATURES) and len(x) == len(y) == len(left) == len(games)
    assert set(games) == set(range(60)) and set(left) <= {1.0, 2.0, 3.0, 4.0, 5.0}
    z = x / left[:, None, None]
    used = np.abs(z).sum(axis=(0, 1)) > 0
    w = np.zeros(FEATURES)
    w[used] = tool.newton(z[:, :, used], y, np.full(int(used.sum()), 1e-3))
    hand = np.zeros(FEATURES)
    hand[:5] = [1.0, 1.0, 1.0, HAND_WEIGHT, 1.0]
    scale = tool.newton((z @ hand)[:, :, None], y, np.zeros(1))[0]
    uniform = float(np.log(0.25))
    assert tool.log_likelihood(z, y, w) > tool.log_likelihood(z, y, hand * scale) > uniform
    # The likeliest temperature is a maximum: a nudge either way is less likely.
    best = tool.log_likelihood(z, y, hand * scale)
    assert best >= tool.log_likelihood(z, y, hand * scale * 1.1)
    assert best >= tool.log_likelihood(z, y, hand * scale * 0.9)


def test_the_command_prints_a_literal_and_refuses_an_unreadable_record(
    record: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tool = load_tool("fit_projection")
    assert tool.main([str(record), "--python"]) == 0
    printed = capsys.readouterr().out
    table = eval(printed, {})  # a literal: a dict of tuples of numbers
    assert set(table) == {"alliance"} and len(table["alliance"]) == FEATURES and table["alliance"][0] == 1.0
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not a record\n")
    assert tool.main([str(bad)]) == 2
    assert "error:" in capsys.readouterr().err
