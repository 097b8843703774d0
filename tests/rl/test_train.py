"""Training the net bot: examples split across workers, a network that learns, the ``oriflamme train`` command."""

from __future__ import annotations

from pathlib import Path

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("jax")
pytest.importorskip("optax")

from typer.testing import CliRunner  # noqa: E402

from oriflamme.bots import make_bot, play_game  # noqa: E402
from oriflamme.bots.heuristic.bot import heuristic_choice  # noqa: E402
from oriflamme.bots.net import NetBot, load  # noqa: E402
from oriflamme.cli.app import app  # noqa: E402
from oriflamme.encoding.actions import action_index, legal_indices, view_kinds  # noqa: E402
from oriflamme.encoding.observation import observe  # noqa: E402
from oriflamme.engine.game import Game  # noqa: E402
from oriflamme.rl.dataset import concatenate, generate  # noqa: E402
from oriflamme.rl.dataset import load as load_examples  # noqa: E402
from oriflamme.rl.train import fit  # noqa: E402

runner = CliRunner()


def test_games_split_across_calls_and_workers_give_the_same_examples() -> None:
    whole = generate(3, players=2, level="6", seed=5)
    split = concatenate(
        [generate(2, players=2, level="6", seed=5), generate(1, players=2, level="6", seed=5, first=2)]
    )
    pooled = generate(3, players=2, level="6", seed=5, workers=2)
    for other in (split, pooled):
        assert np.array_equal(whole.observations, other.observations) and np.array_equal(
            whole.masks, other.masks
        )
        assert np.array_equal(whole.policies, other.policies) and np.array_equal(whole.values, other.values)
        assert np.array_equal(whole.heuristic, other.heuristic)
    assert pooled.meta == whole.meta


def test_movers_play_while_the_search_labels_and_entrants_rotate() -> None:
    from oriflamme.engine.seeds import derive_seed
    from oriflamme.rl import seat_rewards

    movers = ["heuristic", "random", "heuristic"]
    ex = generate(2, players=3, level="6", seed=8, movers=movers)
    assert ex.meta["movers"] == movers
    # The same games replayed with those bots alone, seated as the rotation puts them.
    values = []
    for g in range(2):
        game = Game.new(players=3, seed=derive_seed("dataset", 8, g))
        at_seat = {
            (e + g) % 3: make_bot(spec, derive_seed("dataset", 8, g, "mover", e))
            for e, spec in enumerate(movers)
        }
        seats = []
        while not game.is_over():
            seat = game.current_player()
            seats.append(seat)
            game.apply(at_seat[seat].choose(game.view(seat)))
        values += [seat_rewards(game)[s] for s in seats]
    assert ex.values.tolist() == pytest.approx(values)
    # The labels are still the search's visit shares, over legal moves only.
    assert np.allclose(ex.policies.sum(axis=1), 1.0) and not (ex.policies * (1 - ex.masks)).any()
    with pytest.raises(ValueError, match="3 players need 3 movers"):
        generate(1, players=3, movers=["heuristic"])


def test_a_network_learns_the_search_choices_it_is_shown() -> None:
    examples = generate(2, players=3, level="20", seed=2)
    network, history = fit(
        examples, hidden=(64,), epochs=40, batch_size=16, holdout=0.0, learning_rate=3e-3, seed=1
    )
    assert history[-1].train_loss < history[0].train_loss - 0.2
    # Played from the numpy network, it now mostly picks a most visited action of the search's.
    agree = 0
    rows = zip(examples.observations, examples.masks, examples.policies, examples.heuristic, strict=True)
    for obs, mask, policy, hint in rows:
        legal = np.flatnonzero(mask)
        logits = network.logits(network.features(obs), legal) + network.heuristic_bonus * (legal == hint)
        agree += int(policy[legal[int(np.argmax(logits))]] == policy.max())
    assert agree / len(examples) > 0.9
    # The bot plays from a view exactly what the trained logits (hint included) rate highest.
    game = Game.new(players=3, seed=20)
    bot = NetBot(network)
    for _ in range(30):
        view = game.view(game.current_player())
        by_index = legal_indices(view)
        legal = np.fromiter(by_index, dtype=np.intp)
        hint = action_index(heuristic_choice(view), game.current_player(), 3, view_kinds(view))
        logits = network.logits(network.features(observe(view)), legal) + network.heuristic_bonus * (
            legal == hint
        )
        assert bot.choose(view) == by_index[int(legal[int(np.argmax(logits))])]
        game.apply(bot.choose(view))
    assert (
        network.meta["trained"]["examples"] == len(examples) and len(network.meta["trained"]["history"]) == 40
    )


