"""The worked examples and notes of the Ablaze rulebook (seed 001), as scenarios.

Each test is one item of the seed 001 section of the examples notes; the test
name carries the item's ID. Players: Red p1, Blue p2, Green p3, Yellow p4.
Unless a test says otherwise the position is in round 6, so the game ends when
the resolution under test is over and the final scores can be read.
"""

from __future__ import annotations

import pytest
from support.ablaze import (
    WITH_LORD,
    WITH_SOLDIER,
    B,
    G,
    R,
    Y,
    aside_pile,
    discard_pile,
    events_of,
    legal,
    play,
    qs,
    table,
)

from oriflamme.engine import events as ev
from oriflamme.engine.cards import TWIN
from oriflamme.engine.errors import IllegalActionError
from oriflamme.engine.game import Game
from oriflamme.engine.options import RuleOptions
from oriflamme.engine.recipes import PRESETS

# ---------------------------------------------------------------- setup and placement


def test_s001_01_ablaze_setup() -> None:
    """S001-01: 11 cards a family, the Twin aside face up, 3 set aside, 7 in hand, 1 IP each."""
    g = Game.new(3, "ablaze", seed=11, first_player=0)
    for s in (R, B, G):
        family = [c for c in range(len(g.kind)) if g.owner[c] == s]
        assert len(family) == 11
        (twin,) = g.twins[s]
        assert g.kind[twin] == TWIN and g.up[twin]
        assert twin not in g.hands[s] and twin not in g.aside[s]
        assert len(g.hands[s]) == 7 and len(g.aside[s]) == 3
        assert sorted(g.kind[c] for c in g.hands[s] + g.aside[s]) == sorted(PRESETS["ablaze"])
    assert g.score == [1, 1, 1]
    assert all(b == -1 for b in g.bribed_by)  # every Bribery token still with its family
    assert g.current_player() == R and g.decision() == "place"


def test_s001_02_placement_example() -> None:
    """S001-02: first card into the empty queue, then either end only; own stacks from round 2."""
    g = Game.new(3, "ablaze", seed=5, first_player=R)
    assert all(t.endswith(" first") for t in legal(g))  # the empty queue has one place
    g.apply(g.legal_actions()[0])
    assert g.current_player() == B
    assert {t.rsplit(" ", 1)[1] for t in legal(g)} == {"first", "last"}
    play(g, legal(g)[0])  # Blue goes in front of Red
    assert g.current_player() == G
    assert {t.rsplit(" ", 1)[1] for t in legal(g)} == {"first", "last"}
    with pytest.raises(IllegalActionError):  # never between two cards, no stack in round 1
        play(g, legal(g)[0].replace("first", "on 1"))
    play(g, legal(g)[0])
    while g.decision() == "keep_or_reveal":
        play(g, "keep")
    assert g.round == 2 and g.current_player() == B  # the first-player tile passed on
    blue_pos = [i + 1 for i, c in enumerate(g.queue) if g.ctrl[c] == B]
    on = {int(t.split()[-1]) for t in legal(g) if " on " in t}
    assert on == set(blue_pos) == {2}


def test_s001_03_face_up_cutthroat_must_attack_own() -> None:
    """S001-03: a face-up Cutthroat whose only neighbour is its own card eliminates it, for 0 IP."""
    g = table("p1:cutthroat p1:~schemer+1", scores=[0, 0, 0])
    assert g.is_over()
    assert qs(g) == "p1:cutthroat"
    assert g.score == [0, 0, 0]
    assert discard_pile(g, R) == ["schemer"]


# ---------------------------------------------------------------- resolution example


