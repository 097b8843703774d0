"""The Alliance cards, one ruling of docs/rules.md §8 per test (the seed examples are in test_alliance_examples).

Players: p1 = Red, p2 = Blue, p3 = Green. Positions are built in round 6 unless
a later round is needed, so the game ends after the resolution under test.
"""

from __future__ import annotations

from support.alliance import build, discards, hand_slugs, kept_slugs, legal, play, queue

from oriflamme.engine import events as ev
from oriflamme.engine.cards import SLUGS

#: Alliance with a Royal Decree in place of the Agreement (to move cards around).
DECREE_MIX = (
    "royal-decree,empress,fanatic,informant,diplomat,deserter,judge,insurrection,extortion,infiltration"
)
#: Alliance with an Ambush in place of the Agreement (an attacker-discarding victim).
AMBUSH_MIX = "ambush,empress,fanatic,informant,diplomat,deserter,judge,insurrection,extortion,infiltration"
#: Alliance with a Shapeshifter in place of the Agreement.
SHAPESHIFTER_MIX = (
    "shapeshifter,empress,fanatic,informant,diplomat,deserter,judge,insurrection,extortion,infiltration"
)


# ---------------------------------------------------------------- Empress


def test_empress_without_face_down_opponent_card_places_nothing() -> None:
    """§8 Empress: +2; no face-down opponent card → no IP placed and nothing asked."""
    g = build("p1:empress p2:diplomat p1:~fanatic", scores=[0, 0, 0])
    assert g.history == []
    assert g.score[0] == 2
    assert queue(g) == "p1:empress p2:diplomat p1:~fanatic"
    assert (g.decision(), g.current_player()) == ("mode", 1)  # next: p2's Diplomat


def test_empress_skips_face_up_tops_and_covered_cards() -> None:
    """§8 Empress: a face-up top (even over a face-down card) is no target; the one face-down top gets the IP."""
    g = build("p1:empress p2:~judge+1/p2:fanatic p3:~fanatic", scores=[0, 0, 0])
    assert queue(g) == "p1:empress p2:~judge+1/p2:fanatic p3:~fanatic+1"
    assert g.score == [2, 2, 0]
    assert (g.decision(), g.current_player()) == ("keep_or_reveal", 2)


# ---------------------------------------------------------------- Fanatic


def test_fanatic_gains_two_alone_one_with_company() -> None:
    """§8 Fanatic: +1, and +1 more only without another revealed own card in the queue."""
    alone = build("p1:fanatic p2:judge p1:~empress", scores=[0, 0, 0])
    assert alone.score[0] == 2
    company = build("p1:fanatic p2:~judge p1:diplomat", scores=[0, 0, 0])
    assert company.score[0] == 1


# ---------------------------------------------------------------- Informant


def test_informant_collect_mode_chosen_with_cards_in_hand() -> None:
    """§8 Informant: `collect` gains the IP of adjacent face-down opponent cards; they stay on the cards."""
    g = build("p2:~fanatic+2 p1:informant p3:~fanatic+3", scores=[0, 0, 0], pointer=1, hands={0: "judge"})
    assert legal(g) == ["collect", "exchange"]
    play(g, "collect")
    assert g.score[0] == 5
    assert queue(g) == "p2:~fanatic+2 p1:informant p3:~fanatic+3"
    assert hand_slugs(g, 0) == ["judge"]


def test_informant_exchange_with_one_hand_card_still_asks_which() -> None:
    """§8 Informant + §11 silent choices: with a single kind in hand the swap is still asked; the Informant goes to the hand."""
    g = build("p2:~fanatic+2 p1:informant p3:~fanatic+3", scores=[0, 0, 0], pointer=1, hands={0: "judge"})
    play(g, "exchange")
    assert (g.decision(), g.current_player(), legal(g)) == ("swap", 0, ["swap judge"])
    play(g, "swap judge")
    assert queue(g) == "p2:~fanatic+2 p1:~judge p3:~fanatic+3"
    assert hand_slugs(g, 0) == ["informant"]
    assert g.score[0] == 0
    assert (g.decision(), g.current_player(), g.ptr) == ("keep_or_reveal", 2, 2)


