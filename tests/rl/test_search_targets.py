"""Search-guided targets: ``zero-search`` labels games around a network, which then learns from them."""

from __future__ import annotations

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
    assert ex.meta["weights_sha256"] == load(small_network).digest()
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


def test_the_searches_share_games_across_workers_as_ismcts_does(small_network: Path) -> None:
    kwargs = {"players": 2, "level": "4", "seed": 6, "search": "zero-search", "weights": small_network}
    one, two = generate(3, **kwargs), generate(3, workers=2, **kwargs)  # type: ignore[arg-type]
    assert np.array_equal(one.policies, two.policies) and np.array_equal(one.values, two.values)
    assert one.meta == two.meta
    assert not np.array_equal(one.policies, generate(3, players=2, level="4", seed=6).policies[: len(one)])


def test_a_search_its_level_and_a_weights_file_are_checked_before_any_game(
    small_network: Path, tmp_path: Path
) -> None:
    hinted, _ = fit(generate(1, players=2, level="4", seed=1), hidden=(8,), epochs=1)
    save(hinted, tmp_path / "hinted.npz")
    played: list[int] = []
    for kwargs, message in [
        ({"search": "mcts"}, "search 'mcts': choose among ismcts, zero-search"),
        ({"search": "zero-search", "level": "hard"}, "zero-search level 'hard'"),
        ({"weights": small_network}, "a weights file is for zero-search"),
        (
            {"search": "zero-search", "weights": tmp_path / "none.npz"},
            "none.npz: not a readable weights file",
        ),
        ({"search": "zero-search", "weights": tmp_path / "hinted.npz"}, "a network with the heuristic hint"),
    ]:
        with pytest.raises(ValueError, match=message):
            generate(1, players=2, **{"level": "4", **kwargs}, progress=played.append)  # type: ignore[arg-type]
    assert played == []


def test_training_can_start_from_a_network(small_network: Path) -> None:
    start = load(small_network)
    examples = generate(1, players=2, level="4", seed=5)
    # A step too small to move the weights: the result is the starting network.
    same, _ = fit(examples, hidden=(16,), epochs=1, heuristic_hint=False, learning_rate=1e-9, init=start)
    for (w, b), (w0, b0) in zip(same.trunk, start.trunk, strict=True):
        assert np.allclose(w, w0, atol=1e-4) and np.allclose(b, b0, atol=1e-4)
    assert np.allclose(same.policy[0], start.policy[0], atol=1e-4)
    assert np.allclose(same.value[0], start.value[0], atol=1e-4)
    assert same.meta["trained"]["init"] == start.digest()
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
    assert f"--bots zero:{out}," in result.stdout
    better = load(out)
    # The starting network's widths, and no hint, as it had none.
    assert better.hidden == (16,) and better.heuristic_bonus == 0.0
    assert better.meta["trained"]["init"] == load(small_network).digest()
    examples = load_examples(data)
    assert examples.meta["search"] == "zero-search" and examples.meta["weights"] == str(small_network)
    assert examples.meta["weights_sha256"] == load(small_network).digest()
    assert np.allclose((examples.policies * 4).round(), examples.policies * 4, atol=1e-5)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--search", "mcts"], "--search 'mcts': choose among ismcts, zero-search"),
        (["--search", "zero-search", "--level", "godlike"], "zero-search level 'godlike'"),
        (["--init", "missing.npz"], "--init: missing.npz"),
        (["--init", "{small}", "--hidden", "8"], "the --init network's layers are 16"),
        (["--search", "zero-search", "--hint"], "--hint: zero-search searches with networks"),
        (["--init", "{small}", "--save-data", "{small}"], "--save-data and --init name the same file"),
        (["--search", "zero-search", "--init", "{hinted}"], "a network with the heuristic hint"),
    ],
)
def test_the_train_command_refuses_a_bad_search_or_starting_network(
    args: list[str], message: str, small_network: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    hinted = small_network.parent / "hinted.npz"
    if not hinted.exists():
        network, _ = fit(generate(1, players=2, level="4", seed=1), hidden=(8,), epochs=1)
        save(network, hinted)
    before = small_network.read_bytes()
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["train", *[a.format(small=small_network, hinted=hinted) for a in args]])
    assert result.exit_code == 2
    assert message in result.stderr
    assert list(tmp_path.iterdir()) == [] and small_network.read_bytes() == before


def test_a_digest_names_the_weights_whatever_file_holds_them(small_network: Path, tmp_path: Path) -> None:
    network = load(small_network)
    save(network, tmp_path / "copy.npz")
    assert load(tmp_path / "copy.npz").digest() == network.digest()
    network.value[1][0] += 1.0
    assert network.digest() != load(small_network).digest()
