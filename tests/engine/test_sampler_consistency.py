"""A dealt game is a real game: what the sampler returns passes the save-file checks, shows every seat
the view it was dealt from, and is dealt at random (mutation-testing gaps in engine.sampler).

The hidden-information tests re-deal for the deciding seat only; bots also sample while another seat
decides (an opponent's swap or fetch, a keep-or-reveal question), and a game may be over.

Proposed location: tests/engine/test_sampler_consistency.py
"""

from __future__ import annotations

import dataclasses
import random

import pytest
from support.scenario import play

from oriflamme import Game, build_position
from oriflamme.engine.boxes.ablaze import fetch_options
from oriflamme.engine.cards import QUEEN
from oriflamme.engine.sampler import sample_game
from oriflamme.engine.view import seat_view
from oriflamme.notation.checks import check_state

DECKS = ["base", "ablaze", "alliance", "random"]


def same_view(h: Game, seat: int | None, view: object) -> bool:
    return dataclasses.replace(seat_view(h, seat), state_number=view.state_number) == view  # type: ignore[attr-defined]


@pytest.mark.parametrize("deck", DECKS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_seat_gets_a_reachable_game_with_its_own_view(deck: str, players: int) -> None:
    """At every decision of a few random games, for every seat and a spectator, deciding or not."""
    for seed in range(4):
        g = Game.new(players=players, deck=deck, seed=seed)
        rng = random.Random(seed)
        step = 0
        while not g.is_over():
            if step % 3 == 0:
                for seat in [None, *range(players)]:
                    view = seat_view(g, seat)
                    h = sample_game(view, random.Random(step))
                    check_state(h)
                    assert same_view(h, seat, view), (seed, step, seat)
            g.apply(rng.choice(g.legal_actions()))
            step += 1


def test_an_opponents_swap_is_dealt_with_real_swap_actions() -> None:
    """Blue samples while Red's Informant swaps: Red's options are swaps of cards in Red's dealt hand."""
    g = build_position(
        2, "alliance", "p1:informant p2:~fanatic", round=6, hands={0: "judge empress fanatic", 1: "judge"}
    )
    play(g, "exchange")
    assert g.decision() == "swap" and g.current_player() == 0
    view = seat_view(g, 1)
    for k in range(10):
        h = sample_game(view, random.Random(k))
        check_state(h)
        for a in h.legal_actions():
            h.clone().apply(a)


def test_an_opponents_fetch_is_dealt_with_the_actions_its_piles_allow() -> None:
    """Blue samples while Red's Impersonation fetches a Queen: the question stays (docs/rules.md §11),
    and its answers are those of the dealt piles: the discard, and aside when a Queen was dealt there."""
    g = build_position(
        2,
        "ablaze",
        "p1:~impersonation p2:queen",
        discards={0: "queen"},
        hands={
            0: "prince prince cutthroat cutthroat apothecary apothecary felon felon schemer schemer plot plot trap trap"
        },
        round=6,
    )
    play(g, "reveal")
    view = seat_view(g, 1)
    for k in range(10):
        h = sample_game(view, random.Random(k))
        check_state(h)
        assert h.decision() == "fetch"
        assert h.legal_actions() == fetch_options(h, 0, QUEEN)
        assert h.legal_actions()[0] == g.legal_actions()[0]  # the public discard pile is the same


def test_a_finished_game_samples_to_itself() -> None:
    g = Game.new(players=3, deck="base", seed=7)
    rng = random.Random(7)
    while not g.is_over():
        g.apply(rng.choice(g.legal_actions()))
    for seat in (None, 0):
        view = seat_view(g, seat)
        h = sample_game(view, random.Random(0))
        assert h.is_over()
        assert h.score == g.score and h.winners == g.winners
        # The outcome's IP ledger is history, which no view carries: compare the rest.
        mine = dataclasses.replace(seat_view(h, seat), state_number=view.state_number, outcome=None)
        assert mine == dataclasses.replace(view, outcome=None)


def test_hidden_cards_are_dealt_at_random() -> None:
    """Red's view at the start: the opponents' hands differ from one seed of the sampler to another."""
    g = Game.new(players=3, deck="base", seed=1)
    view = seat_view(g, 0)
    hands = set()
    for k in range(10):
        h = sample_game(view, random.Random(k))
        hands.add(
            (tuple(sorted(h.kind[c] for c in h.hands[1])), tuple(sorted(h.kind[c] for c in h.aside[1])))
        )
    assert len(hands) > 1


def test_a_determinizer_deals_independent_games_from_one_template() -> None:
    """Playing a dealt game to its end leaves the template as it was: the next deal is a fresh one."""
    from oriflamme.engine.sampler import Determinizer
    from oriflamme.notation.savefile import dumps

    g = Game.new(players=4, deck="alliance", seed=11)
    rng = random.Random(11)
    for _ in range(30):
        g.apply(rng.choice(g.legal_actions()))
    for seat in range(4):
        view = seat_view(g, seat)
        det = Determinizer(view)
        first = det.sample(random.Random(5))
        expected = dumps(first)
        while not first.is_over():
            first.apply(first.legal_actions()[-1])
        again = det.sample(random.Random(5))
        assert dumps(again) == expected == dumps(sample_game(view, random.Random(5)))
        # The same view back (a dealt game has no history, so its state number is 0).
        assert dataclasses.replace(seat_view(again, seat), state_number=view.state_number) == view
