"""Named scenario tests for the Ablaze cards: one test per ruling of docs/rules.md §7.

The worked examples of the Ablaze rulebook are in test_ablaze_examples.py; this
file covers the remaining clauses and rulings card by card. Players: Red p1,
Blue p2, Green p3, Yellow p4. Positions are built in round 6 unless the ruling
depends on the round, so the game ends with the resolution under test.
"""

from __future__ import annotations

import pytest
from support.ablaze import (
    WITH_AMBUSH,
    WITH_LORD,
    WITH_SHAPESHIFTER,
    WITH_SOLDIER,
    B,
    G,
    R,
    aside_pile,
    discard_pile,
    events_of,
    legal,
    play,
    qs,
    table,
)

from oriflamme.engine import events as ev
from oriflamme.engine.options import RuleOptions
from oriflamme.notation.position import build_position, queue_string

# ---------------------------------------------------------------- Prince and Twin


def test_prince_twin_only_at_the_ends_in_round_one() -> None:
    """§7 Prince: the Twin follows the placement rules: no stacking in round 1."""
    g = table("p1:~prince p1:~felon p2:~schemer", round=1)
    play(g, "reveal")
    assert legal(g) == ["place twin first", "place twin last"]


def test_prince_twin_onto_own_cards_but_never_a_prince() -> None:
    """§7 Prince: from round 2 the Twin may go onto a card Red controls (bribed too), never onto a Prince."""
    g = table("p1:~prince+1 p1:~felon p2:~schemer p1:~schemer/p1:queen p2:prince@p1 p3:queen@p1", round=2)
    play(g, "reveal")
    assert legal(g) == [
        "place twin first",
        "place twin last",
        "place twin on 2",
        "place twin on 4",
        "place twin on 6",
    ]


def test_prince_gains_after_placing_the_twin() -> None:
    """§7 Prince: the Twin is placed, then the Prince gains 1."""
    g = table("p1:~prince p2:~schemer", scores=[0, 0, 0])
    play(g, "reveal")
    play(g, "place twin last")
    codes = [e[0] for e in g.events if e[0] in (ev.TWIN_PLACED, ev.GAINED)]
    assert codes[:2] == [ev.TWIN_PLACED, ev.GAINED]
    assert g.score[R] == 1


def test_prince_revealed_with_twin_gone_just_gains() -> None:
    """§7 Prince: with the family's Twin already out of play, the revealed Prince just gains 1 (+ its IP)."""
    g = table("p1:~prince+2 p2:~schemer", scores=[0, 0, 0], discards={R: "twin"})
    play(g, "reveal")
    assert g.decision() == "keep_or_reveal" and g.current_player() == B
    assert g.score[R] == 3
    assert qs(g) == "p1:prince p2:~schemer"


def test_shapeshifter_copying_prince_gains_one_no_twin() -> None:
    """§6/§7: a Shapeshifter copying a Prince gains 1 and places no Twin (reveal-only clause)."""
    g = table("p1:shapeshifter p2:prince", deck=WITH_SHAPESHIFTER, scores=[0, 0, 0])
    assert g.is_over()
    assert g.score == [1, 1, 0]  # Red's copy gained 1, then Blue's Prince gained 1
    assert qs(g) == "p1:shapeshifter p2:prince"
    assert len(g.twins[R]) == 1


def test_twin_gains_one() -> None:
    """§7 Twin: a face-up Twin gains 1."""
    g = table("p1:twin p2:~schemer", scores=[0, 0, 0])
    assert g.score == [1, 0, 0]


def test_prince_twin_link_is_per_family() -> None:
    """§7: eliminating Red's Prince leaves Blue's Twin alone."""
    g = table("p2:soldier p1:prince p2:twin", deck=WITH_SOLDIER, scores=[0, 0, 0])
    assert g.is_over()
    assert qs(g) == "p2:soldier p2:twin"
    assert discard_pile(g, R) == ["prince"]
    assert g.score == [0, 2, 0]  # 1 for eliminating, 1 from Blue's Twin acting afterwards


