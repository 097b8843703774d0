"""The OpenSpiel game python_oriflamme: OpenSpiel's own checks, hidden information, its MCTS and
ISMCTS bots playing through clones, serialization, and game strings that load again."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pyspiel")

import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from oriflamme.encoding import index_name
from oriflamme.engine.game import Game
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
        assert other.aside == tuple(tuple(pile) for pile in other.game.aside)
        differs += other.aside != state.aside
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


# ---------------------------------------------------------------- clones, serialization, game strings

#: Ten cards from the three boxes, in the comma form the rest of the project reads.
MIXED_DECK = "archer,heir,lord,conspiracy,queen,cutthroat,plot,informant,judge,agreement"


def _assert_same(a: Any, b: Any) -> None:
    """Everything OpenSpiel can ask of a state is the same in ``a`` and ``b``."""
    assert (b.current_player(), b.is_terminal(), b.is_chance_node()) == (
        a.current_player(),
        a.is_terminal(),
        a.is_chance_node(),
    )
    assert b.legal_actions() == a.legal_actions()
    if a.is_chance_node():
        assert b.chance_outcomes() == a.chance_outcomes()
    assert b.returns() == a.returns()
    assert str(b) == str(a) and b.history() == a.history()
    for seat in range(a.get_game().num_players()):
        assert b.information_state_string(seat) == a.information_state_string(seat)
        assert b.information_state_tensor(seat) == a.information_state_tensor(seat)
        assert b.observation_string(seat) == a.observation_string(seat)
        assert np.array_equal(b.observation_tensor(seat), a.observation_tensor(seat))
    if not a.is_terminal():
        player, action = a.current_player(), a.legal_actions()[0]
        assert b.action_to_string(player, action) == a.action_to_string(player, action)


def _random_action(state: Any, rng: random.Random) -> int:
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        return int(outcomes[rng.randrange(len(outcomes))][0])
    legal = state.legal_actions()
    return int(legal[rng.randrange(len(legal))])


def _assert_a_working_copy(state: Any, copy: Any, rng: random.Random) -> None:
    """``copy`` answers as ``state`` does, resamples, serializes, and moves without moving ``state``."""
    _assert_same(state, copy)
    if state.is_terminal():
        return
    seat = 0 if state.is_chance_node() else state.current_player()
    world = copy.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert world.information_state_string(seat) == state.information_state_string(seat)
    assert world.legal_actions() == state.legal_actions()
    _assert_same(state, copy.get_game().deserialize_state(copy.serialize()))
    before = state.information_state_string(seat)
    copy.apply_action(_random_action(copy, rng))
    assert state.information_state_string(seat) == before


def test_clones_work_for_every_method_at_every_step() -> None:
    """A clone at each step of a random 2-player game, the deal's chance nodes and the end included."""
    game = pyspiel.load_game(openspiel_game.GAME_NAME, {"players": 2, "deck": "base"})
    rng = random.Random(3)
    state = game.new_initial_state()
    while True:
        _assert_a_working_copy(state, state.clone(), rng)
        if state.is_terminal():
            break
        state.apply_action(_random_action(state, rng))


@pytest.mark.parametrize(("players", "deck"), [(2, "ablaze"), (3, MIXED_DECK)])
def test_serialization_round_trips_at_random_points_of_random_games(players: int, deck: str) -> None:
    """``serialize_game_and_state`` then ``deserialize_game_and_state`` at the deal's chance nodes
    and at random points after: the same state, working as the original does."""
    game = pyspiel.load_game(openspiel_game.GAME_NAME, {"players": players, "deck": deck})
    rng = random.Random(players)
    state = game.new_initial_state()
    trips = 0
    while not state.is_terminal():
        if state.is_chance_node() or rng.random() < 0.15:
            text = pyspiel.serialize_game_and_state(game, state)
            loaded_game, loaded = pyspiel.deserialize_game_and_state(text)
            assert str(loaded_game) == str(game)
            _assert_a_working_copy(state, loaded, random.Random(trips))
            trips += 1
        state.apply_action(_random_action(state, rng))
    assert trips >= players + 4


def test_a_deserialized_state_plays_on_like_the_original() -> None:
    game = pyspiel.load_game(openspiel_game.GAME_NAME, {"players": 2, "deck": "alliance"})
    rng = random.Random(8)
    state = game.new_initial_state()
    for _ in range(2):  # halfway through the deal: chance nodes and the whole game still to come
        state.apply_action(_random_action(state, rng))
    _, loaded = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    while not state.is_terminal():
        action = _random_action(state, rng)
        state.apply_action(action)
        loaded.apply_action(action)
    _assert_same(state, loaded)


