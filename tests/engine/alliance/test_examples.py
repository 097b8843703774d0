"""The worked examples of seed 003 (Alliance), as scenarios (notes/examples.md, S003-xx).

Players: p1 = Red, p2 = Blue, p3 = Green. A card written ``X`` in the notes is
a face-down card without a reveal or elimination effect (a Fanatic, Empress or
Judge here). Positions are built in round 6 unless a later round is needed, so
the game ends when the resolution under test is over.
"""

from __future__ import annotations

import pytest
from support.alliance import build, discards, hand_slugs, kept_slugs, legal, play, queue

from oriflamme.engine.actions import REVEAL_ACTION
from oriflamme.engine.errors import IllegalActionError
from oriflamme.engine.game import Game

#: Alliance with a Soldier and a Lord instead of the Deserter and Agreement: seed 003's
#: Extortion example attacks with a Soldier.
SOLDIER_MIX = "soldier,lord,empress,fanatic,informant,diplomat,judge,insurrection,extortion,infiltration"


def test_s003_01_alliance_setup() -> None:
    """S003-01: 7 in hand, 3 aside, 1 IP each, 5 verdicts in the common pool, no Twin."""
    g = Game.new(4, "alliance", seed=3)
    assert g.verdict_pool == 5
    assert [len(h) for h in g.hands] == [7] * 4
    assert [len(a) for a in g.aside] == [3] * 4
    assert g.twins == [[], [], [], []]
    assert g.score == [1, 1, 1, 1]


def test_s003_03_face_up_deserter_must_attack_own() -> None:
    """S003-03: a lone own neighbour is eliminated (+1, +1 character), then the Deserter leaves."""
    g = build("p1:deserter p1:~fanatic+1", scores=[0, 0, 0])
    assert g.is_over()
    assert g.history == []  # the only target is forced, nobody was asked
    assert g.score[0] == 2
    assert queue(g) == ""
    assert discards(g, 0) == ["fanatic", "deserter"]


def test_s003_04_only_stack_top_is_eliminated() -> None:
    """S003-04: eliminating a stack removes its top only; the card below keeps its IP."""
    g = build("p2:judge p1:~empress+1/p1:~fanatic+2!", scores=[0, 0, 0])
    play(g, "condemn")
    assert g.score[1] == 1
    assert queue(g) == "p2:judge p1:~empress+1"
    assert discards(g, 0) == ["fanatic"]
    # The uncovered Empress is the next position and may now be kept or revealed.
    assert (g.decision(), g.current_player(), g.ptr) == ("keep_or_reveal", 0, 1)


def test_s003_05_resolution_example_deserter_fanatic() -> None:
    """S003-05: the Deserter kills the Judge (+2), is discarded, so the Fanatic is alone (+2)."""
    g = build(
        "p1:~empress p2:~deserter+1 p1:~judge+2 p3:~fanatic+1 p2:fanatic",
        scores=[2, 1, 2],
    )
    play(g, "keep")
    assert queue(g).startswith("p1:~empress+1 ")
    play(g, "reveal")
    assert g.score[1] == 2
    assert legal(g) == ["target 1", "target 3"]
    play(g, "target 3")
    assert g.score[1] == 4
    assert discards(g, 0) == ["judge"]
    # Both neighbours are face down after the queue closes: the Deserter is discarded.
    assert discards(g, 1) == ["deserter"]
    assert queue(g) == "p1:~empress+1 p3:~fanatic+1 p2:fanatic"
    assert (g.decision(), g.current_player(), g.ptr) == ("keep_or_reveal", 2, 1)
    play(g, "keep")
    assert g.is_over()
    assert g.score == [2, 6, 2]
    assert queue(g) == "p1:~empress+1 p3:~fanatic+2 p2:fanatic"


def test_s003_05b_fanatic_gains_one_if_the_deserter_stays() -> None:
    """S003-05 (aside): with a revealed character next to the Deserter, it stays and the Fanatic gets +1."""
    g = build("p3:judge p2:deserter p1:~judge+2 p2:fanatic", scores=[0, 0, 0], pointer=1)
    play(g, "target 3")
    assert queue(g) == "p3:judge p2:deserter p2:fanatic"
    assert g.is_over()
    assert g.score[1] == 2 + 1


