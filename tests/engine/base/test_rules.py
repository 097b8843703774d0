"""The general rules of docs/rules.md §2-§5, played with the base box.

Setup, placement, keep or reveal, the resolution pointer, the end of a round
and of the game, elimination and stacks: one named scenario per ruling.
"""

from __future__ import annotations

import pytest
from support.base import B, G, R, Y, event_names, options, pile, play, table, waiting_for

from oriflamme import Game, RuleOptions
from oriflamme.engine.cards import KINDS, SLUGS
from oriflamme.notation.position import build_position, queue_string

BASE_SLUGS = sorted(k.slug for k in KINDS if k.box == "base")
BASE_WITH_BRIBERY = "archer,soldier,spy,heir,shapeshifter,lord,assassination,royal-decree,ambush,bribery"

# ------------------------------------------------------------------ setup (§2)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_setup_ten_cards_three_aside_seven_in_hand(players: int) -> None:
    """§2.2: each family's 10 base cards are split into 3 set aside and 7 in hand."""
    g = Game.new(players, "base", seed=11)
    for seat in range(players):
        assert len(g.hands[seat]) == 7
        assert len(g.aside[seat]) == 3
        family = g.hands[seat] + g.aside[seat]
        assert sorted(SLUGS[g.kind[c]] for c in family) == BASE_SLUGS
        assert all(g.owner[c] == seat for c in family)
    assert g.queue == []


@pytest.mark.parametrize("players", [3, 4, 5])
def test_setup_one_ip_each(players: int) -> None:
    """§2.3: every player starts with 1 IP in their supply."""
    assert Game.new(players, "base", seed=3).score == [1] * players


def test_setup_set_aside_cards_are_random() -> None:
    """§2.2: the 3 set-aside cards are drawn at random (the seed decides)."""
    asides = {tuple(sorted(Game.new(3, "base", seed=s).aside[R])) for s in range(20)}
    assert len(asides) > 1
    # The deal of a seed never changes (CHANGELOG, compatibility policy): seed 5 sets these aside.
    g = Game.new(3, "base", seed=5)
    assert [sorted(SLUGS[g.kind[c]] for c in pile) for pile in g.aside] == [
        ["archer", "lord", "shapeshifter"],
        ["archer", "heir", "royal-decree"],
        ["lord", "soldier", "spy"],
    ]


@pytest.mark.parametrize("first", [0, 1, 2, 3])
def test_setup_first_player_is_a_parameter(first: int) -> None:
    """§2.4: the first player is a parameter; they place the first card of the game."""
    g = Game.new(4, "base", seed=8, first_player=first)
    assert g.first == first
    assert g.round == 1
    assert waiting_for(g) == ("place", first, 0)


def test_setup_first_player_random_when_not_given() -> None:
    """§2.4: without the parameter the first player is drawn (reproducibly from the seed)."""
    firsts = {Game.new(4, "base", seed=s).first for s in range(40)}
    assert firsts == {0, 1, 2, 3}
    assert Game.new(4, "base", seed=9).first == 3  # the seed's draw, fixed by the compatibility policy


def test_rule_options_defaults() -> None:
    """§10: six rounds by default."""
    assert RuleOptions().rounds == 6


# --------------------------------------------------------------- placement (§3)


def test_placement_clockwise_from_first_player() -> None:
    """§3: placement goes clockwise from the first player, one card each, face down."""
    g = Game.new(4, "base", seed=2, first_player=2)
    seen = []
    while g.decision() == "place":
        seen.append(g.current_player())
        g.apply(g.legal_actions()[0])
    assert seen == [2, 3, 0, 1]
    assert len(g.queue) == 4
    assert not any(g.up[c] for c in g.queue)
    assert all(g.ip[c] == 0 for c in g.queue)
    assert [len(h) for h in g.hands] == [6, 6, 6, 6]


def test_placement_first_card_goes_into_the_empty_queue() -> None:
    """§3: into the empty queue there is one place per hand card."""
    g = Game.new(3, "base", seed=4, first_player=R)
    assert options(g) == [f"place {SLUGS[g.kind[c]]} first" for c in g.hands[R]]


def test_placement_only_at_either_end() -> None:
    """§3: a card goes before the first or after the last card, never between two cards."""
    g = table("p1:~heir p2:~spy", hands={G: "lord soldier"}, round=1, phase="place", turn=2)
    assert waiting_for(g)[:2] == ("place", G)
    assert sorted(options(g)) == [
        "place lord first", "place lord last", "place soldier first", "place soldier last",
    ]  # fmt: skip
    play(g, "place lord last")
    assert queue_string(g).startswith("p1:~heir p2:~spy p3:~lord")


