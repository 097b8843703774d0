"""Stepping on the device plays whole games exactly as the Python engine does, field for field.

Random games of every box and of random recipes of the 30 kinds a recipe
may hold (the Twin comes with the Prince), 2 to 5 players and drawn rule options, played in lockstep: at every decision a
random legal index is applied to each Python game and, in one batched call,
to the vector states (``step_batch``), which are never converted again. After each step every
field of every state must equal the converted game, and the vector mask and
the decider's observation the encoder's, until each game ends (its winners
included; a game that is over is stepped on with index 0 while the others play, and must
stay as it is). ``ORIFLAMME_VECTOR_GAMES`` sets the games per player count (a
long run: ``ORIFLAMME_VECTOR_GAMES=300 pytest tests/vector/test_resolve.py``).
"""

from __future__ import annotations

import os
import random
from collections import Counter

import numpy as np
import pytest

jax = pytest.importorskip("jax", reason="the vector engine needs JAX: pip install 'oriflamme[vector]'")

from oriflamme import Game  # noqa: E402
from oriflamme.encoding import game_legal_indices  # noqa: E402
from oriflamme.encoding.observation import action_mask, observe  # noqa: E402
from oriflamme.engine.actions import MODE_NAMES  # noqa: E402
from oriflamme.engine.cards import DESERTER, EMPRESS, INFORMANT, JUDGE, OFFICIAL_KINDS, TWIN  # noqa: E402
from oriflamme.engine.options import RuleOptions  # noqa: E402
from oriflamme.engine.recipes import PRESETS, RECIPE_SIZE  # noqa: E402
from oriflamme.notation.position import queue_string  # noqa: E402
from oriflamme.vector import from_games, legal_action_mask, to_game  # noqa: E402
from oriflamme.vector import observe as vector_observe  # noqa: E402
from oriflamme.vector.convert import numpy_fields  # noqa: E402
from oriflamme.vector.mask import ACTIONS  # noqa: E402
from oriflamme.vector.state import State  # noqa: E402
from oriflamme.vector.step import step_batch  # noqa: E402

GAMES = int(os.environ.get("ORIFLAMME_VECTOR_GAMES", "5"))
#: The kinds a recipe may name.
CHOOSABLE = sorted(set(range(OFFICIAL_KINDS)) - {TWIN})


def deck_for(i: int) -> str | list[int]:
    """Every other game a box, in turn; the others a recipe drawn from every kind."""
    if i % 2 == 0:
        return list(PRESETS)[(i // 2) % len(PRESETS)]
    return random.Random(i).sample(CHOOSABLE, RECIPE_SIZE)


def rules_for(players: int, i: int) -> RuleOptions:
    """Every third game the default rules; the others draw the Schemer's gain, rounds and cards per round."""
    if i % 3 == 0:
        return RuleOptions()
    draw = random.Random(i)
    per_round = draw.randint(1, 3) if players == 2 else 2
    rounds = draw.randint(1, min(7, 16 // per_round))
    return RuleOptions(schemer_gain=draw.choice((1, 2)), two_player_cards_per_round=per_round, rounds=rounds)


#: Games a resolution turn takes at most (``step_batch``): a quarter of the batch, so the games that
#: run longest are gathered and put back turn after turn. test_env.py plays a plain vmap.
_step = jax.jit(lambda batch, chosen: step_batch(batch, chosen, compact=max(1, batch.queue.shape[0] // 4)))
_masks = jax.jit(jax.vmap(legal_action_mask))
_observe = jax.jit(jax.vmap(vector_observe))


def _one(batch: State, n: int) -> State:
    return jax.tree_util.tree_map(lambda a: a[n], batch)


def _describe(g: Game, batch: State, n: int, steps: int) -> str:
    mine = to_game(_one(batch, n))
    return (
        f"seed {g.seed}, step {steps}, {len(g.history)} actions in: the engine at {g.decision()} {g.pending}, "
        f"queue {queue_string(g)}; the vector state at {mine.decision()} {mine.pending}, queue {queue_string(mine)}"
    )


def _compare(games: list[Game], batch: State, steps: int) -> None:
    masks = np.asarray(_masks(batch))
    seats = np.asarray([max(g.current_player(), 0) for g in games], dtype=np.int32)
    seen = np.asarray(_observe(batch, seats))
    fields = {name: np.asarray(a) for name, a in vars(batch).items()}
    for n, g in enumerate(games):
        for name, value in numpy_fields(g, None).items():
            got = fields[name][n]
            assert (got == value).all(), (
                f"{_describe(g, batch, n, steps)}: {name} is {got}, the engine's {value}"
            )
        want = (
            np.zeros_like(masks[n]) if g.is_over() else action_mask(g.view(g.current_player())).astype(bool)
        )
        assert (masks[n] == want).all(), f"{_describe(g, batch, n, steps)}: the masks differ"
        if not g.is_over():
            assert (seen[n] == observe(g.view(g.current_player()))).all(), (
                f"{_describe(g, batch, n, steps)}: the decider's observations differ"
            )


def play_in_lockstep(
    players: int, games: int, seed: int, deck: str | None = None
) -> tuple[int, Counter[tuple[str, int]]]:
    """Play ``games`` random games on both engines, comparing after every step.

    ``deck`` (default: :func:`deck_for` each game) and every third game's rules drawn. Returns
    the steps taken, and the decisions asked and answered: (decision, the kind that asked it)
    for each, the mode chosen for a ``mode`` (its index in the block).
    """
    played = [
        Game.new(
            players, deck or deck_for(i), seed=seed + i, rules=rules_for(players, i), record_events=False
        )
        for i in range(games)
    ]
    asked: Counter[tuple[str, int]] = Counter()
    choose = random.Random(seed).choice
    batch = from_games(played)
    steps = 0
    while not all(g.is_over() for g in played):
        chosen = []
        for g in played:
            if g.is_over():
                chosen.append(0)  # a game that is over is left as it is
                continue
            legal = game_legal_indices(g)
            index = choose(sorted(legal))
            decision, pending = g.decision() or "none", g.pending or (-1,) * 6
            asked[decision, index - ACTIONS.mode if decision == "mode" else pending[4]] += 1
            g.apply(legal[index])
            chosen.append(index)
        batch = _step(batch, np.asarray(chosen, dtype=np.int32))
        steps += 1
        _compare(played, batch, steps)
    assert all(g.winners for g in played)
    return steps, asked


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_whole_games_stepped_on_the_device_are_the_engines(players: int) -> None:
    assert play_in_lockstep(players, GAMES, seed=9000 * players)[0] > 20


def test_alliance_games_ask_every_choice_of_the_box_and_stay_the_engines() -> None:
    """The Alliance box alone, enough games that each of its choices is asked and answered."""
    _, asked = play_in_lockstep(4, 8, seed=500, deck="alliance")
    modes = {mode for (decision, mode) in asked if decision == "mode"}
    assert modes == set(range(len(MODE_NAMES)))  # collect, exchange, gift, cash out, verdict, condemn
    assert asked["swap", INFORMANT] and asked["eliminate", DESERTER]
    assert asked["target", EMPRESS] and asked["target", JUDGE]