def test_one_prince_two_twins_prince_eliminated_discards_both() -> None:
    """§7: a family controlling 2 Twins loses every uncovered one when its Prince is eliminated."""
    g = table("p2:twin@p1 p3:soldier p1:prince p1:twin", deck=WITH_SOLDIER, scores=[0, 0, 0], pointer=1)
    play(g, "target 3")
    assert qs(g) == "p3:soldier"
    assert discard_pile(g, R) == ["prince", "twin"]
    assert discard_pile(g, B) == ["twin"]


def test_one_prince_two_twins_twin_eliminated_discards_prince_only() -> None:
    """§7: eliminating one Twin discards the Prince; the other Twin stays (discards do not chain)."""
    g = table("p2:twin@p1 p3:soldier p1:prince p1:twin", deck=WITH_SOLDIER, scores=[0, 0, 0], pointer=1)
    play(g, "target 1")
    assert g.is_over()
    assert g.score == [1, 0, 1]  # Green 1 for eliminating; Red's remaining Twin acted later
    assert qs(g) == "p3:soldier p1:twin"
    assert discard_pile(g, R) == ["prince"]
    assert discard_pile(g, B) == ["twin"]


def test_prince_eliminated_with_twin_never_placed() -> None:
    """§7: a Prince whose Twin never entered play is eliminated: nothing else happens to the Twin."""
    g = table("p2:soldier p1:prince", deck=WITH_SOLDIER, scores=[0, 0, 0])
    assert qs(g) == "p2:soldier"
    assert len(g.twins[R]) == 1
    assert discard_pile(g, R) == ["prince"]


# ---------------------------------------------------------------- Queen


def test_queen_bonus_not_for_the_controller_of_a_bribed_queen() -> None:
    """§7 Queen + Bribery ruling: Red's Soldier eliminating Blue's Queen that Red controls gains 1 only."""
    g = table("p1:soldier p2:queen@p1", deck=WITH_SOLDIER, scores=[0, 0, 0])
    assert g.score == [1, 0, 0]
    assert discard_pile(g, B) == ["queen"]


def test_queen_bonus_for_her_owner_against_the_briber() -> None:
    """§7 Queen + Bribery ruling: Blue's Soldier eliminating its own Queen held by Red is an opponent: 2."""
    g = table("p2:soldier p2:queen@p1", deck=WITH_SOLDIER, scores=[0, 0, 0])
    assert g.score == [0, 2, 0]


# ---------------------------------------------------------------- Cutthroat


def test_cutthroat_own_target_sweeps_opponents_copies() -> None:
    """§7 Cutthroat [decided]: forced onto its own Queen, it sweeps Blue's revealed Queen: 2 + 1."""
    g = table("p1:cutthroat p1:queen p2:queen", scores=[0, 0, 0])
    assert g.is_over()
    assert qs(g) == "p1:cutthroat"
    assert g.score == [3, 0, 0]


def test_cutthroat_sweep_spares_cards_the_cutthroat_side_controls() -> None:
    """§7 Cutthroat + Bribery ruling: Green's Felon held by Red is Red's, so it is not swept: 0 IP."""
    g = table("p1:cutthroat p2:felon p3:felon@p1", scores=[0, 0, 0])
    assert qs(g) == "p1:cutthroat p3:felon@p1"
    assert g.score[R] == 0


def test_cutthroat_sweeps_princes_and_each_link_applies() -> None:
    """§7: a Cutthroat killing two Princes gains 2; each family's uncovered Twin is discarded."""
    g = table("p1:cutthroat p2:prince p3:prince p3:twin p2:twin", scores=[0, 0, 0])
    assert g.is_over()
    assert qs(g) == "p1:cutthroat"
    assert g.score == [2, 0, 0]
    assert discard_pile(g, B) == ["prince", "twin"] and discard_pile(g, G) == ["prince", "twin"]


