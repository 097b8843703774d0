"""The batched self-play example (``oriflamme.rl.vector_train``): its returns, and two tiny iterations."""

from __future__ import annotations

import numpy as np
import pytest

jax = pytest.importorskip("jax", reason="the vector engine needs JAX: pip install 'oriflamme[vector]'")
pytest.importorskip("optax", reason="the example trains with optax: pip install 'oriflamme[train]'")

from oriflamme.rl.vector_train import (  # noqa: E402
    TrainConfig,
    bootstrapped_targets,
    main,
    seat_returns,
    train_self_play,
)


def test_each_decision_gets_its_seats_reward_at_the_end_of_its_own_game() -> None:
    # One game of two seats ends after step 1 (seat 0 won), the next after step 3 (seat 1 won);
    # step 4 belongs to a third game that does not end within the rollout.
    won0, won1 = [0.5, -0.5], [-0.5, 0.5]
    rewards = np.asarray([[0, 0], won0, [0, 0], won1, [0, 0]], dtype=np.float32)[:, None, :]
    done = np.asarray([False, True, False, True, False])[:, None]
    returns, complete = seat_returns(jax.numpy.asarray(rewards), jax.numpy.asarray(done))
    assert np.asarray(returns)[:, 0].tolist() == [won0, won0, won1, won1, [0, 0]]
    assert np.asarray(complete)[:, 0].tolist() == [True, True, True, True, False]


def test_a_decision_of_an_unfinished_game_targets_its_seats_last_estimate_in_the_rollout() -> None:
    # Two seats alternate. The first game ends after step 2 (seat 0 won); the second, steps 3 to 7,
    # goes on past the rollout. The value head's estimate at step t is (t + 1) / 10.
    rewards = np.zeros((8, 1, 2), np.float32)
    rewards[2, 0] = [0.5, -0.5]
    done = np.zeros((8, 1), bool)
    done[2, 0] = True
    seat = np.asarray([0, 1, 0, 1, 0, 1, 0, 1], np.int32)[:, None]
    value = (np.arange(8, dtype=np.float32)[:, None] + 1) / 10
    target, counted = bootstrapped_targets(*(jax.numpy.asarray(a) for a in (rewards, done, seat, value)))
    # Steps 0-2: the first game's returns. Step 3 (seat 1) reads seat 1's last estimate, at step 7,
    # not its next, at step 5; step 4 (seat 0) reads step 6's; steps 6 and 7 have nothing later.
    assert np.asarray(counted)[:, 0].tolist() == [True] * 6 + [False] * 2
    assert np.allclose(np.asarray(target)[:6, 0], [0.5, -0.5, 0.5, 0.8, 0.7, 0.8])


def test_two_tiny_iterations_run_and_report() -> None:
    config = TrainConfig(
        players=3, batch=4, horizon=40, iterations=2, hidden=(8,), eval_every=1, eval_games=4, seed=1
    )
    params, history = train_self_play(config)
    assert [s.iteration for s in history] == [0, 1, 2]  # 0: the untrained network's evaluation
    assert all(s.reward_vs_random is not None for s in history)
    assert all(np.isfinite(s.loss) for s in history[1:])
    # 40 steps of 3-player games: some end within the rollout and count.
    assert any(s.counted > 0 for s in history)
    assert params["trunk_w0"].shape == (4224, 8) and params["policy_w"].shape == (8, 1502)


def test_a_wrong_setting_is_one_line_and_exit_code_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--batch", "0"]) == 2
    assert capsys.readouterr().err.strip() == "error: batch must be a positive int, got 0"
    assert main(["--players", "7", "--iterations", "1"]) == 2
    assert "players must be an int from 2 to 5, got 7" in capsys.readouterr().err
