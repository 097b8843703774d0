"""Review findings: rule interactions and hidden-information cases found by a rules review.

Each test builds a position in the notation of :mod:`oriflamme.position`, plays
it by the text form of actions and checks the outcome RULES.md asks for.
"""

from __future__ import annotations

import random

from oriflamme.game import Game
from oriflamme.notation import action_text, parse_action
from oriflamme.position import build_position, pile_slugs, queue_string
from oriflamme.sampler import sample_game
from oriflamme.view import seat_view

SHIFTER_ALLIANCE = (
    "shapeshifter,empress,fanatic,informant,diplomat,deserter,judge,insurrection,extortion,royal-decree"
)
DECREE_ALLIANCE = (
    "royal-decree,empress,fanatic,informant,diplomat,deserter,judge,insurrection,extortion,agreement"
)


def play(g: Game, *texts: str) -> None:
    for text in texts:
        g.apply(parse_action(g, text))


def legal(g: Game) -> list[str]:
    return [action_text(g, a) for a in g.legal_actions()]


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


def test_sampler_keeps_a_pending_fetch_possible() -> None:
    """A pending fetch (2 options; single options are not asked) shows the kind is in discard AND aside."""
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
    assert g.decision() == "fetch" and g.current_player() == 0
    view = seat_view(g, 1)
    for k in range(30):
        h = sample_game(view, random.Random(k))
        assert h.decision() == "fetch", k
        assert len(h.legal_actions()) == 2, k


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