def test_cutthroat_on_opponent_trap_gains_nothing_and_is_discarded() -> None:
    """§7 Cutthroat + Trap [decided]: a lone elimination earns 0, then Blue steals 3 and discards it."""
    g = table("p1:cutthroat p2:~trap+2", scores=[4, 0, 0])
    assert g.is_over()
    assert g.score == [1, 3, 0]
    assert qs(g) == ""
    assert discard_pile(g, R) == ["cutthroat"]


def test_cutthroat_without_neighbour_does_nothing() -> None:
    """§3/§7 Cutthroat: with no adjacent card the ability has no target and nothing happens."""
    g = table("p1:cutthroat", scores=[0, 0, 0])
    assert g.is_over()
    assert qs(g) == "p1:cutthroat"
    assert g.score == [0, 0, 0]
    assert len(events_of(g, ev.NO_EFFECT)) == 1


# ---------------------------------------------------------------- Apothecary


def test_apothecary_may_target_own_card() -> None:
    """§7 Apothecary: any card next to another Red card, Red's own and the Apothecary itself included."""
    g = table("p1:~felon p1:~schemer p1:apothecary p2:~queen", scores=[0, 0, 0], pointer=2)
    assert legal(g) == ["target 1", "target 2", "target 3"]
    play(g, "target 1")
    assert g.score[R] == 1
    assert discard_pile(g, R) == ["felon"]


def test_apothecary_counts_a_bribed_card_as_own() -> None:
    """§7 Apothecary + Bribery ruling: Green's Queen held by Red is "another card of your family"."""
    g = table("p1:apothecary p2:~schemer p3:queen@p1 p2:~felon", scores=[0, 0, 0])
    assert legal(g) == ["target 2", "target 4"]


def test_apothecary_is_discarded_by_opponent_ambush() -> None:
    """§4/§7: the Apothecary is the eliminating card: Blue's Ambush gives Blue 4 and discards it."""
    g = table("p1:apothecary p1:~schemer p2:~ambush+2", deck=WITH_AMBUSH, scores=[0, 0, 0])
    play(g, "target 3")
    assert g.score == [1, 4, 0]
    assert qs(g) == "p1:~schemer"
    assert discard_pile(g, R) == ["apothecary"]


# ---------------------------------------------------------------- Felon


def test_felon_two_neighbours_of_one_player() -> None:
    """§7 Felon: 1 per adjacent card: both neighbours Blue's, Blue loses 2."""
    g = table("p2:~schemer p1:felon p2:~queen", scores=[2, 2, 2], pointer=1)
    assert g.score == [2, 0, 2]


def test_felon_bribed_neighbour_costs_its_controller() -> None:
    """§7 Felon + Bribery ruling: the adjacent Blue Queen held by Green costs Green, not Blue."""
    g = table("p2:queen@p3 p1:felon", scores=[2, 2, 2], pointer=1)
    assert g.score == [2, 2, 1]


# ---------------------------------------------------------------- Schemer


def test_schemer_stack_formed_before_it_resolves() -> None:
    """§7 Schemer: tested when it resolves: a Twin stacked beside it this round discards it."""
    g = table("p1:~prince p1:~felon p1:schemer", round=2, scores=[0, 0, 0], hands={B: "queen"})
    play(g, "reveal", "place twin on 2")
    assert g.round == 3 and g.decision() == "place"  # stopped at Blue's placement in round 3
    assert discard_pile(g, R) == ["schemer"]
    assert qs(g) == "p1:prince p1:~felon/p1:twin"
    assert g.score[R] == 2  # Prince 1, Twin 1, nothing for the Schemer