def test_informant_swapped_card_sleeps_even_when_decreed_after_the_pointer() -> None:
    """§3/§8: the swapped-in card acts only from the next round, even if a Royal Decree moves it later on."""
    g = build(
        "p1:informant p2:~royal-decree p3:~fanatic",
        deck=DECREE_MIX,
        scores=[0, 0, 0],
        hands={0: "fanatic judge"},
    )
    play(g, "exchange", "swap fanatic")
    assert queue(g) == "p1:~fanatic p2:~royal-decree p3:~fanatic"
    play(g, "reveal", "target 1")
    assert legal(g) == ["to 2", "to 3"]
    play(g, "to 3")
    assert queue(g) == "p3:~fanatic p1:~fanatic"
    assert (g.decision(), g.current_player()) == ("keep_or_reveal", 2)
    play(g, "keep")
    # The Fanatic was never asked to keep or reveal: it holds no IP and the game is over.
    assert g.is_over()
    assert queue(g) == "p3:~fanatic+1 p1:~fanatic"


def test_informant_without_hand_cards_collects_automatically() -> None:
    """§8 Informant: with an empty hand only `collect` is possible, so it is applied."""
    g = build("p2:~fanatic+2 p1:informant", scores=[0, 0, 0], pointer=1)
    assert g.history == []
    assert g.score[0] == 2


# ---------------------------------------------------------------- Diplomat


def test_diplomat_gift_chooses_among_other_revealed_diplomats() -> None:
    """§8 Diplomat: `gift` gains 1 and puts 2 IP on another revealed Diplomat of the player's choice."""
    g = build("p1:diplomat p2:diplomat p3:diplomat", scores=[0, 0, 0])
    play(g, "gift")
    assert g.score[0] == 1
    assert (g.decision(), legal(g)) == ("target", ["target 2", "target 3"])
    play(g, "target 3")
    assert queue(g).startswith("p1:diplomat p2:diplomat p3:diplomat+2")


def test_diplomat_cashout_takes_its_ip_and_is_discarded() -> None:
    """§8 Diplomat: `cashout` takes all IP on it; it is discarded, not eliminated (nobody gains 1)."""
    g = build("p1:diplomat+4 p2:~fanatic", scores=[0, 0, 0])
    events = play(g, "cashout")
    assert g.score == [4, 0, 0]
    assert discards(g, 0) == ["diplomat"]
    assert queue(g) == "p2:~fanatic"
    assert not any(e[0] == ev.ELIMINATED for e in events)


def test_diplomat_keeps_its_ip_while_covered() -> None:
    """§8/§5 Diplomat: IP on a Diplomat stay on it under a stack and are there when it is uncovered."""
    g = build(
        "p1:diplomat+2 p2:~fanatic",
        scores=[0, 0, 0],
        round=2,
        phase="place",
        hands={0: "extortion"},
    )
    play(g, "place extortion on 1")
    assert queue(g) == "p1:diplomat+2/p1:~extortion p2:~fanatic"
    play(g, "reveal")  # the Extortion leaves (+1); the Diplomat, uncovered, acts at once
    assert legal(g) == ["gift", "cashout"]
    play(g, "cashout")
    assert g.score[0] == 0 + 1 + 2
    assert queue(g) == "p2:~fanatic"


def test_diplomat_cashout_on_a_stack_uncovers_a_card_that_resolves_at_once() -> None:
    """§3/§8: the Diplomat leaving the top of a stack uncovers the card below, which resolves now."""
    g = build("p1:~fanatic+1/p1:diplomat+2 p2:~empress", scores=[0, 0, 0])
    play(g, "cashout")
    assert g.score[0] == 2
    assert queue(g) == "p1:~fanatic+1 p2:~empress"
    assert (g.decision(), g.current_player(), g.ptr) == ("keep_or_reveal", 0, 0)


def test_diplomat_ip_lost_when_eliminated() -> None:
    """§8 Diplomat: eliminated, its IP go to the supply; the eliminator gains only 1, its owner nothing."""
    g = build("p2:judge p1:diplomat+3!", scores=[0, 0, 0])
    play(g, "condemn")
    assert g.score == [0, 1, 0]
    assert discards(g, 0) == ["diplomat"]
    assert g.ip[g.discards[0][0]] == 0


# ---------------------------------------------------------------- Deserter


