"""Golden games: recorded action lists whose every step and final state must not change.

Like perft tables for chess engines, these pin the engine's behaviour; a
deliberate rules change regenerates them with ``python tests/make_golden.py``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from oriflamme import Game, parse_action
from oriflamme.notation.position import queue_string

GAMES: list[dict[str, Any]] = json.loads(
    (Path(__file__).parents[1] / "data" / "golden_games.json").read_text(encoding="utf-8")
)


@pytest.mark.parametrize("record", GAMES, ids=lambda r: f"{r['deck']}-{r['players']}p-seed{r['seed']}")
def test_golden_game_replays_action_by_action(record: dict[str, Any]) -> None:
    """Each recorded action text is legal where it was played, the legal counts match, the end matches."""
    g = Game.new(players=record["players"], deck=record["deck"], seed=record["seed"])
    for text, count in zip(record["actions"], record["legal_counts"], strict=True):
        assert len(g.legal_actions()) == count
        g.apply(parse_action(g, text))
    assert g.is_over()
    final = record["final"]
    assert g.score == final["scores"]
    assert list(g.winners) == final["winners"]
    assert queue_string(g) == final["queue"]