def test_s001_04_resolution_example_cutthroat_queen_felon() -> None:
    """S001-04: the Cutthroat kills the Queen (0 + Queen bonus 1), then the Felon taxes Green."""
    g = table("p1:~schemer p2:~cutthroat+1 p1:~queen+2 p3:~felon+1 p2:felon", scores=[2, 1, 2])
    play(g, "keep")
    assert qs(g).startswith("p1:~schemer+1 ")
    play(g, "reveal")
    assert g.score == [2, 2, 2]
    assert legal(g) == ["target 1", "target 3"]
    play(g, "target 3")
    assert g.score == [2, 3, 2]  # no IP for a lone elimination, +1 Queen bonus
    assert discard_pile(g, R) == ["queen"]
    assert g.current_player() == G and g.ptr == 2  # the queue closed: Green's card is next
    play(g, "keep")
    assert g.is_over()
    assert g.score == [2, 3, 1]
    assert qs(g) == "p1:~schemer+1 p2:cutthroat p3:~felon+2 p2:felon"


# ---------------------------------------------------------------- stack example


def test_s001_05_stack_impersonation_then_queen() -> None:
    """S001-05: Impersonation swaps Blue's Felon for Red's set-aside one; the uncovered Queen acts at once."""
    g = table("p2:felon p1:queen/p1:~impersonation p3:~schemer+1", scores=[2, 3, 1], pointer=1)
    assert "felon" in aside_pile(g, R)
    aside_before = len(g.aside[R])
    play(g, "reveal")
    assert legal(g) == ["target 1", "target 3"]
    play(g, "target 1")
    assert g.decision() == "fetch" and legal(g) == ["fetch aside"]
    play(g, "fetch aside")
    # Red's Felon entered from the set-aside cards; the Queen resolved at once: 2 + 1 + 2.
    assert qs(g) == "p1:felon p1:queen p3:~schemer+1"
    assert g.score == [5, 3, 1]
    assert len(g.aside[R]) == aside_before - 1 and "felon" not in aside_pile(g, R)
    assert discard_pile(g, B) == ["felon"]
    assert discard_pile(g, R) == ["impersonation"]
    assert g.current_player() == G and g.ptr == 2
    play(g, "keep")
    assert g.is_over()
    assert g.score == [5, 3, 1]  # Red's new Felon sat before the pointer: it did not act


@pytest.mark.parametrize(("choice", "queue", "red"), [("keep", "p1:~queen+2", 3), ("reveal", "p1:queen", 6)])
def test_s001_05b_uncovered_face_down_queen_chooses(choice: str, queue: str, red: int) -> None:
    """S001-05b: an uncovered face-down Queen (1 IP) may be kept hidden (2 IP) or revealed (+1, +2)."""
    g = table("p2:felon p1:~queen+1/p1:~impersonation p3:~schemer+1", scores=[2, 3, 1], pointer=1)
    play(g, "reveal", "target 1", "fetch aside")
    assert g.decision() == "keep_or_reveal" and g.current_player() == R and g.ptr == 1
    play(g, choice)
    assert qs(g) == f"p1:felon {queue} p3:~schemer+1"
    assert g.score[R] == red


# ---------------------------------------------------------------- Prince and Twin


def test_s001_06_prince_reveal_places_twin_last() -> None:
    """S001-06: the revealed Prince puts the Twin at the back, gains 1; the Twin acts this round."""
    g = table("p1:~prince+1 p2:~schemer", scores=[1, 1, 1])
    play(g, "reveal")
    assert g.decision() == "twin"
    assert legal(g) == ["place twin first", "place twin last"]  # never onto the Prince itself
    play(g, "place twin last")
    assert g.score[R] == 3  # 1 from the card, then the Prince's 1
    assert qs(g) == "p1:prince p2:~schemer p1:twin"
    play(g, "keep")
    assert g.is_over()
    assert g.score[R] == 4  # the Twin, after the pointer, gained 1 this round
    assert g.twins[R] == []


def test_s001_06_prince_twin_in_front_waits() -> None:
    """S001-06: a Twin put in front of the pointer does not act this round."""
    g = table("p1:~prince+1 p2:~schemer", scores=[1, 1, 1])
    play(g, "reveal", "place twin first")
    assert qs(g) == "p1:twin p1:prince p2:~schemer"
    play(g, "keep")
    assert g.is_over()
    assert g.score[R] == 3


