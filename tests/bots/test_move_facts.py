"""What a review line says a move was about, read from the pending decision's named fields."""

from __future__ import annotations

from oriflamme import build_position, parse_action
from oriflamme.bots.review import move_facts


def test_a_royal_decrees_destination_names_the_card_it_moves() -> None:
    """The review read the Decree's picked card from the wrong data field (always -1), so every
    "to N" line said nothing of the card: it is the card at the position the Decree picked."""
    g = build_position(
        3,
        "base",
        queue="p1:~royal-decree p2:heir p3:soldier p1:lord",
        hands=["archer spy heir ambush conspiracy", "archer spy lord ambush conspiracy", "archer spy lord ambush conspiracy"],
        round=2,
        first=0,
    )  # fmt: skip
    g.apply(parse_action(g, "reveal"))
    g.apply(parse_action(g, "target 3"))  # the Soldier
    facts = move_facts(g, parse_action(g, "to 1"))
    assert (facts.card, facts.position, facts.queue_length) == ("soldier", 1, 4)
