"""The worked examples of the base-game rulebooks (seeds 000, 002, 004), as scenarios.

Each test is named after its entry in notes/examples.md (S000-xx, ...). Red is
p1, Blue p2, Green p3. An "X" card of the examples (identity irrelevant) is a
base card without reveal or elimination effects, usually a face-down Lord.
"""

from __future__ import annotations

import pytest
from support.base import B, G, R, event_names, options, pile, play, table, waiting_for

from oriflamme import IllegalActionError, parse_action
from oriflamme.notation.position import queue_string

# ------------------------------------------------------------------ placement


def test_s000_01_placement_example_three_players() -> None:
    """S000-01: into the empty queue, then either end; never between; no stack in round 1."""
    g = table(
        "",
        hands={R: "lord heir", B: "spy archer", G: "soldier assassination"},
        round=1,
        phase="place",
        first=R,
    )
    assert options(g) == ["place heir first", "place lord first"]
    play(g, "place lord first")
    assert waiting_for(g)[:2] == ("place", B)
    assert sorted(options(g)) == [
        "place archer first", "place archer last", "place spy first", "place spy last",
    ]  # fmt: skip
    play(g, "place spy first")
    assert queue_string(g) == "p2:~spy p1:~lord"
    assert waiting_for(g)[:2] == ("place", G)
    assert sorted(options(g)) == [
        "place assassination first", "place assassination last", "place soldier first", "place soldier last",
    ]  # fmt: skip
    for between in ("place soldier on 1", "place soldier on 2"):
        with pytest.raises(IllegalActionError):
            parse_action(g, between)
    play(g, "place soldier last")
    assert queue_string(g) == "p2:~spy p1:~lord p3:~soldier"


def test_s000_01_placement_example_round_two_stacks_own_only() -> None:
    """S000-01: from round 2 Red may stack onto its own card, never onto Blue's or Green's."""
    g = table("p2:~spy p1:~lord p3:~soldier", hands={R: "heir"}, round=2, phase="place", first=R)
    assert sorted(options(g)) == ["place heir first", "place heir last", "place heir on 2"]


# ----------------------------------------------------------------- resolution


def test_s000_02_resolution_example_soldier_heir_spy() -> None:
    """S000-02: the Soldier eliminates the Heir with 2 IP; the Spy steals from Green's supply, not the card."""
    g = table("p1:~lord p2:~soldier+1 p1:~heir+2 p3:~lord+1 p2:spy", scores=[2, 1, 2])
    play(g, "keep")
    assert queue_string(g).split()[0] == "p1:~lord+1"
    play(g, "reveal")
    assert g.score == [2, 2, 2]
    assert options(g) == ["target 1", "target 3"]
    play(g, "target 3")
    assert g.score == [2, 3, 2]
    assert pile(g, R) == ["heir"]
    assert queue_string(g) == "p1:~lord+1 p2:soldier p3:~lord+1 p2:spy"
    assert waiting_for(g) == ("keep_or_reveal", G, 2)
    play(g, "keep")
    assert g.score == [2, 4, 1]
    assert queue_string(g) == "p1:~lord+1 p2:soldier p3:~lord+2 p2:spy"
    assert g.is_over()


# --------------------------------------------------------------------- stacks


def test_s000_03_stack_uncovered_card_resolves_immediately() -> None:
    """S000-03: the Assassination leaves; the face-up Spy below acts at once, robbing Blue."""
    g = table("p3:~soldier+1 p1:spy/p1:~assassination p2:~lord+2", scores=[1, 3, 2])
    play(g, "keep")
    assert queue_string(g).split()[0] == "p3:~soldier+2"
    play(g, "reveal", "target 1")
    assert pile(g, G) == ["soldier"]
    assert pile(g, R) == ["assassination"]
    assert g.score == [3, 2, 2]
    assert queue_string(g) == "p1:spy p2:~lord+2"
    assert waiting_for(g) == ("keep_or_reveal", B, 1)


