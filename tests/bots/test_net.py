"""The learned bot: legal play from any network, its best-rated move, its weights file, its registry entry."""

from __future__ import annotations

import importlib.util
import itertools
import json
from pathlib import Path
from typing import Any

import pytest

np = pytest.importorskip("numpy")

from oriflamme.bots import make_bot, parse_bot_spec, play_game  # noqa: E402
from oriflamme.bots.net import FORMAT_VERSION, NetBot, Network, WeightsError, default_network, load, save  # noqa: E402
from oriflamme.bots.registry import available_kinds  # noqa: E402
from oriflamme.encoding.actions import ACTION_COUNT, legal_indices  # noqa: E402
from oriflamme.encoding.observation import OBSERVATION_SIZE  # noqa: E402
from oriflamme.engine.errors import SetupError  # noqa: E402
from oriflamme.engine.game import Game  # noqa: E402


def random_network(seed: int = 0, hidden: tuple[int, ...] = (32, 16)) -> Network:
    rng = np.random.default_rng(seed)
    sizes = [OBSERVATION_SIZE, *hidden]
    trunk = [
        (rng.normal(0, 0.1, (a, b)).astype(np.float32), rng.normal(0, 0.1, b).astype(np.float32))
        for a, b in itertools.pairwise(sizes)
    ]
    return Network(
        trunk=trunk,
        policy=(
            rng.normal(0, 1, (hidden[-1], ACTION_COUNT)).astype(np.float32),
            np.zeros(ACTION_COUNT, np.float32),
        ),
        value=(rng.normal(0, 0.1, (hidden[-1], 1)).astype(np.float32), np.zeros(1, np.float32)),
    )


@pytest.mark.parametrize("deck", ["base", "ablaze", "alliance"])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_a_network_plays_whole_games_legally(deck: str, players: int) -> None:
    bots = [NetBot(random_network(s)) for s in range(players)]
    for s, bot in enumerate(bots):
        bot.network.heuristic_bonus = float(s % 2)  # with and without the heuristic hint
    game = play_game(Game.new(players=players, deck=deck, seed=players), bots)
    assert game.is_over() and game.outcome().finished
    assert all(b.last_value is not None and -1 <= b.last_value <= 1 for b in bots)


def test_the_bot_plays_the_legal_action_its_network_rates_highest() -> None:
    game = Game.new(players=4, seed=11)
    view = game.view(game.current_player())
    by_index = legal_indices(view)
    assert len(by_index) > 2
    net = random_network(1)
    net.policy[0][:] = 0
    # Prefer the legal index listed last (the engine's last legal action), then the others in reverse.
    for rank, index in enumerate(by_index):
        net.policy[1][index] = rank
    illegal = sorted(set(range(ACTION_COUNT)) - set(by_index))[0]
    net.policy[1][illegal] = 1e6  # an illegal index is never played
    bot = NetBot(net)
    assert bot.choose(view) == list(by_index.values())[-1]
    ranked = bot.policy(view)
    assert [a for a, _ in ranked] == list(reversed(list(by_index.values())))
    assert sum(p for _, p in ranked) == pytest.approx(1.0)
    assert all(p1 >= p2 for (_, p1), (_, p2) in itertools.pairwise(ranked))


def test_the_heuristic_hint_lifts_the_heuristic_move() -> None:
    from oriflamme.bots.heuristic.bot import heuristic_choice

    game = Game.new(players=4, seed=12)
    view = game.view(game.current_player())
    hint = heuristic_choice(view)
    net = random_network(3)
    net.policy[0][:] = 0
    net.policy[1][:] = 0
    net.policy[1][[i for i, a in legal_indices(view).items() if a != hint]] = 1.0  # every other move first
    assert NetBot(net).choose(view) != hint
    net.heuristic_bonus = 1.5
    assert NetBot(net).choose(view) == hint
    assert NetBot(net).policy(view)[0][1] > NetBot(net).policy(view)[1][1]


def test_a_seat_with_no_decision_has_no_policy() -> None:
    game = Game.new(players=3, seed=3)
    waiting = (game.current_player() + 1) % 3
    with pytest.raises(ValueError, match="no decision to make"):
        NetBot(random_network()).policy(game.view(waiting))


