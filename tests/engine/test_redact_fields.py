"""Redacted events and views carry the public numbers exactly (mutation-testing gaps in view.redact,
view.seat_view and the event codes).

The hidden-information tests check that nothing secret leaks; these check that nothing public is
lost or renamed: the queue position 0, the ``n`` field under its key, the Agreement's income under
its own event name, and the face-down card a keep-or-reveal question is about.

Proposed location: tests/engine/test_redact_fields.py
"""

from __future__ import annotations

from support.alliance import build, play
from support.base import table

from oriflamme import Game
from oriflamme.engine import events as ev
from oriflamme.engine.registry import D_KEEP_OR_REVEAL
from oriflamme.engine.view import redact, seat_view


def test_redacted_events_keep_position_zero_and_their_numbers() -> None:
    """Blue's log of Red's round: the card at position 0 keeps ``pos: 0``, every ``n`` its own key.

    The Agreement's income is an ``agreement_income`` event with its amount, not a bribe returned.
    """
    g = build("p1:~agreement+2 p1:~empress p2:~fanatic", scores=[0, 0, 0], round=3)
    events = play(g, "reveal", "keep", "keep")  # Agreement kept; the round ends; round 4 starts
    assert [redact(g, e, 1) for e in events] == [
        {"type": "revealed", "seat": 0, "pos": 0, "owner": 0, "card": "agreement", "ip": 0},
        {"type": "card_kept", "seat": 0, "pos": 0, "owner": 0, "card": "agreement", "ip": 2},
        {"type": "kept_hidden", "seat": 0, "pos": 0, "owner": 0, "card": None, "ip": 1},
        {"type": "kept_hidden", "seat": 1, "pos": 1, "owner": 1, "card": "fanatic", "ip": 1},
        {"type": "round_ended", "round": 3},
        {"type": "round_started", "seat": 1, "round": 4},
        {"type": "agreement_income", "seat": 0, "amount": 2},
    ]
    assert g.score == [2, 0, 0]


def test_an_elimination_names_the_eliminating_card_to_everyone() -> None:
    """The Archer (card id 0) eliminates Blue's face-down Conspiracy: every receiver, Blue and a
    spectator included, reads ``by_card: archer``, the cause of Red's point and the winners."""
    g = table("p1:archer p2:~conspiracy+2", scores=[0, 0, 0])
    events = play(g, "target 2")
    for seat in (None, 1, 2):
        assert [redact(g, e, seat) for e in events] == [
            {
                "type": "eliminated",
                "seat": 0,
                "pos": 1,
                "owner": 1,
                "card": "conspiracy",
                "by_card": "archer",
            },
            {"type": "gained", "seat": 0, "amount": 1, "cause": "eliminating"},
            {"type": "ip_off_card", "pos": 1, "owner": 1, "card": "conspiracy", "amount": 2},
            {"type": "round_ended", "round": 6},
            {"type": "game_ended", "winners": [0]},
        ]


def test_first_card_placed_is_at_position_zero_for_everyone() -> None:
    """The first placement of a game lands at position 0: every receiver's event says so."""
    g = Game.new(players=3, deck="base", seed=4, first_player=0)
    events = g.apply(g.legal_actions()[0])
    placed = [e for e in events if e[0] == ev.PLACED]
    for seat in (None, 0, 1, 2):
        out = redact(g, placed[0], seat)
        assert out["pos"] == 0
        assert out["stacked"] is False


def test_round_started_names_round_one() -> None:
    g = Game.new(players=3, deck="base", seed=4, first_player=0)
    started = [e for e in g.events if e[0] == ev.ROUND_STARTED]
    assert [redact(g, e, None) for e in started] == [{"type": "round_started", "seat": 0, "round": 1}]


def test_keep_or_reveal_on_card_zero_hides_that_card_from_the_others() -> None:
    """The keep-or-reveal question about Red's face-down card id 0: only Red's view names it.

    Card id 0 is the edge of the ``actor >= 0`` test; the others see the sentinel -1, as for any
    other hidden card.
    """
    g = build("p1:~agreement+2 p1:~empress p2:~fanatic", scores=[0, 0, 0], round=3)
    play(g, "reveal")  # the Agreement is kept at once; now the Empress
    assert g.pending is not None and g.pending[2] == 0  # the Empress is card 0
    assert seat_view(g, 0).pending == (D_KEEP_OR_REVEAL, 0, 0, 0, -1, -1)
    for seat in (None, 1, 2):
        assert seat_view(g, seat).pending == (D_KEEP_OR_REVEAL, 0, -1, 0, -1, -1)
