"""A table's chat rules on their own: who may speak, what a line may be, what the host may change."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from oriflamme.web.chat import CHAT_KEPT, MAX_CHAT, TableChat
from oriflamme.web.protocol import ChatModMessage, ProtocolError
from oriflamme.web.seat_rates import SeatRates

#: Lines one seat may send in 10 seconds (seat_rates.RATES["chat"]).
CHAT_BURST = 5


def unlimited() -> None:
    """A rate that allows every line."""


def counted(rates: SeatRates, seat: int | None) -> Callable[[], None]:
    """The count of ``seat``'s lines at table ``t`` (a spectator's at one address)."""
    return lambda: rates.check("chat", "t", seat, "192.0.2.1")


def refusal(call: Callable[..., object], *args: object) -> str:
    """The error code ``call(*args)`` is refused with."""
    with pytest.raises(ProtocolError) as caught:
        call(*args)
    return caught.value.code


def test_a_line_is_cleaned_numbered_by_its_process_and_kept_once() -> None:
    chat = TableChat()
    line = chat.new_line(1, "  hello\u0000 there ", unlimited, "w7")
    assert line["id"] == "w7.1" and line["seat"] == 1 and line["text"] == "hello there"
    assert chat.new_line(1, "again", unlimited, "w7")["id"] == "w7.2"
    assert chat.add(line) and not chat.add(dict(line))
    assert [kept["text"] for kept in chat.lines] == ["hello there"]


def test_spectators_silenced_seats_empty_long_and_fast_lines_are_refused_and_not_counted() -> None:
    chat = TableChat()
    rate = counted(SeatRates(), 1)
    assert refusal(chat.new_line, None, "hi", rate, "w") == "chat_closed"
    chat.muted.add(2)
    assert refusal(chat.new_line, 2, "hi", rate, "w") == "chat_muted"
    assert refusal(chat.new_line, 1, " \u200b ", rate, "w") == "bad_chat"
    assert refusal(chat.new_line, 1, "x" * (MAX_CHAT + 1), rate, "w") == "chat_too_long"
    assert chat.counter == 0
    # The refused lines used none of the connection's burst.
    for _ in range(CHAT_BURST):
        chat.new_line(1, "hi", rate, "w")
    assert refusal(chat.new_line, 1, "hi", rate, "w") == "chat_too_fast"
    assert chat.counter == CHAT_BURST
    chat.spectators_allowed = True
    assert chat.new_line(None, "a spectator", unlimited, "w")["seat"] is None


def test_only_the_person_host_moderates_other_existing_seats() -> None:
    mute = ChatModMessage(type="chat_mod", seat=2, mute=True)
    assert TableChat.moderation(0, True, mute, 4) == {
        "seat": 2,
        "mute": True,
        "remove": False,
        "spectators": None,
    }
    opening = ChatModMessage(type="chat_mod", spectators=True, remove=False)
    assert TableChat.moderation(0, True, opening, 4) == {
        "seat": None,
        "mute": None,
        "remove": False,
        "spectators": True,
    }
    assert refusal(TableChat.moderation, 1, True, mute, 4) == "not_host"
    assert refusal(TableChat.moderation, 0, False, mute, 4) == "not_host"
    assert (
        refusal(TableChat.moderation, 0, True, ChatModMessage(type="chat_mod", seat=4, mute=True), 4)
        == "malformed"
    )
    assert (
        refusal(TableChat.moderation, 0, True, ChatModMessage(type="chat_mod", seat=0, mute=True), 4)
        == "malformed"
    )


def test_a_change_heard_from_another_process_is_checked_before_it_applies() -> None:
    chat = TableChat()
    chat.add({"id": "a.1", "seat": 2, "text": "x", "at": 0.0})
    chat.add({"id": "a.2", "seat": 1, "text": "y", "at": 0.0})
    chat.apply({"seat": 2, "mute": True, "remove": True, "spectators": True}, 4)
    assert chat.muted == {2} and chat.spectators_allowed
    assert [line["id"] for line in chat.lines] == ["a.2"]
    chat.apply({"seat": 9, "mute": True, "spectators": "yes"}, 4)  # a forged change: nothing happens
    assert chat.muted == {2} and chat.spectators_allowed
    chat.apply({"seat": 2, "mute": False}, 4)
    assert chat.muted == set()


def test_a_relayed_line_is_cleaned_and_bounded_again() -> None:
    line = TableChat.relayed({"id": 5, "seat": 7, "text": "z" * (MAX_CHAT + 50) + "\u0000", "at": "1.5"}, 4)
    assert line == {"id": "5", "seat": None, "text": "z" * MAX_CHAT, "at": 1.5}


def test_a_line_not_for_some_seats_is_kept_from_them_now_and_in_the_chat_shown_later() -> None:
    """Seats whose accounts block the speaker's (:mod:`oriflamme.web.friends`) never see the line;
    spectators and the other seats do, and a line leaving the kept window takes its mark along."""
    chat = TableChat()
    line = chat.new_line(0, "hello", unlimited, "w1")
    assert chat.add(line, frozenset({2}))
    assert [x["text"] for x in chat.state(1)["lines"]] == ["hello"]
    assert chat.state(2)["lines"] == [] and chat.state(None)["lines"] == [line]
    # A seat that blocks the speaker now does not see the speaker's earlier lines either.
    assert chat.state(1, deaf_to=frozenset({0}))["lines"] == []
    for i in range(CHAT_KEPT):
        chat.add(chat.new_line(1, f"line {i}", unlimited, "w1"))
    assert line["id"] not in chat.unheard and len(chat.lines) == CHAT_KEPT


def test_the_seats_a_relayed_line_is_not_for_are_checked_again() -> None:
    assert TableChat.relayed_unheard([0, 3, 4, -1, "2", True], 4) == frozenset({0, 3})
    assert TableChat.relayed_unheard("0,1", 4) == frozenset()
    assert TableChat.relayed_unheard(None, 4) == frozenset()
