"""Search-guided targets: ``zero-search`` labels games around a network, which then learns from them."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("jax")
pytest.importorskip("optax")

from typer.testing import CliRunner  # noqa: E402

from oriflamme.bots.net import load, save  # noqa: E402
from oriflamme.bots.zero_search import ZeroSearchBot  # noqa: E402
from oriflamme.cli.app import app  # noqa: E402
from oriflamme.encoding.actions import action_index, view_kinds  # noqa: E402
from oriflamme.engine.game import Game  # noqa: E402
from oriflamme.engine.seeds import derive_seed  # noqa: E402
from oriflamme.rl import seat_rewards  # noqa: E402
from oriflamme.rl.dataset import generate  # noqa: E402
from oriflamme.rl.dataset import load as load_examples  # noqa: E402
from oriflamme.rl.train import fit  # noqa: E402

runner = CliRunner()


@pytest.fixture(scope="module")
def small_network(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 16-wide network without the hint, as ``zero`` plays, trained on one search game."""
    network, _ = fit(
        generate(1, players=2, level="6", seed=3), hidden=(16,), epochs=2, heuristic_hint=False, seed=3
    )
    path = tmp_path_factory.mktemp("net") / "small.npz"
    save(network, path)
    return path


def test_zero_search_plays_and_labels_every_decision_with_its_visits(small_network: Path) -> None:
    ex = generate(
        2, players=2, deck="ablaze", level="6", seed=4, search="zero-search", weights=str(small_network)
    )
    assert ex.meta["search"] == "zero-search" and ex.meta["weights"] == str(small_network)
    assert ex.meta["weights_sha256"] == hashlib.sha256(small_network.read_bytes()).hexdigest()
    # The same games replayed with the same seeded searches around the same network.
    network = load(small_network)
    rows = 0
    for g_no in range(2):
        game = Game.new(players=2, deck="ablaze", seed=derive_seed("dataset", 4, g_no), record_events=False)
        bots = [
            ZeroSearchBot("6", derive_seed("dataset", 4, g_no, "bot", s), network=network) for s in range(2)
        ]
        seats = []
        while not game.is_over():
            seat = game.current_player()
            view = game.view(seat)
            ranked = bots[seat].evaluate(view)
            if len(view.legal_actions) > 1:
                kinds = view_kinds(view)
                want = np.zeros(ex.policies.shape[1], np.float32)
                for v in ranked:
                    want[action_index(v.action, seat, 2, kinds)] = v.visits / 6
                assert np.allclose(ex.policies[rows], want)
                seats.append(seat)
                rows += 1
            game.apply(ranked[0].action)  # the search's most visited move is the one played
        rewards = seat_rewards(game)
        assert ex.values[rows - len(seats) : rows].tolist() == pytest.approx([rewards[s] for s in seats])
    assert rows == len(ex) > 40


def test_a_search_its_level_and_a_weights_file_are_checked_first(small_network: Path) -> None:
    with pytest.raises(ValueError, match="search 'mcts': choose among ismcts, zero-search"):
        generate(1, players=2, search="mcts")
    with pytest.raises(ValueError, match="zero-search level 'hard'"):
        generate(1, players=2, level="hard", search="zero-search")
    with pytest.raises(ValueError, match="a weights file is for zero-search"):
        generate(1, players=2, level="4", weights=str(small_network))


def test_training_can_start_from_a_network(small_network: Path) -> None:
    start = load(small_network)
    examples = generate(1, players=2, level="4", seed=5)
    # A step too small to move the weights: the result is the starting network.
    same, _ = fit(examples, hidden=(16,), epochs=1, heuristic_hint=False, learning_rate=1e-9, init=start)
    for (w, b), (w0, b0) in zip(same.trunk, start.trunk, strict=True):
        assert np.allclose(w, w0, atol=1e-4) and np.allclose(b, b0, atol=1e-4)
    assert np.allclose(same.policy[0], start.policy[0], atol=1e-4)
    assert np.allclose(same.value[0], start.value[0], atol=1e-4)
    assert same.meta["trained"]["init"] == start.meta["trained"]
    fresh, _ = fit(examples, hidden=(16,), epochs=1, heuristic_hint=False, learning_rate=1e-9, seed=9)
    assert not np.allclose(fresh.trunk[0][0], start.trunk[0][0], atol=1e-2)
    # A hinted network keeps its bonus as its starting point.
    hinted, _ = fit(examples, hidden=(16,), epochs=1, seed=2)
    hinted.heuristic_bonus = 2.5
    again, _ = fit(examples, hidden=(16,), epochs=1, learning_rate=1e-9, init=hinted)
    assert again.heuristic_bonus == pytest.approx(2.5, abs=1e-3)
    with pytest.raises(ValueError, match=r"layer widths are \[16\], not \[8\]"):
        fit(examples, hidden=(8,), init=start)


def test_the_train_command_improves_a_network_on_its_own_search(small_network: Path, tmp_path: Path) -> None:
    out, data = tmp_path / "better.npz", tmp_path / "data.npz"
    args = [
        "train",
        "-n",
        "1",
        "-p",
        "2",
        "--search",
        "zero-search",
        "--level",
        "4",
        "--init",
        str(small_network),
    ]
    args += ["--epochs", "1", "--workers", "1", "--out", str(out), "--save-data", str(data)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    better = load(out)
    # The starting network's widths, and no hint, as it had none.
    assert better.hidden == (16,) and better.heuristic_bonus == 0.0
    examples = load_examples(data)
    assert examples.meta["search"] == "zero-search" and examples.meta["weights"] == str(small_network)
    assert np.allclose((examples.policies * 4).round(), examples.policies * 4, atol=1e-5)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--search", "mcts"], "--search 'mcts': choose among ismcts, zero-search"),
        (["--search", "zero-search", "--level", "godlike"], "zero-search level 'godlike'"),
        (["--init", "missing.npz"], "--init: missing.npz"),
        (["--init", "{small}", "--hidden", "8"], "the --init network's layers are 16"),
    ],
)
def test_the_train_command_refuses_a_bad_search_or_starting_network(
    args: list[str], message: str, small_network: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["train", *[a.format(small=small_network) for a in args]])
    assert result.exit_code == 2
    assert message in result.stderr
    assert list(tmp_path.iterdir()) == []