def test_s001_06_prince_later_rounds_gain_without_twin() -> None:
    """S001-06: in later rounds the Prince gains 1 each activation and places no other Twin."""
    g = table("p1:~prince+1 p2:~schemer", scores=[1, 1, 1], round=5)
    play(g, "reveal", "place twin last")
    assert g.score[R] == 3
    play(g, "keep")
    # Round 5 ended with the Twin's 1; in round 6 (nobody has cards to place) the
    # Prince gained 1 and asked nothing: Blue's card is the first decision.
    assert g.round == 6 and g.decision() == "keep_or_reveal" and g.current_player() == B
    assert g.score[R] == 5
    play(g, "keep")
    assert g.score[R] == 6 and g.is_over()


def test_s001_06_twin_onto_face_down_card_keeps_its_ip() -> None:
    """S001-06: the Twin placed onto Red's face-down card covers it; that card keeps its IP."""
    g = table("p1:~prince+1 p1:~felon+2 p2:~schemer", scores=[1, 1, 1])
    play(g, "reveal")
    assert "place twin on 2" in legal(g)
    play(g, "place twin on 2")
    # 1 from the card and 1 for the Prince; then the Twin, top of position 2, acted (+1).
    assert qs(g) == "p1:prince p1:~felon+2/p1:twin p2:~schemer"
    assert g.score[R] == 4
    assert g.current_player() == B and g.ptr == 2


def test_s001_07_prince_eliminated_discards_twin() -> None:
    """S001-07: Blue's Soldier eliminates Red's Prince (+1); Red's uncovered Twin is discarded for nothing."""
    g = table("p2:soldier p1:prince p1:twin", deck=WITH_SOLDIER, scores=[0, 0, 0])
    assert g.is_over()
    assert qs(g) == "p2:soldier"
    assert g.score == [0, 1, 0]
    assert discard_pile(g, R) == ["prince", "twin"]
    discarded = events_of(g, ev.DISCARDED)
    assert [g.kind[e[2]] for e in discarded] == [TWIN]


def test_s001_07b_twin_covered_survives() -> None:
    """S001-07b: a covered Twin is not discarded when its Prince is eliminated."""
    g = table("p2:soldier p1:prince p1:twin/p1:~schemer", deck=WITH_SOLDIER, scores=[0, 0, 0])
    assert g.decision() == "keep_or_reveal" and g.current_player() == R
    assert qs(g) == "p2:soldier p1:twin/p1:~schemer"
    assert discard_pile(g, R) == ["prince"]


def test_s001_07c_twin_eliminated_discards_prince() -> None:
    """S001-07c: eliminating the Twin discards the uncovered Prince."""
    g = table("p2:soldier p1:twin p1:prince", deck=WITH_SOLDIER, scores=[0, 0, 0])
    assert g.is_over()
    assert qs(g) == "p2:soldier"
    assert g.score == [0, 1, 0]
    assert discard_pile(g, R) == ["prince", "twin"]


def test_s001_07c_covered_prince_survives() -> None:
    """S001-07c: a covered Prince stays when its Twin is eliminated."""
    g = table("p2:soldier p1:twin p1:prince/p1:~schemer", deck=WITH_SOLDIER, scores=[0, 0, 0])
    assert qs(g) == "p2:soldier p1:prince/p1:~schemer"
    assert discard_pile(g, R) == ["twin"]


def test_s001_08a_two_princes_one_twin_prince_eliminated() -> None:
    """S001-08a: the bribed Prince eliminated discards Red's Twin; Red's own Prince stays (no chain)."""
    g = table(
        "p1:prince p3:soldier p2:prince@p1 p2:~schemer p1:twin",
        deck=WITH_SOLDIER,
        scores=[0, 0, 0],
        pointer=1,
    )
    assert legal(g) == ["target 1", "target 3"]
    play(g, "target 3")
    assert g.score == [0, 0, 1]
    assert qs(g) == "p1:prince p3:soldier p2:~schemer"
    assert discard_pile(g, B) == ["prince"]
    assert discard_pile(g, R) == ["twin"]
    bprince = next(c for c in g.discards[B])
    assert g.bribed_by[bprince] == -1 and g.ctrl[bprince] == B
    assert g.current_player() == B and g.ptr == 2


