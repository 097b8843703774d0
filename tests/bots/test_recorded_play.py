"""Recorded bot games: seeded bots must keep playing them move by move.

Speed work on the engine, the heuristic and the search is meant to change no
choice; these games show it did not. A deliberate change of play regenerates
them with ``python tests/make_bot_games.py`` (and says so in its commit).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from oriflamme import Game, action_text
from oriflamme.bots import make_bot

GAMES: list[dict[str, Any]] = json.loads(
    (Path(__file__).parents[1] / "data" / "bot_games.json").read_text(encoding="utf-8")
)


@pytest.mark.parametrize("record", GAMES, ids=lambda r: f"{r['deck']}-seed{r['seed']}")
def test_seeded_bots_play_the_recorded_game_move_by_move(record: dict[str, Any]) -> None:
    seed = record["seed"]
    g = Game.new(players=len(record["bots"]), deck=record["deck"], seed=seed)
    bots = [make_bot(spec, seed * 10 + s) for s, spec in enumerate(record["bots"])]
    for step, expected in enumerate(record["actions"]):
        s = g.current_player()
        a = bots[s].choose(g.view(s))
        assert action_text(g, a) == expected, f"step {step}: p{s + 1} ({record['bots'][s]}) chose otherwise"
        g.apply(a)
    assert g.is_over()
    assert g.score == record["scores"]
