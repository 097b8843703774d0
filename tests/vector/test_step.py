"""Placing a card on the device leaves the state the Python engine reaches, field for field.

Random games of every box, random recipes, 2 to 5 players and the rule
options; at every placement the same index is applied to the game and, in
one batched call, to its converted state. A placement followed by another
is compared with the game after ``apply``; the round's last placement with
the game after the engine's placement handler alone (``apply`` runs on into
resolution, which the vector engine does not step yet).
"""

from __future__ import annotations

import random

import numpy as np
import pytest

jax = pytest.importorskip("jax", reason="the vector engine needs JAX: pip install 'oriflamme[vector]'")

from oriflamme import Game, build_position  # noqa: E402
from oriflamme.encoding import game_legal_indices  # noqa: E402
from oriflamme.engine.registry import D_PLACE, HANDLERS  # noqa: E402
from oriflamme.engine.zones import PLACE  # noqa: E402
from oriflamme.vector import from_game, from_games, place  # noqa: E402
from oriflamme.vector.convert import numpy_fields  # noqa: E402

DECKS = ("base", "ablaze", "alliance", "random")


def placements(players: int, games: int) -> tuple[list[Game], list[int], list[Game]]:
    """Every placement of random games: the game before, the index chosen, and the game after it."""
    before: list[Game] = []
    chosen: list[int] = []
    after: list[Game] = []
    for i in range(games):
        g = Game.new(players, DECKS[i % 4], seed=7000 * players + i, record_events=False)
        rng = random.Random(i)
        while not g.is_over():
            legal = game_legal_indices(g)
            index = rng.choice(sorted(legal))
            if g.decision() == "place":
                before.append(g.clone())
                chosen.append(index)
                placed = g.clone()
                if g.turn + 1 < len(g.order):
                    placed.apply(legal[index])
                else:
                    assert g.pending is not None
                    placed.pending = None
                    HANDLERS[D_PLACE](placed, g.pending, legal[index])
                after.append(placed)
            g.apply(legal[index])
    return before, chosen, after


_place = jax.jit(jax.vmap(place))


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_a_placement_on_the_device_is_the_engines(players: int) -> None:
    before, chosen, after = placements(players, 8)
    stepped = _place(from_games(before), np.asarray(chosen, dtype=np.int32))
    ends = 0
    for n, (g, index, want) in enumerate(zip(before, chosen, after, strict=True)):
        expected = numpy_fields(want, None)
        ends += want.phase != PLACE
        for name, value in expected.items():
            got = np.asarray(getattr(stepped, name)[n])
            assert (got == value).all(), (
                f"seed {g.seed}, {len(g.history)} actions in, index {index}: {name} is {got}, the engine's {value}"
            )
    assert ends == 8 * 6  # each game's last placement of each round was compared too


def test_a_seat_with_an_empty_hand_passes_its_placement() -> None:
    """Only a built position empties a hand: p2 has none, so p3 places after p1."""
    g = build_position(
        3, "base", "p1:~soldier p2:~spy", hands=[["archer", "lord"], [], ["heir"]], phase="place", round=2
    )
    (index,) = [i for i, a in game_legal_indices(g).items() if a == g.legal_actions()[0]]
    stepped = jax.jit(place)(from_game(g), index)
    g.apply(g.legal_actions()[0])
    assert g.current_player() == 2 and g.turn == 2
    for name, value in numpy_fields(g, None).items():
        assert (np.asarray(getattr(stepped, name)) == value).all(), name