def test_s001_08b_two_princes_one_twin_twin_eliminated() -> None:
    """S001-08b: Green's Archer shoots Red's Twin; both Princes Red controls are discarded."""
    g = table(
        "p1:prince p3:archer p2:prince@p1 p2:~schemer p1:twin", deck=WITH_SOLDIER, scores=[0, 0, 0], pointer=1
    )
    assert legal(g) == ["target 1", "target 5"]
    play(g, "target 5")
    assert g.score == [0, 0, 1]
    assert qs(g) == "p3:archer p2:~schemer"
    assert discard_pile(g, R) == ["prince", "twin"]
    assert discard_pile(g, B) == ["prince"]
    assert all(b == -1 for b in g.bribed_by)
    assert g.current_player() == B and g.ptr == 1  # the removal before the pointer shifted it


# ---------------------------------------------------------------- Schemer


@pytest.mark.parametrize(("gain", "red"), [(1, 1), (2, 2)])
def test_s001_09a_schemer_gains(gain: int, red: int) -> None:
    """S001-09a: a Schemer with no stack beside it gains 1 (2 with the rule option)."""
    g = table("p1:schemer p2:~felon", scores=[0, 0, 0], rules=RuleOptions(schemer_gain=gain))
    assert g.decision() == "keep_or_reveal" and g.current_player() == B
    assert g.score == [red, 0, 0]
    assert qs(g) == "p1:schemer p2:~felon"


def test_s001_09b_schemer_next_to_stack_is_discarded() -> None:
    """S001-09b: a Schemer beside a stack is discarded; nobody gains, nothing is eliminated."""
    g = table("p1:schemer p2:queen/p2:~felon", scores=[0, 0, 0])
    assert discard_pile(g, R) == ["schemer"]
    assert g.score == [0, 0, 0]
    assert events_of(g, ev.ELIMINATED) == []
    assert qs(g) == "p2:queen/p2:~felon"
    assert g.decision() == "keep_or_reveal" and g.current_player() == B and g.ptr == 0


def test_s001_09_schemer_own_stack_counts_too() -> None:
    """S001-09: a stack of the Schemer's own family also gets it discarded."""
    g = table("p1:schemer p1:queen/p1:~felon", scores=[0, 0, 0])
    assert discard_pile(g, R) == ["schemer"]
    assert g.score == [0, 0, 0]


# ---------------------------------------------------------------- Queen


def test_s001_10a_queen_gains_two() -> None:
    """S001-10a: a face-up Queen gains 2."""
    g = table("p1:queen p2:~schemer", scores=[0, 0, 0])
    assert g.score == [2, 0, 0]


def test_s001_10b_opponent_eliminating_queen_gains_extra() -> None:
    """S001-10b: Blue's Soldier eliminating Red's Queen gains 1 + 1."""
    g = table("p2:soldier p1:queen", deck=WITH_SOLDIER, scores=[0, 0, 0])
    assert g.is_over()
    assert g.score == [0, 2, 0]
    assert discard_pile(g, R) == ["queen"]


def test_s001_10c_own_soldier_eliminating_own_queen_gains_one() -> None:
    """S001-10c: Red's own Soldier eliminating Red's Queen gains only 1."""
    g = table("p1:soldier p1:queen", deck=WITH_SOLDIER, scores=[0, 0, 0])
    assert g.is_over()
    assert g.score == [1, 0, 0]


# ---------------------------------------------------------------- Cutthroat


def test_s001_11a_cutthroat_one_felon_gains_nothing() -> None:
    """S001-11a: one Felon eliminated, no other opponent Felon revealed: 0 IP."""
    g = table("p1:cutthroat p2:felon", scores=[0, 0, 0])
    assert g.is_over()
    assert qs(g) == "p1:cutthroat"
    assert g.score == [0, 0, 0]
    assert discard_pile(g, B) == ["felon"]


