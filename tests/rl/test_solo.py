"""The single-agent Gymnasium environment: one seat against bots."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gymnasium")

import gymnasium
from gymnasium.utils.env_checker import check_env

from oriflamme.encoding import ACTION_COUNT, game_legal_indices
from oriflamme.rl import ENV_ID, SoloEnv, seat_rewards

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


def _episode(env: SoloEnv, seed: int) -> tuple[float, list[int]]:
    """Random legal moves to the end: the last reward and the actions taken."""
    obs, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    taken = []
    while True:
        assert np.array_equal(obs["action_mask"].astype(bool), env.action_masks())
        action = int(rng.choice(np.flatnonzero(env.action_masks())))
        taken.append(action)
        obs, reward, terminated, truncated, _ = env.step(action)
        assert not truncated
        if terminated:
            return reward, taken
        assert reward == 0.0


@pytest.mark.parametrize("deck", ["base", "ablaze", "alliance", "random"])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_gymnasium_env_checker_passes(players: int, deck: str) -> None:
    """Gymnasium's checker samples unmasked actions: with illegal_action="end" they end the episode."""
    check_env(SoloEnv(players=players, deck=deck, illegal_action="end"), skip_render_check=True)


def test_an_episode_ends_with_the_seats_share_of_the_win_minus_one_nth() -> None:
    env = SoloEnv(players=4, deck="alliance", opponents="heuristic")
    reward, taken = _episode(env, 8)
    assert env.game is not None and env.game.is_over()
    assert reward == pytest.approx(seat_rewards(env.game)[env.seat])
    # Only the agent's own decisions went through step(): the bots played the rest.
    assert 0 < len(taken) < len(env.game.history)


def test_a_seed_replays_the_same_episode_and_draws_the_seat() -> None:
    a, b = SoloEnv(players=3, deck="random"), SoloEnv(players=3, deck="random")
    assert _episode(a, 21) == _episode(b, 21)
    assert a.game is not None and b.game is not None and a.game.history == b.game.history
    seats = set()
    for seed in range(12):
        a.reset(seed=seed)
        seats.add(a.seat)
    assert seats == {0, 1, 2}
    fixed = SoloEnv(players=3, seat=2)
    fixed.reset(seed=5)
    assert fixed.seat == 2


def test_opponents_are_any_bots_and_bad_setups_say_why() -> None:
    env = SoloEnv(players=3, opponents=["random", "ismcts:3"])
    env.reset(seed=1)
    with pytest.raises(ValueError, match="3 players need 2 opponents"):
        SoloEnv(players=3, opponents=["random"])
    with pytest.raises(ValueError, match="seat must be 0 to 2"):
        SoloEnv(players=3, seat=3)
    with pytest.raises(Exception, match="unknown bot"):
        SoloEnv(players=3, opponents="nobody")


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    env = SoloEnv(players=4)
    env.reset(seed=3)
    assert env.game is not None
    history = list(env.game.history)
    bad = next(i for i in range(ACTION_COUNT) if i not in game_legal_indices(env.game))
    with pytest.raises(ValueError, match="is not legal now; legal: "):
        env.step(bad)
    assert env.game.history == history
    ending = SoloEnv(players=4, illegal_action="end")
    ending.reset(seed=3)
    assert ending.game is not None
    _, reward, terminated, _, info = ending.step(bad)
    assert (reward, terminated, info["illegal_action"]) == (-1.0, True, bad)
    assert ending.game.history == history
    with pytest.raises(RuntimeError, match="episode is over"):
        ending.step(bad)


def test_registered_with_gymnasium() -> None:
    env = gymnasium.make(ENV_ID, players=2, deck="ablaze")
    obs, info = env.reset(seed=4)
    assert obs["observation"].shape == env.observation_space["observation"].shape  # type: ignore[index]
    assert "seat" in info
    env.close()