def test_schemer_stack_gone_before_it_resolves() -> None:
    """§7 Schemer: a stack that came apart before the Schemer resolves no longer counts: it gains 1."""
    g = table("p3:heir/p3:~assassination p1:schemer p2:~cutthroat", deck=WITH_AMBUSH, scores=[0, 0, 0])
    play(g, "reveal", "target 3")
    assert qs(g) == "p3:heir p1:schemer"
    assert g.score == [1, 0, 3]  # Green: 1 for eliminating, 2 for the uncovered Heir


def test_shapeshifter_copying_schemer_beside_stack_is_discarded() -> None:
    """§6/§7: "this card" is the Shapeshifter: copying the Schemer beside a stack discards it."""
    g = table(
        "p2:queen/p2:~felon p1:shapeshifter p2:schemer", deck=WITH_SHAPESHIFTER, scores=[0, 0, 0], pointer=1
    )
    assert discard_pile(g, R) == ["shapeshifter"]
    assert g.score[R] == 0


def test_bribed_schemer_discarded_goes_to_its_owner() -> None:
    """§7 Bribery: a bribed Schemer discarded beside a stack goes to Blue's pile; Red's token returns."""
    g = table("p2:schemer@p1 p3:queen/p3:~felon", scores=[0, 0, 0])
    assert discard_pile(g, B) == ["schemer"] and discard_pile(g, R) == []
    sch = g.discards[B][0]
    assert g.ctrl[sch] == B and g.bribed_by[sch] == -1
    assert [e[1] for e in events_of(g, ev.BRIBE_RETURNED)] == [R]


@pytest.mark.parametrize("gain", [1, 2])
def test_schemer_gain_rule_option(gain: int) -> None:
    """§7/§10: schemer_gain defaults to 1; the option 2 doubles it."""
    rules = RuleOptions() if gain == 1 else RuleOptions(schemer_gain=2)
    g = table("p1:schemer", scores=[0, 0, 0], rules=rules)
    assert g.score[R] == gain


# ---------------------------------------------------------------- Impersonation


@pytest.mark.parametrize("source", ["discard", "aside"])
def test_impersonation_chooses_discard_or_aside(source: str) -> None:
    """§7 Impersonation: with the character in both piles (2-player families), Red chooses where from."""
    g = build_position(
        2, "ablaze", "p1:~impersonation p2:queen", discards={R: "queen"}, scores=[0, 0], round=6
    )
    play(g, "reveal")
    assert g.decision() == "fetch"
    assert legal(g) == ["fetch discard", "fetch aside"]
    play(g, f"fetch {source}")
    assert qs(g) == "p1:queen"
    left = ["queen"] if source == "aside" else []
    assert [s for s in discard_pile(g, R) if s == "queen"] == left
    assert ("queen" in aside_pile(g, R)) == (source == "discard")


def test_impersonation_replacement_before_pointer_waits() -> None:
    """§3/§7: a replacement landing before the pointer does not act this round."""
    g = table("p2:queen p1:~impersonation", scores=[0, 0, 0], pointer=1)
    play(g, "reveal")
    assert legal(g) == ["fetch aside"]  # asked even with one answer (§11, silent choices)
    play(g, "fetch aside")
    assert g.is_over()
    assert qs(g) == "p1:queen"
    assert g.score == [2, 0, 0]  # 1 for eliminating + 1 Queen bonus, no Queen income


def test_impersonation_replacement_after_pointer_acts() -> None:
    """§3/§7: a replacement landing after the pointer resolves later this round."""
    g = table("p1:~impersonation p2:queen", scores=[0, 0, 0])
    play(g, "reveal", "fetch aside")
    assert g.is_over()
    assert qs(g) == "p1:queen"
    assert g.score == [4, 0, 0]