def test_weights_survive_the_file_in_half_precision(tmp_path: Path) -> None:
    net = random_network(2)
    net.meta["note"] = "kept"
    net.heuristic_bonus = 2.25
    save(net, tmp_path / "w.npz")
    back = load(tmp_path / "w.npz")
    assert back.hidden == (32, 16) and back.meta["note"] == "kept" and back.meta["version"] == FORMAT_VERSION
    assert back.heuristic_bonus == 2.25
    for (w, b), (w2, b2) in zip(net.trunk, back.trunk, strict=True):
        assert np.allclose(w, w2, atol=1e-3) and np.allclose(b, b2, atol=1e-3)
    before = play_game(Game.new(players=3, seed=5), [NetBot(net), NetBot(net), NetBot(net)])
    after = play_game(Game.new(players=3, seed=5), [NetBot(back), NetBot(back), NetBot(back)])
    assert before.history == after.history


def _rewrite(path: Path, out: Path, change: Any) -> None:
    with np.load(path) as data:
        arrays = {k: data[k] for k in data.files}
    change(arrays)
    np.savez(out, **arrays)


def _meta(**edits: Any) -> Any:
    def change(arrays: dict[str, Any]) -> None:
        meta = json.loads(str(arrays["meta"]))
        meta.update(edits)
        arrays["meta"] = np.array(json.dumps(meta))

    return change


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            _meta(version=FORMAT_VERSION + 1),
            f"weights format version {FORMAT_VERSION + 1}; this program reads",
        ),
        (_meta(format="something-else"), "not an oriflamme-net weights file"),
        (_meta(observation_size=100), "trained for observation_size 100; this program's is 4224"),
        (_meta(action_count=7), "trained for action_count 7"),
        (lambda a: a.pop("policy_b"), "missing array 'policy_b'"),
        (lambda a: a.pop("meta"), "no 'meta' entry"),
        (lambda a: a.update(trunk_w1=a["trunk_w1"][:5]), "trunk layer 1: weights (5, 16)"),
        (lambda a: a.update(value_w=a["value_w"].astype(np.int32)), "array 'value_w' is int32"),
    ],
)
def test_a_bad_weights_file_is_refused_saying_why(tmp_path: Path, change: Any, message: str) -> None:
    save(random_network(), tmp_path / "good.npz")
    _rewrite(tmp_path / "good.npz", tmp_path / "bad.npz", change)
    with pytest.raises(WeightsError, match=message.replace("(", r"\(").replace(")", r"\)")):
        load(tmp_path / "bad.npz")
    with pytest.raises(SetupError, match=r"bad\.npz"):
        make_bot(f"net:{tmp_path / 'bad.npz'}")


def test_a_file_that_is_not_npz_is_refused(tmp_path: Path) -> None:
    (tmp_path / "x.npz").write_text("hello")
    with pytest.raises(WeightsError, match="not a readable weights file"):
        load(tmp_path / "x.npz")