def test_s003_06_stack_infiltration_then_deserter() -> None:
    """S003-06: Infiltration feeds R's face-down cards and is kept; the uncovered Deserter acts at once."""
    g = build(
        "p2:judge p1:deserter/p1:~infiltration p3:~fanatic+2 p1:~empress+1",
        scores=[1, 0, 0],
        pointer=1,
    )
    play(g, "reveal")
    assert kept_slugs(g, 0) == ["infiltration"]
    assert queue(g) == "p2:judge p1:deserter p3:~fanatic+2 p1:~empress+2"
    assert g.decision() == "eliminate"
    assert legal(g) == ["target 1", "target 3"]
    play(g, "target 3")
    # +1 eliminating, +1 a character, +2 the kept Infiltration (the victim was face down).
    assert g.score[0] == 5
    assert discards(g, 2) == ["fanatic"]
    assert queue(g) == "p2:judge p1:deserter p1:~empress+2"  # the Judge keeps the Deserter
    assert (g.decision(), g.current_player(), g.ptr) == ("keep_or_reveal", 0, 2)


def test_s003_06b_face_down_card_under_infiltration_chooses() -> None:
    """S003-06 variant: a face-down card uncovered by the kept Infiltration is kept or revealed."""
    g = build(
        "p2:judge p1:~deserter+1/p1:~infiltration p3:~fanatic+2 p1:~empress+1",
        scores=[1, 0, 0],
        pointer=1,
    )
    play(g, "reveal")
    # Covered cards get nothing from the Infiltration.
    assert queue(g) == "p2:judge p1:~deserter+1 p3:~fanatic+2 p1:~empress+2"
    assert (g.decision(), g.current_player(), g.ptr) == ("keep_or_reveal", 0, 1)
    kept_hidden = g.clone()
    play(kept_hidden, "keep")
    assert queue(kept_hidden).startswith("p2:judge p1:~deserter+2 ")
    play(g, "reveal", "target 3")
    assert g.score[0] == 1 + 1 + 1 + 1 + 2


def test_s003_07_empress_gives_an_opponent_card_ip() -> None:
    """S003-07: +2, then 1 IP on a face-down opponent card; own cards are not offered."""
    g = build("p1:empress p2:~fanatic p3:~fanatic+2 p1:~judge", scores=[0, 0, 0])
    assert g.score[0] == 2
    assert (g.decision(), legal(g)) == ("target", ["target 2", "target 3"])
    play(g, "target 3")
    assert queue(g) == "p1:empress p2:~fanatic p3:~fanatic+3 p1:~judge"
    assert g.score[0] == 2


def test_s003_07b_empress_enables_insurrection() -> None:
    """S003-07b: the Empress's 1 IP lets a 0-IP Insurrection be revealed (it pays that 1, gains 0)."""
    g = build("p1:empress p2:~insurrection", scores=[0, 0, 0])
    # The only face-down opponent card gets the IP without a question.
    assert queue(g) == "p1:empress p2:~insurrection+1"
    assert (g.decision(), g.current_player(), legal(g)) == ("keep_or_reveal", 1, ["keep", "reveal"])
    play(g, "reveal")
    assert g.score == [2, 1, 0]  # 0 from the card, +1 for eliminating the Empress
    assert queue(g) == "p2:~insurrection"
    assert discards(g, 0) == ["empress"]


def test_s003_08_fanatic_alone_gains_two() -> None:
    """S003-08: +2 with no other revealed own card; opponents' revealed cards do not matter."""
    g = build("p1:fanatic p2:judge p1:~empress", scores=[0, 0, 0])
    assert g.score[0] == 2


def test_s003_08b_fanatic_with_another_revealed_own_card_gains_one() -> None:
    """S003-08: another revealed own card anywhere in the queue → only +1."""
    g = build("p1:fanatic p2:~judge p1:judge", scores=[0, 0, 0])
    assert g.score[0] == 1


def test_s003_08c_covered_own_card_does_not_count_for_fanatic() -> None:
    """S003-08 [picked]: a face-up own card under a face-down one is not revealed in the queue."""
    g = build("p1:fanatic p1:judge/p1:~empress", scores=[0, 0, 0])
    assert g.score[0] == 2


