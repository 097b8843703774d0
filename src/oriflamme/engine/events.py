"""Structured events: what happened, as data a client can narrate and animate.

An event is a flat tuple ``(code, seat, card, pos, n, extra, public)``:

* ``code`` — one of the constants below;
* ``seat`` — the player who acted or is affected (-1 if none);
* ``card`` — the engine's card id (-1 if none);
* ``pos`` — a queue position (0-based) or -1;
* ``n``, ``extra`` — numbers whose meaning depends on the code (see ``FIELDS``);
* ``public`` — 1 if the card's identity is known to everybody at that moment.

Events are produced in the engine's own terms;
:func:`oriflamme.engine.view.redact` turns one into a plain dict for a given
seat, with the identity of any card that seat may not know removed. Views and
redaction live together in :mod:`oriflamme.engine.view`, the one place where
secrecy is decided.
"""

from __future__ import annotations

from typing import Final

Event = tuple[int, int, int, int, int, int, int]

ROUND_STARTED: Final = 0  # n: round number (1-based); seat: first player
PLACED: Final = 1  # seat placed card at pos; extra: 1 if onto a stack
KEPT_HIDDEN: Final = 2  # seat kept card hidden at pos; n: IP now on it
REVEALED: Final = 3  # seat revealed card at pos; n: IP taken from it
ABILITY: Final = 4  # card at pos applies the ability of kind n for seat
NO_EFFECT: Final = 5  # card at pos applied kind n's ability, which had no target
ELIMINATED: Final = 6  # seat eliminated card (from pos); extra: eliminating card
DISCARDED: Final = 7  # card left pos into its owner's discard pile (no elimination)
GAINED: Final = 8  # seat gained n IP; extra: the cause (oriflamme.engine.causes)
LOST: Final = 9  # seat lost n IP; extra: the cause
STOLEN: Final = 10  # seat stole n IP from player ``extra``
MOVED: Final = 11  # card moved from pos to index n
IP_ON_CARD: Final = 12  # n IP were put on the card at pos
IP_OFF_CARD: Final = 13  # n IP were taken off the card at pos, back to the supply
TWIN_PLACED: Final = 14  # seat put its twin at pos, face up; extra: 1 if onto a stack
BRIBED: Final = 15  # seat bribed card at pos; extra: former briber or -1
VERDICT_PLACED: Final = 16  # seat put a verdict on card at pos
VERDICT_RETURNED: Final = 17  # the verdict on card went back to the pool
CARD_KEPT: Final = 18  # seat keeps the card (Infiltration, Agreement); n: IP on it
TURNED_DOWN: Final = 19  # card at pos turned face down again (Insurrection)
REPLACED: Final = 20  # seat put card face up at pos; extra: FROM_DISCARD/FROM_ASIDE
SWAPPED: Final = 21  # seat's card left pos for the hand; extra: card now face down at pos
ROUND_ENDED: Final = 22  # n: round number
GAME_ENDED: Final = 23  # n: bit mask of winning seats
AGREEMENT_INCOME: Final = 24  # seat gains n from the kept Agreement card
BRIBE_RETURNED: Final = 25  # the bribery token of seat on card went back

NAMES: Final = (
    "round_started",
    "placed",
    "kept_hidden",
    "revealed",
    "ability",
    "no_effect",
    "eliminated",
    "discarded",
    "gained",
    "lost",
    "stolen",
    "moved",
    "ip_on_card",
    "ip_off_card",
    "twin_placed",
    "bribed",
    "verdict_placed",
    "verdict_returned",
    "card_kept",
    "turned_down",
    "replaced",
    "swapped",
    "round_ended",
    "game_ended",
    "agreement_income",
    "bribe_returned",
)

#: What ``n`` and ``extra`` mean for each code, used by :func:`redact` for keys.
FIELDS: Final[dict[int, tuple[str | None, str | None]]] = {
    ROUND_STARTED: ("round", None),
    PLACED: (None, "stacked"),
    KEPT_HIDDEN: ("ip", None),
    REVEALED: ("ip", None),
    ABILITY: ("ability", None),
    NO_EFFECT: ("ability", None),
    ELIMINATED: (None, "by_card"),
    DISCARDED: (None, None),
    GAINED: ("amount", "cause"),
    LOST: ("amount", "cause"),
    STOLEN: ("amount", "victim"),
    MOVED: ("to", None),
    IP_ON_CARD: ("amount", None),
    IP_OFF_CARD: ("amount", None),
    TWIN_PLACED: (None, "stacked"),
    BRIBED: (None, "previous"),
    VERDICT_PLACED: (None, None),
    VERDICT_RETURNED: (None, None),
    CARD_KEPT: ("ip", None),
    TURNED_DOWN: (None, None),
    REPLACED: (None, "source"),
    SWAPPED: (None, "hand_card"),
    ROUND_ENDED: ("round", None),
    GAME_ENDED: ("winners", None),
    AGREEMENT_INCOME: ("amount", None),
    BRIBE_RETURNED: (None, None),
}
