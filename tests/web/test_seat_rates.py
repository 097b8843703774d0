"""The rates of what makes a table hear something: per seat across reconnections, per window.

The windows are tested against a travelling clock (``time_machine``), so that
a window made shorter or endless fails here.
"""

from __future__ import annotations

import pytest
import time_machine
from limits import parse

from oriflamme.web.protocol import ProtocolError
from oriflamme.web.seat_rates import RATES, SeatRates


def allowed(
    rates: SeatRates, what: str, seat: int | None, address: str = "192.0.2.1", table: str = "t"
) -> bool:
    try:
        rates.check(what, table, seat, address)
    except ProtocolError:
        return False
    return True


def test_five_chat_lines_in_ten_seconds_then_one_more_as_each_leaves_the_window() -> None:
    with time_machine.travel(1_000_000.0, tick=False) as clock:
        rates = SeatRates()
        for _ in range(5):
            assert allowed(rates, "chat", 1)
            clock.shift(1.0)
        # Lines at 0, 1, 2, 3, 4 s; now 5 s: a sixth is refused, and still at 9.9 s.
        assert not allowed(rates, "chat", 1)
        clock.shift(4.9)
        assert not allowed(rates, "chat", 1)
        clock.shift(0.2)  # 10.1 s: the line of 0 s has left the window
        assert allowed(rates, "chat", 1)
        assert not allowed(rates, "chat", 1)
        clock.shift(60.0)
        assert all(allowed(rates, "chat", 1) for _ in range(5))


def test_a_refusal_says_what_and_how_long_to_wait_and_counts_nothing() -> None:
    with time_machine.travel(2_000_000.0, tick=False) as clock:
        rates = SeatRates()
        for _ in range(5):
            rates.check("chat", "t", 0, "")
        clock.shift(3.0)
        with pytest.raises(ProtocolError) as caught:
            rates.check("chat", "t", 0, "")
        assert caught.value.code == "chat_too_fast"
        assert "at most 5 per 10 second" in caught.value.message and "wait 7 s" in caught.value.message
        clock.shift(7.1)
        assert allowed(rates, "chat", 0)  # the refused line took no place in the window


def test_seats_tables_kinds_and_spectator_addresses_count_apart() -> None:
    with time_machine.travel(3_000_000.0, tick=False):
        rates = SeatRates()
        for _ in range(parse(RATES["rename"].rate).amount):
            assert allowed(rates, "rename", 0)
        assert not allowed(rates, "rename", 0)
        assert allowed(rates, "rename", 1)  # another seat
        assert allowed(rates, "rename", 0, table="u")  # the same seat of another table
        assert allowed(rates, "away", 0)  # another kind of message
        for _ in range(5):
            assert allowed(rates, "chat", None, "198.51.100.1")
        assert not allowed(rates, "chat", None, "198.51.100.1")
        assert allowed(rates, "chat", None, "198.51.100.2")  # another spectator
        # An IPv6 spectator counts by its /64: another address of the same machine shares it.
        for _ in range(5):
            assert allowed(rates, "chat", None, "2001:db8::1")
        assert not allowed(rates, "chat", None, "2001:db8::2")


def test_every_rate_is_a_valid_limit_with_a_window_of_seconds_to_an_hour() -> None:
    for what, rate in RATES.items():
        item = parse(rate.rate)
        assert 1 <= item.get_expiry() <= 3600, what
        assert item.amount >= 1, what
