"""The search bots' counted habits, and the playout knobs that draw from them.

``reveals=fitted`` changes only how a playout keeps or reveals a face-down
card, ``places=fitted`` only which kind a playout places; these tests pin what
the tables hold, that a draw follows its cell, that a search with a knob plays
differently and which levels use them (``master`` places as the bots do).
"""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path
from typing import Any

import pytest
from support.positions import heuristic_positions
from support.tools import load_tool
from support.tournament import heuristic_record

from oriflamme.bots.heuristic.habits import (
    CELLS,
    COVER_ODDS,
    IP_CELLS,
    LEFT_CELLS,
    PLACE_WEIGHTS,
    REVEAL_ODDS,
    by_kind,
    place_draw,
    reveal_draw,
)
from oriflamme.bots.ismcts import IsmctsBot
from oriflamme.bots.search_levels import LEVELS, SearchLevel, parse_level
from oriflamme.engine.actions import KEEP_ACTION, PLACE_ON, REVEAL_ACTION, SHIFT, placed_card
from oriflamme.engine.cards import KIND_BY_SLUG, KINDS
from oriflamme.engine.game import Game
from oriflamme.engine.registry import D_KEEP_OR_REVEAL, D_PLACE, P_ACTOR, P_DECISION


def test_the_tables_cover_the_three_boxes() -> None:
    """Every kind of the three boxes has its 16 reveal cells, each a chance, and its 4 placement
    weights, each above 0; but the Twin, which is
    set aside face up and placed face up, so never kept or revealed."""
    boxes = {"base", "ablaze", "alliance"}
    kinds = {k.slug for k in KINDS if k.box in boxes} - {"twin"}
    assert set(REVEAL_ODDS) == kinds
    assert all(len(cells) == CELLS and all(0.0 <= p <= 1.0 for p in cells) for cells in REVEAL_ODDS.values())
    assert CELLS == LEFT_CELLS * IP_CELLS
    assert set(PLACE_WEIGHTS) == kinds == set(COVER_ODDS)
    assert all(len(row) == LEFT_CELLS and all(0.0 <= p <= 1.0 for p in row) for row in COVER_ODDS.values())
    assert all(len(row) == LEFT_CELLS and all(w > 0.0 for w in row) for row in PLACE_WEIGHTS.values())
    assert by_kind(REVEAL_ODDS, CELLS)[KIND_BY_SLUG["archer"]] == REVEAL_ODDS["archer"]


def test_a_table_with_a_cell_missing_is_refused() -> None:
    with pytest.raises(ValueError, match="archer: 15 cells, not 16"):
        by_kind({"archer": (0.5,) * 15}, CELLS)


def _keep_or_reveal(deck: str) -> list[Game]:
    """Positions at a keep-or-reveal with a choice, from seeded heuristic play."""
    found = []
    for g in heuristic_positions(deck, range(200), 4, 60, choice=True):
        p = g.pending
        assert p is not None
        if p[P_DECISION] == D_KEEP_OR_REVEAL:
            found.append(g)
    return found


@pytest.mark.parametrize("deck", ["base", "alliance"])
def test_a_draw_reveals_at_its_cells_odds(deck: str) -> None:
    """At a keep-or-reveal, the draw is a reveal about as often as the card's cell says (kind,
    rounds left, IP on it), and it moves nothing in the game."""
    positions = _keep_or_reveal(deck)
    assert len(positions) >= 5
    rng = random.Random(4)
    for g in positions[:5]:
        p = g.pending
        assert p is not None
        c = p[P_ACTOR]
        left = min(g.rules.rounds - g.round, LEFT_CELLS - 1)
        odds = REVEAL_ODDS[KINDS[g.kind[c]].slug][left * IP_CELLS + min(g.ip[c], IP_CELLS - 1)]
        before = g.options
        draws = [reveal_draw(g, rng) for _ in range(4000)]
        assert set(draws) <= {KEEP_ACTION, REVEAL_ACTION}
        assert abs(draws.count(REVEAL_ACTION) / len(draws) - odds) < 0.03
        assert g.options == before and g.pending == p


def test_a_placement_draws_its_kind_at_the_counted_weights() -> None:
    """At the first placement (seven cards in hand, every kind once or more), the kinds placed
    follow the weights of the first rounds, each one over the weights of the kinds in hand; the
    draw is a legal placement, and moves nothing in the game."""
    g = Game.new(4, "alliance", seed=3)
    before = g.options
    kinds = {g.kind[placed_card(a)] for a in before}
    weights = {k: PLACE_WEIGHTS[KINDS[k].slug][0] for k in kinds}
    rng = random.Random(2)
    draws = [place_draw(g, rng) for _ in range(3000)]
    assert set(draws) <= set(before)
    assert g.options == before
    for k, w in weights.items():
        share = sum(1 for a in draws if g.kind[placed_card(a)] == k) / len(draws)
        assert abs(share - w / sum(weights.values())) < 0.03