def test_deserter_character_victim_gives_one_more() -> None:
    """§8 Deserter: +1 for eliminating and +1 more because the victim was a character."""
    g = build("p3:judge p1:deserter p2:~fanatic+2", scores=[0, 0, 0], pointer=1)
    play(g, "target 3")
    assert g.score[0] == 2
    assert queue(g) == "p3:judge p1:deserter"


def test_deserter_stays_when_the_closed_queue_brings_a_revealed_character() -> None:
    """§8 Deserter: the check is made after the queue closes: the Judge that slides next to it keeps it."""
    g = build("p2:judge p1:~fanatic p1:deserter", scores=[0, 0, 0], pointer=2)
    assert g.score[0] == 2  # the only neighbour, own and face down, is eliminated
    assert queue(g) == "p2:judge p1:deserter"
    assert discards(g, 0) == ["fanatic"]


def test_deserter_counts_a_neighbouring_stack_by_its_top() -> None:
    """§8/§5 Deserter: a face-up character covered by a face-down card does not keep the Deserter."""
    gone = build("p1:deserter p2:~fanatic p2:judge/p2:~empress", scores=[0, 0, 0])
    assert queue(gone) == "p2:judge/p2:~empress"
    assert discards(gone, 0) == ["deserter"]
    stays = build("p1:deserter p2:~fanatic p2:~empress/p2:judge", scores=[0, 0, 0])
    assert queue(stays).startswith("p1:deserter p2:~empress/p2:judge")


def test_deserter_uncovering_a_revealed_character_stays() -> None:
    """§8 Deserter: eliminating a stack's top uncovers a revealed Judge, which is adjacent → it stays."""
    g = build("p1:deserter p2:judge/p2:~fanatic", scores=[0, 0, 0])
    assert queue(g) == "p1:deserter p2:judge"
    assert g.score[0] == 2
    assert (g.decision(), g.current_player()) == ("target", 1)  # the uncovered Judge resolves next


def test_deserter_discarded_from_a_stack_uncovers_a_card_that_resolves_at_once() -> None:
    """§3/§8: the Deserter discarded from the top of a stack lets the card below resolve at once."""
    g = build("p1:~fanatic+1/p1:deserter p2:~empress", scores=[0, 0, 0])
    assert g.score[0] == 2  # its only neighbour, a face-down character, is eliminated
    assert queue(g) == "p1:~fanatic+1"
    assert discards(g, 0) == ["deserter"]
    assert (g.decision(), g.current_player(), g.ptr) == ("keep_or_reveal", 0, 0)


def test_shapeshifter_copying_deserter_is_the_card_discarded() -> None:
    """§6/§8: "this card" is the Shapeshifter: it kills the lone Deserter and is then discarded itself."""
    g = build("p1:shapeshifter p2:deserter", deck=SHAPESHIFTER_MIX, scores=[0, 0, 0])
    assert g.score[0] == 2
    assert queue(g) == ""
    assert discards(g, 0) == ["shapeshifter"]
    assert discards(g, 1) == ["deserter"]


# ---------------------------------------------------------------- Judge


def test_judge_verdict_mode_then_target() -> None:
    """§8 Judge: with a verdict somewhere both modes are offered; `verdict` gains 1 and asks for the card."""
    g = build("p1:judge p2:~fanatic! p3:~fanatic", scores=[0, 0, 0])
    assert (g.decision(), legal(g)) == ("mode", ["verdict", "condemn"])
    play(g, "verdict")
    assert g.score[0] == 1
    # At most one verdict per card: the marked Fanatic is not offered; the Judge itself is.
    assert legal(g) == ["target 1", "target 3"]
    play(g, "target 3")
    assert queue(g).startswith("p1:judge p2:~fanatic! p3:~fanatic!")
    assert g.verdict_pool == 3


def test_judge_with_empty_pool_only_gains_one() -> None:
    """§8 ruling: with all 5 verdicts on cards, `verdict` gains 1 and places nothing."""
    g = build(
        "p1:judge p2:~fanatic! p2:~empress! p3:~fanatic! p3:~empress! p1:~fanatic!",
        scores=[0, 0, 0],
    )
    assert g.verdict_pool == 0
    play(g, "verdict")
    assert g.score[0] == 1
    assert g.verdict_pool == 0
    assert (g.decision(), g.current_player(), g.ptr) == ("keep_or_reveal", 1, 1)