@pytest.mark.parametrize(
    ("choice", "spy", "scores"), [("keep", "p1:~spy+2", [2, 3, 2]), ("reveal", "p1:spy", [4, 2, 2])]
)
def test_s000_03b_face_down_card_uncovered(choice: str, spy: str, scores: list[int]) -> None:
    """S000-03b: a face-down Spy uncovered is asked at once; kept it has 2 IP, revealed it pays 1 and steals."""
    g = table("p3:~soldier+1 p1:~spy+1/p1:~assassination p2:~lord+2", scores=[1, 3, 2])
    play(g, "keep", "reveal", "target 1")
    assert waiting_for(g) == ("keep_or_reveal", R, 0)
    play(g, choice)
    assert queue_string(g) == f"{spy} p2:~lord+2"
    assert g.score == scores
    assert waiting_for(g) == ("keep_or_reveal", B, 1)


# --------------------------------------------------------------------- Ambush


def test_s000_04_ambush_eliminated_by_opponent_soldier() -> None:
    """S000-04: Red's Soldier +1, Blue's Ambush +4, the Soldier is discarded; Green's card is next."""
    g = table("p1:soldier p2:~ambush+2 p3:~lord", scores=[1, 1, 0])
    assert g.score == [2, 5, 0]
    assert pile(g, R) == ["soldier"]
    assert pile(g, B) == ["ambush"]
    names = event_names(g.events)
    assert names.count("eliminated") == 1
    assert names.count("discarded") == 1
    assert queue_string(g) == "p3:~lord"
    assert waiting_for(g) == ("keep_or_reveal", G, 0)


def test_s000_05_ambush_eliminated_by_own_archer() -> None:
    """S000-05: Red's Archer shoots Red's Ambush: only the 1 for eliminating; the Archer stays."""
    g = table("p1:archer p3:~lord+1 p1:~ambush+3", scores=[0, 0, 0])
    assert options(g) == ["target 1", "target 3"]
    play(g, "target 3")
    assert g.score == [1, 0, 0]
    assert pile(g, R) == ["ambush"]
    assert queue_string(g) == "p1:archer p3:~lord+1"
    assert waiting_for(g) == ("keep_or_reveal", G, 1)


def test_s000_06_ambush_revealed_by_owner() -> None:
    """S000-06: revealed by Red, the 3 IP go back to the supply and Red gains 1."""
    g = table("p1:~ambush+3 p2:~lord", scores=[1, 0, 0])
    play(g, "reveal")
    assert g.score == [2, 0, 0]
    assert pile(g, R) == ["ambush"]
    assert waiting_for(g) == ("keep_or_reveal", B, 0)


# ----------------------------------------------------------------- Conspiracy


def test_s000_07_conspiracy_three_becomes_six() -> None:
    """S000-07 / S002-23: 3 IP on the Conspiracy give 6."""
    g = table("p1:~conspiracy+3 p2:~lord", scores=[1, 0, 0])
    play(g, "reveal")
    assert g.score == [7, 0, 0]
    assert pile(g, R) == ["conspiracy"]
    assert queue_string(g) == "p2:~lord"
    assert waiting_for(g) == ("keep_or_reveal", B, 0)


# --------------------------------------------------------------- Royal Decree


def test_s000_08_royal_decree_move_before_prevents_action() -> None:
    """S000-08: Blue's Soldier moved to the front does not act this round; Green's card is next."""
    g = table("p3:heir p1:~royal-decree+1 p2:soldier p3:~lord", scores=[1, 2, 3])
    assert g.score == [1, 2, 5]
    play(g, "reveal")
    assert g.score == [2, 2, 5]
    assert options(g) == ["target 1", "target 3", "target 4"]
    play(g, "target 3", "to 1")
    assert queue_string(g) == "p2:soldier p3:heir p3:~lord"
    assert pile(g, R) == ["royal-decree"]
    assert waiting_for(g) == ("keep_or_reveal", G, 2)
    play(g, "keep")
    assert g.is_over()
    assert g.score == [2, 2, 5]
    assert queue_string(g) == "p2:soldier p3:heir p3:~lord+1"


def test_s000_09_royal_decree_move_after_acts_twice() -> None:
    """S000-09: the Lord moved behind the pointer acts a second time this round."""
    g = table("p1:lord p1:~royal-decree p3:~lord+1", scores=[0, 0, 0])
    assert g.score == [2, 0, 0]
    play(g, "reveal", "target 1", "to 3")
    assert queue_string(g) == "p3:~lord+1 p1:lord"
    assert waiting_for(g) == ("keep_or_reveal", G, 0)
    play(g, "keep")
    assert queue_string(g) == "p3:~lord+2 p1:lord"
    assert g.score == [3, 0, 0]


