"""Regenerate tests/data/bot_games.json: ``python tests/make_bot_games.py``.

Only do this after a deliberate change of how a bot plays, and say so in the commit:
the recorded games pin the heuristic bot and the search move by move, so that work
meant only to make them faster is shown to leave every choice as it was.
"""

from __future__ import annotations

import json
from pathlib import Path

from oriflamme import Game, action_text
from oriflamme.bots import make_bot

#: Per deck, one 4-player game: the heuristic bot and the search (at the easy budget, with
#: its playouts, horizon, projection, inference and tree reuse) in alternate seats.
SPECS = ("heuristic", "ismcts:easy", "heuristic", "ismcts:easy")
CASES = [("base", 3), ("ablaze", 4), ("alliance", 5)]
PATH = Path(__file__).parent / "data" / "bot_games.json"


def play(deck: str, seed: int) -> dict[str, object]:
    g = Game.new(players=len(SPECS), deck=deck, seed=seed)
    bots = [make_bot(spec, seed * 10 + s) for s, spec in enumerate(SPECS)]
    actions = []
    while not g.is_over():
        s = g.current_player()
        a = bots[s].choose(g.view(s))
        actions.append(action_text(g, a))
        g.apply(a)
    return {
        "deck": deck,
        "seed": seed,
        "bots": list(SPECS),
        "bot_seeds": "seed * 10 + seat",
        "actions": actions,
        "scores": g.score,
    }


def main() -> None:
    games = [play(deck, seed) for deck, seed in CASES]
    PATH.write_text(json.dumps(games, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {len(games)} games to {PATH}")


if __name__ == "__main__":
    main()