def test_a_cover_is_drawn_at_its_odds_where_the_card_can_cover() -> None:
    """Later in a game, where the heuristic's card could go onto an own card or an end, the
    draw covers about as often as the kind's odds say; the card is the heuristic's (kinds off)."""
    rng = random.Random(5)
    checked = 0
    for g in heuristic_positions("alliance", range(300), 8, 50, choice=True):
        p = g.pending
        assert p is not None
        if p[P_DECISION] != D_PLACE:
            continue
        first = place_draw(g, random.Random(9), kinds=False, covers=False)
        c = placed_card(first)
        mine = [a for a in g.options if placed_card(a) == c]
        if not any(a >> SHIFT == PLACE_ON for a in mine) or all(a >> SHIFT == PLACE_ON for a in mine):
            continue
        odds = COVER_ODDS[KINDS[g.kind[c]].slug][
            LEFT_CELLS - 1 - min(g.rules.rounds - g.round, LEFT_CELLS - 1)
        ]
        draws = [place_draw(g, rng, kinds=False, covers=True) for _ in range(2000)]
        assert {placed_card(a) for a in draws} == {c} and set(draws) <= set(mine)
        assert abs(sum(a >> SHIFT == PLACE_ON for a in draws) / len(draws) - odds) < 0.035
        checked += 1
        if checked == 3:
            break
    assert checked == 3


def test_other_decisions_are_left_to_the_playout_policy() -> None:
    g = Game.new(4, "base", seed=3)  # the first placement
    assert reveal_draw(g, random.Random(1)) == -1
    (k,) = _keep_or_reveal("base")[:1]
    assert place_draw(k, random.Random(1)) == -1


@pytest.mark.parametrize("knob", ["reveals", "places", "covers"])
def test_the_knob_changes_the_playouts_and_only_master_places_as_the_bots(knob: str) -> None:
    """Each knob is a choice of a spec; a search with it (the same seed) reaches other figures,
    since its playouts keep cards hidden or place kinds as the bots do; a misspelt choice is
    refused. ``master`` alone uses one, ``places``, the one measured to make it stronger."""
    assert getattr(parse_level(f"normal+{knob}=fitted")[1], knob) == "fitted"
    users = {name for name, lv in LEVELS.items() if getattr(lv, knob) == "fitted"}
    assert users == ({"master"} if knob == "places" else set())
    assert getattr(parse_level(f"master+{knob}=heuristic")[1], knob) == "heuristic"
    misspelt: dict[str, Any] = {knob: "fited"}
    with pytest.raises(ValueError, match=f"{knob} must be one of heuristic, fitted"):
        SearchLevel(iterations=10, max_seconds=1.0, **misspelt)
    level = dataclasses.replace(parse_level("80")[1], early_stop=False)
    chosen: dict[str, Any] = {knob: "fitted"}
    fitted = dataclasses.replace(level, **chosen)
    g = Game.new(4, "alliance", seed=11)

    def figures(lv: SearchLevel) -> list[tuple[int, int, float]]:
        bot = IsmctsBot(lv, 3)
        return [(v.action, v.visits, v.value) for v in bot.evaluate(g.view(g.current_player()))]

    assert figures(level) != figures(fitted)
    assert figures(fitted) == figures(fitted)  # seeded: the draws are the search's own


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Forty seeded *Alliance* games of a heuristic bot against three random ones."""
    return heuristic_record(tmp_path_factory.mktemp("reveals") / "games.jsonl", 40, "alliance")


def test_the_tool_counts_every_keep_or_reveal_and_smooths_towards_the_kind(record: Path) -> None:
    """A cell with no decisions reads its kind's overall rate, a full one moves towards its own;
    the placements add up: one placed card and one share per placement with a choice of kinds,
    and the weights are placements over shares, smoothed towards 1."""
    tool = load_tool("fit_habits")
    counts, places, covers = tool.count([record])
    assert set(counts) <= {k.slug for k in KINDS if k.box == "alliance"}
    assert all(len(cells) == CELLS for cells in counts.values())
    assert all(0 <= r <= n for cells in counts.values() for n, r in cells)
    odds = tool.rates(counts)
    for slug, cells in counts.items():
        n = sum(c[0] for c in cells)
        overall = sum(c[1] for c in cells) / n
        for (m, r), p in zip(cells, odds[slug], strict=True):
            assert p == pytest.approx((r + tool.PRIOR * overall) / (m + tool.PRIOR), abs=1e-3)
            if m == 0:
                assert p == pytest.approx(overall, abs=1e-3)
    placed = sum(r for cells in places.values() for _, r in cells)
    shares = sum(m for cells in places.values() for m, _ in cells)
    assert placed == pytest.approx(shares) and placed > 40 * 4
    weights = tool.place_weights(places)
    for slug, cells in places.items():
        for (m, r), w in zip(cells, weights[slug], strict=True):
            assert w == pytest.approx((r + tool.PRIOR) / (m + tool.PRIOR), abs=1e-3)
    # A cover is counted only where the card could go onto an own card: at most every placement.
    assert 0 < sum(n for cells in covers.values() for n, _ in cells) <= placed
    assert all(0 <= r <= n for cells in covers.values() for n, r in cells)
    assert tool.rates(covers).keys() == covers.keys()


def test_the_command_prints_a_literal_and_refuses_an_unreadable_record(
    record: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tool = load_tool("fit_habits")
    assert tool.main([str(record)]) == 0
    tables: dict[str, dict[str, tuple[float, ...]]] = {}
    exec(capsys.readouterr().out, {}, tables)  # two annotated literals: dicts of tuples of numbers
    assert (
        by_kind(tables["REVEAL_ODDS"], CELLS)[KIND_BY_SLUG["deserter"]] == tables["REVEAL_ODDS"]["deserter"]
    )
    assert (
        by_kind(tables["PLACE_WEIGHTS"], LEFT_CELLS)[KIND_BY_SLUG["deserter"]]
        == tables["PLACE_WEIGHTS"]["deserter"]
    )
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not a record\n")
    assert tool.main([str(bad)]) == 2
    assert "error:" in capsys.readouterr().err
