"""Card abilities log what happened, and only that (mutation-testing gaps in engine.boxes).

Proposed location: tests/engine/alliance/test_card_events.py
"""

from __future__ import annotations

from support.alliance import build, play
from support.scenario import event_names, pile, queue

from oriflamme import action_text, build_position
from oriflamme.engine import events as ev
from oriflamme.engine.view import redact
from oriflamme.notation.checks import check_state
from oriflamme.notation.savefile import dumps, loads


def test_insurrection_alone_has_no_effect() -> None:
    """§8 Insurrection with no neighbour: nothing to eliminate, and the log says so."""
    g = build("p1:~insurrection+1", scores=[0, 0, 0])
    events = play(g, "reveal")
    assert event_names(events) == ["revealed", "no_effect", "turned_down", "round_ended", "game_ended"]
    assert g.score == [0, 0, 0]


def test_insurrection_with_neighbours_eliminates_them_and_logs_no_no_effect() -> None:
    """§8 Insurrection between Blue's Fanatic and Green's Judge: both go, Red gains its IP less one and 1 per kill."""
    g = build("p2:~fanatic p1:~insurrection+2 p3:~judge", scores=[0, 0, 0], pointer=1)
    events = play(g, "reveal")
    assert event_names(events) == [
        "revealed", "gained", "eliminated", "gained", "eliminated", "gained", "turned_down",
        "round_ended", "game_ended",
    ]  # fmt: skip
    assert g.score == [3, 0, 0]
    assert queue(g) == "p1:~insurrection"


def test_the_informants_swap_question_is_one_a_save_file_accepts() -> None:
    """§8 Informant, exchange: the swap question the engine asks passes the save-file checks."""
    g = build_position(
        2, "alliance", "p1:informant p2:~fanatic", round=6, hands={0: "judge empress fanatic", 1: "judge"}
    )
    play(g, "exchange")
    assert g.decision() == "swap"
    check_state(g)
    assert loads(dumps(g)).legal_actions() == g.legal_actions()


# --------------------------------------------------------------------- Base


def test_conspiracy_spends_all_its_ip_and_returns_none_to_the_supply() -> None:
    """§6 Conspiracy (2 IP): Red gains 4; the card leaves with no IP left on it."""
    g = build_position(3, "base", "p1:~conspiracy+2 p2:~heir", scores=[0, 0, 0], round=6)
    events = play(g, "reveal")
    assert event_names(events) == ["revealed", "gained", "discarded"]
    assert g.score[0] == 4
    assert pile(g, 0) == ["conspiracy"]


# ------------------------------------------------------------------ Ablaze


def test_bribery_with_a_target_has_an_effect_and_without_none() -> None:
    """§7 Bribery: Blue's revealed Queen is bribed (no 'no_effect'); a face-down Queen cannot be."""
    g = build_position(3, "ablaze", "p1:~bribery p2:queen", scores=[0, 0, 0], round=6)
    events = play(g, "reveal")
    assert "bribed" in event_names(events) and "no_effect" not in event_names(events)
    g = build_position(3, "ablaze", "p1:~bribery p2:~queen", scores=[0, 0, 0], round=6)
    assert event_names(play(g, "reveal")) == ["revealed", "no_effect", "discarded"]


def test_the_princes_twin_question_is_one_a_save_file_accepts() -> None:
    """§7 Prince: the 'place the twin' question passes the save-file checks and round-trips."""
    g = build_position(3, "ablaze", "p2:~queen p1:~prince p3:~queen", round=6, pointer=1, scores=[0, 0, 0])
    play(g, "reveal")
    assert g.decision() == "twin"
    check_state(g)
    assert loads(dumps(g)).legal_actions() == g.legal_actions()


def test_both_plot_questions_are_ones_a_save_file_accepts() -> None:
    """§7 Plot (3 IP): 'which character first', then 'gain or use another': both round-trip."""
    g = build_position(
        3, "ablaze", "p1:queen p1:schemer p2:~felon p1:~plot+3", scores=[0, 0, 0], round=6, pointer=3
    )
    events = play(g, "reveal")
    assert g.decision() == "plot_character"
    assert "ip_off_card" not in event_names(events)  # the 3 IP are spent, none go back to the supply
    check_state(g)
    assert loads(dumps(g)).legal_actions() == g.legal_actions()
    play(g, "use 1")
    assert g.decision() == "plot_ip"
    check_state(g)
    assert loads(dumps(g)).legal_actions() == g.legal_actions()


