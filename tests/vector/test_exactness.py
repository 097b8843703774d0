"""The vector engine reads a position exactly as the Python encoder does: masks and observations, bit for bit.

Random games of the Python engine over every box, random recipes, 2 to 5
players and the rule options; at every decision (and at the end) the game is
converted, and the vector mask and every seat's vector observation, computed
for the whole batch at once, must equal ``oriflamme.encoding``'s.
``ORIFLAMME_VECTOR_GAMES`` sets the games per player count (default sized
for CI; a long run: ``ORIFLAMME_VECTOR_GAMES=500 pytest tests/vector/test_exactness.py``),
compared a batch of ``BATCH`` positions at a time.
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterator

import numpy as np
import pytest

jax = pytest.importorskip("jax", reason="the vector engine needs JAX: pip install 'oriflamme[vector]'")

import jax.numpy as jnp  # noqa: E402

from oriflamme import Game  # noqa: E402
from oriflamme.encoding.observation import action_mask, observe  # noqa: E402
from oriflamme.engine.options import RuleOptions  # noqa: E402
from oriflamme.engine.registry import DECISION_NAMES  # noqa: E402
from oriflamme.vector import from_games, legal_action_mask  # noqa: E402
from oriflamme.vector import observe as vector_observe  # noqa: E402

GAMES = int(os.environ.get("ORIFLAMME_VECTOR_GAMES", "26"))
DECKS = ("base", "ablaze", "alliance", "random")


def rules_for(players: int, i: int) -> RuleOptions:
    """Every third game the default rules; the others draw the Schemer's gain, rounds and cards per round."""
    if i % 3 == 0:
        return RuleOptions()
    draw = random.Random(i)
    per_round = draw.randint(1, 3) if players == 2 else 2
    rounds = draw.randint(1, min(7, 16 // per_round))
    return RuleOptions(schemer_gain=draw.choice((1, 2)), two_player_cards_per_round=per_round, rounds=rounds)


def positions(players: int, i: int) -> list[Game]:
    """Game ``i`` of ``players``: a copy at every decision, and at the end."""
    g = Game.new(
        players, DECKS[i % 4], seed=1000 * players + i, rules=rules_for(players, i), record_events=False
    )
    choose = random.Random(i).choice
    out = [g.clone()]
    while not g.is_over():
        g.apply(choose(g.legal_actions()))
        out.append(g.clone())
    return out


def games_of(players: int) -> list[Game]:
    return [g for i in range(GAMES) for g in positions(players, i)]


#: Positions compared per call: one shape, so one compilation per player count however long the run.
BATCH = 512


def batches(players: int) -> Iterator[list[Game]]:
    """The positions of the games, ``BATCH`` at a time (games played as needed: long runs stay small)."""
    pending: list[Game] = []
    for i in range(GAMES):
        pending += positions(players, i)
        while len(pending) >= BATCH or (i == GAMES - 1 and pending):
            yield pending[:BATCH]
            pending = pending[BATCH:]


_masks = jax.jit(jax.vmap(legal_action_mask))
_observations = jax.jit(jax.vmap(jax.vmap(vector_observe, in_axes=(None, 0)), in_axes=(0, None)))


def _describe(g: Game) -> str:
    from oriflamme.notation.position import queue_string

    return f"seed {g.seed}, {len(g.history)} actions in, decision {g.decision()} {g.pending}, queue {queue_string(g)}"


def _compare(games: list[Game], players: int) -> None:
    # Padded with the last position to the one batch shape; the padding is not compared.
    batch = from_games(games + [games[-1]] * (BATCH - len(games)))
    masks = np.asarray(_masks(batch))
    observations = np.asarray(_observations(batch, jnp.arange(players)))
    for g, mask, seen in zip(games, masks, observations, strict=False):
        want = np.zeros_like(mask) if g.is_over() else action_mask(g.view(g.current_player())).astype(bool)
        assert (mask == want).all(), (
            f"{_describe(g)}: vector mask {np.flatnonzero(mask)}, encoder's {np.flatnonzero(want)}"
        )
        for seat in range(players):
            expected = observe(g.view(seat))
            differ = np.flatnonzero(seen[seat] != expected)
            assert differ.size == 0, (
                f"{_describe(g)}, seat {seat}: indices {differ[:8]} are {seen[seat][differ[:8]]}, "
                f"the encoder says {expected[differ[:8]]}"
            )


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_masks_and_observations_equal_the_encoders(players: int) -> None:
    compared = 0
    for games in batches(players):
        _compare(games, players)
        compared += len(games)
    assert compared == len(games_of(players))  # every position, none lost between batches


def test_the_compared_games_reach_every_decision_kind() -> None:
    """The games above meet every pending decision (the Spy's needs 3 seats: with 2 its one victim is not asked)."""
    seen = {g.decision() for players in (2, 3, 4, 5) for g in games_of(players)}
    assert seen - {None} == set(DECISION_NAMES)
