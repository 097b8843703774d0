"""The 2-player variant (docs/rules.md §9, seed 004 S004-10): one 20-card family per player.

p1 and p2 each play two colours' worth of cards as a single family, so every
"your card" rule sees both colours.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from support.alliance import build, discards, hand_slugs, kept_slugs, legal, play, queue

from oriflamme.engine.errors import SetupError
from oriflamme.engine.game import Game
from oriflamme.engine.options import RuleOptions
from oriflamme.engine.recipes import PRESETS


@pytest.mark.parametrize("deck", ["base", "alliance"])
def test_setup_twenty_cards_four_aside_sixteen_in_hand(deck: str) -> None:
    """§9: each family holds 2 copies of each of the 10 kinds; 4 set aside, 16 in hand, 1 IP."""
    g = Game.new(2, deck, seed=7)
    for seat in range(2):
        cards = [c for c in range(len(g.kind)) if g.owner[c] == seat]
        assert len(cards) == 20
        assert Counter(g.kind[c] for c in cards) == Counter({k: 2 for k in PRESETS[deck]})
        assert len(g.aside[seat]) == 4
        assert len(g.hands[seat]) == 16
        assert sorted(g.aside[seat] + g.hands[seat]) == cards
    assert g.score == [1, 1]


def test_setup_with_the_prince_gives_two_twins() -> None:
    """§9 with §2: two Ablaze colours bring two Twins, set aside face up outside the 20 cards."""
    g = Game.new(2, "ablaze", seed=7)
    for seat in range(2):
        assert len(g.twins[seat]) == 2
        assert len(g.aside[seat]) == 4 and len(g.hands[seat]) == 16


def placers_by_round(g: Game, seed: int) -> list[list[int]]:
    """Play a game at random and record, per round, who was asked to place."""
    rng = random.Random(seed)
    out: list[list[int]] = []
    while not g.is_over():
        if g.decision() == "place":
            while len(out) < g.round:
                out.append([])
            out[g.round - 1].append(g.current_player())
        g.apply(rng.choice(g.legal_actions()))
    return out


def test_players_alternate_two_placements_each_round() -> None:
    """§9 ruling: first, other, first, other; the first player alternates; 12 placed, 4 left in hand."""
    g = Game.new(2, "alliance", seed=3, first_player=1)
    rounds = placers_by_round(g, 3)
    assert rounds == [[1, 0, 1, 0], [0, 1, 0, 1]] * 3
    assert [len(h) for h in g.hands] == [4, 4]


def test_option_one_card_per_round() -> None:
    """§10: two_player_cards_per_round=1 → one placement each per round; 10 cards stay in hand."""
    g = Game.new(2, "alliance", seed=3, first_player=0, rules=RuleOptions(two_player_cards_per_round=1))
    rounds = placers_by_round(g, 3)
    assert rounds == [[0, 1], [1, 0]] * 3
    assert [len(h) for h in g.hands] == [10, 10]


def test_option_three_cards_per_round_needs_fewer_rounds() -> None:
    """§10: three each per round fits 16 cards only in 5 rounds; 6 rounds are refused with a reason."""
    with pytest.raises(SetupError, match="16"):
        Game.new(2, "alliance", seed=1, rules=RuleOptions(two_player_cards_per_round=3))
    g = Game.new(
        2, "alliance", seed=1, first_player=0, rules=RuleOptions(two_player_cards_per_round=3, rounds=5)
    )
    rounds = placers_by_round(g, 1)
    assert rounds[0] == [0, 1, 0, 1, 0, 1]
    assert len(rounds) == 5
    assert [len(h) for h in g.hands] == [1, 1]


def test_placement_offers_each_kind_once_with_two_copies() -> None:
    """§9: two copies of a kind in hand are one choice (which copy is played does not matter)."""
    g = Game.new(2, "alliance", seed=5)
    seat = g.current_player()
    kinds = {g.kind[c] for c in g.hands[seat]}
    assert len(kinds) < len(g.hands[seat])  # 16 cards of 10 kinds: some are doubled
    texts = legal(g)
    assert len(texts) == len(set(texts)) == len(kinds)  # the queue is empty: "first" only


def test_placement_and_stacking_on_either_colour() -> None:
    """§9: either colour is the player's own: both may be stacked on from round 2, the opponent's never."""
    g = build(
        "p1:~soldier p2:~spy p1:soldier",
        players=2,
        deck="base",
        round=2,
        phase="place",
        hands={0: "heir heir lord", 1: "heir"},
    )
    assert sorted(legal(g)) == [
        "place heir first", "place heir last", "place heir on 1", "place heir on 3",
        "place lord first", "place lord last", "place lord on 1", "place lord on 3",
    ]  # fmt: skip


def test_lord_counts_both_colours() -> None:
    """§9: a Lord counts the adjacent cards of both colours (one family): 1 + 2."""
    g = build("p1:~soldier p1:lord p1:~soldier p2:~spy", players=2, deck="base", scores=[0, 0], pointer=1)
    assert g.score == [3, 0]


def test_both_heirs_compete() -> None:
    """§9: two revealed Heirs of one player block each other; a face-down second Heir does not."""
    g = build("p1:heir p1:heir", players=2, deck="base", scores=[0, 0])
    assert g.is_over()
    assert g.score == [0, 0]
    g = build("p1:heir p1:~heir p2:~spy", players=2, deck="base", scores=[0, 0])
    assert g.score == [2, 0]


def test_spy_next_to_the_other_colour_steals_nothing() -> None:
    """S004-10: a Spy with only its own family's neighbours has no effect."""
    g = build("p1:~soldier p1:spy p1:~heir", players=2, deck="base", scores=[1, 1], pointer=1)
    assert g.score == [1, 1]