def test_resampled_states_clone_serialize_and_resample_again() -> None:
    """A resampled world (what ISMCTS searches) is a state like the others."""
    game = pyspiel.load_game(openspiel_game.GAME_NAME, {"players": 3, "deck": "base"})
    rng = random.Random(5)
    state = game.new_initial_state()
    for _ in range(3 + 10):
        state.apply_action(_random_action(state, rng))
    seat = state.current_player()
    world = openspiel_game.resampler(state, seat, random.Random(1))
    twice = world.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert twice.information_state_string(seat) == state.information_state_string(seat)
    for sampled in (world, twice):
        _assert_a_working_copy(sampled, sampled.clone(), rng)
        _assert_a_working_copy(sampled, game.deserialize_state(sampled.serialize()), rng)


def _play_through_clones(game: Any, decide: Callable[[Any], int], seed: int) -> None:
    """A whole game, moving as OpenSpiel's algorithms do: each state a child (a clone) of the last."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            action = _random_action(state, rng)
        else:
            action = int(decide(state))
            assert action in state.legal_actions()
            decisions += 1
        state = state.child(action)
    assert decisions > 20
    assert state.returns() == pytest.approx(seat_rewards(state.game))


def test_openspiel_mcts_plays_whole_games_through_clones() -> None:
    game = pyspiel.load_game(openspiel_game.GAME_NAME, {"players": 2, "deck": "base"})
    rng = np.random.RandomState(0)
    bot = mcts.MCTSBot(game, 2.0, 4, mcts.RandomRolloutEvaluator(1, rng), random_state=rng, solve=False)
    _play_through_clones(game, bot.step, seed=0)


def test_openspiel_ismcts_plays_whole_games_with_the_states_own_resampling() -> None:
    """No resampler given: the bot asks the (cloned) state's own ``resample_from_infostate``."""
    game = pyspiel.load_game(openspiel_game.GAME_NAME, {"players": 2, "deck": "ablaze"})
    rng = np.random.RandomState(1)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, 4, random_state=rng)
    _play_through_clones(game, bot.step, seed=1)


def test_a_custom_deck_game_string_loads_the_same_game() -> None:
    """OpenSpiel splits a game string's parameters at commas: a custom deck is stored with ``+``
    between its cards, and both forms are read."""
    game = pyspiel.load_game(openspiel_game.GAME_NAME, {"players": 3, "deck": MIXED_DECK})
    again = pyspiel.load_game(str(game))
    assert str(again) == str(game)
    plus = openspiel_game.deck_parameter(MIXED_DECK)
    assert "," not in plus and sorted(plus.split("+")) == sorted(MIXED_DECK.split(","))
    assert game.get_parameters()["deck"] == plus
    assert str(game) == (
        f"{openspiel_game.GAME_NAME}(deck={plus},players=3,rounds=6,schemer_gain=1,two_player_cards_per_round=2)"
    )
    state = again.new_initial_state()
    for _ in range(3 + 5):
        state.apply_action(_random_action(state, random.Random(2)))
    assert str(state.clone()) == str(state)
    assert openspiel_game.deck_parameter("Ablaze") == "ablaze"


def test_the_deal_actions_deal_the_engine_games_deal() -> None:
    """What ``oriflamme bench rl`` relies on to play the PettingZoo environment's games in OpenSpiel."""
    game = pyspiel.load_game(openspiel_game.GAME_NAME, {"players": 2, "deck": "alliance"})
    dealt = Game.new(players=2, deck="alliance", seed=11)
    state = game.new_initial_state()
    for action in openspiel_game.deal_actions(game, dealt):
        state.apply_action(action)
    assert [state.game.view(s) for s in (None, 0, 1)] == [dealt.view(s) for s in (None, 0, 1)]


def test_the_bench_plays_the_pettingzoo_games_through_openspiel() -> None:
    """``oriflamme bench rl`` compares the two on the same games (it raises where they differ)."""
    from oriflamme.rl.bench import run_rl_bench

    row = run_rl_bench(2, "base", games=1, seed=4)
    assert row.openspiel_us is not None and row.openspiel_apply_us is not None
    assert row.openspiel_vs_pettingzoo is not None and row.openspiel_apply_vs_step is not None