def test_placement_no_stack_in_round_one() -> None:
    """§3: stacking is allowed only from round 2, even onto one's own card."""
    g = table("p1:~heir p2:~spy", hands={R: "lord"}, round=1, phase="place", turn=0)
    assert options(g) == ["place lord first", "place lord last"]


def test_placement_stack_from_round_two_onto_own_cards_only() -> None:
    """§3: from round 2 a card may go onto one's own card, face up or down, not an opponent's."""
    g = table("p1:~heir+2 p2:spy p1:soldier p3:~lord", hands={R: "archer"}, round=2, phase="place")
    assert sorted(options(g)) == [
        "place archer first", "place archer last", "place archer on 1", "place archer on 3",
    ]  # fmt: skip
    play(g, "place archer on 1")
    assert queue_string(g).split()[0] == "p1:~heir+2/p1:~archer"


def test_placement_stack_onto_controlled_card() -> None:
    """§3/§7: "own card" means a card the family controls: a bribed card counts, the briber's it is."""
    g = build_position(
        3, BASE_WITH_BRIBERY, "p2:lord@p1 p2:~spy", hands={R: "archer", B: "heir"}, round=2, phase="place"
    )
    assert "place archer on 1" in options(g)
    play(g, "place archer last")
    assert waiting_for(g)[:2] == ("place", B)
    assert "place heir on 1" not in options(g)
    assert "place heir on 2" in options(g)


def test_placement_card_placed_face_down_without_ip() -> None:
    """§3: a placed card lies face down with no IP on it."""
    g = table("p2:spy", hands={R: "heir"}, round=2, phase="place", scores=[1, 1, 1])
    play(g, "place heir first")
    assert queue_string(g) == "p1:~heir p2:spy"
    assert waiting_for(g) == ("keep_or_reveal", R, 0)


# ----------------------------------------------------- keep or reveal (§3)


def test_keep_hidden_puts_one_ip_on_the_card() -> None:
    """§3: keeping a card hidden puts 1 IP from the supply on it; the player's supply is unchanged."""
    g = table("p1:~heir+2 p2:~lord", scores=[1, 1, 1])
    assert waiting_for(g) == ("keep_or_reveal", R, 0)
    play(g, "keep")
    assert queue_string(g) == "p1:~heir+3 p2:~lord"
    assert g.score == [1, 1, 1]
    assert waiting_for(g) == ("keep_or_reveal", B, 1)


def test_keep_hidden_accumulates_over_rounds() -> None:
    """§3 (seed 002): kept hidden in rounds 4 and 5, the Lord holds 2 IP; revealing in round 6 pays them."""
    g = table("p1:~lord", scores=[0, 0, 0], round=4)
    play(g, "keep")
    assert g.round == 5
    play(g, "keep")
    assert g.round == 6
    assert queue_string(g) == "p1:~lord+2"
    play(g, "reveal")
    assert g.score == [3, 0, 0]  # 2 from the card, 1 from the Lord
    assert g.is_over()


def test_reveal_takes_the_ip_and_applies_the_ability() -> None:
    """§3: revealing pays the IP on the card to its owner, then the ability applies at once."""
    g = table("p1:~heir+3 p2:~lord", scores=[0, 0, 0])
    play(g, "reveal")
    assert g.score == [5, 0, 0]
    assert queue_string(g) == "p1:heir p2:~lord"


def test_reveal_offered_in_the_round_the_card_was_placed() -> None:
    """§3: a card may be revealed in the round it was placed."""
    g = Game.new(3, "base", seed=1, first_player=R)
    for _ in range(3):
        g.apply(g.legal_actions()[0])
    assert g.decision() == "keep_or_reveal"
    assert options(g) == ["keep", "reveal"]


def test_face_up_ability_is_mandatory() -> None:
    """§3: a face-up card is not asked: its ability applies (the Heir gains 2)."""
    g = table("p1:heir p2:~lord", scores=[0, 0, 0])
    assert g.score == [2, 0, 0]
    assert waiting_for(g) == ("keep_or_reveal", B, 1)


def test_character_stays_face_up_and_acts_every_round() -> None:
    """§3: a revealed character stays in the queue and acts again in later rounds."""
    g = table("p1:~heir+1", scores=[0, 0, 0], round=5)
    play(g, "reveal")  # round 5: 1 + 2; round 6 it acts by itself: + 2
    assert g.is_over()
    assert g.score == [5, 0, 0]
    assert queue_string(g) == "p1:heir"


