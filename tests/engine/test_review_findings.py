"""Review findings: rule interactions and hidden-information cases found by a rules review.

Each test builds a position in the notation of :mod:`oriflamme.notation.position`, plays
it by the text form of actions and checks the outcome docs/rules.md asks for.
"""

from __future__ import annotations

import random

from support.scenario import options as legal
from support.scenario import play

from oriflamme.engine.sampler import sample_game
from oriflamme.engine.view import seat_view
from oriflamme.notation.position import build_position, pile_slugs, queue_string

SHIFTER_ALLIANCE = (
    "shapeshifter,empress,fanatic,informant,diplomat,deserter,judge,insurrection,extortion,royal-decree"
)
DECREE_ALLIANCE = (
    "royal-decree,empress,fanatic,informant,diplomat,deserter,judge,insurrection,extortion,agreement"
)


def test_shapeshifter_copying_informant_exchange_goes_back_to_hand() -> None:
    """§6 Shapeshifter ('this card' is the Shapeshifter) + §8 Informant: the Shapeshifter is swapped, the card sleeps."""
    g = build_position(
        3,
        SHIFTER_ALLIANCE,
        "p2:~fanatic p1:shapeshifter p3:informant p2:~empress",
        round=5,
        pointer=1,
        hands={0: "judge", 1: "judge", 2: "judge"},
        scores=[0, 0, 0],
    )
    play(g, "exchange")  # copy informant is forced (one neighbour kind)
    assert legal(g) == ["swap judge"]  # one hand card, asked all the same (§11)
    play(g, "swap judge")
    assert queue_string(g) == "p2:~fanatic p1:~judge p3:informant p2:~empress"
    assert pile_slugs(g, g.hands[0]) == ["shapeshifter"]
    assert g.up[g.hands[0][0]]  # everybody saw it go back
    assert g.asleep[g.queue[1]]
    # the Informant itself still acts this round
    assert (g.decision(), g.current_player()) == ("mode", 2)


def test_shapeshifter_copying_diplomat_cashout_discards_the_shapeshifter() -> None:
    """§6 Shapeshifter + §8 Diplomat: 'this card' is the Shapeshifter: it holds no IP, so cashout gains 0 and it leaves."""
    g = build_position(3, SHIFTER_ALLIANCE, "p1:shapeshifter p2:diplomat+3", round=6, scores=[0, 0, 0])
    assert legal(g) == ["gift", "cashout"]
    play(g, "cashout")
    assert g.score[0] == 0
    assert pile_slugs(g, g.discards[0]) == ["shapeshifter"]
    # the Diplomat then resolves with its own IP untouched
    assert queue_string(g) == "p2:diplomat+3"
    assert g.current_player() == 1


def test_shapeshifter_copying_diplomat_gift_may_feed_the_copied_diplomat() -> None:
    """§6 + §8 Diplomat gift: 'another revealed Diplomat' is any Diplomat other than the Shapeshifter."""
    g = build_position(3, SHIFTER_ALLIANCE, "p1:shapeshifter p2:diplomat", round=6, scores=[0, 0, 0])
    play(g, "gift")
    assert g.score[0] == 1
    assert queue_string(g).startswith("p1:shapeshifter p2:diplomat+2")


def test_informant_on_a_stack_swaps_only_the_top_card() -> None:
    """§8 Informant + §5 stacks: the hand card goes face down on top; the covered card stays covered and keeps its IP."""
    g = build_position(
        3,
        DECREE_ALLIANCE,
        "p1:~empress+2/p1:informant p2:~fanatic",
        round=5,
        hands={0: "judge", 1: "judge", 2: "judge"},
        scores=[0, 0, 0],
    )
    play(g, "exchange", "swap judge")
    assert queue_string(g) == "p1:~empress+2/p1:~judge p2:~fanatic"
    assert pile_slugs(g, g.hands[0]) == ["informant"]
    assert g.current_player() == 1  # the position has resolved; the Judge sleeps