def test_impersonation_character_in_hand_is_not_fetched() -> None:
    """§7 Impersonation: only the discard pile and the set-aside cards are searched, not the hand."""
    g = table("p1:~impersonation p2:queen", scores=[0, 0, 0], hands={R: "queen"})
    play(g, "reveal")
    # Still asked, with nothing to take: the others must not learn that the set-aside cards lack one.
    assert g.decision() == "fetch" and legal(g) == ["fetch nowhere"]
    play(g, "fetch nowhere")
    assert g.is_over()
    assert qs(g) == ""
    assert g.score == [2, 0, 0]


def test_impersonation_on_own_bribed_card_no_replacement() -> None:
    """§7 Impersonation + Bribery ruling: Blue's Queen held by Red is Red's: no replacement, no bonus."""
    g = table("p1:~impersonation p2:queen@p1", scores=[0, 0, 0])
    play(g, "reveal")
    assert qs(g) == ""
    assert g.score == [1, 0, 0]
    assert "queen" in aside_pile(g, R)


def test_impersonation_prince_replacement_brings_no_twin() -> None:
    """§7 Impersonation: Red's Prince enters face up without Red's Twin; Blue's Twin is discarded."""
    g = table("p2:twin p1:~impersonation p2:prince p3:~schemer", scores=[0, 0, 0], pointer=1)
    play(g, "reveal", "target 3", "fetch aside")
    assert qs(g) == "p1:prince p3:~schemer"
    assert len(g.twins[R]) == 1
    assert discard_pile(g, B) == ["prince", "twin"]
    assert g.score[R] == 2  # 1 for eliminating, then Red's Prince (now next) gains 1


def test_impersonation_on_own_card_held_by_opponent_fetches_it_back() -> None:
    """§7 Impersonation + Bribery [decided]: Red's Queen held by Blue is Blue's; once eliminated it lies in
    Red's discard pile, so it is the Queen Red puts back (1 + Queen bonus 1, then it acts: 2)."""
    g = table("p1:~impersonation p1:queen@p2", scores=[0, 0, 0])
    play(g, "reveal")
    assert legal(g) == ["fetch discard"]
    play(g, "fetch discard")
    assert g.is_over()
    assert qs(g) == "p1:queen"
    assert g.score == [4, 0, 0]
    assert discard_pile(g, R) == ["impersonation"]
    assert [e[5] for e in events_of(g, ev.REPLACED)] == [0]  # from the discard pile


# ---------------------------------------------------------------- Plot


def test_plot_with_no_ip_applies_one_ability() -> None:
    """§7 Plot: with 0 IP on it, one ability is applied and nothing more is asked."""
    g = table("p1:queen p1:~plot", scores=[0, 0, 0], pointer=1)
    play(g, "reveal")
    assert g.is_over()
    assert g.score == [2, 0, 0]


def test_plot_with_three_ip_each_gain_or_use() -> None:
    """§7 Plot: 3 IP: after the first ability, each IP is taken (+1) or spent on another ability."""
    g = table("p1:queen p1:schemer p2:~felon p1:~plot+3", scores=[0, 0, 0], pointer=3)
    play(g, "reveal")
    assert g.decision() == "plot_character"
    assert legal(g) == ["use 1", "use 2"]
    play(g, "use 1")
    assert g.score[R] == 2
    for text, total in (("use 2", 3), ("gain", 4), ("use 1", 6)):
        assert g.decision() == "plot_ip"
        assert legal(g) == ["gain", "use 1", "use 2"]
        play(g, text)
        assert g.score[R] == total
    assert g.is_over()
    assert discard_pile(g, R) == ["plot"]


def test_plot_offers_only_revealed_uncovered_characters_red_controls() -> None:
    """§7 Plot: the characters offered are Red's revealed tops (bribed ones too), not covered or others'."""
    g = table("p1:queen/p1:~felon p2:schemer p3:queen@p1 p1:~schemer p1:~plot+1", scores=[0, 0, 0], pointer=4)
    play(g, "reveal")
    assert g.score[R] == 2  # the only one offered (Green's Queen, held by Red) was applied at once
    assert legal(g) == ["gain", "use 3"]