def test_judge_condemn_chooses_among_marked_cards_and_returns_the_verdict() -> None:
    """§8 Judge: `condemn` eliminates a card bearing a verdict (+1); its verdict goes back to the pool."""
    g = build("p1:judge p2:~fanatic+2! p3:empress!", scores=[0, 0, 0])
    play(g, "condemn")
    assert legal(g) == ["target 2", "target 3"]
    play(g, "target 3")
    assert g.score[0] == 1
    assert queue(g).startswith("p1:judge p2:~fanatic+2!")
    assert g.verdict_pool == 4


def test_verdict_on_a_covered_card_cannot_be_condemned() -> None:
    """§4/§8: covered cards cannot be targeted, so a verdict under a stack does not offer `condemn`."""
    g = build("p2:judge p1:~empress!/p1:~fanatic", scores=[0, 0, 0])
    assert (g.decision(), legal(g)) == ("target", ["target 1", "target 2"])


def test_verdict_returns_when_its_card_is_discarded() -> None:
    """§8 ruling: a discarded Deserter's verdict goes back to the pool."""
    g = build("p1:deserter! p1:~fanatic", scores=[0, 0, 0])
    assert discards(g, 0) == ["fanatic", "deserter"]
    assert g.verdict_pool == 5
    assert not any(g.verdict)


def test_verdict_returns_when_its_card_is_kept() -> None:
    """§8 ruling: an Infiltration kept before its owner leaves the queue: its verdict returns."""
    g = build("p1:~infiltration! p2:~fanatic", scores=[0, 0, 0])
    play(g, "reveal")
    assert kept_slugs(g, 0) == ["infiltration"]
    assert g.verdict_pool == 5


def test_verdict_returns_when_informant_goes_back_to_hand() -> None:
    """§8 ruling: the Informant swapped back to the hand leaves its verdict in the pool."""
    g = build("p1:informant! p2:~fanatic", scores=[0, 0, 0], hands={0: "judge"})
    play(g, "exchange", "swap judge")
    assert queue(g) == "p1:~judge p2:~fanatic"
    assert g.verdict_pool == 5


def test_verdict_travels_with_a_decreed_card() -> None:
    """§6/§8: a Royal Decree moves the card with its verdict (moving is not leaving the queue)."""
    g = build("p1:~royal-decree p2:judge! p3:~fanatic", deck=DECREE_MIX, scores=[0, 0, 0])
    play(g, "reveal", "target 2", "to 3")
    assert queue(g) == "p3:~fanatic p2:judge!"
    assert g.verdict_pool == 4


# ---------------------------------------------------------------- Insurrection


def test_insurrection_with_one_neighbour_eliminates_it() -> None:
    """§8 Insurrection: a single neighbour is the only victim (pay 1 of 2, gain 1, +1)."""
    g = build("p1:~insurrection+2 p2:~fanatic", scores=[0, 0, 0])
    play(g, "reveal")
    assert g.score[0] == 2
    assert queue(g) == "p1:~insurrection"


def test_insurrection_second_victim_dies_even_after_ambush_discards_it() -> None:
    """Engine ruling (brief): the earlier neighbour first; the later one dies even if that discarded it."""
    g = build("p2:~ambush+1 p1:~insurrection+2 p3:~fanatic", deck=AMBUSH_MIX, scores=[0, 0, 0], pointer=1)
    play(g, "reveal")
    assert g.score == [1 + 1 + 1, 4, 0]
    assert queue(g) == ""
    assert discards(g, 0) == ["insurrection"]
    assert discards(g, 1) == ["ambush"]
    assert discards(g, 2) == ["fanatic"]


def test_insurrection_elimination_order_is_earlier_neighbour_first() -> None:
    """Engine ruling (brief): with two neighbours the earlier position is eliminated first."""
    g = build("p2:~fanatic p1:~insurrection+1 p3:~empress", scores=[0, 0, 0], pointer=1)
    out = play(g, "reveal")
    victims = [SLUGS[g.kind[e[2]]] + f"@p{g.owner[e[2]] + 1}" for e in out if e[0] == ev.ELIMINATED]
    assert victims == ["fanatic@p2", "empress@p3"]


