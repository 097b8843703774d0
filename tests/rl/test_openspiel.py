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


@pytest.mark.parametrize("players", [2, 3, 5])
def test_a_resampled_state_looks_the_same_to_the_seat_and_carries_no_true_deal(players: int) -> None:
    """At every decision of a random game: the resample shows the seat the same observation
    (string and tensor), information state and legal actions; its deal is its own world's."""
    game = pyspiel.load_game(openspiel_game.GAME_NAME, {"players": players, "deck": "alliance"})
    state = game.new_initial_state()
    rng = np.random.default_rng(players)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    differs = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
            continue
        seat = state.current_player()
        other = state.resample_from_infostate(seat, sampler)
        assert other.observation_string(seat) == state.observation_string(seat)
        assert np.array_equal(other.observation_tensor(seat), state.observation_tensor(seat))
        assert other.information_state_string(seat) == state.information_state_string(seat)
        assert other.legal_actions() == state.legal_actions()
        assert other._aside == [tuple(pile) for pile in other.game.aside]
        differs += other._aside != state._aside
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert differs > 0  # the hidden piles really were dealt again


def test_observation_strings_name_no_card_ids_and_public_observers_are_refused() -> None:
    """In the 2-player variant two cards share a kind: the observation names kinds, as the
    information state does. An observer of public information only would get the seat's
    private view, so it is refused."""
    from open_spiel.python.observation import make_observation

    game = pyspiel.load_game(openspiel_game.GAME_NAME, {"players": 2, "deck": "base"})
    state = game.new_initial_state()
    for action in (0, 7, 11):
        state.apply_action(action)
    assert '"id"' not in state.observation_string(0) and '"kind"' in state.observation_string(0)
    with pytest.raises(ValueError, match="SINGLE_PLAYER"):
        make_observation(
            game,
            pyspiel.IIGObservationType(
                perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE
            ),
        )


def test_a_random_recipe_and_bad_parameters_are_refused() -> None:
    with pytest.raises(Exception, match="random recipe"):
        pyspiel.load_game(openspiel_game.GAME_NAME, {"deck": "random"})
    with pytest.raises(Exception, match="2 to 5 players"):
        pyspiel.load_game(openspiel_game.GAME_NAME, {"players": 6})