def test_s000_10_royal_decree_moves_top_of_stack_only() -> None:
    """S000-10: the Soldier on top moves with its 2 IP; the Spy uncovered acts; the Soldier resolves later."""
    g = table("p1:~royal-decree p2:spy/p2:~soldier+2 p3:~lord", scores=[1, 1, 2])
    play(g, "reveal")
    assert options(g) == ["target 2", "target 3"]
    play(g, "target 2")
    assert options(g) == ["to 1", "to 2", "to 3", "to 4"]  # every gap; never onto a stack
    play(g, "to 4")
    assert g.score == [1, 2, 1]  # the Spy stole from Green; moving gave Red nothing
    assert queue_string(g) == "p2:spy p3:~lord p2:~soldier+2"
    assert waiting_for(g) == ("keep_or_reveal", G, 1)
    play(g, "keep")
    assert waiting_for(g) == ("keep_or_reveal", B, 2)


# --------------------------------------------------------------------- Archer


def test_s000_11a_archer_alone_eliminates_itself() -> None:
    """S000-11a: the only card in the queue, the Archer eliminates itself and gains 1."""
    g = table("p1:archer", scores=[0, 0, 0])
    assert g.is_over()
    assert g.score == [1, 0, 0]
    assert queue_string(g) == ""
    assert pile(g, R) == ["archer"]


def test_s000_11b_archer_first_or_last_never_middle() -> None:
    """S000-11b: itself or Red's own Lord at the end; Blue's middle card is no target."""
    g = table("p1:archer p2:~lord+1 p1:lord", scores=[0, 0, 0])
    assert options(g) == ["target 1", "target 3"]
    play(g, "target 3")
    assert g.score == [1, 0, 0]
    assert pile(g, R) == ["lord"]
    assert queue_string(g) == "p1:archer p2:~lord+1"


def test_s000_11c_archer_eliminating_itself_next_slides_in() -> None:
    """S000-11c: the Archer shoots itself; the card that slides into its place is next."""
    g = table("p1:archer p2:~lord+1 p1:lord", scores=[0, 0, 0])
    play(g, "target 1")
    assert queue_string(g) == "p2:~lord+1 p1:lord"
    assert waiting_for(g) == ("keep_or_reveal", B, 0)


# ----------------------------------------------------------------------- Heir


def test_s000_12_heir_blocked_by_other_revealed_heir() -> None:
    """S000-12: Red's Heir gains while Blue's is face down; once both are revealed neither gains."""
    g = table("p1:heir p2:~heir+1", scores=[0, 0, 0], round=5)
    assert g.score == [2, 0, 0]
    play(g, "reveal")  # round 5: Blue takes 1, no +2; round 6: both Heirs gain 0
    assert g.is_over()
    assert g.score == [2, 1, 0]


def test_s000_12b_covered_heir_does_not_block() -> None:
    """S000-12b: Red's Heir is covered, so Blue's revealed Heir gains 1 + 2."""
    g = table("p1:heir/p1:~lord p2:~heir+1", scores=[0, 0, 0])
    play(g, "keep", "reveal")
    assert g.score == [0, 3, 0]


def test_s002_17_heir_uncovered_blocked_by_other_heir() -> None:
    """S002-17: Blue's Heir uncovered by its Assassination acts at once but sees Red's Heir: 0 for both."""
    g = table("p2:heir/p2:~assassination p3:~lord+1 p1:heir", scores=[0, 0, 0])
    play(g, "reveal", "target 2")
    assert g.is_over()
    assert queue_string(g) == "p2:heir p1:heir"
    assert g.score == [0, 1, 0]


# --------------------------------------------------------------- Shapeshifter


def test_s000_13_shapeshifter_copies_heir() -> None:
    """S000-13: the Shapeshifter copies Blue's Heir: +2 for Red; Blue's Heir still gains 2."""
    g = table("p1:shapeshifter p2:heir p3:~lord", scores=[0, 0, 0])
    assert g.score == [2, 2, 0]
    assert waiting_for(g) == ("keep_or_reveal", G, 2)


