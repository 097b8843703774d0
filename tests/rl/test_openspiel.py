"""The OpenSpiel game python_oriflamme: OpenSpiel's own checks, hidden information, and its ISMCTS bot."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pyspiel")

import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from oriflamme.encoding import index_name
from oriflamme.rl import openspiel_game
from oriflamme.rl.oriflamme_v0 import seat_rewards


@pytest.mark.parametrize("deck", ["base", "ablaze", "alliance"])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_simulations_pass_with_and_without_serialization(players: int, deck: str) -> None:
    game = pyspiel.load_game(openspiel_game.GAME_NAME, {"players": players, "deck": deck})
    assert game.num_players() == players and game.num_distinct_actions() == 1502
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def _deal(state: object, first: int, asides: list[int]) -> None:
    state.apply_action(first)  # type: ignore[attr-defined]
    for a in asides:
        state.apply_action(a)  # type: ignore[attr-defined]


def test_the_information_state_holds_only_what_the_seat_saw() -> None:
    """Two deals that differ only in p2's set-aside cards, played alike while p1 sees nothing of
    p2's cards (round 1: p2 places cards both hands hold, everybody keeps): p1's information state
    stays the same in both, p2's differs from the first step (its own deal)."""
    game = pyspiel.load_game(openspiel_game.GAME_NAME, {"players": 2, "deck": "base"})
    a, b = game.new_initial_state(), game.new_initial_state()
    _deal(a, 0, [5, 3])
    _deal(b, 0, [5, 4000])
    assert a.information_state_string(0) == b.information_state_string(0)
    assert a.information_state_string(1) != b.information_state_string(1)
    steps = 0
    while not a.is_terminal() and a.current_player() == b.current_player():
        common = sorted(set(a.legal_actions()) & set(b.legal_actions()))
        keeps = [x for x in common if index_name(x) == "keep"]
        places = [x for x in common if index_name(x).endswith(" first")]
        choice = keeps or places
        if not choice or a.game.round > 1:
            break
        a.apply_action(choice[0])
        b.apply_action(choice[0])
        steps += 1
        assert a.information_state_string(0) == b.information_state_string(0)
        assert a.observation_string(0) == b.observation_string(0)
        assert np.array_equal(a.observation_tensor(0), b.observation_tensor(0))
    assert steps >= 4


def test_returns_are_the_share_of_the_win_minus_one_nth() -> None:
    game = pyspiel.load_game(openspiel_game.GAME_NAME, {"players": 3, "deck": "alliance"})
    state = game.new_initial_state()
    rng = np.random.default_rng(1)
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert state.returns() == pytest.approx(seat_rewards(state.game))
    assert sum(state.returns()) == pytest.approx(0.0)


def test_openspiel_ismcts_plays_through_the_resampler() -> None:
    """OpenSpiel's Python ISMCTSBot, with the project's sampler dealing what the seat cannot see."""
    game = pyspiel.load_game(openspiel_game.GAME_NAME, {"players": 2, "deck": "ablaze"})
    rng = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, 8, random_state=rng)
    bot.set_resampler(openspiel_game.resampler)
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal() and moves < 8:
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
            continue
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        moves += 1
    assert moves == 8
    # The C++-style entry point gives the same kind of state.
    player = state.current_player()
    again = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert again.information_state_string(player) == state.information_state_string(player)


def test_a_random_recipe_and_bad_parameters_are_refused() -> None:
    with pytest.raises(Exception, match="random recipe"):
        pyspiel.load_game(openspiel_game.GAME_NAME, {"deck": "random"})
    with pytest.raises(Exception, match="2 to 5 players"):
        pyspiel.load_game(openspiel_game.GAME_NAME, {"players": 6})