def test_soldier_eliminating_other_colour_ambush_is_own_family() -> None:
    """S004-10: the other colour's Ambush is one's own: +1 only, no +4, the Soldier stays."""
    g = build("p1:soldier p1:~ambush+2", players=2, deck="base", scores=[0, 0])
    assert g.score == [1, 0]
    assert queue(g) == "p1:soldier"
    assert discards(g, 0) == ["ambush"]


def test_fanatic_sees_the_other_colour_revealed_card() -> None:
    """§9 with §8: the other colour's revealed Fanatic is "another revealed card" of the family → +1 each."""
    g = build("p1:fanatic p1:fanatic", players=2, scores=[0, 0])
    assert g.score == [2, 0]


def test_informant_swap_offers_each_kind_once() -> None:
    """§9 with §8: two copies of a kind in hand are one swap choice."""
    g = build("p1:informant p2:~fanatic", players=2, scores=[0, 0], hands={0: "judge judge fanatic"})
    play(g, "exchange")
    assert legal(g) == ["swap fanatic", "swap judge"]
    play(g, "swap judge")
    assert hand_slugs(g, 0) == ["fanatic", "informant", "judge"]


def test_two_kept_infiltrations_both_give_their_bonus() -> None:
    """§9 with §8 [decided]: each kept Infiltration adds its own +2 for a face-down victim (+1 +2 +2)."""
    g = build(
        "p1:judge p2:~fanatic!",
        players=2,
        scores=[0, 0],
        kept={0: "infiltration infiltration"},
    )
    assert kept_slugs(g, 0) == ["infiltration", "infiltration"]
    play(g, "condemn")
    assert g.score == [5, 0]


def test_s11_the_prince_twin_link_spares_a_face_down_prince() -> None:
    """§11: one player holds two Princes; when its Twin is eliminated, only the face-up Prince goes.

    p1's face-down Prince (with the IP kept on it) has not been revealed: it is not part of a pair.
    """
    g = build("p1:~prince p1:twin p2:cutthroat p1:prince", players=2, deck="ablaze")
    play(g, "keep")  # the face-down Prince: 1 IP on it
    play(g, "target 2")  # p2's Cutthroat eliminates p1's Twin
    assert queue(g) == "p1:~prince+1 p2:cutthroat"
    assert discards(g, 0) == ["twin", "prince"]


def test_s11_the_prince_twin_link_still_discards_every_face_up_copy() -> None:
    g = build("p1:prince p1:twin p2:cutthroat p1:prince", players=2, deck="ablaze")
    play(g, "target 2")
    assert queue(g) == "p2:cutthroat"
    assert sorted(discards(g, 0)) == ["prince", "prince", "twin"]
