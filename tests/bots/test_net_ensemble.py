"""``ensemble``: networks joined into one whose logits, and value before its tanh, are the means of theirs."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")

from oriflamme.bots import play_game  # noqa: E402
from oriflamme.bots.net import NetBot, Network, WeightsError, ensemble, load, save  # noqa: E402
from oriflamme.encoding.actions import action_count  # noqa: E402
from oriflamme.encoding.observation import observe  # noqa: E402
from oriflamme.engine.game import Game  # noqa: E402
from oriflamme.engine.view import SeatView  # noqa: E402

from .test_net import random_network  # noqa: E402


class _Watching(NetBot):
    """A network's bot that keeps every view it chose in."""

    def __init__(self, network: Network) -> None:
        super().__init__(network)
        self.views: list[SeatView] = []

    def choose(self, view: SeatView) -> int:
        self.views.append(view)
        return super().choose(view)


def _views(players: int, deck: str, seed: int) -> list[SeatView]:
    """The views of real positions: those a game of random networks' bots passes through."""
    bots = [_Watching(random_network(10 + s)) for s in range(players)]
    play_game(Game.new(players=players, deck=deck, seed=seed), bots)
    return [v for b in bots for v in b.views if len(v.legal_actions) > 1]


def _value_input(network: Network, features: np.ndarray) -> float:
    """The value head before its tanh."""
    w, b = network.value
    return float(features @ w[:, 0] + b[0])


def _with_head_biases(network: Network, seed: int) -> Network:
    """``network`` with random biases on both heads (``random_network`` leaves them at zero)."""
    rng = np.random.default_rng(seed)
    policy_w, policy_b = network.policy
    value_w, value_b = network.value
    return dataclasses.replace(
        network,
        policy=(policy_w, rng.normal(0, 1, policy_b.shape).astype(np.float32)),
        value=(value_w, rng.normal(0, 1, value_b.shape).astype(np.float32)),
    )


@pytest.mark.parametrize(
    ("hidden", "joined_widths"),
    [(((32, 16), (32, 16), (32, 16)), (96, 48)), (((32, 16), (48, 8)), (80, 24))],
)
def test_the_ensembles_logits_and_value_before_its_tanh_are_the_means_of_its_networks(
    hidden: tuple[tuple[int, int], ...], joined_widths: tuple[int, int]
) -> None:
    parts = [_with_head_biases(random_network(k, hidden=h), 20 + k) for k, h in enumerate(hidden)]
    joined = ensemble(parts)
    assert joined.hidden == joined_widths
    indices = np.arange(action_count())
    views = _views(4, "base", 11)
    assert len(views) > 20
    for view in views[::5]:
        obs = observe(view)
        mean_logits = np.mean([n.logits(n.features(obs), indices) for n in parts], axis=0)
        assert np.allclose(joined.logits(joined.features(obs), indices), mean_logits, atol=1e-5)
        mean_value = np.mean([_value_input(n, n.features(obs)) for n in parts])
        assert _value_input(joined, joined.features(obs)) == pytest.approx(mean_value, abs=1e-5)


def test_an_ensemble_of_one_network_plays_as_that_network() -> None:
    alone = random_network(4)
    views = _views(3, "ablaze", 2)
    assert views
    assert [NetBot(ensemble([alone])).choose(v) for v in views] == [NetBot(alone).choose(v) for v in views]


def test_an_ensemble_survives_its_file(tmp_path: Path) -> None:
    joined = ensemble([random_network(5), random_network(6)])
    save(joined, tmp_path / "joined.npz")
    back = load(tmp_path / "joined.npz")
    assert back.hidden == joined.hidden and len(back.meta["ensemble"]) == 2
    assert back.meta["ensemble"] == [random_network(5).digest(), random_network(6).digest()]
    for view in _views(2, "base", 3)[::4]:
        obs = observe(view)
        assert np.allclose(back.features(obs), joined.features(obs), atol=2e-2, rtol=1e-2)


def _hinted(network: Network) -> Network:
    network.heuristic_bonus = 1.0
    return network


@pytest.mark.parametrize(
    ("parts", "message"),
    [
        (lambda: [], "at least one network"),
        (lambda: [random_network(1), random_network(2, hidden=(32, 16, 8))], "not equally deep"),
        (lambda: [random_network(1), _hinted(random_network(2))], "heuristic hint"),
    ],
)
def test_networks_that_cannot_join_are_refused_saying_why(
    parts: Callable[[], list[Network]], message: str
) -> None:
    with pytest.raises(WeightsError, match=message):
        ensemble(parts())


def test_the_tool_writes_the_ensemble_and_refuses_to_overwrite_a_part(tmp_path: Path) -> None:
    from support.tools import load_tool

    tool = load_tool("ensemble_networks")
    a, b, out = tmp_path / "a.npz", tmp_path / "b.npz", tmp_path / "ab.npz"
    save(random_network(7), a)
    save(random_network(8), b)
    assert tool.main([str(a), str(b), "--out", str(out)]) == 0
    joined = load(out)
    assert joined.hidden == (64, 32) and joined.meta["ensemble_files"] == ["a.npz", "b.npz"]
    assert joined.meta["ensemble"] == [load(a).digest(), load(b).digest()]
    before = a.read_bytes()
    assert tool.main([str(a), str(b), "--out", str(a)]) == 2
    assert a.read_bytes() == before