def test_intrigue_discarded_after_resolving() -> None:
    """§3: an intrigue leaves the queue into its owner's discard after it resolves."""
    g = table("p1:~conspiracy+1 p2:~lord", scores=[0, 0, 0])
    play(g, "reveal")
    assert queue_string(g) == "p2:~lord"
    assert pile(g, R) == ["conspiracy"]


# ------------------------------------------------------- resolution pointer (§3)


def test_pointer_shifts_back_on_removal_before_it() -> None:
    """§3 pointer: a card removed before the pointer does not make the next position be skipped."""
    g = table("p1:~heir p2:~spy p1:~assassination p3:~lord", scores=[0, 0, 0])
    play(g, "keep", "keep", "reveal", "target 1")
    assert queue_string(g) == "p2:~spy+1 p3:~lord"
    assert waiting_for(g) == ("keep_or_reveal", G, 1)


def test_pointer_shifts_back_when_soldier_eliminates_the_card_before_it() -> None:
    """§3 pointer: the Soldier removes its earlier neighbour; the card after the Soldier is still next."""
    g = table("p2:~heir p1:soldier p3:~lord p2:~spy", scores=[0, 0, 0], pointer=1)
    play(g, "target 1")
    assert queue_string(g) == "p1:soldier p3:~lord p2:~spy"
    assert waiting_for(g) == ("keep_or_reveal", G, 1)


def test_pointer_card_uncovered_before_the_pointer_waits() -> None:
    """§3 pointer: a card uncovered at a position already passed does not act this round."""
    g = table("p1:heir/p1:~spy p2:~lord p3:archer", scores=[0, 0, 0], pointer=2)
    play(g, "target 1")
    assert g.is_over()
    assert queue_string(g) == "p1:heir p2:~lord p3:archer"
    assert g.score == [0, 0, 1]


def test_pointer_card_uncovered_by_discarded_attacker_resolves_at_once() -> None:
    """§3 pointer: the Soldier on top is discarded by an Ambush; the card it covered acts immediately."""
    g = table("p1:~heir+1/p1:soldier p2:~ambush p3:~lord", scores=[0, 0, 0])
    assert g.score == [1, 4, 0]
    assert pile(g, R) == ["soldier"]
    assert queue_string(g) == "p1:~heir+1 p3:~lord"
    assert waiting_for(g) == ("keep_or_reveal", R, 0)


def test_pointer_uncovered_face_up_card_resolves_at_once() -> None:
    """§3 pointer (seed 000 stack example): the face-up Spy under the Assassination acts immediately."""
    g = table("p2:~lord p1:spy/p1:~assassination p3:~heir", scores=[0, 2, 2])
    play(g, "keep", "reveal")
    assert options(g) == ["target 1", "target 2", "target 3"]
    play(g, "target 3")  # G's Heir: the Spy's only neighbour is now Blue's Lord
    assert g.score == [2, 1, 2]
    assert queue_string(g) == "p2:~lord+1 p1:spy"
    assert g.is_over()


def test_pointer_uncovered_face_down_card_asks_keep_or_reveal() -> None:
    """§3 pointer: a face-down card uncovered by the resolving card is asked keep/reveal at once."""
    g = table("p1:~spy+1/p1:~assassination p2:~lord p3:~heir", scores=[0, 0, 0])
    play(g, "reveal", "target 3")
    assert waiting_for(g) == ("keep_or_reveal", R, 0)
    play(g, "keep")
    assert queue_string(g) == "p1:~spy+2 p2:~lord"
    assert waiting_for(g) == ("keep_or_reveal", B, 1)


def test_pointer_card_sliding_into_resolving_place_is_next() -> None:
    """§3 pointer: the resolving card left its position, so the card that slid in is next."""
    g = table("p1:archer p2:~heir p3:~lord", scores=[0, 0, 0])
    play(g, "target 1")  # the Archer eliminates itself
    assert queue_string(g) == "p2:~heir p3:~lord"
    assert waiting_for(g) == ("keep_or_reveal", B, 0)


def test_pointer_card_moved_after_resolves_again() -> None:
    """§3 pointer: a card moved behind the pointer acts again this round (Royal Decree on a Lord)."""
    g = table("p1:lord p1:~royal-decree p3:~heir+1", scores=[0, 0, 0])
    assert g.score == [2, 0, 0]
    play(g, "reveal", "target 1", "to 3")
    assert queue_string(g) == "p3:~heir+1 p1:lord"
    assert waiting_for(g) == ("keep_or_reveal", G, 0)
    play(g, "keep")
    assert g.score == [3, 0, 0]
    assert g.is_over()