def test_a_damaged_weights_file_is_refused_saying_so(tmp_path: Path) -> None:
    save(random_network(), tmp_path / "w.npz")
    data = (tmp_path / "w.npz").read_bytes()
    (tmp_path / "cut.npz").write_bytes(data[: len(data) // 2])
    flipped = bytearray(data)
    flipped[len(data) // 3] ^= 0xFF
    (tmp_path / "flipped.npz").write_bytes(bytes(flipped))
    for name in ("cut.npz", "flipped.npz"):
        with pytest.raises(WeightsError, match=rf"{name}: "):
            load(tmp_path / name)
        with pytest.raises(SetupError, match=name):
            make_bot(f"net:{tmp_path / name}")


def test_a_rewritten_weights_file_is_read_again(tmp_path: Path) -> None:
    path = tmp_path / "w.npz"
    save(random_network(1), path)
    first = make_bot(f"net:{path}")
    net = random_network(2)
    net.heuristic_bonus = 3.0
    save(net, path)
    again = make_bot(f"net:{path}")
    assert first.network.heuristic_bonus == 0.0 and again.network.heuristic_bonus == 3.0  # type: ignore[attr-defined]


def test_the_shipped_network_loads_and_plays() -> None:
    net = default_network()
    assert net.meta["version"] == FORMAT_VERSION and net.meta["trained"]["examples"] > 10_000
    bot = make_bot("net", seed=1)
    assert bot.spec == "net"
    game = play_game(Game.new(players=4, deck="ablaze", seed=2), [bot, make_bot("heuristic", 1), bot, bot])
    assert game.is_over()


def test_a_spec_names_a_weights_file_with_its_case_kept(tmp_path: Path) -> None:
    save(random_network(), tmp_path / "My.npz")
    assert parse_bot_spec(f"NET:{tmp_path / 'My.npz'}", custom=True) == ("net", str(tmp_path / "My.npz"))
    assert make_bot(f"net:{tmp_path / 'My.npz'}").spec == f"net:{tmp_path / 'My.npz'}"
    with pytest.raises(SetupError, match=r"net weights file .* not found"):
        parse_bot_spec(f"net:{tmp_path / 'my.npz'}", custom=True)
    # A shared server (custom=False) offers only the shipped network.
    with pytest.raises(SetupError, match="unknown level"):
        parse_bot_spec(f"net:{tmp_path / 'My.npz'}")


def test_without_numpy_the_net_bot_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "numpy" else real(name, *a)
    )
    with pytest.raises(
        SetupError, match=r"needs the 'rl' extra \(missing: numpy\).*pip install 'oriflamme\[rl\]'"
    ):
        make_bot("net")
    assert "net" not in available_kinds() and "heuristic" in available_kinds()


def _decisions(players: int, seed: int, deck: str = "base") -> list[Any]:
    """The views of every decision with a choice in a seeded game the heuristic bots play."""
    from oriflamme.bots.heuristic import HeuristicBot

    g, views = Game.new(players=players, deck=deck, seed=seed), []
    bots = [HeuristicBot(seed=i) for i in range(players)]
    while not g.is_over():
        view = g.view(g.current_player())
        if len(view.legal_actions) > 1:
            views.append(view)
        g.apply(bots[g.current_player()].choose(view))
    return views


def test_zero_plays_each_setups_own_network_in_its_games_and_zero_v1_in_the_others() -> None:
    from oriflamme.bots.net import ZeroBot, shipped_network

    zero = make_bot("zero", seed=1)
    assert isinstance(zero, ZeroBot) and zero.spec == "zero"
    one = NetBot(shipped_network("zero-v1.npz"))
    assert ZeroBot.SETUP_WEIGHTS == {
        (2, "base"): "zero-2p-v1.npz",
        (2, "ablaze"): "zero-2p-v4.npz",
        (2, "alliance"): "zero-2p-v2.npz",
        (4, "base"): "zero-4p-v1.npz",
        (4, "ablaze"): "zero-4p-v2.npz",
        (4, "alliance"): "zero-4p-v2.npz",
    }
    assert ZeroBot.TWO_PLAYER_WEIGHTS == {
        "base": "zero-2p-v1.npz",
        "ablaze": "zero-2p-v4.npz",
        "alliance": "zero-2p-v2.npz",
    }
    for (players, box), name in ZeroBot.SETUP_WEIGHTS.items():
        own = NetBot(shipped_network(name))
        views = _decisions(players, seed=5, deck=box)
        assert [zero.choose(v) for v in views] == [own.choose(v) for v in views], (players, box)
        assert [one.choose(v) for v in views] != [own.choose(v) for v in views], (players, box)  # they differ
    # Other player counts and boxes, and mixed decks, which no network of their own trained on.
    for views in (
        _decisions(3, seed=5),
        _decisions(5, seed=5),
        _decisions(3, seed=5, deck="alliance"),
        _decisions(4, 5, "random"),
        _decisions(2, 5, "random"),
    ):
        assert [zero.choose(v) for v in views] == [one.choose(v) for v in views]


def test_a_views_box_is_the_box_whose_recipe_it_plays_and_none_for_a_mixed_deck() -> None:
    from oriflamme.bots.net import box_of

    for box in ("base", "ablaze", "alliance"):
        for players in (2, 4):
            g = Game.new(players=players, deck=box, seed=1)
            assert box_of(g.view(0)) == box
    for deck in ("random", "random:base+ablaze"):
        g = Game.new(players=2, deck=deck, seed=1)
        assert box_of(g.view(0)) is None
    # Nine kinds of a box and one of another: a mixed deck.
    mixed = "archer,soldier,spy,heir,shapeshifter,lord,assassination,royal-decree,ambush,queen"
    assert box_of(Game.new(players=2, deck=mixed, seed=1).view(0)) is None


def test_zero_with_a_file_plays_that_file_in_two_player_games(tmp_path: Path) -> None:
    from oriflamme.bots.net import shipped_network

    save(shipped_network("zero-v1.npz"), tmp_path / "v1.npz")
    mine = make_bot(f"zero:{tmp_path / 'v1.npz'}", seed=1)
    one = NetBot(shipped_network("zero-v1.npz"))
    views = _decisions(2, seed=5)
    assert [mine.choose(v) for v in views] == [one.choose(v) for v in views]
