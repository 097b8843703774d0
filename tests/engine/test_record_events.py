"""Games without an event log (``record_events=False``): the same game, no story.

Playouts, tournaments and the training environments play without the log
because nothing reads it there; every rule must play exactly as it does with
the log, since no rule may depend on an event.
"""

from __future__ import annotations

import random

import pytest
from support.invariants import fingerprint

from oriflamme import Game
from oriflamme.engine.layout import dealt_cards
from oriflamme.engine.sampler import Determinizer

CASES = [(deck, n) for deck in ("base", "ablaze", "alliance", "random") for n in (2, 3, 4, 5)]


@pytest.mark.parametrize(("deck", "players"), CASES)
def test_a_game_without_its_log_is_the_same_game_step_by_step(deck: str, players: int) -> None:
    """Same deal, same actions: the same state and options after every action, and never an event."""
    for seed in range(25):
        told = Game.new(players, deck, seed=seed)
        quiet = Game.new(players, deck, seed=seed, record_events=False)
        assert told.events, "a new game tells of its first round"
        assert quiet.events == []
        rng = random.Random(seed)
        told_any = False
        while not told.is_over():
            assert quiet.legal_actions() == told.legal_actions()
            assert fingerprint(quiet) == fingerprint(told)
            action = rng.choice(told.legal_actions())
            told_any |= bool(told.apply(action))
            assert quiet.apply(action) == []
            assert quiet.events == []
        assert quiet.is_over()
        assert fingerprint(quiet) == fingerprint(told)
        assert quiet.score == told.score and quiet.winners == told.winners
        assert told_any


def test_a_clone_keeps_the_setting_and_the_default_records() -> None:
    assert Game.new(4, "base", seed=1).record_events
    quiet = Game.new(4, "base", seed=1, record_events=False)
    assert not quiet.clone().record_events
    assert Game.new(4, "base", seed=1).clone().record_events
    recipe = Game.new(3, "base", seed=2).recipe
    asides = [list(cards[:3]) for cards in dealt_cards(3, recipe)]  # 10 dealt, 7 in hand
    dealt = Game.deal_from(3, recipe, 0, asides, record_events=False)
    assert not dealt.record_events and dealt.events == []


def test_the_setting_can_change_mid_game() -> None:
    """Turned off mid-game, the log stops; turned on again, it resumes with the next action."""
    g = Game.new(4, "ablaze", seed=5)
    rng = random.Random(5)
    g.record_events = False
    for _ in range(10):
        assert g.apply(rng.choice(g.legal_actions())) == []
    g.record_events = True
    told = []
    for _ in range(10):
        told += g.apply(rng.choice(g.legal_actions()))
    assert told


def test_the_determinizer_deals_quiet_games_when_asked() -> None:
    """The same deal for the same random numbers, with or without the log.

    (That the search, which deals quiet games, still plays the moves it played
    with the log is what ``tests/bots/test_recorded_play.py`` checks.)
    """
    g = Game.new(4, "alliance", seed=11)
    rng = random.Random(11)
    for _ in range(12):
        g.apply(rng.choice(g.legal_actions()))
    while len(g.legal_actions()) < 2:
        g.apply(g.legal_actions()[0])
    view = g.view(g.current_player())
    assert not Determinizer(view, record_events=False).sample(random.Random(1)).record_events
    assert Determinizer(view).sample(random.Random(1)).record_events
    quiet = Determinizer(view, record_events=False).sample(random.Random(3))
    told = Determinizer(view).sample(random.Random(3))
    assert fingerprint(quiet) == fingerprint(told)
