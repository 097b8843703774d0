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
from oriflamme.engine.errors import ReplayError
from oriflamme.engine.options import RuleOptions
from oriflamme.engine.recipes import parse_recipe
from oriflamme.engine.setup import Setup
from oriflamme.notation.position import queue_string
from oriflamme.notation.replay import current_actions, replay

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


#: The same twelve games as recorded by oriflamme 0.1 (action-sequence version 1), kept to
#: prove that older saves, tables and records still replay to the same end.
GAMES_V1: list[dict[str, Any]] = json.loads(
    (Path(__file__).parents[1] / "data" / "golden_games_v1.json").read_text(encoding="utf-8")
)


@pytest.mark.parametrize("record", GAMES_V1, ids=lambda r: f"{r['deck']}-{r['players']}p-seed{r['seed']}")
def test_version_1_golden_game_replays_to_the_same_end(record: dict[str, Any]) -> None:
    """A version 1 action list replays with the newly asked one-option questions answered for it."""
    setup = Setup(record["players"], parse_recipe(record["deck"]), RuleOptions(), record["seed"], None)
    answered: list[str] = []

    def step(g: Game, events: object, text: str | None, actor: int) -> None:
        if text is not None:
            answered.append(text)

    g = replay(setup, record["actions"], step, version=1)
    assert g.is_over()
    final = record["final"]
    assert (g.score, list(g.winners), queue_string(g)) == (final["scores"], final["winners"], final["queue"])
    assert len(g.history) == len(answered)
    assert current_actions(setup, record["actions"], 1) == answered
    # Taking the newly asked answers out gives the version 1 list back: nothing else changed.
    i, inserted = 0, []
    for text in answered:
        if i < len(record["actions"]) and text == record["actions"][i]:
            i += 1
        else:
            inserted.append(text)
    assert i == len(record["actions"])
    assert all(t.startswith(("fetch ", "swap ")) for t in inserted), inserted
    if len(answered) > len(record["actions"]):
        with pytest.raises(ReplayError):
            replay(setup, record["actions"])  # read as a current sequence, it goes wrong


def test_version_1_golden_games_include_newly_asked_questions() -> None:
    """The version 1 fixture exercises the upgrade: some games gain fetch or swap answers."""
    grown = 0
    for record in GAMES_V1:
        setup = Setup(record["players"], parse_recipe(record["deck"]), RuleOptions(), record["seed"], None)
        grown += len(current_actions(setup, record["actions"], 1)) > len(record["actions"])
    assert grown >= 3