def test_s001_11b_cutthroat_two_felons_gains_two() -> None:
    """S001-11b: the adjacent Felon and Green's revealed Felon are both eliminated: 2 IP."""
    g = table("p1:cutthroat p2:felon p3:~schemer p3:felon", scores=[0, 0, 0])
    assert g.score == [2, 0, 0]
    assert qs(g) == "p1:cutthroat p3:~schemer"
    assert discard_pile(g, B) == ["felon"] and discard_pile(g, G) == ["felon"]
    assert g.current_player() == G


def test_s001_11c_cutthroat_one_queen_gains_the_bonus() -> None:
    """S001-11c: one opponent Queen: 0 for eliminating, 1 Queen bonus."""
    g = table("p1:cutthroat p2:queen", scores=[0, 0, 0])
    assert g.score == [1, 0, 0]


def test_s001_11d_cutthroat_two_queens_gains_four() -> None:
    """S001-11d: two opponent Queens: 2 for eliminating, 1 + 1 Queen bonus."""
    g = table("p1:cutthroat p2:queen p3:~schemer p3:queen", scores=[0, 0, 0])
    assert g.score == [4, 0, 0]
    assert qs(g) == "p1:cutthroat p3:~schemer"


def test_s001_11_cutthroat_sweep_skips_hidden_covered_and_own() -> None:
    """S001-11: a face-down, a covered and Red's own Felon are not swept: one elimination, 0 IP."""
    g = table("p1:cutthroat p2:felon p3:~felon p1:felon p4:felon/p4:~schemer", players=4, scores=[0, 0, 0, 0])
    assert g.decision() == "keep_or_reveal" and g.current_player() == G
    assert qs(g) == "p1:cutthroat p3:~felon p1:felon p4:felon/p4:~schemer"
    assert g.score == [0, 0, 0, 0]
    assert discard_pile(g, B) == ["felon"]


def test_s001_11_cutthroat_face_down_target_name_decides() -> None:
    """S001-11 [picked]: a face-down target's revealed name decides the sweep (Queen: 2 + 1 + 1)."""
    g = table("p1:cutthroat p2:~queen+1 p3:queen", scores=[0, 0, 0])
    assert g.is_over()
    assert qs(g) == "p1:cutthroat"
    assert g.score == [4, 0, 0]


# ---------------------------------------------------------------- Apothecary


def test_s001_12_apothecary_targets_next_to_own_card() -> None:
    """S001-12: targets are the neighbours of Red's other card; Green's Queen gives 1 + 1."""
    g = table("p2:~schemer+1 p1:~felon p3:queen p1:apothecary", scores=[0, 0, 0], pointer=3)
    assert legal(g) == ["target 1", "target 3"]
    play(g, "target 3")
    assert g.is_over()
    assert g.score == [2, 0, 0]
    assert qs(g) == "p2:~schemer+1 p1:~felon p1:apothecary"


def test_s001_12_apothecary_may_target_itself_beside_own_card() -> None:
    """S001-12 [picked]: the Apothecary is a target when it sits next to another Red card."""
    g = table("p2:~schemer p1:~felon p1:apothecary", scores=[0, 0, 0], pointer=2)
    assert legal(g) == ["target 1", "target 3"]
    play(g, "target 3")
    assert qs(g) == "p2:~schemer p1:~felon"
    assert g.score == [1, 0, 0]
    assert discard_pile(g, R) == ["apothecary"]


def test_s001_12_apothecary_alone_does_nothing() -> None:
    """S001-12: with no other Red card in the queue, the Apothecary has no effect."""
    g = table("p1:apothecary p2:~schemer p3:queen", scores=[0, 0, 0])
    assert g.decision() == "keep_or_reveal" and g.current_player() == B
    assert qs(g) == "p1:apothecary p2:~schemer p3:queen"
    assert g.score == [0, 0, 0]
    assert [e[4] for e in events_of(g, ev.NO_EFFECT)] == [g.kind[g.queue[0]]]


# ---------------------------------------------------------------- Trap


