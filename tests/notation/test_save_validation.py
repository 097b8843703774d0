"""Save files: the edges of the field ranges and of the option checks (mutation-testing gaps in
notation.savefile and notation.checks).

A valid file at an edge (the last card resolving) must load; a bad one must be refused with
SaveFormatError naming the field at fault, never with another exception.

Proposed location: tests/notation/test_save_validation.py
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from support.scenario import play, table

from oriflamme import Game, SaveFormatError, build_position
from oriflamme.engine.actions import (
    COPY,
    GAIN_ACTION,
    MODE,
    MODE_VERDICT,
    PLACE_ON,
    SHIFT,
    STEAL,
    SWAP,
    TARGET,
    USE,
)
from oriflamme.engine.cards import num_kinds
from oriflamme.engine.registry import DECISION_NAMES, K_FINISH, K_GAIN
from oriflamme.notation.savefile import dumps, from_dict, loads, read_setup


def doc_of(g: Any) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(dumps(g))
    return doc


def refused(doc: dict[str, Any]) -> str:
    with pytest.raises(SaveFormatError) as info:
        from_dict(doc)
    return str(info.value)


def test_the_last_card_resolving_loads() -> None:
    """p3's face-down Conspiracy (card 29, the last id of a 3-player base game) waits at the pointer."""
    g = build_position(3, "base", "p3:~conspiracy p1:~heir p2:~spy", round=2)
    assert (len(g.kind), g.cur, g.decision()) == (30, 29, "keep_or_reveal")
    again = loads(dumps(g))
    assert again.cur == 29
    assert dumps(again) == dumps(g)


def test_a_resolving_card_below_minus_one_is_refused() -> None:
    g = build_position(3, "base", "p3:~conspiracy p1:~heir p2:~spy", round=2)
    doc = doc_of(g)
    doc["state"]["cur"] = -2
    assert refused(doc).startswith("state.cur")


def test_a_bribery_token_of_a_seat_past_the_last_names_bribed_by() -> None:
    """A Bribery token of 'p4' in a 3-player game: the error is about the token, not the controller."""
    g = build_position(3, "base", "p1:~spy p2:soldier@p1 p3:lord", round=3, pointer=2)
    doc = doc_of(g)
    soldier = doc["state"]["queue"][1]
    doc["state"]["bribed_by"][soldier] = 3
    assert refused(doc).startswith(f"state.bribed_by[{soldier}]")


def test_rules_that_overflow_a_two_player_hand_are_a_save_format_error() -> None:
    """Six rounds of three cards need 18 cards; a 2-player hand holds 16."""
    setup = {
        "players": 2,
        "recipe": ["archer", "soldier", "spy", "heir", "shapeshifter", "lord", "assassination",
                   "royal-decree", "ambush", "conspiracy"],
        "rules": {"schemer_gain": 1, "two_player_cards_per_round": 3, "rounds": 6},
        "seed": 1,
        "first_player": 0,
    }  # fmt: skip
    with pytest.raises(SaveFormatError, match=r"^setup: 6 rounds of 3 card\(s\) need 18 cards"):
        read_setup(setup)


def test_the_order_error_names_the_first_player() -> None:
    g = build_position(3, "base", "p1:~spy p2:lord", round=3)
    doc = doc_of(g)
    first = doc["state"]["first"]
    doc["state"]["order"] = list(reversed(doc["state"]["order"]))
    assert refused(doc).startswith(f"state.order: with p{first + 1} first the placement order is")


def _swap_doc() -> dict[str, Any]:
    g = build_position(
        2, "alliance", "p1:informant p2:~fanatic", round=6, hands={0: "judge empress fanatic", 1: "judge"}
    )
    play(g, "exchange")
    assert g.decision() == "swap"
    return doc_of(g)


def test_a_swap_of_a_card_not_in_hand_is_refused() -> None:
    """Red's Informant swaps: an option naming Blue's hand card is no action of that decision."""
    doc = _swap_doc()
    from_dict(json.loads(json.dumps(doc)))
    blue_card = doc["state"]["hands"][1][0]
    doc["state"]["options"][0] = SWAP << SHIFT | blue_card
    assert refused(doc).startswith("state.options[0]: ")


def _plot_doc() -> dict[str, Any]:
    """Red's Plot (3 IP) asks which revealed character to use first: 'use 1' or 'use 2'."""
    g = table("p1:queen p1:schemer p2:~felon p1:~plot+3", scores=[0, 0, 0], pointer=3, deck="ablaze")
    play(g, "reveal")
    assert g.decision() == "plot_character"
    return doc_of(g)