def test_s003_09_informant_collects_neighbours_ip() -> None:
    """S003-09: 2 + 3 IP from the supply; the IP stay on the cards."""
    g = build("p2:~fanatic+2 p1:informant p3:~fanatic+3", scores=[0, 0, 0], pointer=1)
    # No hand card: the collect mode is the only one and applies at once.
    assert g.score[0] == 5
    assert queue(g) == "p2:~fanatic+2 p1:informant p3:~fanatic+3"


def test_s003_09b_informant_ignores_own_and_face_up_neighbours() -> None:
    """S003-09: an own face-down neighbour or a face-up one (even a Diplomat with IP) adds 0."""
    g = build("p1:~fanatic+2 p1:informant p3:~fanatic+3", scores=[0, 0, 0], pointer=1)
    assert g.score[0] == 3
    g = build("p2:diplomat+2 p1:informant p3:~fanatic+3", scores=[0, 0, 0], pointer=1)
    assert g.score[0] == 3


def test_s003_10_informant_swap_sleeps_until_next_round() -> None:
    """S003-10: the hand card goes face down in the Informant's place and acts only next round."""
    g = build(
        "p2:~fanatic+2 p1:informant p3:~fanatic+3",
        scores=[0, 0, 0],
        pointer=1,
        round=5,
        hands={0: "fanatic judge"},
    )
    assert legal(g) == ["collect", "exchange"]
    play(g, "exchange")
    assert (g.decision(), legal(g)) == ("swap", ["swap fanatic", "swap judge"])
    play(g, "swap fanatic")
    assert queue(g) == "p2:~fanatic+2 p1:~fanatic p3:~fanatic+3"
    assert hand_slugs(g, 0) == ["informant", "judge"]
    assert g.score[0] == 0
    # Next is Green's card: the swapped-in card does not resolve this round.
    assert (g.decision(), g.current_player(), g.ptr) == ("keep_or_reveal", 2, 2)
    play(g, "keep")
    # Round 6: p2 and p3 have nothing to place; p1 may place the Informant anew.
    assert (g.round, g.decision(), g.current_player()) == (6, "place", 0)
    play(g, "place informant last", "keep")
    assert queue(g).startswith("p2:~fanatic+3 p1:~fanatic ")
    assert (g.decision(), g.current_player(), g.ptr) == ("keep_or_reveal", 0, 1)


def test_s003_11_diplomat_gift_then_cashout() -> None:
    """S003-11: R gifts 2 IP to G's Diplomat (+1), G takes its 3 IP and discards it."""
    g = build("p1:diplomat p2:~fanatic p3:diplomat+1", scores=[0, 0, 0])
    assert legal(g) == ["gift", "cashout"]
    play(g, "gift")  # the only other revealed Diplomat receives the gift without a question
    assert g.score[0] == 1
    assert queue(g) == "p1:diplomat p2:~fanatic p3:diplomat+3"
    play(g, "keep", "cashout")
    assert g.is_over()
    assert g.score == [1, 0, 3]
    assert queue(g) == "p1:diplomat p2:~fanatic+1"
    assert discards(g, 2) == ["diplomat"]


def test_s003_11b_diplomat_gift_without_other_diplomat_gains_one() -> None:
    """S003-11: no other revealed Diplomat (a face-down one does not count) → just +1."""
    g = build("p1:diplomat p2:~diplomat+1", scores=[0, 0, 0])
    play(g, "gift")
    assert g.score[0] == 1
    assert queue(g) == "p1:diplomat p2:~diplomat+1"


def test_s003_11c_diplomat_cashout_with_no_ip() -> None:
    """S003-11 [picked]: cashing out an empty Diplomat is legal: it is discarded, +0."""
    g = build("p1:diplomat p2:~fanatic", scores=[0, 0, 0])
    play(g, "cashout")
    assert g.score[0] == 0
    assert discards(g, 0) == ["diplomat"]
    assert queue(g) == "p2:~fanatic"


