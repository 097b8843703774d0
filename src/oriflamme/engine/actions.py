"""Actions as small integers, and their verbs.

An action is ``verb << 16 | argument``. Integers keep legal-action lists and
histories cheap; the readable text form (``place soldier first``, ``keep``,
``target 3``) is in :mod:`oriflamme.engine.action_text`.
"""

from __future__ import annotations

from typing import Final

SHIFT: Final = 16
ARG_MASK: Final = (1 << SHIFT) - 1

PLACE_FIRST: Final = 1  # arg: card id
PLACE_LAST: Final = 2  # arg: card id
PLACE_ON: Final = 3  # arg: card id << 8 | position
KEEP: Final = 4
REVEAL: Final = 5
TARGET: Final = 6  # arg: position
TO: Final = 7  # arg: insertion index (0 .. len(queue))
STEAL: Final = 8  # arg: seat
COPY: Final = 9  # arg: kind
FETCH: Final = 10  # arg: FROM_DISCARD / FROM_ASIDE / FROM_NOWHERE
GAIN: Final = 11
USE: Final = 12  # arg: position
MODE: Final = 13  # arg: one of the MODE_* ids
SWAP: Final = 14  # arg: card id (hand card)

FROM_DISCARD: Final = 0
FROM_ASIDE: Final = 1
#: Impersonation's answer when neither pile holds the character: asked all the
#: same, so that the others cannot tell an empty set-aside pile from a full one.
FROM_NOWHERE: Final = 2

MODE_COLLECT: Final = 0  # Informant: IP on adjacent face-down cards
MODE_EXCHANGE: Final = 1  # Informant: swap with a hand card
MODE_GIFT: Final = 2  # Diplomat: gain 1, 2 IP to another Diplomat
MODE_CASHOUT: Final = 3  # Diplomat: take its IP and leave
MODE_VERDICT: Final = 4  # Judge: gain 1 and place a verdict
MODE_CONDEMN: Final = 5  # Judge: eliminate a card bearing a verdict

MODE_NAMES: Final = ("collect", "exchange", "gift", "cashout", "verdict", "condemn")
FETCH_NAMES: Final = ("discard", "aside", "nowhere")

KEEP_ACTION: Final = KEEP << SHIFT
REVEAL_ACTION: Final = REVEAL << SHIFT
GAIN_ACTION: Final = GAIN << SHIFT


def verb_of(action: int) -> int:
    return action >> SHIFT


def arg_of(action: int) -> int:
    return action & ARG_MASK


def placed_card(action: int) -> int:
    """The card a placement action (``PLACE_FIRST``, ``PLACE_LAST`` or ``PLACE_ON``) puts down."""
    arg = action & ARG_MASK
    return arg >> 8 if action >> SHIFT == PLACE_ON else arg