def test_s000_13b_face_down_shapeshifter_does_not_block() -> None:
    """S000-13b (RULES over seed 000): a face-down Shapeshifter elsewhere does not block the copied Heir."""
    g = table("p1:shapeshifter p2:heir p3:~lord p4:~shapeshifter", players=4, scores=[0, 0, 0, 0])
    assert g.score[R] == 2


def test_s000_13c_revealed_shapeshifter_blocks() -> None:
    """S000-13c: another revealed Shapeshifter in the queue blocks the copied Heir."""
    g = table("p1:shapeshifter p2:heir p3:~lord p4:shapeshifter", players=4, scores=[0, 0, 0, 0])
    assert g.score == [0, 2, 0, 0]


def test_s000_13c_covered_shapeshifter_does_not_block() -> None:
    """S000-13c [picked]: a covered Shapeshifter does not count, as for the Heir."""
    g = table("p1:shapeshifter p2:heir p3:~lord p4:shapeshifter/p4:~lord", players=4, scores=[0, 0, 0, 0])
    assert g.score[R] == 2


def test_s000_13d_shapeshifter_cannot_chain() -> None:
    """S000-13d: copying a Shapeshifter does nothing; Blue's Shapeshifter may copy Green's Soldier."""
    g = table("p1:shapeshifter p2:shapeshifter p3:soldier", scores=[0, 0, 0])
    assert g.score == [0, 0, 0]
    assert waiting_for(g) == ("copy", B, 1)
    assert options(g) == ["copy soldier", "copy shapeshifter"]
    play(g, "copy soldier")
    assert options(g) == ["target 1", "target 3"]
    play(g, "target 1")
    assert pile(g, R) == ["shapeshifter"]
    # Green's Soldier then has Blue's Shapeshifter as its only neighbour.
    assert g.score == [0, 1, 1]
    assert pile(g, B) == ["shapeshifter"]
    assert queue_string(g) == "p3:soldier"


def test_s000_13e_shapeshifter_picks_a_neighbour_each_round() -> None:
    """S000-13e: the Spy in one round, the Lord in the next."""
    g = table("p2:spy p1:shapeshifter p3:lord", scores=[1, 1, 1], round=5, pointer=1)
    assert options(g) == ["copy spy", "copy lord"]
    play(g, "copy spy", "steal p3")  # Red 2, Green 0; Green's Lord +1
    # Round 6: Blue's Spy robs Red, then Red picks again.
    assert (g.round, g.score) == (6, [1, 2, 1])
    assert options(g) == ["copy spy", "copy lord"]
    play(g, "copy lord")
    assert g.score == [2, 2, 2]


def test_shapeshifter_copying_soldier_is_the_eliminating_card() -> None:
    """§4/§6: a Shapeshifter copying a Soldier that hits an opponent's Ambush is itself discarded."""
    g = table("p1:soldier p2:shapeshifter p3:~ambush+1", scores=[0, 0, 0], pointer=1)
    assert options(g) == ["target 1", "target 3"]
    play(g, "target 3")
    assert g.score == [0, 1, 4]
    assert pile(g, B) == ["shapeshifter"]
    assert pile(g, G) == ["ambush"]
    assert queue_string(g) == "p1:soldier"


def test_s002_18_shapeshifter_needs_revealed_uncovered_neighbour() -> None:
    """S002-18: the neighbouring position's top is face down, the face-up Soldier under it does not count."""
    g = table("p1:shapeshifter p2:soldier/p2:~lord", scores=[0, 0, 0])
    assert g.score == [0, 0, 0]
    assert waiting_for(g) == ("keep_or_reveal", B, 1)


# ----------------------------------------------------------------------- Lord


def test_s000_14_lord_counts_stack_once() -> None:
    """S000-14: 1 + 1 for the three-card stack (counted once) + 1 for the face-down card."""
    g = table("p1:spy/p1:heir/p1:~soldier p1:lord p1:~archer+1", scores=[0, 0, 0], pointer=1)
    assert g.score == [3, 0, 0]
    assert waiting_for(g) == ("keep_or_reveal", R, 2)


def test_s000_14_lord_variant_opponent_neighbour() -> None:
    """S000-14 variant: with Blue's card on the other side the Lord gains 2."""
    g = table("p1:spy/p1:heir/p1:~soldier p1:lord p2:~archer+1", scores=[0, 0, 0], pointer=1)
    assert g.score == [2, 0, 0]


