"""Training examples from search games: shapes, targets that match the search and the game's end."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("numpy")

from oriflamme.rl.dataset import DATASET_VERSION, generate, load, save


def test_examples_hold_the_search_visits_and_the_final_reward(tmp_path: Path) -> None:
    ex = generate(games=2, players=3, deck="ablaze", level="12", seed=4)
    n = len(ex)
    assert n > 20
    assert ex.observations.shape == (n, 4224) and ex.masks.shape == (n, 1502)
    assert ex.policies.shape == (n, 1502) and ex.values.shape == (n,)
    # Each policy is a distribution over legal moves only, from 12 simulations.
    assert np.allclose(ex.policies.sum(axis=1), 1.0)
    assert not (ex.policies * (1 - ex.masks)).any()
    assert np.allclose((ex.policies * 12).round(), ex.policies * 12, atol=1e-5)
    # The heuristic policy's move, the net bot's hint, is one of the legal ones.
    assert ex.heuristic.shape == (n,) and ex.masks[np.arange(n), ex.heuristic].all()
    # Values are the seats' shares of the win minus 1/3: 2/3 for a sole winner, -1/3 for others.
    assert {round(float(v), 4) for v in ex.values} <= {
        round(2 / 3, 4),
        round(-1 / 3, 4),
        round(1 / 6, 4),
        0.0,
    }
    assert (ex.values > 0).any() and (ex.values < 0).any()
    path = tmp_path / "ex.npz"
    save(ex, path)
    back = load(path)
    assert back.meta == ex.meta and back.meta["version"] == DATASET_VERSION
    assert np.array_equal(back.policies, ex.policies) and np.array_equal(back.values, ex.values)
    assert np.array_equal(back.heuristic, ex.heuristic)


def test_a_seed_gives_the_same_examples() -> None:
    a = generate(games=1, players=2, deck="base", level="8", seed=9)
    b = generate(games=1, players=2, deck="base", level="8", seed=9)
    assert np.array_equal(a.observations, b.observations) and np.array_equal(a.policies, b.policies)
    c = generate(games=1, players=2, deck="base", level="8", seed=10)
    assert len(c) != len(a) or not np.array_equal(c.observations, a.observations)


def test_another_dataset_version_is_refused(tmp_path: Path) -> None:
    ex = generate(games=1, players=2, deck="base", level="4", seed=1)
    ex.meta["version"] = DATASET_VERSION + 1
    save(ex, tmp_path / "new.npz")
    with pytest.raises(ValueError, match=f"dataset version {DATASET_VERSION + 1}; this program reads"):
        load(tmp_path / "new.npz")
