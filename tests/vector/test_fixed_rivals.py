"""Rivals that are fixed networks (``SelfPlayConfig.rivals_from``): the pool, its checkpoint, its CLI."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

jax = pytest.importorskip("jax", reason="the vector engine needs JAX: pip install 'oriflamme[vector]'")
pytest.importorskip("optax", reason="self-play trains with optax: pip install 'oriflamme[train]'")

from oriflamme.bots.net.model import save  # noqa: E402
from oriflamme.cli.app import app  # noqa: E402
from oriflamme.encoding.observation import observation_size  # noqa: E402
from oriflamme.rl.selfplay import Learner, SelfPlayConfig, Setup, open_run  # noqa: E402
from oriflamme.rl.selfplay.learner import _read_network  # noqa: E402
from oriflamme.rl.train import _init, to_network  # noqa: E402

#: test_selfplay.py's TINY run with half its games against rivals (the same rollout program).
TINY = SelfPlayConfig(
    setups=(Setup(2, "base"),), batch=6, horizon=48, hidden=(16,), epochs=2, minibatches=2, seed=3
)
RIVALS = dataclasses.replace(TINY, rivals=0.5, rival_every=1, rival_pool=2)

runner = CliRunner()


def _network_file(path: Path, seed: int, hidden: int = 16) -> str:
    """A random network (TINY's trunk unless ``hidden`` says otherwise), as a weights file."""
    save(to_network(_init(jax.random.key(seed), [observation_size(), hidden], 1502), {}), path)
    return str(path)


def _same(a: object, b: object) -> bool:
    return all(
        np.array_equal(np.asarray(x), np.asarray(y))
        for x, y in zip(jax.tree.leaves(a), jax.tree.leaves(b), strict=True)
    )


def _slot(pool: object, i: int) -> object:
    return jax.tree.map(lambda x: x[i], pool)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"rivals_from": ("net",)}, r"rivals_from needs a share of games against them \(rivals above 0\)"),
        ({"rivals_from": "net", "rivals": 0.5}, "rivals_from must be weights files or 'net'"),
        ({"rivals_from": ("net", ""), "rivals": 0.5}, "rivals_from must be weights files or 'net'"),
    ],
)
def test_fixed_rivals_need_a_share_of_games_and_names(change: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        dataclasses.replace(TINY, **change).check()  # type: ignore[arg-type]


def test_a_config_with_fixed_rivals_survives_its_json_form_and_an_older_one_has_none() -> None:
    fixed = dataclasses.replace(RIVALS, rivals_from=("net", "/x/a.npz"))
    assert fixed.pool_size == 2 and dataclasses.replace(fixed, rivals_from=("net",)).pool_size == 1
    assert SelfPlayConfig.from_dict(json.loads(json.dumps(fixed.to_dict()))) == fixed
    older = {k: v for k, v in RIVALS.to_dict().items() if k != "rivals_from"}
    assert SelfPlayConfig.from_dict(older) == RIVALS and RIVALS.pool_size == 2
    with pytest.raises(ValueError, match="rivals_from must be weights files or 'net'"):
        SelfPlayConfig.from_dict({**fixed.to_dict(), "rivals_from": "net"})  # not ('n', 'e', 't')


def test_the_pool_is_the_files_networks_and_no_snapshot_ever_replaces_them(tmp_path: Path) -> None:
    files = (_network_file(tmp_path / "a.npz", 21), _network_file(tmp_path / "b.npz", 22))
    learner = Learner(dataclasses.replace(RIVALS, rivals_from=files))
    state = learner.start()
    start = state.params
    assert state.pool is not None and state.pool["policy_w"].shape == (2, *start["policy_w"].shape)
    for i, name in enumerate(files):
        assert _same(_slot(state.pool, i), _read_network(name))
    assert not _same(_slot(state.pool, 0), start)
    for _ in range(3):  # rival_every is 1: a snapshot pool would have taken three
        state, _ = learner.advance(state)
    assert not _same(state.params, start)
    for i, name in enumerate(files):
        assert _same(_slot(state.pool, i), _read_network(name))


def test_the_rival_a_run_meets_changes_what_it_learns(tmp_path: Path) -> None:
    after = []
    for seed in (21, 22):
        rival = _network_file(tmp_path / f"r{seed}.npz", seed)
        learner = Learner(dataclasses.replace(RIVALS, rivals_from=(rival,)))
        state = learner.start()
        for _ in range(3):
            state, _ = learner.advance(state)
        assert state.finished > 0  # games ended, so the loss had decisions to learn from
        after.append(state.params)
    assert not _same(after[0], after[1])


def test_a_rival_of_another_trunk_is_refused_with_both_trunks(tmp_path: Path) -> None:
    other = _network_file(tmp_path / "wide.npz", 21, hidden=8)
    learner = Learner(dataclasses.replace(RIVALS, rivals_from=(other,)))
    with pytest.raises(ValueError, match=re.escape(f"rival {other}: its trunk (8,) is not the run's (16,)")):
        learner.start()
    with pytest.raises(ValueError, match="its trunk"):
        open_run(tmp_path / "run", dataclasses.replace(RIVALS, rivals_from=(other,)))
    assert not (tmp_path / "run" / "checkpoint.npz").exists()


def test_a_resumed_run_keeps_its_rivals_even_when_their_file_changed(tmp_path: Path) -> None:
    rival = _network_file(tmp_path / "rival.npz", 21)
    config = dataclasses.replace(RIVALS, rivals_from=(rival,))
    straight = open_run(tmp_path / "straight", config)
    straight.train(3, checkpoint_every=100)
    stopped = open_run(tmp_path / "stopped", config)
    stopped.train(2, checkpoint_every=100)
    _network_file(tmp_path / "rival.npz", 99)  # the file is replaced by another network
    resumed = open_run(tmp_path / "stopped", None)
    resumed.train(3)
    assert _same(resumed.state.pool, straight.state.pool)
    assert _same(resumed.state.params, straight.state.params)
    assert _same(resumed.state.opt_state, straight.state.opt_state)


def test_the_cli_takes_fixed_rivals_and_refuses_bad_ones_in_one_line(tmp_path: Path) -> None:
    tiny = ["--setups", "2:base", "--batch", "6", "--horizon", "48", "--hidden", "16", "--epochs", "2"]
    tiny += ["--minibatches", "2", "--seed", "3", "--gauntlet", "", "-i", "1"]
    (tmp_path / "bad.npz").write_bytes(b"not a zip")
    wide = _network_file(tmp_path / "wide.npz", 21, hidden=8)
    for args, message in (
        (["--rivals-from", "net"], r"rivals_from needs a share of games against them"),
        (["--rivals", "0.5", "--rivals-from", "missing.npz"], "--rivals-from: no file 'missing.npz'"),
        (["--rivals", "0.5", "--rivals-from", str(tmp_path / "bad.npz")], "--rivals-from: .*not a readable"),
        (["--rivals", "0.5", "--rivals-from", " , "], "--rivals-from: name at least one weights file"),
        (["--rivals", "0.5", "--rivals-from", wide], r"its trunk \(8,\) is not the run's \(16,\)"),
    ):
        result = runner.invoke(app, ["selfplay", str(tmp_path / "run"), *tiny, *args])
        assert result.exit_code == 2, result.output
        assert result.stderr.startswith("error: ") and len(result.stderr.strip().splitlines()) == 1
        assert re.search(message, result.stderr), result.stderr
        assert not (tmp_path / "run" / "checkpoint.npz").exists()
    a, b = _network_file(tmp_path / "a.npz", 21), _network_file(tmp_path / "b.npz", 22)
    ran = runner.invoke(
        app, ["selfplay", str(tmp_path / "run"), *tiny, "--rivals", "0.5", "--rivals-from", f"{a},{b}"]
    )
    assert ran.exit_code == 0, ran.output
    saved = json.loads(str(np.load(tmp_path / "run" / "checkpoint.npz")["meta"]))["config"]
    assert saved["rivals_from"] == [str(Path(a).resolve()), str(Path(b).resolve())]