def test_s003_12_deserter_intrigue_victim_only_plus_one() -> None:
    """S003-12: eliminating an intrigue gives no character bonus."""
    g = build("p3:judge p1:deserter p2:~infiltration+2", scores=[0, 0, 0], pointer=1)
    play(g, "target 3")
    assert g.score[0] == 1
    assert queue(g) == "p3:judge p1:deserter"


def test_s003_12b_deserter_discarded_without_revealed_character_neighbour() -> None:
    """S003-12: after the queue closes, only face-down neighbours → the Deserter is discarded."""
    g = build("p3:~judge p1:deserter p2:~fanatic+2 p2:~empress", scores=[0, 0, 0], pointer=1)
    play(g, "target 3")
    assert g.score[0] == 2
    assert queue(g) == "p3:~judge p2:~empress"
    assert discards(g, 0) == ["deserter"]


def test_s003_13_judge_verdict_then_condemn_next_round() -> None:
    """S003-13 (a)(b): +1 and a verdict on B's card; next round the Judge eliminates it, the verdict returns."""
    g = build("p1:judge p2:empress", scores=[0, 0, 0], round=5)
    # No verdict lies anywhere, so condemning is not offered: the verdict target is asked directly.
    assert (g.decision(), legal(g)) == ("target", ["target 1", "target 2"])
    play(g, "target 2")
    assert g.verdict_pool == 4
    assert g.is_over() is False
    assert g.round == 6
    assert queue(g) == "p1:judge p2:empress!"
    assert legal(g) == ["verdict", "condemn"]
    play(g, "condemn")  # one card bears a verdict: it is eliminated without a further question
    assert g.is_over()
    assert queue(g) == "p1:judge"
    assert discards(g, 1) == ["empress"]
    assert g.verdict_pool == 5
    assert g.score == [2, 2, 0]  # the Empress acted in round 5 only


def test_s003_13c_judges_of_two_families_combine() -> None:
    """S003-13 (c): G's Judge puts the verdict, R's Judge eliminates the card."""
    g = build("p3:judge p2:empress p1:judge", scores=[0, 0, 0])
    play(g, "target 2")
    assert queue(g) == "p3:judge p2:empress! p1:judge"
    assert g.score == [0, 2, 1]
    play(g, "condemn")
    assert queue(g) == "p3:judge p1:judge"
    assert g.score == [1, 2, 1]
    assert g.verdict_pool == 5


def test_s003_14_insurrection_reveal_pays_one_and_kills_both_neighbours() -> None:
    """S003-14: pay 1 of 3, gain 2, eliminate both neighbours (+1 each), turn face down and stay."""
    g = build("p2:~judge p1:~insurrection+3 p3:empress", scores=[1, 0, 0], pointer=1)
    assert legal(g) == ["keep", "reveal"]
    play(g, "reveal")
    assert g.is_over()
    assert g.score == [5, 0, 0]
    assert queue(g) == "p1:~insurrection"
    assert discards(g, 1) == ["judge"]
    assert discards(g, 2) == ["empress"]


def test_s003_14b_insurrection_with_no_ip_can_only_be_kept() -> None:
    """S003-14: with 0 IP it cannot be revealed; its owner is still asked, with keep as the only answer."""
    g = build("p1:~insurrection p2:~fanatic", scores=[1, 0, 0])
    assert (g.decision(), g.current_player(), legal(g)) == ("keep_or_reveal", 0, ["keep"])
    with pytest.raises(IllegalActionError):
        g.apply(REVEAL_ACTION)
    play(g, "keep")
    assert queue(g) == "p1:~insurrection+1 p2:~fanatic"
    assert (g.decision(), g.current_player(), g.ptr) == ("keep_or_reveal", 1, 1)


def test_s003_14c_insurrection_with_one_ip_gains_nothing() -> None:
    """S003-14: with exactly 1 IP the reveal pays it all; only the eliminations pay."""
    g = build("p1:~insurrection+1 p2:~fanatic", scores=[0, 0, 0])
    play(g, "reveal")
    assert g.score[0] == 1
    assert queue(g) == "p1:~insurrection"


