"""Self-play training (``oriflamme.rl.selfplay``): settings, PPO's clipped loss, exact resumption."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

jax = pytest.importorskip("jax", reason="the vector engine needs JAX: pip install 'oriflamme[vector]'")
pytest.importorskip("optax", reason="self-play trains with optax: pip install 'oriflamme[train]'")

import jax.numpy as jnp  # noqa: E402

from oriflamme.bots.net import load  # noqa: E402
from oriflamme.rl.selfplay import (  # noqa: E402
    ALL_SETUPS,
    CheckpointError,
    Learner,
    SelfPlayConfig,
    Setup,
    open_run,
    parse_setups,
)
from oriflamme.rl.selfplay.learner import Programs, _flatten, _ppo_loss  # noqa: E402
from oriflamme.rl.train import to_network  # noqa: E402

#: Small enough to compile and run in seconds; 48 steps of 2-player games: some end in each rollout.
TINY = SelfPlayConfig(
    setups=(Setup(2, "base"),), batch=6, horizon=48, hidden=(16,), epochs=2, minibatches=2, seed=3
)


def test_setups_are_parsed_and_a_wrong_one_is_named() -> None:
    assert parse_setups("4:base, 2:Alliance") == (Setup(4, "base"), Setup(2, "alliance"))
    assert parse_setups("all") == ALL_SETUPS and len(ALL_SETUPS) == 16
    for text, message in (
        ("4", "write PLAYERS:DECK"),
        ("4:basic", "write PLAYERS:DECK"),
        ("6:base", "players must be 2 to 5"),
        ("4:base,4:base", "name one setup twice"),
    ):
        with pytest.raises(ValueError, match=message):
            parse_setups(text)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"batch": 0}, "batch must be a positive int"),
        ({"minibatches": 5}, "minibatches .5. must divide batch x horizon .288."),
        ({"hidden": ()}, "hidden must be layer widths"),
        ({"clip": 0.0}, "clip must be positive"),
        ({"entropy": -1.0}, "entropy must not be negative"),
        ({"bootstrap": 1}, "bootstrap must be true or false"),
        ({"rivals": 1.5}, "rivals must be a share from 0 to 1"),
        ({"rivals": True}, "rivals must be a share from 0 to 1"),
        ({"rival_pool": 0}, "rival_pool must be a positive int"),
        ({"rival_every": 0}, "rival_every must be a positive int"),
        ({"rivals": 0.05}, "rivals 0.05 of 6 games rounds to no game"),
        ({"score_weight": -0.5}, "score_weight must be a number from 0 to 1"),
        ({"score_weight": 1.5}, "score_weight must be a number from 0 to 1"),
        ({"score_weight": True}, "score_weight must be a number from 0 to 1"),
    ],
)
def test_a_wrong_setting_is_refused_with_its_name(change: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        dataclasses.replace(TINY, **change).check()  # type: ignore[arg-type]


def test_a_config_survives_its_json_form() -> None:
    assert SelfPlayConfig.from_dict(TINY.to_dict()) == TINY
    bootstrapped = dataclasses.replace(TINY, bootstrap=True)
    assert SelfPlayConfig.from_dict(bootstrapped.to_dict()) == bootstrapped
    # A checkpoint written before the setting existed reads as the run it was: no bootstrap.
    older = {
        k: v
        for k, v in TINY.to_dict().items()
        if k not in ("bootstrap", "rivals", "rival_every", "rival_pool", "score_weight")
    }
    assert SelfPlayConfig.from_dict(older) == TINY
    with pytest.raises(ValueError, match="not a self-play configuration"):
        SelfPlayConfig.from_dict({**TINY.to_dict(), "speed": 3})


def _one_row(action: int, old_logp: float, advantage: float) -> dict[str, jax.Array]:
    mask = np.zeros((1, 1502), bool)
    mask[0, [3, 7]] = True
    return {
        "observation": jnp.zeros((1, 4224)),
        "mask": jnp.asarray(mask),
        "action": jnp.asarray([action]),
        "logp": jnp.asarray([old_logp]),
        "target": jnp.asarray([0.0]),
        "advantage": jnp.asarray([advantage]),
        "weight": jnp.asarray([1.0]),
    }


def test_the_clipped_objective_pushes_a_good_move_up_until_its_ratio_leaves_the_clip() -> None:
    config = dataclasses.replace(TINY, entropy=0.0, value_weight=0.0)
    params = Learner(config).start().params
    # The untrained policy gives the two legal moves about 1/2 each (its logits are near zero).
    here = float(jnp.log(jax.nn.softmax(params["policy_b"][jnp.asarray([3, 7])])[0]))

    def grad_of_move_3(old_logp: float, advantage: float) -> float:
        grads = jax.grad(_ppo_loss)(params, 1, _one_row(3, old_logp, advantage), config)
        return float(grads["policy_b"][3])

    # Inside the clip, a positive advantage lowers the loss by raising move 3's logit.
    assert grad_of_move_3(here, 1.0) < 0
    # A negative advantage does the opposite.
    assert grad_of_move_3(here, -1.0) > 0
    # Once the move is already twice as likely as when it was played (ratio 2 > 1.2), the clipped
    # term is flat: no more push.
    assert grad_of_move_3(here - np.log(2.0), 1.0) == 0.0


def _same(a: object, b: object) -> bool:
    return all(
        np.array_equal(np.asarray(x), np.asarray(y))
        for x, y in zip(jax.tree.leaves(a), jax.tree.leaves(b), strict=True)
    )


#: TINY with half its games against past networks, a snapshot every iteration, two kept.
RIVALS = dataclasses.replace(TINY, rivals=0.5, rival_every=1, rival_pool=2)


@pytest.mark.parametrize("config", [TINY, RIVALS], ids=["self-play", "rivals"])
def test_a_stopped_run_goes_on_exactly_as_one_that_never_stopped(
    tmp_path: Path, config: SelfPlayConfig
) -> None:
    straight = open_run(tmp_path / "straight", config)
    start = straight.state.params
    straight.train(3, checkpoint_every=100)
    stopped = open_run(tmp_path / "stopped", config)
    stopped.train(2, checkpoint_every=100)  # saved at its end
    resumed = open_run(tmp_path / "stopped", None)
    assert resumed.config == config and resumed.state.iteration == 2
    assert _same(resumed.state.pool, stopped.state.pool)
    resumed.train(3)
    assert straight.state.finished > 0  # games ended, so the loss had decisions to learn from
    assert not _same(start, straight.state.params)
    assert _same(straight.state.params, resumed.state.params)
    assert _same(straight.state.opt_state, resumed.state.opt_state)
    assert _same(straight.state.games, resumed.state.games)
    assert (resumed.state.steps, resumed.state.finished) == (straight.state.steps, straight.state.finished)
    lines = (tmp_path / "stopped" / "log.jsonl").read_text().splitlines()
    assert len(lines) == 3  # one per iteration, across the stop


def test_a_run_killed_between_checkpoints_logs_the_iterations_it_does_again_once(tmp_path: Path) -> None:
    run = open_run(tmp_path, TINY)
    run.train(2, checkpoint_every=100)  # saved at iteration 2
    log = tmp_path / "log.jsonl"
    # Killed after logging iteration 3 and its evaluation, and in the middle of a line.
    with log.open("a") as out:
        out.write('{"iteration": 3, "loss": 0.5}\n{"evaluation": 3, "best": true}\n{"iteration": 4, "lo')
    resumed = open_run(tmp_path, None)
    assert resumed.state.iteration == 2
    resumed.train(3)
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert [r["iteration"] for r in records] == [1, 2, 3]
    assert records[2]["loss"] != 0.5  # the iteration done again, not the one the kill lost


def test_an_interrupted_run_saves_its_last_iteration_before_it_stops(tmp_path: Path) -> None:
    run = open_run(tmp_path, TINY)

    def interrupt(progress: Any) -> None:
        if progress.iteration == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run.train(5, checkpoint_every=100, report=interrupt)
    resumed = open_run(tmp_path, None)
    assert resumed.state.iteration == 2
    assert _same(resumed.state.params, run.state.params)


def test_snapshots_keep_the_network_of_every_such_iteration_and_survive_a_stop(tmp_path: Path) -> None:
    run = open_run(tmp_path, TINY)
    run.train(2, checkpoint_every=100, snapshot_every=2)
    at_two = to_network(run.state.params, {})
    resumed = open_run(tmp_path, None)
    resumed.train(5, snapshot_every=2)
    kept = sorted(p.name for p in (tmp_path / "snapshots").iterdir())
    assert kept == ["it2.npz", "it4.npz"]
    two, four = load(tmp_path / "snapshots" / "it2.npz"), load(tmp_path / "snapshots" / "it4.npz")
    assert (two.meta["trained"]["iteration"], four.meta["trained"]["iteration"]) == (2, 4)
    assert np.array_equal(two.trunk[0][0], at_two.trunk[0][0].astype(np.float16))
    assert not np.array_equal(two.trunk[0][0], four.trunk[0][0])  # the run went on between them


def test_a_checkpoint_is_refused_for_other_settings_or_when_damaged(tmp_path: Path) -> None:
    run = open_run(tmp_path, TINY)
    run.save()
    with pytest.raises(CheckpointError, match="started with other settings"):
        open_run(tmp_path, dataclasses.replace(TINY, seed=4))
    (tmp_path / "checkpoint.npz").write_bytes(b"not a zip")
    with pytest.raises(CheckpointError, match="not a readable checkpoint"):
        open_run(tmp_path, None)


def test_a_run_starts_from_a_weights_file_and_writes_one_the_zero_bot_reads(tmp_path: Path) -> None:
    run = open_run(tmp_path / "a", TINY)
    run.write_network(tmp_path / "w.npz")
    written = load(tmp_path / "w.npz")
    assert written.heuristic_bonus == 0.0 and written.hidden == (16,)
    assert written.meta["trained"]["config"] == TINY.to_dict()
    seeded = Learner(dataclasses.replace(TINY, seed=9, init=str(tmp_path / "w.npz"))).start()
    # The file is float16: the weights come back as stored, not as the seed would draw them.
    assert np.array_equal(np.asarray(seeded.params["trunk_w0"]), written.trunk[0][0])
    with pytest.raises(ValueError, match="cannot grow a trunk of 16 into 8"):
        Learner(dataclasses.replace(TINY, hidden=(8,), init=str(tmp_path / "w.npz"))).start()
    assert to_network(seeded.params, {}).hidden == (16,)


def test_bootstrapping_counts_the_decisions_of_games_the_rollout_cut() -> None:
    # TINY's first rollout (48 steps of 2-player games, which last longer) ends no game: left out,
    # every decision; bootstrapped, all but each seat's last one in each game.
    plain, boot = (Learner(dataclasses.replace(TINY, bootstrap=b)) for b in (False, True))
    _, plain_stats = plain.advance(plain.start())
    _, boot_stats = boot.advance(boot.start())
    assert plain_stats.finished == boot_stats.finished == 0
    decisions, last_ones = TINY.batch * TINY.horizon, TINY.batch * 2
    assert plain_stats.counted == 0.0
    assert boot_stats.counted == pytest.approx((decisions - last_ones) / decisions)
    assert np.isfinite(boot_stats.loss) and boot_stats.loss != 0.0


def test_setups_take_turns_in_blocks() -> None:
    learner = Learner(dataclasses.replace(TINY, setups=(Setup(2, "base"), Setup(3, "base")), block=3))
    assert [learner.setup_of(i) for i in range(1, 10)] == [0, 0, 0, 1, 1, 1, 0, 0, 0]


def test_the_programs_kept_are_the_most_recently_used() -> None:
    built: list[int] = []

    def build(key: int) -> Callable[..., Any]:
        built.append(key)
        return lambda: key

    programs = Programs(build, most=2)
    assert [programs[k]() for k in (0, 1, 0, 2, 0, 1)] == [0, 1, 0, 2, 0, 1]
    # 2 dropped 1 (used longest ago), and 1 then dropped 2: 0 stayed, used all along.
    assert built == [0, 1, 2, 1]
    assert list(programs.live) == [0, 1]
    with pytest.raises(ValueError, match="at least one program"):
        Programs(build, most=0)


def test_init_net_starts_from_the_net_bots_network_without_its_hint() -> None:
    from oriflamme.bots.net import default_network

    state = Learner(dataclasses.replace(TINY, hidden=(256, 256), init="net")).start()
    net = default_network()
    assert np.array_equal(np.asarray(state.params["trunk_w1"]), net.trunk[1][0])
    assert np.array_equal(np.asarray(state.params["policy_b"]), net.policy[1])
    assert "heuristic_bonus" not in state.params


def _biased(params: dict[str, jax.Array], direction: float) -> dict[str, jax.Array]:
    """``params`` whose policy ignores the position: the highest legal index (``direction`` 1) or
    the lowest (-1), by far."""
    actions = params["policy_b"].shape[0]
    return {
        **params,
        "policy_w": jnp.zeros_like(params["policy_w"]),
        "policy_b": direction * 1000.0 * jnp.arange(actions, dtype=jnp.float32),
    }


def test_in_a_rival_game_the_trained_network_moves_for_its_seat_and_the_rival_for_the_others() -> None:
    from oriflamme.rl.train import _init
    from oriflamme.rl.vector_train import rollout_with_rivals
    from oriflamme.vector.env import Env
    from oriflamme.vector.sparse import batched

    env = Env(2, "base")
    params = _init(jax.random.key(0), [env.observation_shape[0], 8], env.num_actions)
    highest, lowest = _biased(params, 1.0), _biased(params, -1.0)
    learner_seat = np.array([0, 1, -1, -1])  # two rival games of four: the trained seat, or -1
    games = jax.jit(batched(env.init))(jax.random.split(jax.random.key(1), 4))
    play = jax.jit(rollout_with_rivals(env, 1, 40, rival_games=2))
    _, seen = play(highest, lowest, games, jax.random.key(2))
    mask = np.asarray(seen.mask)
    top = mask.shape[-1] - 1 - np.argmax(mask[..., ::-1], axis=-1)
    bottom = np.argmax(mask, axis=-1)
    seat = np.asarray(seen.seat)
    trained = (learner_seat[None, :] < 0) | (seat == learner_seat[None, :])
    assert np.array_equal(np.asarray(seen.mine), trained)
    action = np.asarray(seen.action)
    assert np.array_equal(action, np.where(trained, top, bottom))
    choice = top != bottom
    assert (choice & trained).sum() > 10 and (choice & ~trained).sum() > 10  # both networks chose often
    # What PPO and the baseline read is the trained network's, whoever moved: its log-probability
    # of the move played (about 1 for its own choice, tiny for the rival's).
    logp = np.asarray(seen.logp)
    assert np.all(logp[choice & trained] > -1e-3) and np.all(logp[choice & ~trained] < -100)
    # Only the trained network's moves are learned from, and in a rival game only its seat's.
    data, _ = _flatten(seen, bootstrap=True)
    weight = np.asarray(data["weight"]).reshape(action.shape)
    assert weight[~trained].sum() == 0 and weight[trained].sum() > 10
    assert set(seat[:, 0][weight[:, 0] > 0]) == {0} and set(seat[:, 1][weight[:, 1] > 0]) == {1}


def test_a_score_weight_adds_each_seats_margin_over_the_tables_mean_ip_when_a_game_ends() -> None:
    from oriflamme.rl.train import _init
    from oriflamme.rl.vector_train import rollout_with_rivals, shaped_rewards
    from oriflamme.vector.env import Env
    from oriflamme.vector.sparse import batched

    env = Env(3, "base")
    params = _init(jax.random.key(0), [env.observation_shape[0], 8], env.num_actions)
    games = jax.jit(batched(env.init))(jax.random.split(jax.random.key(1), 4))
    # 3-player base games last about 50 steps: in 140 every slot finishes at least one.
    plain = jax.jit(rollout_with_rivals(env, 1, 140))
    shaped = jax.jit(rollout_with_rivals(env, 1, 140, score_weight=0.5))
    _, seen = plain(params, params, games, jax.random.key(2))
    _, seen_shaped = shaped(params, params, games, jax.random.key(2))
    done = np.asarray(seen.done)
    assert done.sum(axis=0).min() >= 1
    # The same games (the reward does not change a move), rewards apart only where a game ended.
    assert np.array_equal(np.asarray(seen.action), np.asarray(seen_shaped.action))
    extra = np.asarray(seen_shaped.rewards) - np.asarray(seen.rewards)
    assert np.all(extra[~done] == 0)
    assert np.abs(extra[done]).max() > 0.05  # the margins move the rewards of finished games
    unclipped = (np.abs(np.asarray(seen_shaped.rewards)[done]) < 1).all(axis=-1)
    assert unclipped.sum() >= 4 and np.allclose(extra[done][unclipped].sum(axis=-1), 0, atol=1e-5)
    # At an end: half of (IP less the table's mean) / 10, read from the finished game's scores.
    state = games
    step = jax.jit(batched(env.step))
    while not bool(np.asarray(state.terminated).any()):
        p = np.asarray(state.legal_action_mask).argmax(axis=-1)
        state = step(state, jnp.asarray(p, jnp.int32))
    ended = np.asarray(state.terminated)
    score = np.asarray(state.game.score, np.float32)
    margin = (score - score.mean(axis=-1, keepdims=True)) / 10
    got = np.asarray(shaped_rewards(state, 0.5))
    assert np.allclose(got[ended], np.asarray(state.rewards)[ended] + 0.5 * margin[ended], atol=1e-6)
    assert np.allclose(got[~ended], np.asarray(state.rewards)[~ended])
    assert np.array_equal(np.asarray(shaped_rewards(state, 0.0)), np.asarray(state.rewards))
    # At full weight a runaway winner's reward would leave the value head's range: it is clipped.
    runaway = jnp.where(jnp.asarray(ended)[:, None], jnp.asarray([30, 0, 0]), state.game.score)
    far = state.replace(game=dataclasses.replace(state.game, score=runaway))
    full = np.asarray(shaped_rewards(far, 1.0))
    assert np.allclose(full[ended, 0], 1.0)  # a reward of 2 or more, clipped
    assert np.allclose(full[ended, 1:], np.clip(np.asarray(state.rewards)[ended, 1:] - 1.0, -1, 1))


def test_the_learner_rolls_its_games_out_with_the_runs_score_weight(monkeypatch: pytest.MonkeyPatch) -> None:
    from oriflamme.rl.selfplay import learner as module

    calls: list[tuple[Any, ...]] = []
    monkeypatch.setattr(module, "rollout_with_rivals", lambda *args: calls.append(args))
    learner = Learner(dataclasses.replace(TINY, score_weight=0.25))
    learner._build(learner.envs[0])
    assert calls and calls[0][4] == 0.25


def test_the_rivals_pool_starts_as_the_first_network_and_takes_a_snapshot_every_so_often() -> None:
    learner = Learner(dataclasses.replace(RIVALS, rival_every=2))
    state = learner.start()
    start = state.params
    assert state.pool is not None and state.pool["policy_w"].shape == (2, *start["policy_w"].shape)
    assert all(_same(jax.tree.map(lambda x, i=i: x[i], state.pool), start) for i in range(2))
    seen = []
    for _ in range(4):
        state, _ = learner.advance(state)
        seen.append(state.params)
    assert state.pool is not None
    # Snapshots at iterations 2 and 4, into the oldest slot each time.
    assert _same(jax.tree.map(lambda x: x[0], state.pool), seen[1])
    assert _same(jax.tree.map(lambda x: x[1], state.pool), seen[3])
    assert not _same(seen[1], seen[3])
    assert Learner(TINY).start().pool is None


def test_a_rivals_checkpoint_without_its_pool_is_refused(tmp_path: Path) -> None:
    run = open_run(tmp_path, RIVALS)
    run.save()
    with np.load(tmp_path / "checkpoint.npz") as data:
        kept = {name: data[name] for name in data.files if not name.startswith("pool/")}
    np.savez(tmp_path / "checkpoint.npz", **kept)
    with pytest.raises(CheckpointError, match="pool/"):
        open_run(tmp_path, None)