def test_plot_revealed_ip_are_not_gained_on_reveal() -> None:
    """§3/§7 Plot: revealing the Plot does not pay its IP; they are spent or taken one by one."""
    g = table("p1:queen p1:~plot+1", scores=[0, 0, 0], pointer=1)
    play(g, "reveal")
    assert g.score[R] == 2
    play(g, "gain")
    assert g.score[R] == 3


def test_plot_character_discarded_midway_rest_is_gained() -> None:
    """§7 Plot: once Red has no revealed character left, the remaining IP are gained."""
    g = table("p1:apothecary p1:~felon p2:~trap p1:~plot+2", scores=[3, 0, 0], pointer=3)
    play(g, "reveal", "target 3")
    # +1 for eliminating, Blue steals 3, the Apothecary is discarded, the 2 IP are gained.
    assert g.is_over()
    assert g.score == [3, 3, 0]
    assert discard_pile(g, R) == ["apothecary", "plot"]


def test_plot_soldier_on_opponent_ambush_is_discarded() -> None:
    """§4/§7 Plot: the character applied through Plot is the eliminating card (Ambush discards it)."""
    g = table("p2:~ambush p1:soldier p1:~plot", deck=WITH_AMBUSH, scores=[0, 0, 0], pointer=2)
    play(g, "reveal")  # the Soldier is the only character and the Ambush its only neighbour
    assert g.is_over()
    assert g.score == [1, 4, 0]
    assert qs(g) == ""
    assert discard_pile(g, R) == ["plot", "soldier"]


def test_plot_applying_prince_places_no_twin() -> None:
    """§7 Plot: applying the Prince's ability gains 1; the Twin comes only when its owner reveals it."""
    g = table("p1:prince p1:~plot", scores=[0, 0, 0], pointer=1)
    play(g, "reveal")
    assert g.is_over()
    assert g.score[R] == 1
    assert len(g.twins[R]) == 1


# ---------------------------------------------------------------- Trap


def test_trap_steals_from_the_bribing_controller() -> None:
    """§7 Trap + Bribery: Blue's Soldier held by Green kills Red's Trap: Red steals from Green."""
    g = table("p2:soldier@p3 p1:~trap+1", deck=WITH_SOLDIER, scores=[0, 5, 2])
    assert g.is_over()
    assert g.score == [3, 5, 0]  # Green 2 + 1, then Red steals 3
    assert discard_pile(g, B) == ["soldier"]
    assert discard_pile(g, R) == ["trap"]


def test_trap_own_family_by_bribery_only_one() -> None:
    """§7 Trap + Bribery ruling: Blue's Soldier held by Red eliminating Red's Trap: +1, it stays."""
    g = table("p2:soldier@p1 p1:~trap+1", deck=WITH_SOLDIER, scores=[0, 0, 0])
    assert g.score == [1, 0, 0]
    assert qs(g) == "p2:soldier@p1"


def test_trap_steal_with_fewer_than_three() -> None:
    """§7 Trap: the Trap's owner steals as many as the attacker has, up to 3."""
    g = table("p2:soldier p1:~trap", deck=WITH_SOLDIER, scores=[0, 1, 0])
    assert g.score == [2, 0, 0]


# ---------------------------------------------------------------- Bribery


def test_bribery_bribed_card_scores_for_briber() -> None:
    """§7 Bribery: the bribed Queen gains for Red."""
    g = table("p2:queen@p1", scores=[0, 0, 0])
    assert g.score == [2, 0, 0]


def test_bribery_lord_adjacency_follows_control() -> None:
    """§7 Bribery ruling: Red's Lord counts the Blue card Red controls; Blue's Lord does not."""
    g = table("p2:queen@p1 p1:lord", deck=WITH_LORD, scores=[0, 0, 0], pointer=1)
    assert g.score == [2, 0, 0]
    g = table("p2:queen@p1 p2:lord", deck=WITH_LORD, scores=[0, 0, 0], pointer=1)
    assert g.score == [0, 1, 0]