def test_the_plots_first_choice_has_no_gain_option() -> None:
    """Gaining instead of using is offered only once the Plot has a character to spend IP on."""
    doc = _plot_doc()
    from_dict(json.loads(json.dumps(doc)))
    doc["state"]["options"][1] = GAIN_ACTION
    assert refused(doc).startswith("state.options[1]: ")


def test_a_plot_option_past_the_queue_is_refused_as_a_save_format_error() -> None:
    doc = _plot_doc()
    nq = len(doc["state"]["queue"])
    doc["state"]["options"][1] = USE << SHIFT | nq
    assert refused(doc).startswith("state.options[1]: ")


def test_a_target_one_past_the_queue_is_refused() -> None:
    """The Archer targets the first or the last card: position len(queue)+1 is no target."""
    g = build_position(3, "base", queue="p1:archer p2:~heir p3:~spy", hands={0: "soldier"}, round=2)
    doc = doc_of(g)
    nq = len(doc["state"]["queue"])
    doc["state"]["options"][1] = TARGET << SHIFT | nq
    assert refused(doc).startswith("state.options[1]: ")


def test_a_mode_of_another_card_is_refused() -> None:
    """Red's Informant chooses collect or exchange: the Judge's verdict mode is no option of it."""
    g = build_position(
        2, "alliance", "p1:informant p2:~fanatic", round=6, hands={0: "judge empress fanatic", 1: "judge"}
    )
    assert g.decision() == "mode"
    doc = doc_of(g)
    doc["state"]["options"][1] = MODE << SHIFT | MODE_VERDICT
    assert refused(doc).startswith("state.options[1]: ")


def test_a_card_id_past_the_last_in_a_pile_is_a_save_format_error() -> None:
    g = build_position(3, "base", "p1:~spy p2:lord", round=3)
    doc = doc_of(g)
    n = len(doc["state"]["kind"])
    doc["state"]["hands"][0].append(n)
    assert refused(doc).startswith("state.hands[0]")


def test_a_first_player_past_the_last_seat_names_first() -> None:
    """A seeded game whose first player was drawn (setup.first_player null): state.first 3 of 3 seats."""
    g = Game.new(3, "base", seed=5)
    g.apply(g.legal_actions()[0])
    doc = doc_of(g)
    assert doc["setup"]["first_player"] is None
    doc["state"]["first"] = 3
    assert refused(doc).startswith("state.first")


# ------------------------------------------------- out-of-queue cards, keep-or-reveal, frames


def _built_doc() -> dict[str, Any]:
    return doc_of(build_position(3, "base", "p1:~spy p2:lord", hands={0: "soldier"}, round=3))


@pytest.mark.parametrize(
    ("field", "value"),
    [("under", 0), ("ctrl", 1), ("bribed_by", 1), ("verdict", True), ("asleep", True), ("exposed", True)],
)
def test_a_card_in_hand_carries_no_queue_token(field: str, value: object) -> None:
    """A card out of the queue has no card under it, its owner's control, no token, no sleep, no exposure."""
    doc = _built_doc()
    card = doc["state"]["hands"][0][0]
    doc["state"][field][card] = value
    assert refused(doc).startswith(f"state.{field}[{card}]: must be ")


def test_ip_on_a_kept_card_other_than_the_agreement_is_refused() -> None:
    g = build_position(3, "alliance", "p1:~fanatic p2:empress", kept={0: "infiltration"}, round=3)
    doc = doc_of(g)
    card = doc["state"]["kept"][0][0]
    doc["state"]["ip"][card] = 1
    assert refused(doc) == f"state.ip[{card}]: IP on a kept infiltration (only a kept Agreement carries IP)"


def _keep_or_reveal_doc() -> dict[str, Any]:
    """p3's face-down Conspiracy (card 29) at the pointer, position 1 of 3."""
    g = build_position(3, "base", "p3:~conspiracy p1:~heir p2:~spy", round=2)
    assert g.pending is not None and g.pending[2] == 29
    return doc_of(g)


def test_a_keep_or_reveal_past_the_queue_is_a_save_format_error() -> None:
    doc = _keep_or_reveal_doc()
    doc["state"]["ptr"] = len(doc["state"]["queue"])
    assert refused(doc).startswith("state.")


def test_a_keep_or_reveal_about_another_card_names_the_actor() -> None:
    doc = _keep_or_reveal_doc()
    doc["state"]["pending"][2] = doc["state"]["queue"][1]
    assert refused(doc).startswith("state.pending[2]: ")


