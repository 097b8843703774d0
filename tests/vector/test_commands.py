"""``oriflamme check vector`` and ``oriflamme bench vector`` on tiny sizes, through typer's CliRunner."""

from __future__ import annotations

import json
import multiprocessing
import signal

import pytest

pytest.importorskip("jax", reason="the vector engine needs JAX: pip install 'oriflamme[vector]'")

from collections.abc import Callable

import jax
from typer.testing import CliRunner

from oriflamme.cli.app import app
from oriflamme.pools import abandon as real_abandon
from oriflamme.vector import check as check_module
from oriflamme.vector.check import check_vector
from oriflamme.vector.env import Batched, Env, EnvState, batched

runner = CliRunner()


def test_check_vector_compares_every_step_and_finds_no_disagreement() -> None:
    # The setup and batch of test_env.py's games (their programs compiled once for both files).
    result = runner.invoke(
        app,
        ["check", "vector", "-n", "6", "-p", "3", "-d", "ablaze", "--seed", "9", "--batch", "6", "--json"],
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["disagreements"] == []
    # Every game is played to its end; each compares its deal and a position after every step.
    assert report["finished"] == 6 and report["steps"] > 6 * 30


def test_check_vector_in_two_processes_gives_the_one_process_result() -> None:
    # Two batches of the setup above (programs compiled once here; the workers load them from
    # the compilation cache this process passes them).
    args = [
        "check",
        "vector",
        "-n",
        "12",
        "-p",
        "3",
        "-d",
        "ablaze",
        "--seed",
        "20",
        "--batch",
        "6",
        "--json",
    ]
    alone = runner.invoke(app, args)
    shared = runner.invoke(app, [*args, "--jobs", "2"])
    assert alone.exit_code == 0 and shared.exit_code == 0, (alone.output, shared.output)
    one, two = json.loads(alone.stdout), json.loads(shared.stdout)
    assert one == two
    assert two["finished"] == 12 and two["disagreements"] == [] and two["steps"] > 12 * 30


def test_check_vector_reports_each_batch_as_it_ends() -> None:
    # Two batches of the setup above: the progress callback sees each one, and they add up to the whole.
    parts: list[check_module.CheckResult] = []
    result = check_vector(12, 3, "ablaze", seed=20, batch=6, on_part=parts.append)
    assert [(p.seed, p.games, p.finished) for p in parts] == [(20, 6, 6), (26, 6, 6)]
    assert sum(p.steps for p in parts) == result.steps > 12 * 30
    assert result.finished == 12 and result.disagreements == []


def test_a_check_in_two_processes_stops_its_workers_when_interrupted(monkeypatch: pytest.MonkeyPatch) -> None:
    # Three batches on two workers: Ctrl-C (here raised as the first batch is reported) ends the
    # check at once, its workers ended rather than waited for, the running batch dropped.
    parts: list[check_module.CheckResult] = []
    workers: list[multiprocessing.Process] = []

    def interrupt(part: check_module.CheckResult) -> None:
        parts.append(part)
        raise KeyboardInterrupt

    def abandon(pool, futures):  # type: ignore[no-untyped-def]
        workers.extend(pool._processes.values())
        real_abandon(pool, futures)

    monkeypatch.setattr(check_module, "abandon", abandon)
    with pytest.raises(KeyboardInterrupt):
        check_vector(18, 3, "ablaze", seed=20, batch=6, jobs=2, on_part=interrupt)
    assert len(parts) == 1 and parts[0].games == 6 and parts[0].finished == 6
    assert len(workers) == 2 and [w.exitcode for w in workers] == [-signal.SIGTERM] * 2
    # Only this check's workers: a test run earlier in the same process may have children of its own.
    assert not set(workers) & set(multiprocessing.active_children())


def _stopped_after_batches(*args, on_part, **kwargs):  # type: ignore[no-untyped-def]
    """``check_vector`` stopped by Ctrl-C after two batches ended (the later seeds first, as with jobs)."""
    later = check_module.CheckResult(6, 3, "ablaze", 15, steps=240, finished=6)
    first = check_module.CheckResult(6, 3, "ablaze", 9, steps=250, finished=5)
    first.disagreements.append("seed 11, step 4: mask: vector [1], engine [2]")
    on_part(later)
    on_part(first)
    raise KeyboardInterrupt


def test_an_interrupted_check_reports_the_batches_that_ended(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(check_module, "check_vector", _stopped_after_batches)
    args = ["check", "vector", "-n", "24", "-p", "3", "-d", "ablaze", "--seed", "9", "--batch", "6"]
    result = runner.invoke(app, args)
    assert result.exit_code == 130
    assert "1 disagreement(s) among seeds 9 to 14" in result.output
    assert "seed 11, step 4: mask: vector [1], engine [2]" in result.output
    assert "stopped: 12 of 24 games checked, 490 positions compared, 1 disagreement(s)" in result.output

    as_json = runner.invoke(app, [*args, "--json"])
    assert as_json.exit_code == 130
    report = json.loads(as_json.output[as_json.output.index("{") :])
    assert report == {
        "games": 12,
        "players": 3,
        "deck": "ablaze",
        "seed": 9,
        "steps": 490,
        "finished": 11,
        "disagreements": ["seed 11, step 4: mask: vector [1], engine [2]"],
        "requested": 24,
        "stopped": True,
    }


def test_check_vector_reports_a_disagreement_with_seed_step_and_both_positions(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    original = check_module._compare

    def wrong_scores(g, legal, state, seen, i):  # type: ignore[no-untyped-def]
        if len(g.history) == 1 and g.seed == 10:
            return "scores: vector [9, 9, 9], engine [1, 1, 1]"
        return original(g, legal, state, seen, i)

    monkeypatch.setattr(check_module, "_compare", wrong_scores)
    result = runner.invoke(
        app, ["check", "vector", "-n", "6", "-p", "3", "-d", "ablaze", "--seed", "9", "--batch", "6"]
    )
    assert result.exit_code == 1
    assert "seed 10, step 1: scores: vector [9, 9, 9], engine [1, 1, 1]" in result.output
    assert "engine: round 1, place" in result.output and "vector: round 1, place" in result.output
    assert "1 disagreement(s)." in result.output


def _faulty(flaw: str, at_call: int) -> Callable[[Env], Batched]:
    """``batched`` with one fault put into what the vector side reports, at its ``at_call``-th look."""
    calls = {"n": 0}

    def make(env: Env) -> Batched:
        real = batched(env)

        def observe_all(state: EnvState) -> jax.Array:
            calls["n"] += 1
            seen = real.observe_all(state)
            if flaw == "seat" and calls["n"] == at_call:
                seen = seen.at[1, 2, 5].set(1.0 - seen[1, 2, 5])
            return seen

        def step(state: EnvState, action: jax.Array) -> EnvState:
            after = real.step(state, action)
            if calls["n"] + 1 != at_call:
                return after
            if flaw == "own":
                return after.replace(
                    observation=after.observation.at[1, 7].set(1.0 - after.observation[1, 7])
                )
            if flaw == "score":
                return after.replace(game=after.game.replace(score=after.game.score.at[1, 0].add(3)))
            return after

        return Batched(real.init, real.wrap, step, observe_all)

    return make


@pytest.mark.parametrize(
    ("flaw", "said"),
    [
        ("seat", "seat 2's observation differs at indices [5]"),
        ("own", "the environment's observation differs at indices [7]"),
        ("score", "scores: vector ["),
    ],
)
def test_the_comparison_itself_catches_a_fault_on_the_vector_side(
    monkeypatch: pytest.MonkeyPatch, flaw: str, said: str
) -> None:
    # A real fault (not a stubbed comparison) in game 1 at the fourth position: the check must
    # name that game's seed and step, and stop comparing that game only.
    monkeypatch.setattr(check_module, "batched", _faulty(flaw, 4))
    result = check_vector(6, 3, "ablaze", seed=9, batch=6)
    assert len(result.disagreements) == 1, result.disagreements
    assert result.disagreements[0].startswith(f"seed 10, step 3: {said}"), result.disagreements[0]
    assert result.finished == 5


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["check", "vector", "-p", "6"], "error: players must be an int from 2 to 5, got 6"),
        (["check", "vector", "-d", "nope"], "error: unknown deck 'nope'"),
        (["check", "vector", "-n", "0"], "error: games must be a positive int, got 0"),
        (["check", "vector", "--jobs", "0"], "error: jobs must be a positive int, got 0"),
        (["check", "vector", "--rounds", "9"], "error: rounds must be 1 to 7, got 9"),
        (
            ["check", "vector", "-p", "2", "--cards-per-round", "3", "--rounds", "7"],
            "error: 7 rounds of 3 card(s) need 21 cards",
        ),
        (["bench", "vector", "--batch", "0"], "error: --batch must be comma-separated positive numbers"),
        (["bench", "vector", "--players", "4,x"], "error: --players must be comma-separated whole numbers"),
        (["bench", "vector", "--players", "7"], "error: players must be an int from 2 to 5, got 7"),
        (["bench", "vector", "--steps", "0"], "error: steps must be a positive int, got 0"),
    ],
)
def test_wrong_arguments_get_one_line_and_exit_code_2(args: list[str], message: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [message] or result.output.strip().startswith(message), (
        result.output
    )


def test_bench_vector_reports_speeds_compile_time_and_the_pettingzoo_ratio() -> None:
    args = [
        "bench",
        "vector",
        "--batch",
        "8",
        "--steps",
        "80",
        "-p",
        "2",
        "--pettingzoo-seconds",
        "0.2",
        "--json",
    ]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert [(r["batch"], r["steps"], r["players"]) for r in report["rows"]] == [(8, 80, 2)]
    pettingzoo = report["pettingzoo_steps_per_s"]["2"]
    assert pettingzoo > 0 and report["compile_s"]["2"] > 0
    for r in report["rows"]:
        assert r["steps_per_s"] > 0
        assert r["vs_pettingzoo"] == pytest.approx(r["steps_per_s"] / pettingzoo, abs=0.006)  # 2 decimals
        # 80 decisions of 2-player games: some end and are dealt afresh.
        assert r["games_per_s"] > 0


def test_the_benchs_random_policy_picks_legal_indices_near_uniformly() -> None:
    from collections import Counter

    import jax
    import jax.numpy as jnp

    from oriflamme.rl.vector_bench import random_legal

    mask = (
        jnp.zeros((2, 1502), dtype=bool).at[0, jnp.asarray([3, 700, 701, 1501])].set(True).at[1, 42].set(True)
    )
    picks = jax.jit(jax.vmap(random_legal, in_axes=(0, None)))(
        jax.random.split(jax.random.key(7), 4000), mask
    )
    first = Counter(picks[:, 0].tolist())
    assert set(first) == {3, 700, 701, 1501} and (picks[:, 1] == 42).all()
    assert all(850 <= n <= 1150 for n in first.values()), first  # 1,000 each if uniform