def test_s001_13_trap_eliminated_by_opponent_apothecary() -> None:
    """S001-13 (Trap Example 1): Blue +1, Red steals 3, Blue's Apothecary is discarded."""
    g = table("p2:apothecary p3:~schemer p2:~felon+1 p1:~trap+2", scores=[1, 2, 0])
    assert legal(g) == ["target 2", "target 4"]
    play(g, "target 4")
    assert g.score == [4, 0, 0]
    assert qs(g) == "p3:~schemer p2:~felon+1"
    assert discard_pile(g, B) == ["apothecary"]
    assert discard_pile(g, R) == ["trap"]
    assert g.current_player() == G and g.ptr == 0  # Green's card slid into position 1


def test_s001_13_trap_steals_only_what_the_attacker_has() -> None:
    """S001-13 variant: Blue had 0, gains 1 for eliminating, loses that 1: Blue 0, Red 2."""
    g = table("p2:apothecary p3:~schemer p2:~felon+1 p1:~trap+2", scores=[1, 0, 0])
    play(g, "target 4")
    assert g.score == [2, 0, 0]
    steals = events_of(g, ev.STOLEN)
    assert [(e[1], e[4], e[5]) for e in steals] == [(R, 1, B)]


def test_s001_14_trap_eliminated_by_own_apothecary() -> None:
    """S001-14 (Trap Example 2): Red's own Apothecary on Red's Trap: +1 only; the Apothecary stays."""
    g = table("p1:apothecary p1:~felon p1:~trap+2", scores=[0, 0, 0])
    assert legal(g) == ["target 1", "target 2", "target 3"]
    play(g, "target 3")
    assert g.score == [1, 0, 0]
    assert qs(g) == "p1:apothecary p1:~felon"
    assert discard_pile(g, R) == ["trap"]


def test_s001_15_trap_revealed_by_owner() -> None:
    """S001-15: Red reveals the Trap: its 3 IP go to the supply, Red gains 1, the Trap is discarded."""
    g = table("p1:~trap+3", scores=[0, 0, 0])
    play(g, "reveal")
    assert g.is_over()
    assert g.score == [1, 0, 0]
    assert qs(g) == ""
    assert discard_pile(g, R) == ["trap"]


# ---------------------------------------------------------------- Felon


def test_s001_16_felon_everyone_pays() -> None:
    """S001-16: the Felon costs every player 1 per adjacent card, its own controller included."""
    g = table("p1:~schemer p1:felon p2:~schemer", scores=[2, 2, 2], pointer=1)
    assert g.score == [1, 1, 2]


def test_s001_16_felon_not_below_zero() -> None:
    """S001-16: a player with 0 IP loses nothing."""
    g = table("p1:~schemer p1:felon p2:~schemer", scores=[0, 2, 2], pointer=1)
    assert g.score == [0, 1, 2]


def test_s001_16_felon_counts_a_stack_once_for_its_top() -> None:
    """S001-16: an adjacent stack costs the controller of its top card 1, once."""
    g = table("p2:queen/p2:~schemer p1:felon p3:~schemer", scores=[2, 2, 2], pointer=1)
    assert g.score == [2, 1, 1]


# ---------------------------------------------------------------- Impersonation


def test_s001_17_impersonation_on_stack_top_no_replacement() -> None:
    """S001-17: eliminating the top of Blue's stack (a Queen) gives 1 + 1 and brings no Red Queen."""
    g = table("p1:~impersonation p2:felon/p2:queen p2:~schemer", scores=[0, 1, 0])
    assert "queen" in aside_pile(g, R)
    play(g, "reveal")  # its only neighbour is the forced target
    # Blue's uncovered Felon slid into position 1 and acted at once (Blue's own card beside it).
    assert g.score == [2, 0, 0]
    assert qs(g) == "p2:felon p2:~schemer"
    assert "queen" in aside_pile(g, R)
    assert events_of(g, ev.REPLACED) == []
    assert g.current_player() == B and g.ptr == 1