def test_bad_training_settings_are_refused() -> None:
    examples = generate(1, players=2, level="4", seed=1)
    with pytest.raises(ValueError, match="hidden layer widths must be positive"):
        fit(examples, hidden=(0,))
    with pytest.raises(ValueError, match="epochs and batch size"):
        fit(examples, epochs=0)


def test_the_train_command_writes_a_network_the_net_bot_plays(tmp_path: Path) -> None:
    out, data = tmp_path / "net.npz", tmp_path / "data.npz"
    args = ["train", "-n", "2", "-p", "2", "--level", "8", "--epochs", "2", "--hidden", "16"]
    args += ["--workers", "1"]
    result = runner.invoke(app, [*args, "--out", str(out), "--save-data", str(data), "--json"])
    assert result.exit_code == 0, result.output
    assert load(out).hidden == (16,) and len(load_examples(data)) > 10
    game = play_game(Game.new(players=2, seed=1), [make_bot(f"net:{out}"), NetBot(load(out))])
    assert game.is_over()
    # Training again from the saved examples alone.
    again = runner.invoke(
        app, ["train", "-n", "0", "--data", str(data), "--epochs", "1", "--out", str(tmp_path / "b.npz")]
    )
    assert again.exit_code == 0, again.output
    assert (tmp_path / "b.npz").is_file()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-n", "0"], "nothing to train on"),
        (["--hidden", "8,x"], "--hidden: comma-separated layer widths"),
        (["--level", "godlike"], "unknown ISMCTS level 'godlike'"),
        (["--deck", "nope"], "unknown deck 'nope'"),
        (["--out", "/no/such/dir/net.npz"], "directory '/no/such/dir' does not exist"),
        (["-n", "0", "--data", "missing.npz"], "--data missing.npz"),
        (["--movers", "heuristic,search"], "--movers: 4 players need 4 specs, got 2"),
        (["--movers", "heuristic,search,nobot,random"], "unknown bot 'nobot'"),
        (["--level", "1.5s"], "a thinking time makes the examples depend on the machine"),
        (["--save-data", "/no/such/dir/d.npz"], "--save-data: directory '/no/such/dir' does not exist"),
        (["--save-data", "same.npz", "--out", "same.npz"], "--save-data and --out name the same file"),
        (["-n", "0", "--data", "x.npz", "--movers", "search,search,search,search"], "--movers plays games"),
    ],
)
def test_the_train_command_refuses_bad_arguments(
    args: list[str], message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["train", *args])
    assert result.exit_code == 2
    assert message in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_a_weights_file_or_a_damaged_file_is_not_taken_for_examples(tmp_path: Path) -> None:
    from oriflamme.bots.net import save as save_network

    network, _ = fit(generate(1, players=2, level="4", seed=1), hidden=(8,), epochs=1)
    save_network(network, tmp_path / "net.npz")
    (tmp_path / "bad.npz").write_bytes((tmp_path / "net.npz").read_bytes()[:500])
    for name, message in (
        ("net.npz", "a oriflamme-net file, not training examples"),
        ("bad.npz", "unreadable"),
    ):
        result = runner.invoke(
            app, ["train", "-n", "0", "--data", str(tmp_path / name), "--out", str(tmp_path / "o")]
        )
        assert result.exit_code == 2 and message in result.stderr, result.stderr
    assert not (tmp_path / "o.npz").exists()


def test_an_output_without_the_suffix_gets_it_as_numpy_writes_it(tmp_path: Path) -> None:
    result = runner.invoke(
        app,
        [
            "train",
            "-n",
            "1",
            "-p",
            "2",
            "--level",
            "4",
            "--epochs",
            "1",
            "--hidden",
            "8",
            "--workers",
            "1",
            "--out",
            str(tmp_path / "plain"),
        ],
    )
    assert result.exit_code == 0, result.output
    assert f"net:{tmp_path / 'plain.npz'}," in result.stdout
    assert make_bot(f"net:{tmp_path / 'plain.npz'}").spec.endswith("plain.npz")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plain.npz"]


def test_the_tutorial_python_runs() -> None:
    """docs/training.md's Python block runs as written and plays a game with the network it trains."""
    import re

    page = Path(__file__).resolve().parents[2] / "docs" / "training.md"
    (code,) = re.findall(r"```python\n(.*?)```", page.read_text(encoding="utf-8"), re.S)
    scope: dict[str, object] = {}
    exec(compile(code, str(page), "exec"), scope)
    assert scope["game"].is_over()  # type: ignore[attr-defined]
    assert len(scope["history"]) == 3  # type: ignore[arg-type]
