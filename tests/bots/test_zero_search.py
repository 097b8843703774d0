"""The ``zero-search`` bot: legal, reproducible play that never reads a hidden card, and its levels."""

from __future__ import annotations

import dataclasses
import itertools
import math
import random

import pytest

pytest.importorskip("numpy")

from oriflamme.bots import make_bot, parse_bot_spec
from oriflamme.bots.net import default_network
from oriflamme.bots.zero_search import ZeroSearchBot
from oriflamme.engine.errors import SetupError
from oriflamme.engine.game import Game
from oriflamme.engine.sampler import sample_game
from oriflamme.notation import action_text
from oriflamme.notation.position import build_position


def tiny(seed: int) -> ZeroSearchBot:
    """Eight iterations with the ``net`` network (its policy and value heads; the hint unused)."""
    return ZeroSearchBot("8", seed, network=default_network())


@pytest.mark.parametrize("deck", ["base", "ablaze", "alliance", "random"])
def test_it_plays_only_legal_actions_at_every_player_count(deck: str) -> None:
    for players in (2, 3, 4, 5):
        g = Game.new(players=players, deck=deck, seed=players)
        bots = [tiny(s) for s in range(players)]
        while not g.is_over():
            view = g.view(g.current_player())
            action = bots[g.current_player()].choose(view)
            assert action in view.legal_actions
            g.apply(action)
        assert g.winners


def test_each_search_runs_its_iterations_and_a_seed_replays_it() -> None:
    g = Game.new(players=4, deck="ablaze", seed=5)
    rng = random.Random(5)
    views = []
    while len(views) < 12:
        view = g.view(g.current_player())
        if len(view.legal_actions) > 1:
            views.append(view)
        g.apply(rng.choice(g.legal_actions()))
    a, b = tiny(3), tiny(3)
    assert [a.choose(v) for v in views] == [b.choose(v) for v in views]
    assert a.last_iterations == 8
    assert sum(n[0] for n in a.search(views[0]).stats.values()) == 8  # one simulation per iteration


def test_its_choice_is_the_same_whatever_the_hidden_cards_are() -> None:
    """Two true games the seat cannot tell apart get the same move (the search reads the view only)."""
    for seed in range(6):
        g = Game.new(players=3 + seed % 3, deck=("base", "alliance")[seed % 2], seed=seed)
        rng = random.Random(seed)
        for _ in range(15 + 7 * seed):
            nxt = g.clone()
            nxt.apply(rng.choice(g.legal_actions()))
            if nxt.is_over():
                break
            g = nxt
        view = g.view(g.current_player())
        first = tiny(42).choose(view)
        for i in range(2):
            other = sample_game(view, random.Random(i)).view(view.seat)
            assert other.hand == view.hand and other.legal_actions == view.legal_actions
            assert tiny(42).choose(other) == first


def test_it_cashes_a_conspiracy_that_wins_the_game() -> None:
    """docs/rules.md §6 Conspiracy: in the last round, revealing it with 3 IP pays 6, and p1's 10
    then beat p2's 14; keeping it loses. The finished games score the real outcome."""
    g = build_position(4, "base", "p1:~conspiracy+3 p2:~lord", scores=[10, 14, 0, 0], round=6)
    for seed in range(3):
        bot = ZeroSearchBot("50", seed, network=default_network())
        assert action_text(g, bot.choose(g.view(0))) == "reveal"


def test_levels_and_custom_iterations() -> None:
    assert parse_bot_spec("zero-search") == ("zero-search", "normal")
    assert parse_bot_spec("zero-search:fast") == ("zero-search", "fast")
    assert parse_bot_spec("zero-search:250", custom=True) == ("zero-search", "250")
    for level in ("0", "fastest", "2.5s"):
        with pytest.raises(SetupError, match="zero-search level"):
            parse_bot_spec(f"zero-search:{level}", custom=True)
    with pytest.raises(SetupError, match="unknown level '250' for bot 'zero-search'"):
        parse_bot_spec("zero-search:250")  # a server offers the named levels only
    bot = make_bot("zero-search:fast", seed=1)
    assert isinstance(bot, ZeroSearchBot) and bot.iterations == 100 and bot.spec == "zero-search:fast"


def test_it_searches_with_each_setups_own_network_in_its_games() -> None:
    from oriflamme.bots.net import ZeroBot, shipped_network

    bot = ZeroSearchBot("8", seed=1)
    for (players, box), name in ZeroBot.SETUP_WEIGHTS.items():
        own = Game.new(players=players, deck=box, seed=3)
        bot.choose(own.view(own.current_player()))
        assert bot.network is shipped_network(name) is not shipped_network("zero-v1.npz"), (players, box)
    for players, deck in ((3, "base"), (5, "alliance"), (2, "random")):  # other setups: zero-v1
        g = Game.new(players=players, deck=deck, seed=3)
        bot.choose(g.view(g.current_player()))
        assert bot.network is shipped_network("zero-v1.npz")
    two = Game.new(players=2, deck="base", seed=3)
    given = ZeroSearchBot("8", seed=1, network=default_network())  # a network given plays every game
    given.choose(two.view(two.current_player()))
    assert given.network is default_network()


def test_evaluate_ranks_every_legal_action_and_its_first_is_what_choose_plays() -> None:
    g = Game.new(players=3, deck="alliance", seed=8)
    rng = random.Random(8)
    checked = ties = 0
    while not g.is_over() and checked < 6:
        view = g.view(g.current_player())
        if len(view.legal_actions) > 1:
            ranked = tiny(4).evaluate(view)
            assert tiny(4).choose(view) == ranked[0].action
            # The move played is still the most visited, then the higher reward sum, then legal order.
            stats = tiny(4).search(view).stats
            assert ranked[0].action == max(
                view.legal_actions, key=lambda a: (stats[a][0], stats[a][1]) if a in stats else (-1.0, 0.0)
            )
            assert sorted(v.action for v in ranked) == sorted(view.legal_actions)
            visits = [v.visits for v in ranked]
            assert sum(visits) == 8 and visits == sorted(visits, reverse=True)
            for a, b in itertools.pairwise(ranked):  # equal visits: the higher reward first
                if a.visits == b.visits > 0:
                    assert a.value >= b.value
                    ties += 1
            for v in ranked:
                if v.visits:  # the win share is the reward (share less 1/n) plus 1/n
                    assert v.win == pytest.approx(v.value + 1 / 3)
                else:
                    assert math.isnan(v.win) and math.isnan(v.value)  # never tried
            checked += 1
        g.apply(rng.choice(g.legal_actions()))
    assert checked == 6 and ties


def test_evaluate_does_not_search_a_decision_with_one_option() -> None:
    view = Game.new(players=2, seed=3).view(0)
    one = dataclasses.replace(view, legal_actions=view.legal_actions[:1])
    bot = tiny(1)
    bot.evaluate(view)
    assert bot.last_iterations == 8
    (only,) = bot.evaluate(one)
    assert only.action == view.legal_actions[0] and only.visits == 0 and bot.last_iterations == 0