def test_s001_18_impersonation_replaces_prince_without_twin() -> None:
    """S001-18: Red's set-aside Prince replaces Blue's; Blue's Twin is discarded; no Red Twin comes."""
    g = table("p1:~impersonation p2:prince p2:twin", scores=[0, 0, 0])
    assert "prince" in aside_pile(g, R)
    play(g, "reveal", "fetch aside")
    assert g.is_over()
    assert qs(g) == "p1:prince"
    assert discard_pile(g, B) == ["prince", "twin"]
    assert g.twins[R] != []  # Red's Twin still waits aside
    assert g.score == [2, 0, 0]  # 1 for eliminating, then the new Prince (slid to 1) gained 1


def test_s001_19a_impersonation_twin_not_fetched_from_waiting_aside() -> None:
    """S001-19a: Red's Twin never entered play, so Blue's eliminated Twin is not replaced."""
    g = table("p1:~impersonation p2:twin p3:~schemer p2:prince", scores=[0, 0, 0])
    play(g, "reveal")
    assert legal(g) == ["fetch nowhere"]  # asked all the same (§11, silent choices)
    play(g, "fetch nowhere")
    assert qs(g) == "p3:~schemer"
    assert discard_pile(g, B) == ["prince", "twin"]
    assert g.twins[R] != []
    assert g.score == [1, 0, 0]
    assert g.current_player() == G


def test_s001_19b_impersonation_twin_from_discard() -> None:
    """S001-19b: Red's Twin in Red's discard pile comes back in Blue's Twin's place."""
    g = table("p1:~impersonation p2:twin p3:~schemer p2:prince", scores=[0, 0, 0], discards={R: "twin"})
    play(g, "reveal")
    assert legal(g) == ["fetch discard"]
    play(g, "fetch discard")
    assert qs(g) == "p1:twin p3:~schemer"
    assert discard_pile(g, R) == ["impersonation"]
    assert g.score == [2, 0, 0]  # 1 for eliminating, then Red's Twin (slid to 1) gained 1
    assert g.current_player() == G


def test_s001_19_impersonation_on_intrigue_no_replacement() -> None:
    """S001-19: eliminating an opponent's intrigue brings nothing in."""
    g = table("p1:~impersonation p2:~plot+1", scores=[0, 0, 0])
    play(g, "reveal")
    assert g.is_over()
    assert qs(g) == ""
    assert g.score == [1, 0, 0]
    assert "plot" in aside_pile(g, R)


def test_s001_19_impersonation_on_own_character_no_replacement() -> None:
    """S001-19: eliminating one's own character brings nothing in (and no Queen bonus)."""
    g = table("p1:~impersonation p1:queen", scores=[0, 0, 0])
    play(g, "reveal")
    assert g.is_over()
    assert qs(g) == ""
    assert g.score == [1, 0, 0]
    assert discard_pile(g, R) == ["impersonation", "queen"]


def test_s001_19_impersonation_face_down_opponent_character_counts() -> None:
    """S001-19 [picked]: a face-down opponent character is replaced too (Queen: 1 + 1, then +2)."""
    g = table("p1:~impersonation p2:~queen+2", scores=[0, 0, 0])
    play(g, "reveal", "fetch aside")
    assert g.is_over()
    assert qs(g) == "p1:queen"
    assert g.score == [4, 0, 0]


# ---------------------------------------------------------------- Bribery


def test_s001_20_bribery_takes_control() -> None:
    """S001-20: Red bribes Blue's Lord; it slides into position 1 and acts for Red: 1 + 1."""
    g = table("p1:~bribery+1 p2:lord p1:~felon", deck=WITH_LORD, scores=[0, 0, 0])
    play(g, "reveal")
    assert qs(g) == "p2:lord@p1 p1:~felon"
    assert g.score == [3, 0, 0]
    assert discard_pile(g, R) == ["bribery"]
    assert g.current_player() == R and g.ptr == 1


def test_s001_20_bribery_legal_targets() -> None:
    """S001-20: only revealed characters outside any stack, not already Red's, can be bribed."""
    g = table(
        "p1:~bribery p2:lord p3:~heir p3:~felon/p3:queen p1:queen p2:spy", deck=WITH_LORD, scores=[0, 0, 0]
    )
    play(g, "reveal")
    assert legal(g) == ["target 2", "target 6"]