# ------------------------------------------------------------------------ Spy


def test_s002_16_spy_steals_from_supply() -> None:
    """S002-16: Blue's card keeps its 2 IP; Blue's supply pays the 1."""
    g = table("p2:~lord+2 p1:spy", scores=[0, 1, 0], pointer=1)
    assert g.score == [1, 0, 0]
    assert queue_string(g) == "p2:~lord+2 p1:spy"


def test_s002_16_spy_two_opponents_chooses() -> None:
    """S002-16 / §6 ruling: Blue on one side, Green on the other: Red chooses."""
    g = table("p2:~lord p1:spy p3:~lord", scores=[0, 1, 1], pointer=1)
    assert options(g) == ["steal p2", "steal p3"]
    play(g, "steal p2")
    assert g.score == [1, 0, 1]


def test_s002_16_spy_victim_with_zero_ip() -> None:
    """S002-16 / §6 ruling: the only victim has 0 IP: nothing moves."""
    g = table("p2:~lord p1:spy", scores=[0, 0, 0], pointer=1)
    assert g.score == [0, 0, 0]


def test_s002_16_spy_only_own_neighbours() -> None:
    """S002-16: only Red's own cards next to the Spy: no effect."""
    g = table("p1:~lord p1:spy p1:~heir", scores=[2, 2, 2], pointer=1)
    assert g.score == [2, 2, 2]


# -------------------------------------------------------------------- Soldier


def test_s002_06_soldier_forced_onto_own_card() -> None:
    """S002-06 / S002-15: the only neighbour is Red's own card: the Soldier must eliminate it (+1)."""
    g = table("p1:soldier p1:~lord+1", scores=[0, 0, 0])
    assert g.score == [1, 0, 0]
    assert pile(g, R) == ["lord"]
    assert queue_string(g) == "p1:soldier"


def test_s004_08_prefer_opponent_is_advice() -> None:
    """S004-08 / §4 ruling: both neighbours are legal; the engine does not force Blue's card."""
    g = table("p1:~lord p1:soldier p2:~lord", scores=[0, 0, 0], pointer=1)
    assert options(g) == ["target 1", "target 3"]
    play(g, "target 1")
    assert pile(g, R) == ["lord"]


# -------------------------------------------------------------- Assassination


def test_s002_20_assassination_eliminates_itself() -> None:
    """S002-20: the Assassination may pick itself: +1, one copy in the discard, Blue's card slides in next."""
    g = table("p1:~assassination p2:~lord+1", scores=[0, 0, 0])
    play(g, "reveal")
    assert options(g) == ["target 1", "target 2"]
    play(g, "target 1")
    assert g.score == [1, 0, 0]
    assert pile(g, R) == ["assassination"]
    assert queue_string(g) == "p2:~lord+1"
    assert waiting_for(g) == ("keep_or_reveal", B, 0)


def test_s002_09_assassination_cannot_reach_covered_card() -> None:
    """S002-09: at {Soldier / Heir(2 IP)} only the Soldier on top is a target."""
    g = table("p1:~assassination p2:~heir+2/p2:~soldier", scores=[0, 0, 0])
    play(g, "reveal")
    assert options(g) == ["target 1", "target 2"]
    play(g, "target 2")
    assert pile(g, B) == ["soldier"]
    assert queue_string(g) == "p2:~heir+2"


# -------------------------------------------------------------------- seed 004


def test_s004_02_covered_tokens_are_kept() -> None:
    """S004-02 (RULES over seed 004): after the top card leaves, the covered card still has its 2 IP."""
    g = table("p2:soldier p1:~lord+2/p1:~heir", scores=[0, 0, 0])
    assert g.score == [0, 1, 0]
    assert queue_string(g) == "p2:soldier p1:~lord+2"
    assert waiting_for(g) == ("keep_or_reveal", R, 1)


def test_s004_05_lord_counts_own_face_down_intrigue() -> None:
    """S004-05 (RULES over seed 004): a face-down own intrigue next to the Lord counts."""
    g = table("p1:~ambush p1:lord", scores=[0, 0, 0], pointer=1)
    assert g.score == [2, 0, 0]
