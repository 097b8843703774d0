"""The pgx-shaped ``Env``: shapes and dtypes under jit and vmap, the illegal-action rule, the terminal no-op, bad arguments."""

from __future__ import annotations

import random

import numpy as np
import pytest

jax = pytest.importorskip("jax", reason="the vector engine needs JAX: pip install 'oriflamme[vector]'")

import jax.numpy as jnp  # noqa: E402

from oriflamme import Game  # noqa: E402
from oriflamme.encoding import game_legal_indices  # noqa: E402
from oriflamme.encoding.observation import mask_of  # noqa: E402
from oriflamme.encoding.observation import observe as encoder_observe  # noqa: E402
from oriflamme.engine.options import RuleOptions  # noqa: E402
from oriflamme.rl.oriflamme_v0 import seat_rewards as pettingzoo_rewards  # noqa: E402
from oriflamme.vector import from_game, to_game  # noqa: E402
from oriflamme.vector.convert import numpy_fields  # noqa: E402
from oriflamme.vector.env import Env, EnvState, batched, seat_rewards  # noqa: E402

BATCH = 6
# The setup and batch of test_commands.py's check: the same compiled programs serve both.
ENV = Env(players=3, deck="random")
_init = batched(ENV).init
_step = batched(ENV).step


def _dealt() -> EnvState:
    state: EnvState = _init(jax.random.split(jax.random.key(0), BATCH))
    return state


def _legal(state: EnvState) -> jax.Array:
    """The lowest legal index of each game."""
    return jnp.argmax(state.legal_action_mask, axis=-1).astype(jnp.int32)


def test_the_env_says_its_sizes() -> None:
    assert (ENV.num_players, ENV.num_actions, ENV.observation_shape) == (3, 1502, (4224,))


def test_init_and_step_give_pgx_fields_of_pgx_shapes_under_jit_and_vmap() -> None:
    state = _dealt()
    stepped = _step(state, _legal(state))
    chosen = np.asarray(_legal(state))
    state, stepped = jax.device_get((state, stepped))  # NumPy rows: no device call per row
    for s, count in ((state, 0), (stepped, 1)):
        shapes = {
            name: (getattr(s, name).shape, getattr(s, name).dtype.name)
            for name in (
                "current_player",
                "observation",
                "legal_action_mask",
                "rewards",
                "terminated",
                "truncated",
            )
        }
        assert shapes == {
            "current_player": ((BATCH,), "int32"),
            "observation": ((BATCH, 4224), "float32"),
            "legal_action_mask": ((BATCH, 1502), "bool"),
            "rewards": ((BATCH, 3), "float32"),
            "terminated": ((BATCH,), "bool"),
            "truncated": ((BATCH,), "bool"),
        }
        assert (np.asarray(s._step_count) == count).all()
        assert not np.asarray(s.terminated).any() and not np.asarray(s.rewards).any()
        # The observation and the mask are the current player's, as the Python encoder gives them.
        for i in range(BATCH):
            g = to_game(jax.tree.map(lambda a, i=i: a[i], s.game))
            assert int(s.current_player[i]) == g.current_player()
            assert (np.asarray(s.observation[i]) == encoder_observe(g.view(g.current_player()))).all()
            want = mask_of(game_legal_indices(g)).astype(bool)
            assert (np.asarray(s.legal_action_mask[i]) == want).all()
    # A legal step moves the game as the engine does (here a placement).
    for i in range(BATCH):
        g = to_game(jax.tree.map(lambda a, i=i: a[i], state.game))
        g.apply(game_legal_indices(g)[int(chosen[i])])
        for name, value in numpy_fields(g, np.asarray(state.game.key[i])).items():
            assert (np.asarray(getattr(stepped.game, name)[i]) == value).all(), name


