"""The PettingZoo environment passes PettingZoo's own API, seed and render tests on every box and table size."""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, render_test, seed_test

from oriflamme.encoding import game_legal_indices
from oriflamme.rl import env, oriflamme_v0, raw_env, seat_rewards

# PettingZoo's API test suggests Box observations; a dict with an action mask is what its own
# classic card games use, so those two notices are expected.
pytestmark = [
    pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be"),
    pytest.mark.filterwarnings("ignore:Observation is not a NumPy array"),
]

SETUPS = [(players, deck) for players in (2, 3, 4, 5) for deck in ("base", "ablaze", "alliance", "random")]


@pytest.mark.parametrize(("players", "deck"), SETUPS)
def test_pettingzoo_api(players: int, deck: str) -> None:
    api_test(env(players=players, deck=deck), num_cycles=300)


@pytest.mark.parametrize(("players", "deck"), SETUPS)
def test_pettingzoo_seeds(players: int, deck: str) -> None:
    seed_test(functools.partial(env, players=players, deck=deck), num_cycles=300)


@pytest.mark.parametrize("players", [2, 5])
def test_pettingzoo_render(players: int) -> None:
    render_test(functools.partial(env, players=players, deck="ablaze"))


def _play_out(e: raw_env, seed: int) -> dict[str, float]:
    """Play random legal moves to the end; the rewards each agent collected."""
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, done, truncated, _ = e.last()
        total[agent] += reward
        if done or truncated:
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return total


def test_rewards_are_each_seats_share_of_the_win_minus_one_nth() -> None:
    e = raw_env(players=4, deck="base")
    totals = _play_out(e, 3)
    game = e.game
    assert game is not None and game.is_over()
    expected = seat_rewards(game)
    assert [totals[a] for a in e.possible_agents] == pytest.approx(expected)
    assert sum(expected) == pytest.approx(0.0)
    winners = set(game.winners)
    assert all((expected[s] > 0) == (s in winners) for s in range(4))


def test_a_seed_fixes_the_deal_and_the_agent_to_move() -> None:
    a, b = raw_env(players=3, deck="random"), raw_env(players=3, deck="random")
    a.reset(seed=11)
    b.reset(seed=11)
    assert a.game is not None and b.game is not None
    assert a.game.recipe == b.game.recipe and a.game.aside == b.game.aside
    assert a.agent_selection == b.agent_selection == f"player_{a.game.current_player()}"


def test_an_illegal_action_is_refused_with_what_was_legal_and_changes_nothing() -> None:
    e = raw_env(players=4, deck="base")
    e.reset(seed=1)
    assert e.game is not None
    before = e.game.clone()
    legal = game_legal_indices(e.game)
    bad = next(i for i in range(1502) if i not in legal)
    with pytest.raises(ValueError, match="not legal now; legal: "):
        e.step(bad)
    assert e.game.history == before.history and e.game.queue == before.queue


def test_the_wrapped_environment_ends_the_game_on_an_illegal_action() -> None:
    e = env(players=3, deck="base")
    e.reset(seed=2)
    obs, *_ = e.last()
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    agent = e.agent_selection
    history = list(e.unwrapped.game.history)  # type: ignore[attr-defined]
    from pettingzoo.utils.env_logger import EnvLogger

    logged = len(EnvLogger.mqueue)
    e.step(bad)
    assert "Illegal move made" in EnvLogger.mqueue[logged]  # PettingZoo's own warning, as its wrapper gives
    assert all(e.terminations.values()) and not any(e.truncations.values())
    assert e.rewards == {a: (-1.0 if a == agent else 0.0) for a in e.possible_agents}
    assert e.unwrapped.game.history == history  # type: ignore[attr-defined]  # the move was not played
    # Every agent then sees the end and steps out with None, as after a real ending.
    seen = []
    for a in e.agent_iter():
        _, reward, done, _, _ = e.last()
        assert done
        seen.append((a, reward))
        e.step(None)
    assert sorted(seen) == sorted((a, -1.0 if a == agent else 0.0) for a in e.possible_agents)
    assert e.agents == []