def test_insurrection_decreed_after_the_pointer_is_asked_again_with_keep_only() -> None:
    """§8 Insurrection + §6 Royal Decree: turned down with 0 IP, moved after the pointer, it can only be kept."""
    g = build_position(
        3,
        DECREE_ALLIANCE,
        "p2:~insurrection+2 p1:~fanatic p3:~royal-decree p1:~empress",
        round=6,
        scores=[0, 0, 0],
    )
    play(g, "reveal")  # eliminates the Fanatic (+1), gains 1 of its 2 IP
    assert queue_string(g) == "p2:~insurrection p3:~royal-decree p1:~empress"
    assert g.score[1] == 2
    play(g, "reveal", "target 1", "to 3")
    assert queue_string(g) == "p1:~empress p2:~insurrection"
    play(g, "keep")  # p1's Empress
    assert (g.decision(), g.current_player(), legal(g)) == ("keep_or_reveal", 1, ["keep"])


def test_plot_on_a_stack_applies_its_abilities_before_the_uncovered_card_acts() -> None:
    """§7 Plot + §3 pointer: the Plot leaves first, its abilities resolve fully, then the uncovered card acts."""
    g = build_position(
        3, "ablaze", "p1:queen p1:~felon/p1:~plot+1 p2:~queen", round=6, pointer=1, scores=[0, 0, 0]
    )
    play(g, "reveal")  # one revealed character (Queen): applied at once; 1 IP left
    assert g.score[0] == 2
    assert g.decision() == "plot_ip"
    play(g, "use 1")
    assert g.score[0] == 4
    # now the uncovered Felon is at the pointer and is asked at once
    assert (g.decision(), g.current_player(), g.ptr) == ("keep_or_reveal", 0, 1)
    assert queue_string(g) == "p1:queen p1:~felon p2:~queen"


def test_twin_placed_first_shifts_the_pointer_and_waits() -> None:
    """§7 Prince + §3 pointer: a Twin put at the front is before the pointer and does not act this round."""
    g = build_position(3, "ablaze", "p2:~queen p1:~prince p3:~queen", round=6, pointer=1, scores=[0, 0, 0])
    play(g, "reveal", "place twin first")
    assert queue_string(g) == "p1:twin p2:~queen p1:prince p3:~queen"
    assert (g.decision(), g.current_player(), g.ptr) == ("keep_or_reveal", 2, 3)
    assert g.score[0] == 1


def test_empress_ip_on_a_face_down_agreement_are_kept_with_it() -> None:
    """§8 Empress + Agreement: IP the Empress put on a hidden Agreement are kept with it and paid at the end."""
    g = build_position(3, DECREE_ALLIANCE, "p2:empress p1:~agreement+1", round=6, scores=[0, 0, 0])
    assert queue_string(g) == "p2:empress p1:~agreement+2"  # the only face-down opponent card: no question
    play(g, "reveal")
    assert g.is_over()
    assert pile_slugs(g, g.kept[0]) == ["agreement"]
    assert g.score == [2, 2, 0]


def test_decree_on_a_stack_uncovered_card_acts_before_the_card_moved_behind_it() -> None:
    """§6 Royal Decree + §3 pointer: the card under the Decree resolves at once, then the card moved after it."""
    g = build_position(3, "base", "p1:~spy/p1:~royal-decree p2:~lord p3:~heir", round=6, scores=[0, 0, 0])
    play(g, "reveal", "target 3", "to 2")  # the Heir goes right after the Decree's stack
    assert queue_string(g) == "p1:~spy p3:~heir p2:~lord"
    assert (g.decision(), g.current_player(), g.ptr) == ("keep_or_reveal", 0, 0)
    play(g, "keep")
    assert (g.decision(), g.current_player(), g.ptr) == ("keep_or_reveal", 2, 1)


# ---------------------------------------------------------------- hidden information