def test_s003_15a_extortion_revealed_by_owner() -> None:
    """S003-15 (a): its IP go back to the supply, +1, discarded."""
    g = build("p1:~extortion+2", scores=[1, 0, 0])
    play(g, "reveal")
    assert g.score[0] == 2
    assert queue(g) == ""
    assert discards(g, 0) == ["extortion"]


def test_s003_15b_extortion_eliminated_by_opponent_soldier() -> None:
    """S003-15 (b): B controls 3 positions → R +6; B's face-down cards with IP lose 1; the Soldier stays."""
    g = build(
        "p2:soldier p1:~extortion+1 p2:~fanatic+2 p2:~lord+1/p2:~empress+1 p3:~fanatic",
        deck=SOLDIER_MIX,
        scores=[1, 0, 0],
    )
    assert g.score == [7, 1, 0]
    assert queue(g) == "p2:soldier p2:~fanatic+1 p2:~lord+1/p2:~empress p3:~fanatic"
    assert discards(g, 0) == ["extortion"]
    assert discards(g, 1) == []
    assert (g.decision(), g.current_player(), g.ptr) == ("keep_or_reveal", 1, 1)


def test_s003_15c_own_card_eliminating_own_extortion_only_plus_one() -> None:
    """S003-15 (c) [picked]: own card → +1 for eliminating, nothing else, the Soldier stays."""
    g = build(
        "p1:soldier p1:~extortion+1 p1:~fanatic+2",
        deck=SOLDIER_MIX,
        scores=[1, 0, 0],
    )
    # The Soldier's only neighbour is eliminated without a question.
    assert g.score[0] == 2
    assert queue(g) == "p1:soldier p1:~fanatic+2"
    assert discards(g, 0) == ["extortion"]


def test_s003_16_eliminated_face_down_keepers_are_discarded() -> None:
    """S003-16: an Infiltration or Agreement eliminated face down goes to the discard, never kept."""
    g = build("p2:judge p1:~infiltration+2! p1:~agreement+3!", scores=[0, 0, 0], round=5)
    play(g, "condemn", "target 2")
    assert g.score[1] == 1
    assert queue(g) == "p2:judge p1:~agreement+3!"
    play(g, "keep")
    assert (g.round, legal(g)) == (6, ["verdict", "condemn"])
    play(g, "condemn")
    assert g.is_over()
    assert g.score == [0, 2, 0]
    assert g.kept == [[], [], []]
    assert discards(g, 0) == ["infiltration", "agreement"]
    assert g.verdict_pool == 5


def test_s003_17_infiltration_bonus_with_insurrection() -> None:
    """S003-17: Insurrection killing two face-down cards with a kept Infiltration → +3 each."""
    g = build(
        "p2:~fanatic+1 p1:~insurrection+1 p3:~empress",
        scores=[0, 0, 0],
        pointer=1,
        kept={0: "infiltration"},
    )
    play(g, "reveal")
    assert g.score[0] == 6
    assert queue(g) == "p1:~insurrection"


def test_s003_18_agreement_income_and_end_of_game() -> None:
    """S003-18: kept with its 3 IP; +3 at the start of each round R controls a position; +3 at the end."""
    g = build("p1:~agreement+3 p1:~empress p2:~fanatic", scores=[1, 0, 0], round=5)
    play(g, "reveal")
    assert g.score[0] == 1  # nothing gained now
    assert kept_slugs(g, 0) == ["agreement"]
    assert g.ip[g.kept[0][0]] == 3
    assert queue(g) == "p1:~empress p2:~fanatic"
    play(g, "keep", "keep")
    # Round 6 started with R's Empress in the queue: +3.
    assert (g.round, g.score[0]) == (6, 4)
    play(g, "keep", "keep")
    assert g.is_over()
    assert g.score[0] == 7  # the 3 IP on the kept Agreement count at the end


def test_s003_18b_no_agreement_income_without_a_position() -> None:
    """S003-18 [picked]: a round starting with no position R controls brings no income."""
    g = build("p1:~agreement+3 p2:~fanatic", scores=[1, 0, 0], round=5)
    play(g, "reveal", "keep")
    assert g.round == 6
    assert g.score[0] == 1
    play(g, "keep")
    assert g.is_over()
    assert g.score[0] == 4