@pytest.mark.parametrize("make", [env, raw_env])
def test_an_action_outside_the_space_or_before_reset_is_refused(make: Any) -> None:
    e = make(players=2, deck="base")
    with pytest.raises(RuntimeError, match=r"call reset\(\) before step\(\)"):
        e.step(0)
    with pytest.raises(RuntimeError, match=r"call reset\(\) before observe\(\)"):
        e.observe("player_0")
    e.reset(seed=4)
    history = list(e.unwrapped.game.history)
    for bad in (-1, 1502, 7.5, "3", None):
        with pytest.raises(ValueError, match="an action is an integer from 0 to 1501"):
            e.step(bad)
    assert e.unwrapped.game.history == history and not any(e.terminations.values())
    with pytest.raises(ValueError, match="illegal_action must be 'raise' or 'end'"):
        make(players=2, illegal_action="ignore")


def test_an_agent_sees_only_its_own_seat() -> None:
    """Two tables dealt alike but for p2's set-aside cards (so p2's hand), played alike through
    round 1 (p2 places cards both hands hold, everybody keeps): p1's observation is the same at
    every step in both, p2's is not; only the agent to move has a mask."""
    from oriflamme import Game
    from oriflamme.encoding import index_name
    from oriflamme.engine.layout import dealt_cards
    from oriflamme.engine.recipes import parse_recipe

    recipe = parse_recipe("base")
    cards = dealt_cards(3, recipe)
    tables = []
    for p2_aside in (cards[1][:3], cards[1][-3:]):
        e = raw_env(players=3, deck="base")
        e.reset(seed=0)
        e.game = Game.deal_from(3, recipe, 0, [cards[0][:3], p2_aside, cards[2][:3]])
        e.agent_selection = e.possible_agents[e.game.current_player()]
        tables.append(e)
    a, b = tables
    steps = 0
    while a.agent_selection == b.agent_selection and a.game is not None and a.game.round == 1:
        assert np.array_equal(a.observe("player_0")["observation"], b.observe("player_0")["observation"])
        assert not np.array_equal(a.observe("player_1")["observation"], b.observe("player_1")["observation"])
        for e in tables:
            assert all(
                e.observe(x)["action_mask"].any() == (x == e.agent_selection) for x in e.possible_agents
            )
        common = sorted(set(game_legal_indices(a.game)) & set(game_legal_indices(b.game)))
        choice = [i for i in common if index_name(i) == "keep"] or [
            i for i in common if index_name(i).endswith(" first")
        ]
        if not choice:
            break
        a.step(choice[0])
        b.step(choice[0])
        steps += 1
    assert steps >= 4


def test_the_versioned_module_is_the_current_one() -> None:
    assert oriflamme_v0.env is env and oriflamme_v0.raw_env is raw_env
    assert raw_env().metadata["name"] == "oriflamme_v0"
    with pytest.raises(ValueError, match="render_mode"):
        raw_env(render_mode="rgb_array")


def test_the_documented_examples_run() -> None:
    """docs/rl.md's and the environment pages' Python blocks run as written; rl.md's first finishes a game."""
    import re
    from pathlib import Path

    docs = Path(__file__).resolve().parents[2] / "docs"
    # The batched JAX engine's page runs in tests/vector/test_docs.py (it needs the vector extra).
    pages = [
        docs / "rl.md",
        *sorted(p for p in (docs / "environments").glob("*.md") if p.name != "vector.md"),
    ]
    assert len(pages) == 4
    for page in pages:
        blocks = re.findall(r"```python\n(.*?)```", page.read_text(encoding="utf-8"), re.S)
        assert blocks, f"{page} has no example"
        for i, code in enumerate(blocks):
            scope: dict[str, object] = {}
            exec(compile(code, f"{page}, block {i + 1}", "exec"), scope)
            if page.name == "rl.md" and i == 0:
                played = scope["env"]
                assert played.unwrapped.game.is_over()  # type: ignore[attr-defined]


def test_bench_rl_reports_steps_per_second_for_both_environments() -> None:
    """`oriflamme bench rl --json`: a row per setup, the encoder's share below the whole step."""
    import json

    from typer.testing import CliRunner

    from oriflamme.cli.app import app

    result = CliRunner().invoke(app, ["bench", "rl", "-n", "2", "-p", "3", "-d", "ablaze", "--json"])
    assert result.exit_code == 0, result.output
    (row,) = json.loads(result.stdout)["rows"]
    assert (row["players"], row["deck"]) == (3, "ablaze") and row["steps"] > 40
    # Times only (never their order: a busy machine reorders them; the bench is not a timing test).
    assert all(
        row[k] > 0 for k in ("encoder_us", "direct_us", "pettingzoo_us", "gymnasium_us", "openspiel_us")
    )
    assert row["openspiel_steps_per_s"] > 0
    assert row["pettingzoo_steps_per_s"] > 0 and row["gymnasium_steps_per_s"] > 0
