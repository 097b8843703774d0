"""A fixed action space for learning agents: one index per move, the same on every table.

The engine's actions name cards by their id on this table and seats by their
number (``place_on`` even packs a card id and a position), so the same move
has different numbers from one recipe, seat or table to the next. A network
needs one output per move, always the same, so this module numbers moves by
what they mean to the deciding seat:

=================  ========================================  =======
block              one entry per                              entries
=================  ========================================  =======
``place first``    card kind                                       31
``place last``     card kind                                       31
``place on``       card kind x queue position                    1240
``keep``           (one)                                            1
``reveal``         (one)                                            1
``target``         queue position                                  40
``to``             insertion index (0 .. 40)                       41
``steal``          seat relative to the decider (0 .. 4)            5
``copy``           card kind                                       31
``fetch``          source (discard, aside, nowhere)                 3
``gain``           (one)                                            1
``use``            queue position                                  40
``mode``           mode (collect ... condemn)                       6
``swap``           card kind                                       31
=================  ========================================  =======

1,502 entries with the 31 official kinds (:data:`ACTION_COUNT`); the blocks
per kind grow with each designer's kind loaded (:func:`action_space` is the
space of the kinds loaded now, :func:`action_count` its size). A card is named by its kind, which is
enough: a seat holds one card of each kind of its family, and where the
2-player variant gives it two, the engine offers one choice per kind (both
placements and the Informant's swap). Tests check on random games of every
box, seeded random recipes and every player count that no two legal actions
ever share an index.

**The queue bound.** Positions run from 0 to :data:`MAX_QUEUE` - 1 = 39. The
queue grows only when a card is placed at an end: by its owner in the
placement phase (at most ``rounds x cards per round`` times per seat, which
the engine keeps within the hand: 7 cards, 16 in the 2-player variant) or
by a Prince bringing its Twin (once per family: one per seat, two in the
2-player variant). Impersonation's fetch puts a card back where it has just
eliminated one from a position with nothing under it, and every other move
(covering a card, the Royal Decree, the Informant's exchange) leaves the
length alone. So a queue holds at most ``players x (hand + twins)`` cards:
5 x (7 + 1) = 40 with five players, 2 x (16 + 2) = 36 with two
(:func:`queue_bound` for any setup; the tests check it under every
``RuleOptions``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Final

from ..engine.actions import (
    ARG_MASK,
    COPY,
    FETCH,
    FETCH_NAMES,
    GAIN,
    KEEP,
    MODE,
    MODE_NAMES,
    PLACE_FIRST,
    PLACE_LAST,
    PLACE_ON,
    REVEAL,
    SHIFT,
    STEAL,
    SWAP,
    TARGET,
    TO,
    USE,
)
from ..engine.cards import KINDS, OFFICIAL_KINDS, SLUGS, kind_from_slug
from ..engine.game import Game
from ..engine.options import RuleOptions
from ..engine.view import SeatView

__all__ = [
    "ACTION_COUNT",
    "MAX_PLAYERS",
    "MAX_QUEUE",
    "ActionSpace",
    "action_count",
    "action_index",
    "action_space",
    "game_legal_indices",
    "index_name",
    "legal_indices",
    "queue_bound",
    "view_kinds",
]

#: Most seats at a table.
MAX_PLAYERS: Final = 5
#: Most positions a queue can have (see the module docstring for why).
MAX_QUEUE: Final = 40


def _block_sizes(kinds: int) -> tuple[tuple[str, int], ...]:
    return (
        ("place first", kinds),
        ("place last", kinds),
        ("place on", kinds * MAX_QUEUE),
        ("keep", 1),
        ("reveal", 1),
        ("target", MAX_QUEUE),
        ("to", MAX_QUEUE + 1),
        ("steal", MAX_PLAYERS),
        ("copy", kinds),
        ("fetch", len(FETCH_NAMES)),
        ("gain", 1),
        ("use", MAX_QUEUE),
        ("mode", len(MODE_NAMES)),
        ("swap", kinds),
    )


@dataclass(frozen=True, slots=True)
class ActionSpace:
    """The action space for a number of kinds: where each block starts, and its size."""

    kinds: int
    #: Block name -> its first index, in order.
    starts: dict[str, int]
    #: Size of the space.
    count: int
    place_first: int
    place_last: int
    place_on: int
    keep: int
    reveal: int
    target: int
    to: int
    steal: int
    copy: int
    fetch: int
    gain: int
    use: int
    mode: int
    swap: int

    @classmethod
    def for_kinds(cls, kinds: int) -> ActionSpace:
        starts: dict[str, int] = {}
        at = 0
        for name, size in _block_sizes(kinds):
            starts[name] = at
            at += size
        return cls(kinds, starts, at, *starts.values())


_space_for = cache(ActionSpace.for_kinds)


def action_space(kinds: int | None = None) -> ActionSpace:
    """The space for ``kinds`` kinds (by default the kinds loaded now: 31 unless a designer's are)."""
    return _space_for(len(KINDS) if kinds is None else kinds)


def action_count() -> int:
    """Size of the action space of the kinds loaded now (1,502 with the official kinds alone)."""
    return action_space().count


#: Size of the action space of the 31 official kinds, the one the shipped network was trained on.
ACTION_COUNT: Final = action_space(OFFICIAL_KINDS).count

#: Kind of card, by card id: a table's ``Game.kind``, or the cards a seat knows (:func:`view_kinds`).
KindOf = Sequence[int] | Mapping[int, int]


def queue_bound(players: int, rules: RuleOptions | None = None, twins_per_seat: int | None = None) -> int:
    """Most positions a queue of this setup can have: each seat's placements at an end plus its Twins."""
    rules = rules or RuleOptions()
    hand = 16 if players == 2 else 7
    per_round = rules.two_player_cards_per_round if players == 2 else 1
    if twins_per_seat is None:
        twins_per_seat = 2 if players == 2 else 1
    return players * (min(hand, rules.rounds * per_round) + twins_per_seat)


def _position(i: int) -> int:
    if not 0 <= i < MAX_QUEUE:
        raise ValueError(f"queue position {i} is beyond the action space's bound of {MAX_QUEUE}")
    return i


def action_index(action: int, seat: int, players: int, kind: KindOf) -> int:
    """The index of the engine ``action`` taken by ``seat`` at a table of ``players``.

    ``kind`` gives the kind of the card ids the action may name (the decider's
    own cards): a table's ``Game.kind``, or :func:`view_kinds` of its view.
    Raises ValueError for an action that is not an engine action.
    """
    verb = action >> SHIFT
    arg = action & ARG_MASK
    at = action_space()
    if verb == KEEP:
        return at.keep
    if verb == REVEAL:
        return at.reveal
    if verb == PLACE_ON:
        return at.place_on + kind[arg >> 8] * MAX_QUEUE + _position(arg & 255)
    if verb == PLACE_FIRST:
        return at.place_first + kind[arg]
    if verb == PLACE_LAST:
        return at.place_last + kind[arg]
    if verb == TARGET:
        return at.target + _position(arg)
    if verb == TO:
        if not 0 <= arg <= MAX_QUEUE:
            raise ValueError(f"insertion index {arg} is beyond the action space's bound of {MAX_QUEUE}")
        return at.to + arg
    if verb == STEAL:
        return at.steal + (arg - seat) % players
    if verb == COPY:
        return at.copy + arg
    if verb == FETCH:
        return at.fetch + arg
    if verb == GAIN:
        return at.gain
    if verb == USE:
        return at.use + _position(arg)
    if verb == MODE:
        return at.mode + arg
    if verb == SWAP:
        return at.swap + kind[arg]
    raise ValueError(f"{action} is not an engine action (verb {verb})")


def _indexed(actions: Sequence[int], seat: int, players: int, kind: KindOf) -> dict[int, int]:
    out: dict[int, int] = {}
    for a in actions:
        i = action_index(a, seat, players, kind)
        if i in out:
            raise ValueError(f"actions {out[i]} and {a} share index {i} ({index_name(i)})")
        out[i] = a
    return out


def legal_indices(view: SeatView) -> dict[int, int]:
    """Index -> engine action for every legal action of the deciding seat's ``view``."""
    if view.seat is None or view.seat != view.to_move:
        return {}
    return _indexed(view.legal_actions, view.seat, view.players, view_kinds(view))


def game_legal_indices(game: Game) -> dict[int, int]:
    """Index -> engine action for every legal action of ``game`` (the same as from the decider's view)."""
    p = game.pending
    if p is None:
        return {}
    return _indexed(game.options, game.current_player(), game.players, game.kind)


def view_kinds(view: SeatView) -> dict[int, int]:
    """Card id -> kind for every card whose identity ``view`` shows (its own cards among them)."""
    out: dict[int, int] = {}
    piles: list[Sequence[object]] = [view.hand, view.aside]
    piles.extend(view.queue)
    for group in (view.known_hands, view.twins, view.discards, view.kept):
        piles.extend(group)
    for pile in piles:
        for card in pile:
            cid = getattr(card, "id", None)
            slug = getattr(card, "kind", None)
            if cid is not None and slug is not None:
                out[cid] = kind_from_slug(slug)
    return out


def index_name(index: int) -> str:
    """What an index means, in words close to the action text (positions count from 1)."""
    space = action_space()
    if not 0 <= index < space.count:
        raise ValueError(f"no action index {index}: the space has {space.count} (0 to {space.count - 1})")
    for name, at in reversed(space.starts.items()):
        if index >= at:
            i = index - at
            if name in ("place first", "place last"):
                return f"place {SLUGS[i]} {name.split()[1]}"
            if name == "place on":
                return f"place {SLUGS[i // MAX_QUEUE]} on {i % MAX_QUEUE + 1}"
            if name in ("keep", "reveal", "gain"):
                return name
            if name in ("target", "use"):
                return f"{name} {i + 1}"
            if name == "to":
                return f"to {i + 1}"
            if name == "steal":
                return f"steal +{i}"
            if name in ("copy", "swap"):
                return f"{name} {SLUGS[i]}"
            if name == "fetch":
                return f"fetch {FETCH_NAMES[i]}"
            return MODE_NAMES[i]
    raise AssertionError("unreachable")  # pragma: no cover