def test_pointer_card_moved_before_does_not_resolve() -> None:
    """§3 pointer: a card moved in front of the pointer does not act this round."""
    g = table("p2:~heir p1:~royal-decree p3:soldier p2:~lord", scores=[0, 0, 0], pointer=1)
    play(g, "reveal", "target 3", "to 1")
    assert queue_string(g) == "p3:soldier p2:~heir p2:~lord"
    assert waiting_for(g) == ("keep_or_reveal", B, 2)
    play(g, "keep")
    assert g.is_over()
    assert queue_string(g) == "p3:soldier p2:~heir p2:~lord+1"
    assert g.score == [0, 0, 0]


# ---------------------------------------------------------- end of round (§3)


def test_end_of_round_passes_first_player_and_keeps_queue() -> None:
    """§3: after the resolution the first player passes clockwise; the queue stays."""
    g = table("p1:~heir", hands={R: "lord", B: "spy", G: "soldier"}, round=1, first=R)
    play(g, "keep")
    assert g.round == 2
    assert g.first == B
    assert waiting_for(g)[:2] == ("place", B)
    assert queue_string(g) == "p1:~heir+1"


def test_end_of_round_first_player_wraps_around() -> None:
    """§3: the first-player tile goes from the last seat back to p1."""
    g = table("p1:~heir", hands={R: "lord", B: "spy", G: "soldier"}, round=3, first=G)
    play(g, "keep")
    assert (g.round, g.first) == (4, R)
    assert g.current_player() == R


def test_game_lasts_six_rounds_last_hand_card_unplayed() -> None:
    """§3: after round 6 the game ends; each player still holds one card."""
    g = Game.new(4, "base", seed=21, first_player=1)
    placements = 0
    first_of_round: dict[int, int] = {}
    while not g.is_over():
        if g.decision() == "place":
            placements += 1
            first_of_round[g.round] = g.first
        g.apply(g.legal_actions()[0])
    assert g.round == 6
    assert placements == 24
    assert [len(h) for h in g.hands] == [1, 1, 1, 1]
    assert first_of_round == {1: 1, 2: 2, 3: 3, 4: 0, 5: 1, 6: 2}
    assert g.current_player() == -1
    assert g.legal_actions() == ()


# --------------------------------------------------------- end of game (§3)


def test_scoring_counts_only_supply_ip() -> None:
    """§3: IP lying on cards in the queue do not count at the end."""
    g = table("p1:~heir+5 p2:heir", scores=[3, 2, 0])
    play(g, "keep")
    assert g.is_over()
    assert queue_string(g) == "p1:~heir+6 p2:heir"
    assert g.score == [3, 4, 0]
    assert g.winners == (B,)


def test_tie_break_most_positions_controlled() -> None:
    """§3: tied on IP, the player controlling more positions wins."""
    g = table("p1:~heir p2:~lord p1:~spy p3:~soldier p3:~archer p3:~lord", scores=[5, 5, 1])
    play(g, *["keep"] * 6)
    assert g.is_over()
    assert g.winners == (R,)  # Green has 3 positions but fewer IP


def test_tie_break_counts_a_stack_once() -> None:
    """§3/§5: a stack is one position for the tie-break."""
    g = table("p1:~spy/p1:~heir p2:~lord p2:~soldier", scores=[4, 4, 0])
    play(g, "keep", "keep", "keep")
    assert g.winners == (B,)


def test_tie_still_tied_is_shared() -> None:
    """§3 ruling: equal IP and equal positions controlled: the win is shared."""
    g = table("p1:~heir p2:~lord", scores=[5, 5, 0])
    play(g, "keep", "keep")
    assert g.winners == (R, B)
    assert g.returns() == [0.5, 0.5, 0.0]


# --------------------------------------------------------- elimination (§4)


def test_elimination_of_own_card_gains_one() -> None:
    """§4: eliminating any card, one's own included, gains 1."""
    g = table("p1:soldier p1:~heir+1", scores=[0, 0, 0])
    assert g.score == [1, 0, 0]
    assert queue_string(g) == "p1:soldier"
    assert pile(g, R) == ["heir"]


def test_elimination_face_down_victim_revealed_ip_to_supply() -> None:
    """§4: a face-down victim is revealed, its IP go back to the supply (not to anyone), it goes to the discard."""
    g = table("p1:~assassination p2:~heir+3 p3:~lord", scores=[0, 0, 0])
    play(g, "reveal", "target 2")
    assert g.score == [1, 0, 0]
    heir = g.discards[B][0]
    assert (SLUGS[g.kind[heir]], g.up[heir], g.ip[heir]) == ("heir", True, 0)
    assert queue_string(g) == "p3:~lord"
    assert pile(g, R) == ["assassination"]


