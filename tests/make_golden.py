"""Regenerate tests/data/golden_games.json: ``python tests/make_golden.py``.

Only do this after a deliberate rules change, and say so in the commit: the
golden games pin the engine's behaviour, action by action.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from oriflamme import Game, action_text
from oriflamme.notation.position import queue_string

CASES = [(deck, players) for deck in ("base", "ablaze", "alliance") for players in (2, 3, 4, 5)]
PATH = Path(__file__).parent / "data" / "golden_games.json"


def record(deck: str, players: int, seed: int) -> dict[str, object]:
    g = Game.new(players=players, deck=deck, seed=seed)
    rng = random.Random(seed)
    actions = []
    counts = []
    while not g.is_over():
        legal = g.legal_actions()
        counts.append(len(legal))
        a = rng.choice(legal)
        actions.append(action_text(g, a))
        g.apply(a)
    return {
        "deck": deck,
        "players": players,
        "seed": seed,
        "actions": actions,
        "legal_counts": counts,
        "final": {"scores": g.score, "winners": list(g.winners), "queue": queue_string(g)},
    }


def main() -> None:
    games = [record(deck, players, 1000 + i) for i, (deck, players) in enumerate(CASES)]
    PATH.write_text(json.dumps(games, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {len(games)} games to {PATH}")


if __name__ == "__main__":
    main()
