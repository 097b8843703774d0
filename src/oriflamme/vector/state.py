"""The vector engine's state: one game at a decision as fixed-shape arrays (docs/environments/vector.md).

Every field is an array, so a batch of states is the same pytree with a
leading batch axis (``jax.vmap`` over it, ``jax.jit`` any function of it).
The layout mirrors the Python engine's :class:`~oriflamme.engine.state.State`
field for field, with the card ids of the Python table (a family's cards
are consecutive ids in recipe order), so that a converted position and the
game it came from can be read side by side:

* per card (``CARDS[players]`` entries, the ids a table of that size can
  have; ids past the table's own cards are padding, with ``kind`` -1):
  kind, owner, controller, face up, IP, the card underneath, zone, verdict,
  briber, asleep, exposed, place in the discard pile. A card's pile (hand,
  set aside, Twin waiting, discard, kept) is its zone: the Python piles are
  these sets, kept in id order but the discard (whose order a rule reads).
* the queue: top card ids in resolution order, -1 past its length;
* per seat: scores;
* the round structure and the resolution pointer;
* the pending decision, the six ints of the Python engine's pending tuple
  (``decision`` -1 when the game is over), and the continuation frames;
* the recipe (multi-hot over the kinds) and the rule options, as data, so
  that one compiled program serves every recipe of a player count;
* a JAX PRNG key for dealing and chance.

The player count is static: it is the length of ``score``, and it fixes
every other shape.
"""

from __future__ import annotations

import dataclasses
from typing import Final

import jax
import jax.numpy as jnp

from ..encoding.actions import MAX_PLAYERS, MAX_QUEUE
from ..engine.cards import OFFICIAL_KINDS

__all__ = [
    "FRAME_FIELDS",
    "KINDS",
    "MAX_FRAMES",
    "MAX_ORDER",
    "MAX_QUEUE",
    "PENDING_FIELDS",
    "State",
    "card_count",
]

#: Kinds the vector engine knows: the 31 official ones (a designer's kinds are refused by ``from_game``).
KINDS: Final = OFFICIAL_KINDS
#: Most cards a family holds: a recipe's 10 kinds and the Twin that comes with a Prince.
_FAMILY_MAX: Final = 11
#: Most entries of a round's placement order: five seats, or two seats placing up to 3 cards each.
MAX_ORDER: Final = 6
#: Most continuation frames waiting at once: a position's finish, a Plot's next IP, a Prince's gain or
#: a Deserter's check, nested a few deep; ``from_game`` refuses a game holding more.
MAX_FRAMES: Final = 8
#: Ints in a continuation frame: its code and up to two arguments (engine/registry.py, ``K_*``).
FRAME_FIELDS: Final = 3
#: Ints in a pending decision: decision, seat, actor, controller, data, data2 (engine/registry.py, ``P_*``).
PENDING_FIELDS: Final = 6


def card_count(players: int) -> int:
    """Card ids a table of ``players`` can have: full families (with a Twin), two per seat with 2 players."""
    if not 2 <= players <= MAX_PLAYERS:
        raise ValueError(f"Oriflamme is played by 2 to {MAX_PLAYERS} players, got {players}")
    return players * (2 if players == 2 else 1) * _FAMILY_MAX


@dataclasses.dataclass(frozen=True)
class State:
    """One game at a decision (or over); a batch of games is the same fields with a leading axis.

    Ints are ``int32`` and flags ``bool``. ``C`` is :func:`card_count`,
    ``N`` the player count, ``Q`` :data:`MAX_QUEUE`, ``K`` :data:`KINDS`.
    """

    # fixed for the game
    #: (K,) bool: the recipe's kinds (the Twin is not one: it comes with the Prince).
    recipe: jax.Array
    #: () int: IP the Schemer gains, cards per round in the 2-player variant, rounds in the game.
    schemer_gain: jax.Array
    cards_per_round: jax.Array
    rounds: jax.Array
    #: (C,) int: each card id's kind (-1: no such card at this table) and owner.
    kind: jax.Array
    owner: jax.Array
    # per card, (C,)
    ctrl: jax.Array
    up: jax.Array
    ip: jax.Array
    #: The card directly underneath in its stack, -1 for none.
    under: jax.Array
    #: Where the card is: the engine's zones (engine/zones.py: hand, aside, top, covered, ...).
    zone: jax.Array
    verdict: jax.Array
    #: The seat whose Bribery holds the card, -1 for none.
    bribed_by: jax.Array
    asleep: jax.Array
    exposed: jax.Array
    #: A discarded card's place in its owner's discard pile (-1 elsewhere; only the order counts).
    #: The Impersonation fetches the first card of a kind there, and with two players a kind has
    #: two copies: the order decides which card id comes back, as in the Python engine.
    discard_order: jax.Array
    # the table
    #: (Q,) int: the top card of each position in resolution order, -1 past ``queue_len``.
    queue: jax.Array
    queue_len: jax.Array
    #: (N,) int: each seat's IP.
    score: jax.Array
    verdict_pool: jax.Array
    # progress
    round: jax.Array
    first: jax.Array
    #: The engine's phase (0 place, 1 resolve, 2 over).
    phase: jax.Array
    #: (MAX_ORDER,) int: this round's placement order, -1 past ``order_len``.
    order: jax.Array
    order_len: jax.Array
    #: Placements made this round (the index into ``order`` of the next one).
    turn: jax.Array
    #: The resolution pointer, the card resolving there (-1: none) and whether it has left.
    ptr: jax.Array
    cur: jax.Array
    cur_gone: jax.Array
    #: (PENDING_FIELDS,) int: the pending decision as the engine holds it; decision -1 when none.
    pending: jax.Array
    #: (MAX_FRAMES, FRAME_FIELDS) int: continuation frames, bottom first, -1 padded; and how many.
    frames: jax.Array
    frames_len: jax.Array
    #: (N,) bool: the winners, once the game is over.
    winners: jax.Array
    #: A JAX PRNG key (``jax.random.key_data`` form, uint32 (2,)) for what is drawn on the device.
    key: jax.Array

    @property
    def players(self) -> int:
        """The player count (static: the length of ``score``)."""
        return int(self.score.shape[-1])

    @property
    def decision(self) -> jax.Array:
        """The pending decision's kind (engine/registry.py ``D_*``), -1 when the game is over."""
        return self.pending[..., 0]

    @property
    def current_player(self) -> jax.Array:
        """The seat that decides, -1 when the game is over."""
        return jnp.where(self.pending[..., 0] >= 0, self.pending[..., 1], -1)

    def replace(self, **changes: jax.Array) -> State:
        """A copy with ``changes`` (states are immutable)."""
        return dataclasses.replace(self, **changes)


jax.tree_util.register_dataclass(
    State, data_fields=[f.name for f in dataclasses.fields(State)], meta_fields=[]
)