def test_bribery_stacking_onto_bribed_card() -> None:
    """§7 Bribery ruling: from round 2 Red may stack onto the card Red bribed; Blue may not."""
    g = build_position(
        3, WITH_LORD, "p2:queen@p1 p3:~heir", hands={R: "heir", B: "lord"}, round=2, phase="place"
    )
    assert g.current_player() == R
    assert legal(g) == ["place heir first", "place heir last", "place heir on 1"]
    play(g, "place heir first")
    assert g.current_player() == B
    assert legal(g) == ["place lord first", "place lord last"]


def test_bribery_spy_opponent_test_follows_control() -> None:
    """§7 Bribery ruling: a Spy beside only a card its player controls steals nothing."""
    g = table("p1:spy p2:queen@p1", deck=WITH_LORD, scores=[1, 1, 1], pointer=0)
    assert g.score == [3, 1, 1]  # the Spy took nothing, the Queen gained 2 for Red
    g = table("p2:spy p2:queen@p1", deck=WITH_LORD, scores=[1, 1, 1], pointer=0)
    assert g.score == [2, 2, 1]  # Blue's Spy stole 1 from Red, then the Queen gained 2 for Red


def test_bribery_tie_break_counts_bribed_positions() -> None:
    """§3/§7: the tie-break counts positions whose top card a player controls, bribed ones included."""
    queue = "p1:~felon p2:~heir p2:lord{}"
    g = table(queue.format("@p1"), deck=WITH_LORD, scores=[3, 3, 0], pointer=3)
    assert g.is_over() and g.winners == (R,)
    g = table(queue.format(""), deck=WITH_LORD, scores=[3, 3, 0], pointer=3)
    assert g.is_over() and g.winners == (B,)


def test_bribery_gains_the_ip_on_it() -> None:
    """§3/§7: Bribery pays its IP when revealed, as any card without an exception."""
    g = table("p1:~bribery+2 p2:~schemer", scores=[0, 0, 0])
    play(g, "reveal")
    assert g.score[R] == 2
    assert discard_pile(g, R) == ["bribery"]


def test_bribery_takes_back_own_card() -> None:
    """§7 Bribery [decided] + §11: Blue may bribe back its Lord held by Red: Red's token returns,
    and the Lord is simply Blue's again (no family holds its own card by a token)."""
    g = table("p2:~bribery p2:lord@p1 p1:~heir", deck=WITH_LORD, scores=[0, 0, 0])
    play(g, "reveal")
    lord = g.queue[0]
    assert g.ctrl[lord] == B
    assert g.bribed_by[lord] == -1
    assert [(e[1], e[2]) for e in g.events if e[0] == ev.BRIBE_RETURNED] == [(R, lord)]
    assert queue_string(g).startswith("p2:lord ")
    assert g.score == [0, 1, 0]  # the Lord acted for Blue: 1, no Blue card beside it


def test_bribed_twin_stays_when_its_owners_prince_falls() -> None:
    """§7: the link follows control: Blue's Twin held by Green survives Blue's Prince."""
    g = table("p1:soldier p2:prince p3:~heir p2:twin@p3", deck=WITH_SOLDIER, scores=[0, 0, 0])
    assert qs(g) == "p1:soldier p3:~heir p2:twin@p3"
    assert discard_pile(g, B) == ["prince"]


def test_bribed_prince_link_follows_control() -> None:
    """§7: Blue's Prince held by Red is eliminated: Red's Twin goes, Blue's own Twin stays."""
    g = table("p3:soldier p2:prince@p1 p1:twin p2:twin", deck=WITH_SOLDIER, scores=[0, 0, 0])
    assert qs(g) == "p3:soldier p2:twin"
    assert discard_pile(g, R) == ["twin"] and discard_pile(g, B) == ["prince"]