@pytest.mark.parametrize(("field", "value"), [("cur_gone", True), ("up", True)])
def test_keep_or_reveal_needs_a_face_down_card_still_at_the_pointer(field: str, value: object) -> None:
    doc = _keep_or_reveal_doc()
    if field == "up":
        doc["state"]["up"][29] = True
    else:
        doc["state"][field] = value
    assert refused(doc).startswith("state.pending: card 29 at the pointer is not a face-down card")


def test_a_gain_frame_for_a_seat_past_the_last_is_refused() -> None:
    doc = _keep_or_reveal_doc()
    doc["state"]["stack"] = [[K_GAIN, 3, 1]]
    assert refused(doc).startswith("state.stack[0][1]")


def test_a_decision_code_past_the_last_is_a_save_format_error() -> None:
    doc = _keep_or_reveal_doc()
    doc["state"]["pending"][0] = len(DECISION_NAMES)
    assert refused(doc).startswith("state.pending[0]")


def test_a_queue_card_id_past_the_last_is_a_save_format_error() -> None:
    doc = _keep_or_reveal_doc()
    doc["state"]["queue"].append(len(doc["state"]["kind"]))
    assert refused(doc).startswith("state.queue")


# ------------------------------------------------------------- more field edges


def _bribed_doc() -> dict[str, Any]:
    """p2's Soldier bears p1's Bribery token (seat 0) and is controlled by p1."""
    return doc_of(build_position(3, "base", "p1:~spy p2:soldier@p1 p3:lord", round=3, pointer=2))


def test_a_card_bribed_by_p1_must_be_controlled_by_p1() -> None:
    doc = _bribed_doc()
    soldier = doc["state"]["queue"][1]
    assert doc["state"]["bribed_by"][soldier] == 0
    doc["state"]["ctrl"][soldier] = 1
    assert refused(doc).startswith(f"state.ctrl[{soldier}]: card {soldier} bears p1's Bribery token")


@pytest.mark.parametrize(
    ("field", "value"),
    [("under", -2), ("under", "n"), ("bribed_by", -2), ("ctrl", 3)],
)
def test_a_queue_card_field_out_of_range_names_that_field(field: str, value: object) -> None:
    doc = _bribed_doc()
    top = doc["state"]["queue"][2]
    doc["state"][field][top] = len(doc["state"]["kind"]) if value == "n" else value
    assert refused(doc).startswith(f"state.{field}")


def test_a_resolving_card_past_the_last_id_is_refused() -> None:
    g = build_position(3, "base", queue="p1:archer p2:~heir p3:~spy", hands={0: "soldier"}, round=2)
    doc = doc_of(g)
    doc["state"]["cur"] = len(doc["state"]["kind"])
    assert refused(doc).startswith("state.cur")


def test_a_target_decision_names_its_applied_kind_field() -> None:
    g = build_position(3, "base", queue="p1:archer p2:~heir p3:~spy", hands={0: "soldier"}, round=2)
    doc = doc_of(g)
    doc["state"]["pending"][4] = num_kinds()
    assert refused(doc).startswith("state.pending[4]")


def test_a_decree_destination_for_a_card_past_the_queue_is_refused() -> None:
    """§6 Royal Decree: the card being moved is at a queue position."""
    g = build_position(3, "base", "p1:~royal-decree p2:~heir+3 p3:~lord p2:~spy", scores=[0, 0, 0], round=6)
    play(g, "reveal", "target 2")
    assert g.decision() == "decree_dest"
    doc = doc_of(g)
    doc["state"]["pending"][4] = len(doc["state"]["queue"])
    assert refused(doc).startswith("state.pending[4]")


def test_an_unknown_version_with_new_keys_is_refused_for_its_version() -> None:
    """A file from a later version may hold keys this one does not know: the version is the problem."""
    doc = doc_of(build_position(3, "base", "p1:~spy p2:lord", round=3))
    doc["version"] = 99
    doc["comments"] = "written by a later oriflamme"
    assert refused(doc).startswith("version: unsupported version 99")


def _fetch_doc() -> dict[str, Any]:
    """§7 Impersonation (2 players): Red fetches a Queen from its discard pile or from aside."""
    g = build_position(
        2, "ablaze", "p1:~impersonation p2:queen", discards={0: "queen"}, scores=[0, 0], round=6
    )
    play(g, "reveal")
    assert g.decision() == "fetch"
    return doc_of(g)


def test_a_fetch_of_a_kind_past_the_last_names_the_kind_field() -> None:
    doc = _fetch_doc()
    doc["state"]["pending"][4] = num_kinds()
    assert refused(doc).startswith("state.pending[4]")