def test_impersonation_of_a_stacked_character_replaces_nothing() -> None:
    """§7 Impersonation: Blue eliminates Red's Queen on top of Red's Prince (card 0); a stack's top is
    never replaced, though Blue has a Queen in its discard pile."""
    g = build_position(
        3,
        "ablaze",
        "p2:~impersonation p1:prince/p1:queen p3:~felon",
        discards={1: "queen"},
        scores=[0, 0, 0],
        round=6,
    )
    play(g, "reveal")
    assert queue(g) == "p1:prince p3:~felon"
    assert pile(g, 1) == ["queen", "impersonation"]
    assert pile(g, 0) == ["queen"]
    assert g.score == [1, 2, 0]


# ---------------------------------------------------------------- Alliance


def test_ip_put_on_face_down_cards_does_not_name_them_to_opponents() -> None:
    """§8 Empress and Infiltration put IP on face-down cards: the event names the card to its owner only."""
    g = build_position(
        3, "alliance", "p1:empress p2:~judge+1/p2:fanatic p3:~fanatic", scores=[0, 0, 0], round=6
    )
    on_card = [e for e in g.events if e[0] == ev.IP_ON_CARD]
    assert [redact(g, e, s)["card"] for e in on_card for s in (None, 0, 1, 2)] == [
        None,
        None,
        None,
        "fanatic",
    ]
    g = build_position(3, "alliance", "p1:~infiltration p1:~fanatic p2:~judge", scores=[0, 0, 0], round=6)
    events = play(g, "reveal")
    on_card = [redact(g, e, s) for e in events if e[0] == ev.IP_ON_CARD for s in (None, 1)]
    assert on_card == [{"type": "ip_on_card", "seat": 0, "pos": 1, "owner": 0, "card": None, "amount": 1}] * 2


def test_royal_decree_on_a_stack_over_card_zero_offers_every_gap() -> None:
    """§6 Royal Decree picks p1's stack (the Archer, card 0, under a Spy): all n+1 gaps are moves."""
    g = build_position(3, "base", "p2:~royal-decree p1:archer/p1:~spy p3:lord", scores=[0, 0, 0], round=6)
    play(g, "reveal", "target 2")
    assert [action_text(g, a) for a in g.legal_actions()] == ["to 1", "to 2", "to 3", "to 4"]


# ------------------------------------------------------------ more of each box

MIX_WITH_ARCHER = (
    "archer,empress,fanatic,informant,diplomat,deserter,judge,insurrection,extortion,infiltration"
)


def test_a_bait_revealed_with_ip_returns_them_once_and_without_ip_returns_none() -> None:
    """§6 Ambush revealed by its owner: its 2 IP go back to the supply (one event, Red's), then +1."""
    g = build_position(3, "base", "p1:~ambush+2 p2:~heir", scores=[0, 0, 0], round=6)
    events = play(g, "reveal")
    assert event_names(events) == ["revealed", "ip_off_card", "gained", "discarded"]
    assert redact(g, events[1], 1) == {
        "type": "ip_off_card", "seat": 0, "pos": 0, "owner": 0, "card": "ambush", "amount": 2,
    }  # fmt: skip
    assert g.score[0] == 1
    g = build_position(3, "base", "p1:~ambush p2:~heir", scores=[0, 0, 0], round=6)
    assert event_names(play(g, "reveal")) == ["revealed", "gained", "discarded"]


def test_bribery_cannot_take_the_top_of_a_stack_over_card_zero() -> None:
    """§7 Bribery: Red's Queen lies on Red's Prince (card 0): a stack's top is no target."""
    g = build_position(3, "ablaze", "p2:~bribery p1:prince/p1:queen p3:~felon", scores=[0, 0, 0], round=6)
    events = play(g, "reveal")
    assert event_names(events)[:3] == ["revealed", "no_effect", "discarded"]
    assert g.bribed_by == [-1] * len(g.kind)