def test_an_illegal_action_ends_the_game_at_minus_one_for_its_chooser() -> None:
    state = _dealt()
    illegal = jnp.argmin(state.legal_action_mask, axis=-1).astype(jnp.int32)
    actions = (
        illegal.at[1].set(5000).at[2].set(-1).at[3].set(_legal(state)[3])
    )  # out of the space too; 3 plays legally
    stepped = _step(state, actions)
    for i in range(BATCH):
        want = np.zeros(3, dtype=np.float32)
        if i != 3:
            want[int(state.current_player[i])] = -1.0
        assert np.asarray(stepped.rewards[i]).tolist() == want.tolist(), i
        assert bool(stepped.terminated[i]) == (i != 3)
        assert bool(np.asarray(stepped.legal_action_mask[i]).all()) == (i != 3)  # pgx: all ones once over
    # The game itself is untouched by an illegal action, and so is its chooser's observation (the
    # decision's count of options among it, though the mask is now all ones).
    assert (np.asarray(stepped.game.queue[0]) == np.asarray(state.game.queue[0])).all()
    for i in (0, 1, 2, 4, 5):
        assert (np.asarray(stepped.observation[i]) == np.asarray(state.observation[i])).all(), i


def test_stepping_a_finished_game_changes_nothing_but_zero_rewards() -> None:
    state = _dealt()
    over = _step(state, jnp.full(BATCH, 5000, jnp.int32))
    again = _step(over, _legal(state))
    for name in (
        "current_player",
        "observation",
        "legal_action_mask",
        "terminated",
        "truncated",
        "_step_count",
    ):
        assert (np.asarray(getattr(again, name)) == np.asarray(getattr(over, name))).all(), name
    for a, b in zip(jax.tree.leaves(again.game), jax.tree.leaves(over.game), strict=True):
        assert (np.asarray(a) == np.asarray(b)).all()
    assert not np.asarray(again.rewards).any() and np.asarray(over.rewards).any()


def test_the_rewards_are_the_pettingzoo_environments() -> None:
    for seed in range(30):
        g = Game.new(3, "base", seed=seed, record_events=False)
        choose = random.Random(seed).choice
        while not g.is_over():
            g.apply(choose(g.legal_actions()))
        got = np.asarray(seat_rewards(from_game(g)))
        # Equal to the bit, as float32 (the Python environments round their float64 rewards so).
        assert (got == np.asarray(pettingzoo_rewards(g), dtype=np.float32)).all(), (seed, got, g.winners)
        assert abs(float(got.sum())) < 1e-6


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"players": 1}, "players must be an int from 2 to 5, got 1"),
        ({"players": 6}, "got 6"),
        ({"players": "4"}, "got '4'"),
        ({"players": True}, "got True"),
        ({"deck": "nope"}, "unknown deck 'nope'"),
        ({"deck": "random:base+nope"}, "unknown box 'nope'"),
        ({"deck": (0, 1, 2)}, "exactly 10"),
        ({"deck": 3}, "deck must be a box name"),
        ({"rules": {"rounds": 3}}, "rules must be a RuleOptions"),
        ({"players": 2, "rules": RuleOptions(two_player_cards_per_round=3, rounds=7)}, "a hand holds 16"),
    ],
)
def test_wrong_arguments_are_refused_with_one_line(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message) as caught:
        Env(**kwargs)  # type: ignore[arg-type]
    assert "\n" not in str(caught.value)


def test_reset_done_deals_exactly_the_ended_games_as_init_would() -> None:
    # 40 games: a chunk of 16 at a time, so 21 ended games take two chunks, the second clamped
    # back over the first (a game dealt twice must get the same deal, one still playing kept).
    size = 40
    start = _init(jax.random.split(jax.random.key(1), size))
    key = jax.random.key(2)
    fresh = _init(jax.random.split(key, size))
    reset = jax.jit(ENV.reset_done)
    for ended in ([], [0, 39], list(range(1, size, 2)) + [0], list(range(size))):
        done = np.zeros(size, dtype=bool)
        done[ended] = True
        # Only ``terminated`` says which games ended: set it, the games themselves as they were.
        state = start.replace(terminated=jnp.asarray(done))
        out = reset(state, key)
        for name, got, was, new in zip(
            [str(p) for p, _ in jax.tree_util.tree_leaves_with_path(out)],
            jax.tree.leaves(out),
            jax.tree.leaves(state),
            jax.tree.leaves(fresh),
            strict=True,
        ):
            want = np.where(done.reshape((size,) + (1,) * (np.ndim(got) - 1)), new, was)
            assert (np.asarray(got) == want).all(), (len(ended), name)
        assert not np.asarray(out.terminated).any()
