"""Self-play kept near an anchor network (``SelfPlayConfig.anchor``): the KL term, its checkpoint, its CLI."""

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

import jax.numpy as jnp  # noqa: E402

from oriflamme.bots.net.model import save  # noqa: E402
from oriflamme.cli.app import app  # noqa: E402
from oriflamme.encoding.observation import observation_size  # noqa: E402
from oriflamme.rl.selfplay import CheckpointError, Learner, SelfPlayConfig, Setup, open_run  # noqa: E402
from oriflamme.rl.selfplay.learner import _ppo_loss  # noqa: E402
from oriflamme.rl.train import _init, to_network  # noqa: E402

#: test_selfplay.py's TINY run (the same rollout program, compiled once per session).
TINY = SelfPlayConfig(
    setups=(Setup(2, "base"),), batch=6, horizon=48, hidden=(16,), epochs=2, minibatches=2, seed=3
)


def _anchor_file(path: Path, seed: int = 11, hidden: int = 8) -> str:
    """A random network of another trunk than TINY's, as a weights file."""
    save(to_network(_init(jax.random.key(seed), [observation_size(), hidden], 1502), {}), path)
    return str(path)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"anchor": "net"}, "an anchor needs a positive anchor_weight"),
        ({"anchor_weight": 0.1}, "a positive anchor_weight an anchor"),
        ({"anchor": "net", "anchor_weight": -0.1}, "anchor_weight must be a number from 0 to 100"),
        ({"anchor": "net", "anchor_weight": True}, "anchor_weight must be a number from 0 to 100"),
        ({"anchor": "net", "anchor_weight": float("nan")}, "anchor_weight must be a number from 0 to 100"),
    ],
)
def test_an_anchor_and_its_weight_go_together(change: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        dataclasses.replace(TINY, **change).check()  # type: ignore[arg-type]


def test_an_anchored_config_survives_its_json_form_and_an_older_one_has_no_anchor() -> None:
    anchored = dataclasses.replace(TINY, anchor="net", anchor_weight=0.05)
    assert SelfPlayConfig.from_dict(anchored.to_dict()) == anchored
    older = {k: v for k, v in TINY.to_dict().items() if k not in ("anchor", "anchor_weight")}
    assert SelfPlayConfig.from_dict(older) == TINY


def _rows(anchor_logp: np.ndarray) -> dict[str, jax.Array]:
    """One decision between moves 3 and 7, move 3 played with no advantage and no value error."""
    mask = np.zeros((1, 1502), bool)
    mask[0, [3, 7]] = True
    full = np.full((1, 1502), -1e9, np.float32)
    full[0, [3, 7]] = anchor_logp
    return {
        "observation": jnp.zeros((1, 4224)),
        "mask": jnp.asarray(mask),
        "action": jnp.asarray([3]),
        "logp": jnp.asarray([np.log(0.5)]),
        "target": jnp.asarray([0.0]),
        "advantage": jnp.asarray([0.0]),
        "weight": jnp.asarray([1.0]),
        "mine": jnp.asarray([1.0]),
        "anchor_logp": jnp.asarray(full),
    }


def test_the_kl_term_pulls_the_policy_towards_the_anchor_and_is_zero_where_they_agree() -> None:
    config = dataclasses.replace(TINY, entropy=0.0, value_weight=0.0, anchor="net", anchor_weight=1.0)
    params = Learner(dataclasses.replace(config, anchor=None, anchor_weight=0.0)).start().params
    own = np.asarray(jax.nn.log_softmax(params["policy_b"][jnp.asarray([3, 7])]))
    # The anchor prefers move 7 nine to one: the term raises 7's logit and lowers 3's.
    toward_7 = _rows(np.log(np.array([0.1, 0.9])))
    grads = jax.grad(_ppo_loss)(params, 1, toward_7, config)
    assert float(grads["policy_b"][7]) < 0 < float(grads["policy_b"][3])
    assert float(_ppo_loss(params, 1, toward_7, config)) > 0.5  # KL(~1/2,1/2 || 1/10,9/10) = 0.51
    # An anchor that plays as the policy does adds nothing.
    same = _rows(own)
    assert abs(float(_ppo_loss(params, 1, same, config))) < 1e-6
    unanchored = {k: v for k, v in same.items() if k not in ("anchor_logp", "mine")}
    assert np.allclose(jax.grad(_ppo_loss)(params, 1, same, config)["policy_b"], 0.0, atol=1e-6)
    assert float(_ppo_loss(params, 1, unanchored, config)) == pytest.approx(0.0, abs=1e-6)


def test_an_anchored_run_moves_towards_its_anchor() -> None:
    # The net bot's network (two layers of 256) as the anchor of TINY's one layer of 16, with nothing
    # else to learn from (no value or entropy terms), a larger step and more passes; the same run with a weight
    # too small to matter is the control, measured against the same anchor.
    def kl_after(weight: float) -> list[float]:
        config = dataclasses.replace(
            TINY,
            anchor="net",
            anchor_weight=weight,
            entropy=0.0,
            value_weight=0.0,
            learning_rate=3e-3,
            epochs=20,
        )
        learner = Learner(config)
        state = learner.start()
        kls = []
        for _ in range(4):
            state, stats = learner.advance(state)
            kls.append(stats.anchor_kl)
        return kls

    anchored, control = kl_after(50.0), kl_after(1e-9)
    assert anchored[0] == control[0] > 0.03  # the same start: a trained network and a random one disagree
    assert anchored[-1] < anchored[0] / 1.5 and anchored[-1] < control[-1] / 2, (anchored, control)
    assert Learner(TINY).start().anchor is None


def test_an_anchored_run_resumes_exactly_with_the_anchor_it_started_with(tmp_path: Path) -> None:
    config = dataclasses.replace(TINY, anchor=_anchor_file(tmp_path / "anchor.npz"), anchor_weight=0.5)
    straight = open_run(tmp_path / "straight", config)
    straight.train(3, checkpoint_every=100)
    stopped = open_run(tmp_path / "stopped", config)
    stopped.train(2, checkpoint_every=100)
    # The file is replaced by another network: the run goes on with the one it read at its start.
    _anchor_file(tmp_path / "anchor.npz", seed=12)
    resumed = open_run(tmp_path / "stopped", None)
    resumed.train(3)
    for a, b in zip(
        jax.tree.leaves(straight.state.params), jax.tree.leaves(resumed.state.params), strict=True
    ):
        assert np.array_equal(np.asarray(a), np.asarray(b))
    logged = [json.loads(line) for line in (tmp_path / "stopped" / "log.jsonl").read_text().splitlines()]
    assert [r["iteration"] for r in logged] == [1, 2, 3] and all(r["anchor_kl"] > 0 for r in logged)
    # A checkpoint of an anchored run without its anchor is refused.
    with np.load(tmp_path / "stopped" / "checkpoint.npz") as data:
        kept = {name: data[name] for name in data.files if not name.startswith("anchor/")}
    np.savez(tmp_path / "stopped" / "checkpoint.npz", **kept)
    with pytest.raises(CheckpointError, match="holds none"):
        open_run(tmp_path / "stopped", None)


runner = CliRunner()


def test_the_cli_takes_an_anchor_and_refuses_a_bad_one_in_one_line(tmp_path: Path) -> None:
    tiny = ["--setups", "2:base", "--batch", "6", "--horizon", "48", "--hidden", "16", "--epochs", "2"]
    tiny += ["--minibatches", "2", "--seed", "3", "--gauntlet", "", "-i", "1"]
    (tmp_path / "bad.npz").write_bytes(b"not a zip")
    for args, message in (
        (["--anchor-weight", "0.1"], "--anchor-weight: give the network to keep near with --anchor"),
        (["--anchor", "missing.npz"], "--anchor: no file 'missing.npz'"),
        (["--anchor", str(tmp_path / "bad.npz")], "--anchor: .*not a readable weights file"),
        (["--anchor", "net", "--anchor-weight", "0"], "an anchor needs a positive anchor_weight"),
    ):
        result = runner.invoke(app, ["selfplay", str(tmp_path / "run"), *tiny, *args])
        assert result.exit_code == 2, result.output
        assert result.stderr.startswith("error: ") and len(result.stderr.strip().splitlines()) == 1
        assert re.search(message, result.stderr), result.stderr
        assert not (tmp_path / "run" / "checkpoint.npz").exists()
    anchor = _anchor_file(tmp_path / "anchor.npz")
    ran = runner.invoke(app, ["selfplay", str(tmp_path / "run"), *tiny, "--anchor", anchor])
    assert ran.exit_code == 0, ran.output
    saved = json.loads(str(np.load(tmp_path / "run" / "checkpoint.npz")["meta"]))["config"]
    assert (saved["anchor"], saved["anchor_weight"]) == (str(Path(anchor).resolve()), 0.05)
