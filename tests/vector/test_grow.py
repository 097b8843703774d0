"""Growing a trained network's trunk (``--init FILE --hidden ...``) keeps what it plays."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

jax = pytest.importorskip("jax", reason="the vector engine needs JAX: pip install 'oriflamme[vector]'")
pytest.importorskip("optax", reason="self-play trains with optax: pip install 'oriflamme[train]'")

from oriflamme.bots.net import load  # noqa: E402
from oriflamme.bots.net.model import Network, save  # noqa: E402
from oriflamme.encoding.observation import observation_size  # noqa: E402
from oriflamme.rl.selfplay import Learner, SelfPlayConfig, Setup  # noqa: E402
from oriflamme.rl.selfplay.grow import grown, trunk_widths  # noqa: E402
from oriflamme.rl.train import _init, to_network  # noqa: E402

ACTIONS = 1502


def _trained(sizes: tuple[int, ...], seed: int = 0) -> dict[str, jax.Array]:
    """Random parameters with a value head and biases that are not zero, as a trained network's are."""
    params = _init(jax.random.key(seed), [observation_size(), *sizes], ACTIONS)
    keys = iter(jax.random.split(jax.random.key(seed + 1), 2 * len(sizes) + 3))
    for i in range(len(sizes)):
        params[f"trunk_b{i}"] = 0.1 * jax.random.normal(next(keys), (sizes[i],))
    params["value_w"] = 0.1 * jax.random.normal(next(keys), (sizes[-1], 1))
    params["value_b"] = 0.1 * jax.random.normal(next(keys), (1,))
    params["policy_b"] = 0.1 * jax.random.normal(next(keys), (ACTIONS,))
    return params


def _outputs(network: Network, observations: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every action's logit and the value, per observation."""
    indices = np.arange(ACTIONS, dtype=np.intp)
    logits = [network.logits(network.features(x), indices) for x in observations]
    values = [network.evaluate(network.features(x)) for x in observations]
    return np.asarray(logits, dtype=np.float64), np.asarray(values)


def _observations(count: int = 6) -> np.ndarray:
    rng = np.random.default_rng(5)
    return (rng.random((count, observation_size())) < 0.05).astype(np.float32)


@pytest.mark.parametrize("hidden", [(24, 20), (24, 20, 16), (16, 12, 40, 12)])
def test_a_grown_network_plays_and_values_every_position_as_before(hidden: tuple[int, ...]) -> None:
    before = _trained((16, 12))
    after = grown(before, hidden, jax.random.key(7))
    assert trunk_widths(after) == hidden
    old, new = to_network(before, {}), to_network(after, {})
    xs = _observations()
    (logits_old, values_old), (logits_new, values_new) = _outputs(old, xs), _outputs(new, xs)
    assert np.ptp(logits_old) > 0.1 and np.ptp(values_old) > 0.01  # outputs that could differ
    np.testing.assert_allclose(logits_new, logits_old, atol=1e-5)
    np.testing.assert_allclose(values_new, values_old, atol=1e-5)
    # Every new unit is live (not a copy padded with zeros): it has incoming weights.
    for i, width in enumerate(hidden):
        old_width = (16, 12)[i] if i < 2 else 12
        incoming = np.abs(np.asarray(after[f"trunk_w{i}"])[:, old_width:]).sum(axis=0)
        assert incoming.shape == (width - old_width,) and np.all(incoming > 0)


def test_the_same_trunk_comes_back_unchanged() -> None:
    before = _trained((16,))
    after = grown(before, (16,), jax.random.key(0))
    assert after.keys() == before.keys()
    assert all(np.array_equal(after[k], before[k]) for k in before)


@pytest.mark.parametrize(
    "hidden",
    [(8, 12), (16,), (16, 8), (16, 12, 8)],
    ids=["narrower", "a layer dropped", "narrower second", "a new layer narrower than the last"],
)
def test_shrinking_is_refused_with_what_was_asked(hidden: tuple[int, ...]) -> None:
    with pytest.raises(ValueError, match=r"cannot grow a trunk of 16,12 into " + ",".join(map(str, hidden))):
        grown(_trained((16, 12)), hidden, jax.random.key(0))


def test_a_run_started_from_a_smaller_network_plays_it_and_then_learns_with_the_new_units(
    tmp_path: Path,
) -> None:
    small = to_network(_trained((16,)), {})
    save(small, tmp_path / "small.npz")
    config = SelfPlayConfig(
        setups=(Setup(2, "base"),),
        batch=6,
        horizon=48,
        hidden=(24, 24),
        epochs=2,
        minibatches=2,
        seed=3,
        bootstrap=True,
        init=str(tmp_path / "small.npz"),
    )
    learner = Learner(config)
    start = learner.start()
    xs = _observations(3)
    stored = load(tmp_path / "small.npz")
    np.testing.assert_allclose(
        _outputs(to_network(start.params, {}), xs)[0], _outputs(stored, xs)[0], atol=1e-4
    )
    after, _ = learner.advance(start)
    # The new units' outgoing weights started at zero and got a gradient: they are learning.
    assert not np.any(np.asarray(start.params["trunk_w1"])[16:, :16])
    assert np.any(np.asarray(after.params["trunk_w1"])[16:, :16])
    assert np.any(np.asarray(after.params["policy_w"])[16:])
    # A trunk the file cannot grow into is refused with the file named.
    with pytest.raises(ValueError, match=r"small\.npz: cannot grow a trunk of 16 into 8"):
        Learner(dataclasses.replace(config, hidden=(8,))).start()