def test_s001_20_bribery_without_target_is_discarded() -> None:
    """S001-20: no target: nothing happens and the Bribery is still discarded."""
    g = table("p1:~bribery p2:~heir p2:queen/p2:~felon", deck=WITH_LORD, scores=[0, 0, 0])
    play(g, "reveal")
    assert qs(g) == "p2:~heir p2:queen/p2:~felon"
    assert discard_pile(g, R) == ["bribery"]
    assert all(b == -1 for b in g.bribed_by)


def test_s001_21_bribery_rebribe_returns_the_old_token() -> None:
    """S001-21: Green's Bribery on Blue's Lord held by Red: Red's token returns, Green controls it."""
    g = table("p3:~bribery p2:lord@p1 p3:~heir", deck=WITH_LORD, scores=[0, 0, 0])
    play(g, "reveal")
    lord = g.queue[0]
    assert qs(g) == "p2:lord@p3 p3:~heir"
    assert g.ctrl[lord] == G and g.bribed_by[lord] == G
    returned = [e for e in g.events if e[0] == ev.BRIBE_RETURNED]
    assert [(e[1], e[2]) for e in returned] == [(R, lord)]
    assert g.score == [0, 0, 2]  # the Lord acted for Green: 1 + Green's card beside it


def test_s001_21_bribed_card_leaving_goes_to_owner() -> None:
    """S001-21: Yellow's Soldier eliminates the bribed Lord: Yellow +1, Lord to Blue's pile, token back."""
    g = table("p4:soldier p2:lord@p1", players=4, deck=WITH_LORD, scores=[0, 0, 0, 0])
    assert g.is_over()
    assert g.score == [0, 0, 0, 1]
    assert discard_pile(g, B) == ["lord"] and discard_pile(g, R) == []
    lord = g.discards[B][0]
    assert g.ctrl[lord] == B and g.bribed_by[lord] == -1
    assert [e[1] for e in events_of(g, ev.BRIBE_RETURNED)] == [R]
    assert g.winners == (Y,)


# ---------------------------------------------------------------- Plot


def test_s001_22_plot_repeats_with_its_ip() -> None:
    """S001-22: Plot with 2 IP: the Queen (+2), again for the first IP (+2), the second IP taken (+1)."""
    g = table("p1:queen p1:~plot+2", scores=[0, 0, 0], pointer=1)
    play(g, "reveal")
    assert g.score == [2, 0, 0]  # the only revealed Red character was applied at once
    assert g.decision() == "plot_ip"
    assert legal(g) == ["gain", "use 1"]
    play(g, "use 1")
    assert g.score == [4, 0, 0]
    play(g, "gain")
    assert g.is_over()
    assert g.score == [5, 0, 0]
    assert qs(g) == "p1:queen"
    assert discard_pile(g, R) == ["plot"]


def test_s001_22b_plot_without_revealed_character_gains_its_ip() -> None:
    """S001-22b: no revealed Red character: the 2 IP on the Plot are simply gained."""
    g = table("p1:~plot+2 p1:~queen p2:queen", scores=[0, 0, 0])
    play(g, "reveal")
    assert g.score[R] == 2
    assert qs(g) == "p1:~queen p2:queen"


def test_s001_22c_plot_apothecary_on_opponent_trap() -> None:
    """S001-22c: the Apothecary applied through Plot is the eliminating card: Blue's Trap discards it."""
    g = table("p1:apothecary p1:~felon p2:~trap+1 p1:~plot", scores=[3, 0, 0], pointer=3)
    play(g, "reveal")
    assert legal(g) == ["target 1", "target 3"]
    play(g, "target 3")
    assert g.is_over()
    assert g.score == [1, 3, 0]  # Red 3 + 1 for eliminating, then Blue steals 3
    assert qs(g) == "p1:~felon"
    assert discard_pile(g, R) == ["apothecary", "plot"]
    assert discard_pile(g, B) == ["trap"]