def test_insurrection_turned_down_can_only_be_kept_next_round() -> None:
    """§8 Insurrection: it stays face down with 0 IP, so next round it can only be kept (+1 IP)."""
    g = build("p1:~insurrection+1 p2:~fanatic", scores=[0, 0, 0], round=5)
    play(g, "reveal")
    assert (g.round, g.decision(), legal(g)) == (6, "keep_or_reveal", ["keep"])
    play(g, "keep")
    assert g.is_over()
    assert len(g.history) == 2
    assert queue(g) == "p1:~insurrection+1"
    assert g.score[0] == 1


# ---------------------------------------------------------------- Extortion


def test_extortion_eliminated_by_opponent_judge() -> None:
    """§8 Extortion: B's Judge condemns it: R +2 per B position, B's face-down cards lose 1, the Judge stays."""
    g = build("p2:judge p1:~extortion+1! p2:~fanatic+1 p2:~empress", scores=[0, 0, 0], pointer=0)
    play(g, "condemn")
    assert g.score == [2 * 3, 1, 0]
    assert queue(g) == "p2:judge p2:~fanatic p2:~empress"
    assert discards(g, 0) == ["extortion"]


def test_extortion_eliminated_by_own_card_gives_only_one() -> None:
    """§8 Extortion [picked, like Ambush/Trap]: own card → +1 for eliminating only."""
    g = build("p1:judge p1:~extortion+1! p1:~fanatic+1", scores=[0, 0, 0])
    play(g, "condemn")
    assert g.score[0] == 1
    assert queue(g) == "p1:judge p1:~fanatic+1"


# ---------------------------------------------------------------- Infiltration


def test_infiltration_feeds_own_face_down_tops_only() -> None:
    """§8 Infiltration: +1 IP on each own face-down top card; opponents', face-up and covered get none."""
    g = build(
        "p1:~infiltration p1:~fanatic p2:~fanatic p1:judge p1:~empress+1/p1:~deserter",
        scores=[0, 0, 0],
    )
    play(g, "reveal")
    assert kept_slugs(g, 0) == ["infiltration"]
    assert g.score[0] == 0
    assert queue(g) == "p1:~fanatic+1 p2:~fanatic p1:judge p1:~empress+1/p1:~deserter+1"
    assert (g.decision(), g.current_player(), g.ptr) == ("keep_or_reveal", 0, 0)


def test_infiltration_bonus_only_for_face_down_victims() -> None:
    """§8 Infiltration: +2 more for a face-down victim (any family's), nothing more for a face-up one."""
    up = build("p1:judge p2:fanatic!", scores=[0, 0, 0], kept={0: "infiltration"})
    play(up, "condemn")
    assert up.score[0] == 1
    own_down = build("p1:deserter p1:~fanatic", scores=[0, 0, 0], kept={0: "infiltration"})
    assert own_down.score[0] == 1 + 1 + 2


def test_infiltration_bonus_belongs_to_its_owner_only() -> None:
    """§8 Infiltration: an opponent's kept Infiltration gives the eliminator nothing."""
    g = build("p1:judge p2:~fanatic!", scores=[0, 0, 0], kept={1: "infiltration"})
    play(g, "condemn")
    assert g.score == [1, 0, 0]


# ---------------------------------------------------------------- Agreement


def test_agreement_revealed_is_kept_with_its_ip_and_gains_nothing_now() -> None:
    """§8 Agreement: revealing takes no IP; the card and its IP lie before the owner."""
    g = build("p1:~agreement+2 p2:~fanatic", scores=[0, 0, 0])
    play(g, "reveal")
    assert g.score[0] == 0
    assert kept_slugs(g, 0) == ["agreement"]
    assert queue(g) == "p2:~fanatic"
    play(g, "keep")
    assert g.is_over()
    assert g.score[0] == 2  # counted at the end of the game


def test_agreement_income_each_round_while_owner_controls_a_position() -> None:
    """§8 Agreement: income at the start of every round in which the owner controls a position."""
    g = build("p1:~agreement+2 p1:~empress p2:~fanatic", scores=[0, 0, 0], round=3)
    play(g, "reveal", "keep", "keep")  # end of round 3
    assert (g.round, g.score[0]) == (4, 2)
    play(g, "keep", "keep")
    assert (g.round, g.score[0]) == (5, 4)
    play(g, "keep", "keep")
    assert (g.round, g.score[0]) == (6, 6)
    play(g, "keep", "keep")
    assert g.is_over()
    assert g.score[0] == 6 + 2