def test_keep_only_question_does_not_tell_opponents_it_is_an_insurrection() -> None:
    """§8 Insurrection / docs 'asked with keep as the only answer': the others' view cannot tell."""
    views = []
    for card in ("insurrection", "fanatic"):
        g = build_position(3, DECREE_ALLIANCE, f"p1:~{card} p2:~fanatic", round=6)
        assert (g.decision(), g.current_player()) == ("keep_or_reveal", 0)
        views.append(seat_view(g, 1))
    assert views[0] == views[1]


def test_revealed_insurrection_turned_down_stays_known_to_everybody() -> None:
    """§8 Insurrection: all saw it revealed; a re-dealt game keeps an Insurrection in its place."""
    g = build_position(
        3,
        DECREE_ALLIANCE,
        "p1:~insurrection+1 p2:~fanatic p3:~fanatic p2:~empress",
        round=5,
        hands={0: "judge", 1: "judge", 2: "judge"},
    )
    play(g, "reveal")
    assert queue_string(g).startswith("p1:~insurrection")
    seat = g.current_player()
    assert seat != 0
    view = seat_view(g, seat)
    for k in range(20):
        h = sample_game(view, random.Random(k))
        assert pile_slugs(h, [h.queue[0]]) == ["insurrection"], k


def test_informant_taken_back_then_placed_face_down_is_not_told_apart() -> None:
    """§8 Informant, §3 hands are hidden: once placed face down, the others cannot tell which card it was."""
    views = []
    for placed in ("informant", "fanatic"):
        g = build_position(
            3,
            DECREE_ALLIANCE,
            "p1:informant p2:~empress p3:~empress",
            round=5,
            hands={0: "judge fanatic", 1: "judge diplomat", 2: "judge diplomat"},
            first=1,
        )
        play(g, "exchange", "swap judge")  # p1's Judge goes down, the Informant goes back to the hand
        while g.decision() != "place" or g.current_player() != 0:
            play(g, legal(g)[0])
        play(g, f"place {placed} last")
        views.append(seat_view(g, 1))
    assert views[0].queue == views[1].queue
    assert views[0].known_hands == views[1].known_hands


def test_sampler_redeals_a_pending_fetch_from_the_dealt_piles() -> None:
    """§11 silent choices: a pending fetch says nothing about the set-aside cards, so a re-deal
    keeps the question and offers what the dealt piles hold: the other Queen aside or not."""
    g = build_position(
        2,
        "ablaze",
        "p1:~impersonation p2:queen",
        discards={0: "queen"},
        hands={
            0: "prince cutthroat cutthroat apothecary apothecary felon felon schemer schemer plot plot trap trap"
        },
        round=6,
    )
    play(g, "reveal")
    assert g.decision() == "fetch" and g.current_player() == 0
    view = seat_view(g, 1)
    seen = set()
    for k in range(60):
        h = sample_game(view, random.Random(k))
        assert h.decision() == "fetch", k
        queen_aside = "queen" in pile_slugs(h, h.aside[0])
        assert legal(h) == (["fetch discard", "fetch aside"] if queen_aside else ["fetch discard"]), k
        seen.add(queen_aside)
    assert seen == {True, False}  # both deals occur: the question does not pin the Queen aside


def test_sampler_swap_options_offer_each_kind_once() -> None:
    """§9 + docs 'identical copies in hand are one choice': a re-dealt swap question is one the engine could ask."""
    g = build_position(
        2, "alliance", "p1:informant p2:~fanatic", round=6, hands={0: "judge empress fanatic", 1: "judge"}
    )
    play(g, "exchange")
    assert g.decision() == "swap" and g.current_player() == 0
    view = seat_view(g, 1)
    for k in range(30):
        h = sample_game(view, random.Random(k))
        kinds = [h.kind[a & 0xFFFF] for a in h.legal_actions()]
        assert len(kinds) == len(set(kinds)) >= 2, (k, legal(h))