def test_the_judge_places_the_last_verdict_of_the_pool() -> None:
    """§8 Judge: four verdicts are out, one is left: the verdict mode still places it."""
    g = build_position(
        3,
        "alliance",
        "p1:judge p2:~fanatic! p3:~fanatic! p2:~empress! p3:~empress! p2:~diplomat",
        scores=[0, 0, 0],
        round=6,
    )
    assert g.verdict_pool == 1
    play(g, "verdict")
    assert [action_text(g, a) for a in g.legal_actions()] == ["target 1", "target 6"]
    play(g, "target 6")
    assert g.verdict_pool == 0
    assert queue(g).endswith("p2:~diplomat!")


def test_extortion_takes_ip_off_face_down_cards_without_naming_them() -> None:
    """§8 Extortion eliminated by Blue's Archer: Blue's face-down Fanatic loses 1 IP; only Blue may read it."""
    g = build_position(3, MIX_WITH_ARCHER, "p2:archer p2:~fanatic+1 p1:~extortion", scores=[0, 0, 0], round=6)
    events = play(g, "target 3")
    off = [e for e in events if e[0] == ev.IP_OFF_CARD]
    assert [redact(g, e, 0) for e in off] == [
        {"type": "ip_off_card", "seat": 1, "pos": 1, "owner": 1, "card": None, "amount": 1}
    ]
    assert redact(g, off[0], 1)["card"] == "fanatic"
    assert g.score == [4, 1, 0]


def test_the_empress_puts_one_ip_and_says_so() -> None:
    g = build_position(
        3, "alliance", "p1:empress p2:~judge+1/p2:fanatic p3:~fanatic", scores=[0, 0, 0], round=6
    )
    on_card = [redact(g, e, 0) for e in g.events if e[0] == ev.IP_ON_CARD]
    assert on_card == [{"type": "ip_on_card", "seat": 0, "pos": 2, "owner": 2, "card": None, "amount": 1}]


def test_after_the_informants_swap_the_game_is_one_a_save_file_accepts() -> None:
    """§8 Informant: the Informant goes back to the hand with no IP and nothing under it."""
    g = build_position(
        2, "alliance", "p1:informant p2:~fanatic", round=6, hands={0: "judge empress fanatic", 1: "judge"}
    )
    play(g, "exchange", "swap judge")
    check_state(g)
    assert loads(dumps(g)).score == g.score


def test_diplomat_cashout_takes_every_ip_and_returns_none_to_the_supply() -> None:
    """§8 Diplomat cashout with 3 IP: Red gains 3, the card is discarded with none left on it."""
    g = build_position(3, "alliance", "p1:diplomat+3 p2:~fanatic", scores=[0, 0, 0], round=6)
    assert event_names(play(g, "cashout")) == ["gained", "discarded"]
    assert g.score[0] == 3


def test_diplomat_gift_says_two_ip() -> None:
    """§8 Diplomat gift: the event for the 2 IP put on Green's Diplomat says 2."""
    g = build_position(3, "alliance", "p1:diplomat p2:diplomat p3:diplomat", scores=[0, 0, 0], round=6)
    play(g, "gift")
    events = play(g, "target 3")
    on_card = [redact(g, e, None) for e in events if e[0] == ev.IP_ON_CARD]
    assert on_card == [
        {"type": "ip_on_card", "seat": 0, "pos": 2, "owner": 2, "card": "diplomat", "amount": 2}
    ]


def test_a_returned_bribery_token_names_no_queue_position() -> None:
    """S001-21: Green re-bribes Blue's Lord held by Red: Red's token goes back to Red, from no position."""
    g = build_position(
        3, "lord,spy,heir,soldier,archer,prince,queen,felon,bribery,trap", "p3:~bribery p2:lord@p1 p3:~heir",
        scores=[0, 0, 0], round=6,
    )  # fmt: skip
    play(g, "reveal")
    returned = [redact(g, e, None) for e in g.events if e[0] == ev.BRIBE_RETURNED]
    assert returned == [{"type": "bribe_returned", "seat": 0, "owner": 1, "card": "lord"}]
