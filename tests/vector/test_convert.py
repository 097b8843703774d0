"""``from_game``: the vector state holds what the game holds, refuses what it cannot, and needs JAX only when used."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

jax = pytest.importorskip("jax", reason="the vector engine needs JAX: pip install 'oriflamme[vector]'")

from support.designer import HERALD_DECK, example_module  # noqa: E402

from oriflamme import Game, build_position  # noqa: E402
from oriflamme.designer import registered  # noqa: E402
from oriflamme.vector import State, from_game, from_games, legal_action_mask  # noqa: E402
from oriflamme.vector.convert import piles_of  # noqa: E402
from oriflamme.vector.queue import card_positions  # noqa: E402
from oriflamme.vector.state import card_count  # noqa: E402


@pytest.mark.parametrize(("players", "cards"), [(2, 44), (3, 33), (4, 44), (5, 55)])
def test_shapes_depend_on_the_player_count_alone(players: int, cards: int) -> None:
    shapes = {
        deck: jax.tree.map(np.shape, from_game(Game.new(players, deck, seed=3)))
        for deck in ("base", "ablaze", "alliance")
    }
    assert shapes["base"] == shapes["ablaze"] == shapes["alliance"]
    assert card_count(players) == cards
    assert shapes["base"].kind == (cards,) and shapes["base"].score == (players,)


def test_the_state_is_the_games_data() -> None:
    g = Game.new(4, "ablaze", seed=11)
    s = from_game(g)
    assert s.players == 4
    assert int(s.current_player) == g.current_player()
    assert list(np.asarray(s.kind)[: len(g.kind)]) == list(g.kind)
    assert (np.asarray(s.kind)[len(g.kind) :] == -1).all()
    assert list(np.asarray(s.score)) == g.score
    assert tuple(np.asarray(s.pending)) == g.pending
    assert np.flatnonzero(np.asarray(s.recipe)).tolist() == list(g.recipe)
    assert piles_of(g.zone, g.owner, 4)["hands"] == [sorted(h) for h in g.hands]


_positions = jax.jit(card_positions)


def _python_positions(g: Game) -> dict[int, int]:
    return {c: i for i in range(len(g.queue)) for c in g.stack_cards(i)}


def test_every_card_in_the_queue_is_found_at_its_position_stacks_included() -> None:
    """Random 2-player games (the deepest stacks: two cards a round on one's own positions), at every decision."""
    deepest = 0
    for seed in range(12):
        g = Game.new(2, "random", seed=seed, record_events=False)
        choose = np.random.default_rng(seed).choice
        while not g.is_over():
            where = np.asarray(_positions(from_game(g)))
            expected = _python_positions(g)
            assert {c: int(where[c]) for c in range(len(g.kind)) if where[c] >= 0} == expected
            deepest = max([deepest] + [len(g.stack_cards(i)) for i in range(len(g.queue))])
            g.apply(int(choose(g.legal_actions())))
    assert deepest >= 3
    built = build_position(4, "base", "p2:soldier p1:~lord/p1:~assassination p3:~heir", pointer=0)
    assert int(np.asarray(card_positions(from_game(built)))[built.stack_cards(1)[0]]) == 1


def test_the_discard_keeps_its_order() -> None:
    """With two players a kind has two copies, and the Impersonation fetches the first discarded."""
    g = Game.new(2, "base", seed=4, record_events=False)
    while not any(len(d) >= 2 for d in g.discards):
        g.apply(g.legal_actions()[-1])
    order = np.asarray(from_game(g).discard_order)
    for pile in g.discards:
        assert [int(order[c]) for c in pile] == list(range(len(pile)))
    discarded = {c for pile in g.discards for c in pile}
    assert (order[[c for c in range(len(g.kind)) if c not in discarded]] == -1).all()


def test_a_finished_game_has_no_legal_action() -> None:
    g = Game.new(3, "base", seed=5, record_events=False)
    while not g.is_over():
        g.apply(g.legal_actions()[0])
    s = from_game(g)
    assert int(s.current_player) == -1
    assert not np.asarray(jax.jit(legal_action_mask)(s)).any()
    assert np.flatnonzero(np.asarray(s.winners)).tolist() == list(g.winners)


def test_from_game_refuses_what_it_cannot_hold() -> None:
    with pytest.raises(TypeError, match="needs an oriflamme Game, got dict"):
        from_game({"players": 3})  # type: ignore[arg-type]
    g = Game.new(3, "base", seed=1)
    g.stack = [(0, 1)] * 9
    with pytest.raises(ValueError, match="waits on 9 continuations"):
        from_game(g)
    g = Game.new(3, "base", seed=1)
    g.hands[0] = g.hands[0][1:]
    with pytest.raises(ValueError, match="hands"):
        from_game(g)
    g = Game.new(3, "base", seed=1)
    g.hands[1].reverse()
    with pytest.raises(ValueError, match=r"hands .* in id order"):
        from_game(g)
    with pytest.raises(ValueError, match="one player count"):
        from_games([Game.new(3, "base", seed=1), Game.new(4, "base", seed=1)])
    with pytest.raises(ValueError, match="at least one game"):
        from_games([])


def test_a_designers_kind_is_refused_with_its_reason() -> None:
    with registered(*example_module().CARDS):
        g = Game.new(3, HERALD_DECK, seed=1)
        with pytest.raises(ValueError, match="plays the 31 official kinds; this recipe holds kind"):
            from_game(g)


def test_states_are_pytrees_that_jit_and_vmap() -> None:
    batch = from_games([Game.new(5, deck, seed=2) for deck in ("base", "ablaze", "alliance")])
    assert isinstance(batch, State) and batch.score.shape == (3, 5)
    masks = jax.jit(jax.vmap(legal_action_mask))(batch)
    assert masks.shape == (3, 1502) and masks.dtype == bool


def test_the_package_imports_without_jax_and_says_what_to_install_when_used() -> None:
    code = (
        "import sys\n"
        "sys.modules['jax'] = None\n"
        "import oriflamme.vector as v\n"
        "try:\n"
        "    v.from_game\n"
        "except ImportError as e:\n"
        "    print(e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.startswith(
        "oriflamme.vector needs the 'vector' extra (missing: jax); install it with: pip"
    )
    assert "[vector]" in out.stdout and len(out.stdout.splitlines()) == 1
