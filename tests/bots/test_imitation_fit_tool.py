"""``tools/imitation_fit.py``: a network's agreement, policy loss and value error on held-out examples."""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path
from types import ModuleType

import pytest

np = pytest.importorskip("numpy")

from oriflamme.bots.heuristic.bot import heuristic_choice  # noqa: E402
from oriflamme.bots.net import Network, save  # noqa: E402
from oriflamme.encoding.actions import action_count, action_index, legal_indices, view_kinds  # noqa: E402
from oriflamme.encoding.observation import action_mask, observe  # noqa: E402
from oriflamme.engine.view import SeatView  # noqa: E402
from oriflamme.rl.dataset import DATASET_VERSION, Examples  # noqa: E402
from oriflamme.rl.dataset import save as save_examples  # noqa: E402

from .test_net import random_network  # noqa: E402
from .test_net_ensemble import _views  # noqa: E402


@pytest.fixture(scope="module")
def tool() -> ModuleType:
    from support.tools import load_tool

    return load_tool("imitation_fit")


@pytest.fixture(scope="module")
def views() -> list[SeatView]:
    return _views(4, "base", 3)


def _own_choice(network: Network, view: SeatView) -> tuple[int, float, float]:
    """The index ``network`` plays at ``view`` (no hint), its log-probability, and its value."""
    by_index = legal_indices(view)
    indices = np.fromiter(by_index, dtype=np.intp, count=len(by_index))
    features = network.features(observe(view))
    logits = network.logits(features, indices).astype(np.float64)
    logp = logits - logits.max() - math.log(np.exp(logits - logits.max()).sum())
    best = int(np.argmax(logits))
    return int(indices[best]), float(logp[best]), network.evaluate(features)


def _examples_of(network: Network, views: list[SeatView]) -> tuple[Examples, float]:
    """Examples whose targets are ``network``'s own choice and value, and the mean log-probability
    of those choices (computed one view at a time, the bot's way)."""
    policies, values, logps = [], [], []
    for view in views:
        index, logp, value = _own_choice(network, view)
        target = np.zeros(action_count(), np.float32)
        target[index] = 1.0
        policies.append(target)
        values.append(value)
        logps.append(logp)
    examples = Examples(
        observations=np.stack([observe(v) for v in views]),
        masks=np.stack([action_mask(v) for v in views]),
        policies=np.stack(policies),
        values=np.asarray(values, np.float32),
        heuristic=np.asarray(
            [action_index(heuristic_choice(v), v.seat, v.players, view_kinds(v)) for v in views], np.int16
        ),
        meta={"version": DATASET_VERSION},
    )
    return examples, float(np.mean(logps))


def test_a_network_fits_its_own_choices_exactly_and_another_does_not(
    tool: ModuleType, views: list[SeatView]
) -> None:
    network = random_network(21)
    examples, mean_logp = _examples_of(network, views)
    own = tool.fit(network, examples)
    assert own.rows == len(views) > 20
    assert own.agreement == 1.0
    assert own.policy_loss == pytest.approx(-mean_logp, rel=1e-4)
    assert own.value_mse == pytest.approx(0.0, abs=1e-8)
    other = tool.fit(random_network(22), examples)
    assert other.agreement < 0.9 and other.policy_loss > own.policy_loss and other.value_mse > 0


def test_a_tie_at_the_top_of_the_visits_counts_as_agreeing(tool: ModuleType, views: list[SeatView]) -> None:
    network = random_network(21)
    examples, _ = _examples_of(network, views)
    other = random_network(22)
    # Give every decision a second most-visited move: the other network's choice.
    for row, view in enumerate(views):
        index, _, _ = _own_choice(other, view)
        examples.policies[row] *= 0.5
        examples.policies[row, index] = max(examples.policies[row, index], 0.5)
    assert tool.fit(other, examples).agreement == 1.0


def test_the_hint_is_used_unless_left_out(tool: ModuleType, views: list[SeatView]) -> None:
    plain = random_network(21)
    hinted = dataclasses.replace(plain, heuristic_bonus=50.0)
    examples, _ = _examples_of(plain, views)
    # With a large bonus the hinted network plays the heuristic's move wherever it differs.
    assert tool.fit(hinted, examples).agreement < tool.fit(plain, examples).agreement
    assert tool.fit(hinted, examples, hint=False) == tool.fit(plain, examples)


def test_the_held_out_rows_are_the_last_and_a_bad_share_is_refused(
    tool: ModuleType, views: list[SeatView]
) -> None:
    examples, _ = _examples_of(random_network(21), views)
    tail = tool.held_out(examples, 0.25)
    assert len(tail) == int(len(examples) * 0.25)
    assert np.array_equal(tail.observations, examples.observations[-len(tail) :])
    for share in (0.0, 1.0, -0.5):
        with pytest.raises(ValueError, match="--holdout"):
            tool.held_out(examples, share)


def test_the_command_prints_each_network_and_refuses_a_missing_file(
    tool: ModuleType, views: list[SeatView], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    network = random_network(21)
    examples, _ = _examples_of(network, views)
    data, weights = tmp_path / "ex.npz", tmp_path / "n.npz"
    save_examples(examples, data)
    save(network, weights)
    assert tool.main(["--data", str(data), "--holdout", "0.5", str(weights)]) == 0
    out = capsys.readouterr().out
    assert f"{int(len(examples) * 0.5)} held-out decisions" in out
    assert "agreement 100.0%" in out
    assert tool.main(["--data", str(tmp_path / "gone.npz"), str(weights)]) == 2
    assert "gone.npz" in capsys.readouterr().err