def test_elimination_victim_goes_to_original_owners_discard() -> None:
    """§4: the eliminated card goes to its original owner's pile, even when another family controls it."""
    g = build_position(3, BASE_WITH_BRIBERY, "p1:soldier p2:lord@p3", scores=[0, 0, 0], round=6)
    assert g.is_over()
    assert g.score == [1, 0, 0]
    assert pile(g, B) == ["lord"]
    assert pile(g, G) == []


def test_discarding_is_not_eliminating() -> None:
    """§4: a discarded card (the Soldier sprung by an Ambush) gains nobody anything."""
    g = table("p1:soldier p2:~ambush+2 p3:~lord", scores=[0, 0, 0])
    names = event_names(g.events)
    assert names.count("eliminated") == 1
    assert "discarded" in names
    assert g.score == [1, 4, 0]
    assert pile(g, R) == ["soldier"]


def test_discarded_ambush_does_not_spring() -> None:
    """§4: a discard triggers no "when eliminated" effect: the owner's own reveal gives only 1."""
    g = table("p1:~ambush+2 p2:~lord", scores=[0, 0, 0])
    play(g, "reveal")
    assert g.score == [1, 0, 0]
    assert pile(g, R) == ["ambush"]


def test_eliminated_card_leaves_queue_and_it_closes_up() -> None:
    """§4: the queue closes up after an elimination; neighbours become adjacent."""
    g = table("p2:~heir p1:soldier p3:~lord p2:~spy", scores=[0, 0, 0], pointer=1)
    play(g, "target 3")
    assert queue_string(g) == "p2:~heir p1:soldier p2:~spy"
    assert waiting_for(g) == ("keep_or_reveal", B, 2)


# --------------------------------------------------------------- stacks (§5)


def test_covered_card_keeps_its_ip() -> None:
    """§5 ruling (seed 004 overruled): the covered card keeps its IP and has them when uncovered."""
    g = table("p1:~heir+2/p1:~assassination p2:~lord", scores=[0, 0, 0])
    play(g, "reveal", "target 2")
    assert queue_string(g) == "p1:~heir+2"
    play(g, "reveal")
    assert g.score == [1 + 2 + 2, 0, 0]


def test_covered_card_cannot_be_targeted() -> None:
    """§5: only top cards are targets: the Assassination is offered positions, never covered cards."""
    g = table("p1:~heir+2/p1:~assassination p2:~lord p3:lord/p3:~spy", scores=[0, 0, 0])
    play(g, "reveal")
    assert options(g) == ["target 1", "target 2", "target 3"]
    play(g, "target 3")
    assert queue_string(g) == "p1:~heir+2 p2:~lord p3:lord"
    assert pile(g, G) == ["spy"]


def test_covered_card_does_not_act_or_gain_ip() -> None:
    """§5: a covered card neither acts nor gets IP when its position is kept hidden."""
    g = table("p1:heir/p1:~spy p2:~lord", scores=[0, 0, 0])
    play(g, "keep")
    assert queue_string(g) == "p1:heir/p1:~spy+1 p2:~lord"
    assert g.score == [0, 0, 0]


def test_eliminating_a_stack_top_uncovers_the_card_below() -> None:
    """§5: only the top card is eliminated; the card below is active again with its IP."""
    g = table("p1:archer p2:~lord p3:~heir+1/p3:~spy+2", scores=[0, 0, 0])
    play(g, "target 3")
    assert queue_string(g) == "p1:archer p2:~lord p3:~heir+1"
    assert pile(g, G) == ["spy"]
    assert g.score == [1, 0, 0]


def test_no_stack_height_limit() -> None:
    """§5: a stack may grow without limit; only its top is active."""
    g = table("p1:~heir/p1:spy/p1:~archer p2:~lord", hands={R: "soldier"}, round=2, phase="place")
    play(g, "place soldier on 1")
    assert queue_string(g).split()[0] == "p1:~heir/p1:spy/p1:~archer/p1:~soldier"


def test_lord_counts_a_stack_once() -> None:
    """§5/§6: the Lord counts an adjacent stack once, by its top card."""
    g = table("p1:spy/p1:heir/p1:~soldier p1:lord p2:~heir", scores=[0, 0, 0], pointer=1)
    assert g.score == [2, 0, 0]


def test_four_player_table_yellow_seat() -> None:
    """§2: four families play the same way; Yellow (p4) is asked in its turn."""
    g = table("p1:~heir p2:~heir p3:~heir p4:~heir", players=4, scores=[0, 0, 0, 0])
    play(g, "keep", "keep", "keep")
    assert waiting_for(g) == ("keep_or_reveal", Y, 3)
