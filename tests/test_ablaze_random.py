"""Random play with the Ablaze cards: the engine's bookkeeping holds after every action.

Games are played with uniformly random legal actions (seeded, so a failure can
be replayed). After every action each card is in exactly one place, the place
it says it is in; a legal action exists until the game is over; and replaying
the recorded history on a freshly dealt game gives the same end.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from oriflamme.game import Game
from oriflamme.position import queue_string
from oriflamme.zones import ASIDE, COVERED, DISCARD, HAND, KEPT, TOP, TWIN_ASIDE

GAMES_PER_COUNT = 300
MIXED_GAMES = 100


def check_zones(g: Game) -> None:
    """Every card id is in exactly one zone, and its zone tag agrees (run after every action: kept cheap)."""
    ids: list[int] = []
    zones: list[int] = []
    for s in range(g.players):
        for pile, zone in (
            (g.hands[s], HAND),
            (g.aside[s], ASIDE),
            (g.twins[s], TWIN_ASIDE),
            (g.discards[s], DISCARD),
            (g.kept[s], KEPT),
        ):
            ids += pile
            zones += [zone] * len(pile)
    out_of_play = len(ids)
    for i, top in enumerate(g.queue):
        cards = g.stack_cards(i) if g.under[top] >= 0 else [top]
        ids += cards
        zones += [COVERED] * (len(cards) - 1)
        zones.append(TOP)
    n = len(g.kind)
    if sorted(ids) != list(range(n)):
        seen = Counter(ids)
        twice = [c for c in seen if seen[c] > 1]
        missing = [c for c in range(n) if c not in seen]
        raise AssertionError(f"cards in two places: {twice}; cards in no place: {missing}")
    if list(map(g.zone.__getitem__, ids)) != zones:
        wrong = [c for c, z in zip(ids, zones, strict=True) if g.zone[c] != z]
        raise AssertionError(f"cards {wrong} are tagged with another zone than the one they lie in")
    out = ids[:out_of_play]
    assert list(map(g.ctrl.__getitem__, out)) == list(map(g.owner.__getitem__, out)), "control not reverted"
    assert set(map(g.bribed_by.__getitem__, out)) <= {-1}, "a bribery token left play with its card"
    assert min(g.score) >= 0


def play_random(players: int, deck: str, seed: int) -> Game:
    """Play one game with random legal actions, checking the invariants after each."""
    g = Game.new(players, deck, seed=seed)
    rng = random.Random(seed * 7919 + players)
    check_zones(g)
    while not g.is_over():
        legal = g.legal_actions()
        assert legal, f"no legal action in round {g.round} (seed {seed})"
        assert g.current_player() >= 0
        g.apply(rng.choice(legal))
        check_zones(g)
    assert g.current_player() == -1 and g.legal_actions() == ()
    assert g.round == g.rules.rounds and g.winners
    return g


def check_replay(g: Game, players: int, deck: str, seed: int) -> None:
    again = Game.new(players, deck, seed=seed)
    for a in g.history:
        again.apply(a)
    assert again.is_over()
    assert again.score == g.score
    assert queue_string(again) == queue_string(g)
    assert again.winners == g.winners


@pytest.mark.parametrize("players", [3, 4, 5])
def test_random_ablaze_games_keep_every_card_in_one_place(players: int) -> None:
    """Random play, deck "ablaze": zones, legal actions and replays hold (RULES.md §2-§7)."""
    for seed in range(GAMES_PER_COUNT):
        g = play_random(players, "ablaze", seed)
        check_replay(g, players, "ablaze", seed)


def test_random_mixed_base_and_ablaze_games() -> None:
    """Random play with random 10-kind recipes from the base and Ablaze boxes (RULES.md §1)."""
    for seed in range(MIXED_GAMES):
        players = 3 + seed % 3
        g = play_random(players, "random:base+ablaze", 10_000 + seed)
        check_replay(g, players, "random:base+ablaze", 10_000 + seed)
