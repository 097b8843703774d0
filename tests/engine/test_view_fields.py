"""A seat's view carries the public facts exactly (mutation-testing gaps in view.seat_view/card_view
and in the event codes).

The hidden-information tests prove that a view leaks nothing; these pin what it must still show:
the card resolving now, a Bribery token of p1 (seat 0), every card of a stack, who is to move, the
winners of any seat, and event codes that stay distinct and named.

Proposed location: tests/engine/test_view_fields.py
"""

from __future__ import annotations

import dataclasses
import pickle

import pytest
from support.scenario import play, table

from oriflamme import build_position
from oriflamme.engine import events as ev
from oriflamme.engine.view import final_reveal, redact, seat_view


def test_every_event_code_is_distinct_and_named_after_its_constant() -> None:
    """Two event kinds sharing a code would be logged and redacted under one name."""
    codes = {
        name: value
        for name, value in vars(ev).items()
        if name.isupper() and isinstance(value, int) and not isinstance(value, bool)
    }
    assert sorted(codes.values()) == list(range(len(ev.NAMES)))
    for name, code in codes.items():
        assert ev.NAMES[code] == name.lower()
    assert sorted(ev.FIELDS) == list(range(len(ev.NAMES)))


def test_face_up_card_resolving_is_named_to_every_seat() -> None:
    """The face-up Archer (card 0) waiting for its target: every view, a spectator's too, names it."""
    g = table("p1:archer p2:~conspiracy+2", scores=[0, 0, 0])
    assert (g.cur, g.up[0]) == (0, True)
    assert [seat_view(g, s).resolving for s in (None, 0, 1, 2)] == [0, 0, 0, 0]


def test_a_bribery_token_of_p1_shows_in_every_view() -> None:
    """p2's Soldier bears p1's Bribery token (seat 0): the card view says ``bribed_by`` 0, not None."""
    g = build_position(3, "base", "p1:~spy p2:soldier@p1 p3:lord", round=3, pointer=2)
    for seat in (None, 0, 1, 2):
        soldier = seat_view(g, seat).queue[1]
        assert [(cv.kind, cv.bribed_by, cv.controller, cv.owner) for cv in soldier] == [("soldier", 0, 0, 1)]


def test_a_stack_shows_every_card_bottom_first() -> None:
    """p1's face-down Spy on its face-up Archer (card 0): Blue sees both cards, the Spy unnamed."""
    g = build_position(3, "base", "p1:archer/p1:~spy p2:soldier p3:lord", round=3, pointer=2)
    blue = seat_view(g, 1).queue
    assert [[(cv.kind, cv.face_up) for cv in pos] for pos in blue] == [
        [("archer", True), (None, False)],
        [("soldier", True)],
        [("lord", True)],
    ]
    assert seat_view(g, 0).queue[0][0].id == 0
    assert [cv.kind for cv in seat_view(g, 0).queue[0]] == ["archer", "spy"]


def test_a_view_is_immutable() -> None:
    """Views are handed to bots and clients: none of them can change what another one sees."""
    view = seat_view(table("p1:archer p2:~conspiracy+2", scores=[0, 0, 0]), 1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.round = 1  # type: ignore[misc]


def test_seat_view_refuses_a_seat_past_the_last() -> None:
    g = table("p1:archer p2:~conspiracy+2", scores=[0, 0, 0])
    for bad in (-1, 3):
        with pytest.raises(ValueError, match=f"no seat {bad}"):
            seat_view(g, bad)


def test_finished_game_view_has_nobody_to_move_and_names_the_winner() -> None:
    """Blue's Archer eliminates Red's face-down Conspiracy: the game ends, Blue (seat 1) wins."""
    g = table("p2:archer p1:~conspiracy+2", scores=[0, 0, 0])
    events = play(g, "target 2")
    assert g.is_over()
    assert g.score == [0, 1, 0]
    view = seat_view(g, None)
    assert (view.to_move, view.decision, view.pending) == (-1, None, None)
    assert view.to_move == g.current_player()
    assert view.winners == (1,)
    assert redact(g, events[-1], None) == {"type": "game_ended", "winners": [1]}


def test_a_finished_game_s_view_and_its_reveal_pickle_and_come_back_equal() -> None:
    """Views travel to other processes (root-parallel searches, the server's workers) as pickles,
    which the compiled build's frozen classes cannot take field by field: they rebuild equal."""
    g = table("p2:archer p1:~conspiracy+2", scores=[0, 0, 0])
    play(g, "target 2")
    view, reveal = seat_view(g, 0), final_reveal(g)
    assert view.outcome is not None and reveal.queue
    assert pickle.loads(pickle.dumps(view)) == view
    assert pickle.loads(pickle.dumps(reveal)) == reveal