def test_a_fetch_from_a_pile_without_that_kind_is_refused() -> None:
    """The discarded Queen is moved aside by hand: 'fetch discard' then names a pile with no Queen."""
    doc = _fetch_doc()
    from_dict(json.loads(json.dumps(doc)))
    state = doc["state"]
    queen = state["discards"][0].pop()
    state["aside"][0] = sorted([*state["aside"][0], queen])
    state["zone"][queen] = "aside"
    state["up"][queen] = False
    assert refused(doc).startswith("state.options: p1 can fetch a queen as ['fetch aside']")


def test_a_stored_list_shorter_than_the_replayed_one_is_a_save_format_error() -> None:
    """A seeded game mid-resolution whose continuation frame was deleted by hand: the replay has one."""
    g = Game.new(3, "base", seed=0)
    rng = random.Random(0)
    for _ in range(25):
        g.apply(rng.choice(g.legal_actions()))
    assert g.stack and g.decision() == "eliminate"
    doc = doc_of(g)
    assert doc["actions"] is not None
    doc["state"]["stack"] = []
    assert refused(doc).startswith("state.stack: stored [], but replaying the actions")


# ------------------------------------------- placement, twin, copy, decree and plot options


def _placing_doc() -> dict[str, Any]:
    g = Game.new(3, "base", seed=4, first_player=0)
    assert g.decision() == "place"
    return doc_of(g)


def _built_placing_doc() -> dict[str, Any]:
    """A built position (no actions to replay) in the placement phase of round 4, 2 players."""
    g = build_position(
        2,
        "base",
        "p1:soldier p2:~heir+1 p1:~spy/p1:~assassination",
        hands={0: "archer lord heir", 1: "ambush conspiracy royal-decree"},
        phase="place",
        turn=1,
        round=4,
        first=0,
    )
    assert g.decision() == "place"
    return doc_of(g)


@pytest.mark.parametrize(("field", "value"), [("ptr", 1), ("cur", 0), ("cur_gone", True)])
def test_the_resolution_fields_rest_during_placement(field: str, value: object) -> None:
    doc = _built_placing_doc()
    doc["state"][field] = value
    assert refused(doc).startswith(f"state.{field}: must be ")


@pytest.mark.parametrize("index", [2, 4])
def test_an_unused_field_of_a_placement_question_is_named(index: int) -> None:
    doc = _placing_doc()
    doc["state"]["pending"][index] = 0
    assert refused(doc).startswith(f"state.pending[{index}]")


def test_keep_or_reveal_of_a_sleeping_card_is_refused() -> None:
    doc = _keep_or_reveal_doc()
    doc["state"]["asleep"][29] = True
    assert refused(doc).startswith("state.pending: card 29 at the pointer is not a face-down card")


def _twin_doc() -> dict[str, Any]:
    """§7 Prince revealed by Red in round 6: place its Twin first or last."""
    g = build_position(3, "ablaze", "p2:~queen p1:~prince p3:~queen", round=6, pointer=1, scores=[0, 0, 0])
    play(g, "reveal")
    assert g.decision() == "twin"
    return doc_of(g)


def test_the_twin_cannot_be_stacked_on_another_players_position() -> None:
    doc = _twin_doc()
    twin = doc["state"]["pending"][4]
    doc["state"]["options"][1] = PLACE_ON << SHIFT | twin << 8 | 0  # onto Blue's position 1
    assert refused(doc).startswith("state.options[1]: ")


def test_an_unused_field_of_the_twin_question_is_named() -> None:
    doc = _twin_doc()
    doc["state"]["pending"][5] = 0
    assert refused(doc).startswith("state.pending[5]")


def test_a_copy_of_a_kind_past_the_last_is_a_save_format_error() -> None:
    """§6 Shapeshifter between a Spy and a Lord: copying the first kind not loaded names nothing."""
    g = build_position(3, "base", "p2:spy p1:shapeshifter p3:lord", scores=[1, 1, 1], round=6, pointer=1)
    assert g.decision() == "copy"
    doc = doc_of(g)
    doc["state"]["options"][1] = COPY << SHIFT | num_kinds()
    assert refused(doc).startswith("state.options[1]: ")


def test_a_decree_destination_option_must_be_a_move() -> None:
    g = build_position(3, "base", "p1:~royal-decree p2:~heir+3 p3:~lord p2:~spy", scores=[0, 0, 0], round=6)
    play(g, "reveal", "target 2")
    doc = doc_of(g)
    doc["state"]["options"][0] = TARGET << SHIFT | 0
    assert refused(doc).startswith("state.options[0]: ")


