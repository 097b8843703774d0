"""What everybody knows of a hand after the Informant's exchange (docs/rules.md §11).

An Informant taken back into the hand is public knowledge there until its
owner next places a card face down; the swap itself puts a card from the hand
of the Informant's controller face down, so it counts as such a placement:
the card going down may be the Informant everybody knew of. The views must
say so, or the others learn which card was just swapped in.
"""

from __future__ import annotations

import random

from support.alliance import build, hand_slugs, play, queue

from oriflamme.engine.cards import SLUGS
from oriflamme.engine.game import Game
from oriflamme.engine.sampler import sample_game

#: Alliance with Bribery instead of the Agreement, so that an Informant can be bribed.
BRIBERY_MIX = "bribery,empress,fanatic,informant,diplomat,deserter,judge,insurrection,extortion,infiltration"


def known_hands(g: Game, seat: int | None) -> list[list[str | None]]:
    """Each seat's hand cards that ``seat`` (None: a spectator) is shown as known to everybody."""
    return [[cv.kind for cv in hand] for hand in g.view(seat).known_hands]


def own_hand_marks(g: Game, seat: int) -> list[tuple[str | None, bool]]:
    """``seat``'s own hand as its view shows it: each card and whether it is public."""
    return [(cv.kind, cv.face_up) for cv in g.view(seat).hand]


def two_informants(hand: str) -> Game:
    """2-player Alliance: p1's two Informants resolve in turn, the first one exchanging at once."""
    g = build(
        "p1:informant p1:informant p2:~empress",
        players=2,
        round=5,
        scores=[0, 0],
        hands={0: hand, 1: "deserter"},
    )
    play(g, "exchange", "swap fanatic")
    assert known_hands(g, 1) == [["informant"], []]
    return g


def test_the_swap_ends_what_everybody_knew_of_the_hand() -> None:
    """The second swap puts a card face down: only the Informant it takes back is known afterwards.

    p1 holds the Informant taken back by the first swap (known) and a Judge.
    Swapping the Judge in must not leave both Informants known: the other
    seats would learn that the card now face down is not the known Informant.
    """
    g = two_informants("fanatic judge")
    assert hand_slugs(g, 0) == ["informant", "judge"]
    play(g, "exchange", "swap judge")
    assert queue(g) == "p1:~fanatic p1:~judge p2:~empress"
    assert hand_slugs(g, 0) == ["informant", "informant"]
    for observer in (1, None):
        assert known_hands(g, observer) == [["informant"], []]
    assert sorted(own_hand_marks(g, 0)) == [("informant", False), ("informant", True)]


def test_swapping_the_known_informant_in_looks_the_same_to_the_others() -> None:
    """Swapping the known Informant or the Judge in: the other seat and a spectator see the same views."""
    judge = two_informants("fanatic judge")
    play(judge, "exchange", "swap judge")
    informant = two_informants("fanatic judge")
    play(informant, "exchange", "swap informant")
    assert sorted(hand_slugs(informant, 0)) == ["informant", "judge"]
    for observer in (1, None):
        assert judge.view(observer) == informant.view(observer)


def test_a_search_may_deal_the_once_known_informant_face_down() -> None:
    """The search bots deal the hidden cards from the view (the sampler): they follow the marks.

    After the second swap p2 knows one Informant in p1's hand; the other one may be
    anywhere p2 cannot see, the card just swapped in included.
    """
    g = two_informants("fanatic judge")
    play(g, "exchange", "swap judge")
    view = g.view(1)
    swapped_in = set()
    for k in range(200):
        h = sample_game(view, random.Random(k))
        assert known_hands(h, 1) == [["informant"], []]
        swapped_in.add(SLUGS[h.kind[h.queue[1]]])
    assert {"informant", "judge"} <= swapped_in


def test_a_placement_after_the_swap_still_ends_the_mark() -> None:
    """The Informant the swap took back is known only until its owner next places a card face down."""
    g = two_informants("fanatic judge")
    play(g, "collect", "keep", "place deserter last")  # the rest of round 5; p2 places first in round 6
    assert (g.decision(), g.current_player(), g.round) == ("place", 0, 6)
    assert known_hands(g, 1) == [["informant"], []]
    play(g, "place judge last")
    assert known_hands(g, 1) == [[], []]


def test_a_bribed_informant_goes_home_known_and_its_briber_s_hand_is_no_longer_known() -> None:
    """docs/rules.md §11: the card comes from the briber's hand; the Informant returns, known, to its owner.

    Both players hold an Informant everybody knows. p2 swaps with p1's Informant
    it bribed: p2 put a card face down (its known Informant may be that card),
    p1 put none down and now holds two known Informants.
    """
    g = build(
        "p1:informant p2:informant p1:informant@p2 p2:~empress",
        deck=BRIBERY_MIX,
        players=2,
        round=5,
        scores=[0, 0],
        hands={0: "judge", 1: "fanatic diplomat"},
    )
    play(g, "exchange", "swap judge", "exchange", "swap fanatic")
    assert known_hands(g, None) == [["informant"], ["informant"]]
    assert g.decision() == "mode" and g.current_player() == 1
    play(g, "exchange", "swap diplomat")
    assert queue(g) == "p1:~judge p2:~fanatic p2:~diplomat p2:~empress"
    assert hand_slugs(g, 0) == ["informant", "informant"]
    assert hand_slugs(g, 1) == ["informant"]
    for observer in (0, 1, None):
        assert known_hands(g, observer) == [["informant", "informant"], []]