@pytest.mark.parametrize("position", [2, 3], ids=["opponents-revealed-queen", "own-face-down-felon"])
def test_the_plot_uses_only_red_revealed_characters(position: int) -> None:
    """§7 Plot: Red's revealed Queen and Schemer only, not Blue's Queen nor Red's face-down Felon."""
    g = build_position(
        3, "ablaze", "p1:queen p1:schemer p2:queen p1:~felon p1:~plot+3", scores=[0, 0, 0], round=6, pointer=4
    )
    play(g, "reveal")
    assert g.decision() == "plot_character"
    doc = doc_of(g)
    doc["state"]["options"][1] = USE << SHIFT | position
    assert refused(doc).startswith("state.options[1]: ")


# ------------------------------------------------------------- found in the last pass


def test_a_fetch_before_the_impersonation_round_trips() -> None:
    """§7 Impersonation after Blue's Queen: the replacement goes before it (side 0), a valid file."""
    g = build_position(
        2, "ablaze", "p2:queen p1:~impersonation", discards={0: "queen"}, scores=[0, 0], round=6, pointer=1
    )
    play(g, "reveal")
    assert g.decision() == "fetch" and g.pending is not None and g.pending[5] == 0
    assert loads(dumps(g)).legal_actions() == g.legal_actions()


@pytest.mark.parametrize(("index", "value"), [(5, 2), (2, "n")])
def test_a_fetch_question_field_out_of_range_is_named(index: int, value: object) -> None:
    doc = _fetch_doc()
    doc["state"]["pending"][index] = len(doc["state"]["kind"]) if value == "n" else value
    assert refused(doc).startswith(f"state.pending[{index}]")


def test_a_fetch_option_must_be_a_fetch() -> None:
    doc = _fetch_doc()
    doc["state"]["options"][0] = TARGET << SHIFT | 0
    assert refused(doc).startswith("state.options[0]: ")


def test_a_twin_question_naming_a_card_past_the_last_is_refused() -> None:
    doc = _twin_doc()
    doc["state"]["pending"][4] = len(doc["state"]["kind"])
    assert refused(doc).startswith("state.pending[4]")


def test_the_twin_cannot_be_stacked_past_the_queue() -> None:
    doc = _twin_doc()
    twin = doc["state"]["pending"][4]
    doc["state"]["options"][1] = PLACE_ON << SHIFT | twin << 8 | len(doc["state"]["queue"])
    assert refused(doc).startswith("state.options[1]: ")


def test_a_bribery_token_of_p1_on_a_face_down_card_is_refused() -> None:
    doc = _bribed_doc()
    soldier = doc["state"]["queue"][1]
    doc["state"]["up"][soldier] = False
    assert refused(doc).startswith(f"state.bribed_by[{soldier}]: a Bribery token on a face-down card")


def test_a_placement_turn_past_the_last_placer_is_refused() -> None:
    doc = _built_placing_doc()
    doc["state"]["turn"] = len(doc["state"]["order"])
    assert refused(doc).startswith("state.turn")


def test_a_finish_frame_naming_a_card_past_the_last_is_refused() -> None:
    doc = _keep_or_reveal_doc()
    doc["state"]["stack"] = [[K_FINISH, len(doc["state"]["kind"])]]
    assert refused(doc).startswith("state.stack[0][1]")


def test_a_decider_past_the_last_card_is_refused() -> None:
    g = build_position(3, "base", queue="p1:archer p2:~heir p3:~spy", hands={0: "soldier"}, round=2)
    doc = doc_of(g)
    doc["state"]["pending"][2] = len(doc["state"]["kind"])
    assert refused(doc).startswith("state.pending[2]")


def test_the_judge_cannot_target_a_card_that_already_bears_a_verdict() -> None:
    g = build_position(
        3,
        "alliance",
        "p1:judge p2:~fanatic! p3:~fanatic! p2:~empress! p3:~empress! p2:~diplomat",
        scores=[0, 0, 0],
        round=6,
    )
    play(g, "verdict")
    doc = doc_of(g)
    doc["state"]["options"][0] = TARGET << SHIFT | 1  # Blue's Fanatic, which has a verdict
    assert refused(doc).startswith("state.options[0]: ")


@pytest.mark.parametrize("option", ["seat-past-the-last", "not-a-steal"])
def test_the_spy_steals_only_from_a_seat(option: str) -> None:
    g = build_position(3, "base", "p2:lord p1:spy p3:lord", scores=[1, 1, 1], round=6, pointer=1)
    assert g.decision() == "spy"
    doc = doc_of(g)
    doc["state"]["options"][1] = STEAL << SHIFT | 3 if option == "seat-past-the-last" else TARGET << SHIFT | 1
    assert refused(doc).startswith("state.options[1]: ")
