"""What one seat may know: the per-seat view of a game.

A :class:`SeatView` is built from a game for one seat (or for a spectator,
``seat=None``) and contains nothing that seat may not know: not an opponent's
hand or set-aside cards, not the identity of a face-down card it does not own,
not the RNG seed. Bots, the terminal and the browser receive views, never the
game itself. :func:`oriflamme.engine.sampler.sample_game` turns a view back into a
full game by dealing the unknown cards at random.

Events are redacted here too (:func:`redact`): views and event logs share
one place where secrecy is decided.

Card ids appear in a view only for cards whose identity the seat knows, so
they carry no extra information (an id only encodes owner and kind).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, NamedTuple

from .cards import SLUGS
from .causes import cause_name
from .events import FIELDS, NAMES, Event
from .options import RuleOptions
from .outcome import Outcome, outcome
from .registry import (
    D_FETCH,
    D_KEEP_OR_REVEAL,
    D_PLACE,
    D_SWAP,
    D_TWIN,
    DECISION_NAMES,
    P_ACTOR,
    P_CTRL,
    P_DATA,
    P_DATA2,
    P_DECISION,
    P_SEAT,
)
from .state import State
from .zones import OVER, PHASE_NAMES


class CardView(NamedTuple):
    """One card as a seat sees it; ``kind``/``id`` are None when it is hidden from that seat.

    A named tuple rather than a dataclass: views are built for every bot
    decision, and tuples are several times cheaper to create.
    """

    owner: int
    controller: int
    kind: str | None
    id: int | None
    face_up: bool
    ip: int = 0
    verdict: bool = False
    bribed_by: int | None = None
    asleep: bool = False
    #: Face down, but everybody knows what it is (an Insurrection turned back down).
    exposed: bool = False


@dataclass(frozen=True, slots=True)
class SeatView:
    """Everything ``seat`` may know about the game, as plain immutable data."""

    seat: int | None
    players: int
    recipe: tuple[str, ...]
    rules: Mapping[str, int]
    round: int
    rounds: int
    first: int
    phase: str
    placement_order: tuple[int, ...]
    placement_turn: int
    pointer: int
    #: The id of the card resolving now, when this seat may know it.
    resolving: int | None
    resolving_left: bool
    scores: tuple[int, ...]
    verdict_pool: int
    #: The queue in resolution order; each position is its stack, bottom first.
    queue: tuple[tuple[CardView, ...], ...]
    hand: tuple[CardView, ...]
    hand_counts: tuple[int, ...]
    #: Cards everybody knows to be in a player's hand (an Informant taken back).
    known_hands: tuple[tuple[CardView, ...], ...]
    aside: tuple[CardView, ...]
    aside_counts: tuple[int, ...]
    twins: tuple[tuple[CardView, ...], ...]
    discards: tuple[tuple[CardView, ...], ...]
    kept: tuple[tuple[CardView, ...], ...]
    #: Pending decision: its kind name, the deciding seat, and raw engine data
    #: (public fields only). Legal actions are shown to the deciding seat, and
    #: to everyone when they depend only on public facts (targets, modes).
    decision: str | None
    to_move: int
    pending: tuple[int, ...] | None
    frames: tuple[tuple[int, ...], ...]
    legal_actions: tuple[int, ...]
    winners: tuple[int, ...]
    #: Number of actions applied so far: a state number for clients.
    state_number: int
    #: Scores, ranks, winners, tie-break and IP ledger, once the game is over (all public).
    outcome: Outcome | None = None

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data (cards as dicts)."""
        out: dict[str, Any] = {}
        for f in fields(self):
            out[f.name] = _plain(getattr(self, f.name))
        return out

    def __reduce__(self) -> tuple[type[SeatView], tuple[Any, ...]]:
        return (SeatView, _field_values(self))


def _plain(value: Any) -> Any:
    if isinstance(value, CardView):
        return value._asdict()
    if isinstance(value, Outcome):
        return value.to_dict()
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    if isinstance(value, Mapping):
        return dict(value)
    return value


def knows(g: State, c: int, seat: int | None) -> bool:
    """Whether ``seat`` (None: a spectator) may know which card ``c`` is."""
    return g.up[c] or g.exposed[c] or g.owner[c] == seat


def card_view(g: State, c: int, seat: int | None) -> CardView:
    up = g.up[c]
    owner = g.owner[c]
    exposed = g.exposed[c]
    known = up or exposed or owner == seat
    briber = g.bribed_by[c]
    return CardView(
        owner,
        g.ctrl[c],
        SLUGS[g.kind[c]] if known else None,
        c if known else None,
        up,
        g.ip[c],
        g.verdict[c],
        briber if briber >= 0 else None,
        g.asleep[c],
        exposed,
    )


@functools.lru_cache(maxsize=64)
def _recipe_slugs(recipe: tuple[int, ...]) -> tuple[str, ...]:
    return tuple(SLUGS[k] for k in recipe)


@functools.lru_cache(maxsize=64)
def _rules_items(rules: RuleOptions) -> tuple[tuple[str, int], ...]:
    return tuple(rules.to_dict().items())


def _rules_dict(rules: RuleOptions) -> dict[str, int]:
    # A fresh dict per view: views are pickled to bot workers and must not share state.
    return dict(_rules_items(rules))


#: Decisions whose options depend on the decider's hidden cards.
_PRIVATE_OPTIONS = frozenset((D_PLACE, D_KEEP_OR_REVEAL, D_SWAP, D_FETCH, D_TWIN))


def _options_visible(g: State, seat: int | None) -> bool:
    """Legal actions are shown to the decider, and to all when they name only public things."""
    p = g.pending
    if p is None:
        return False
    # Keep-or-reveal is hidden too: a lone `keep` would name a 0-IP Insurrection;
    # so is the Twin's placement, which leaves out a face-down Prince.
    return p[P_SEAT] == seat or p[P_DECISION] not in _PRIVATE_OPTIONS


def seat_view(g: State, seat: int | None) -> SeatView:
    """The view of ``seat`` (``None``: a spectator, who sees only public information)."""
    if seat is not None and not 0 <= seat < g.players:
        raise ValueError(f"no seat {seat} in a {g.players}-player game")
    n = g.players

    def pile(cards: list[int]) -> tuple[CardView, ...]:
        return tuple([card_view(g, c, seat) for c in cards]) if cards else ()

    under = g.under

    p = g.pending
    to_move = -1 if p is None else p[P_SEAT]
    pending = None
    if p is not None:
        actor = p[P_ACTOR]
        # A keep-or-reveal decision names the face-down card: only its owner may know which.
        if p[P_DECISION] == D_KEEP_OR_REVEAL and actor >= 0 and not knows(g, actor, seat):
            actor = -1
        pending = (p[P_DECISION], p[P_SEAT], actor, p[P_CTRL], p[P_DATA], p[P_DATA2])
    resolving = g.cur if g.cur >= 0 and knows(g, g.cur, seat) else None
    return SeatView(
        seat=seat,
        players=n,
        recipe=_recipe_slugs(g.recipe),
        rules=_rules_dict(g.rules),
        round=g.round,
        rounds=g.rules.rounds,
        first=g.first,
        phase=PHASE_NAMES[g.phase],
        placement_order=g.order,
        placement_turn=g.turn,
        pointer=g.ptr,
        resolving=resolving,
        resolving_left=g.cur_gone,
        scores=tuple(g.score),
        verdict_pool=g.verdict_pool,
        queue=tuple(
            [
                pile(g.stack_cards(i)) if under[c] >= 0 else (card_view(g, c, seat),)
                for i, c in enumerate(g.queue)
            ]
        ),
        hand=pile(g.hands[seat]) if seat is not None else (),
        hand_counts=tuple(len(h) for h in g.hands),
        known_hands=tuple([pile([c for c in g.hands[s] if g.up[c]]) for s in range(n)]),
        aside=pile(g.aside[seat]) if seat is not None else (),
        aside_counts=tuple(len(a) for a in g.aside),
        twins=tuple([pile(t) for t in g.twins]),
        discards=tuple([pile(d) for d in g.discards]),
        kept=tuple([pile(k) for k in g.kept]),
        decision=None if p is None else DECISION_NAMES[p[P_DECISION]],
        to_move=to_move,
        pending=pending,
        frames=tuple(g.stack),
        legal_actions=g.options if _options_visible(g, seat) else (),
        winners=g.winners,
        state_number=len(g.history),
        outcome=outcome(g) if g.phase == OVER else None,
    )


@dataclass(frozen=True, slots=True)
class Reveal:
    """Every card of a finished game, named: what the players turn over once nothing is at stake.

    The game is over, so no card may stay secret: face-down cards in the queue
    keep ``face_up=False`` (a client shows they were never revealed) but carry
    their kind, and every seat's last hand and set-aside cards are listed.
    """

    #: The queue in resolution order; each position is its stack, bottom first.
    queue: tuple[tuple[CardView, ...], ...]
    hands: tuple[tuple[CardView, ...], ...]
    aside: tuple[tuple[CardView, ...], ...]

    def __reduce__(self) -> tuple[type[Reveal], tuple[Any, ...]]:
        return (Reveal, _field_values(self))


def _field_values(view: SeatView | Reveal) -> tuple[Any, ...]:
    """A view's fields in order: what it is pickled as, to be rebuilt by its constructor. (A frozen
    class compiled by mypyc cannot be unpickled by setting its fields one by one, as a dataclass
    is by default; a view goes to other processes in the root-parallel searches.)"""
    return tuple(getattr(view, f.name) for f in fields(view))


def _open_card(g: State, c: int) -> CardView:
    briber = g.bribed_by[c]
    return CardView(
        g.owner[c],
        g.ctrl[c],
        SLUGS[g.kind[c]],
        c,
        g.up[c],
        g.ip[c],
        g.verdict[c],
        briber if briber >= 0 else None,
        g.asleep[c],
        g.exposed[c],
    )


def final_reveal(g: State) -> Reveal:
    """All cards of ``g`` by name; refused (ValueError) while the game is still being played."""
    if g.phase != OVER:
        raise ValueError("cards are revealed only when the game is over")

    def pile(cards: list[int]) -> tuple[CardView, ...]:
        return tuple(_open_card(g, c) for c in cards)

    return Reveal(
        queue=tuple(
            pile(g.stack_cards(i)) if g.under[c] >= 0 else (_open_card(g, c),) for i, c in enumerate(g.queue)
        ),
        hands=tuple(pile(h) for h in g.hands),
        aside=tuple(pile(a) for a in g.aside),
    )


def redact(game: State, event: Event, seat: int | None) -> dict[str, Any]:
    """The event as a plain dict for ``seat`` (``None``: a spectator, who sees only public facts).

    Card ids never leave the engine: a card is named by its kind slug and its
    owner, and only when the receiver may know it.
    """
    code, who, card, pos, n, extra, public = event
    out: dict[str, Any] = {"type": NAMES[code]}
    if who >= 0:
        out["seat"] = who
    if pos >= 0:
        out["pos"] = pos
    n_key, extra_key = FIELDS[code]
    if card >= 0:
        owner = game.owner[card]
        out["owner"] = owner
        out["card"] = SLUGS[game.kind[card]] if public or owner == seat else None
    if n_key is not None:
        if n_key in ("ability",):
            out[n_key] = SLUGS[n]
        elif n_key == "winners":
            out[n_key] = [s for s in range(game.players) if n >> s & 1]
        else:
            out[n_key] = n
    if extra_key is not None:
        if extra_key in ("by_card", "hand_card"):
            if extra >= 0:
                # The eliminating card is always face up; a swapped-in hand card never is.
                visible = extra_key == "by_card" or game.owner[extra] == seat
                out[extra_key] = SLUGS[game.kind[extra]] if visible else None
            else:
                out[extra_key] = None
        elif extra_key == "cause":
            out[extra_key] = cause_name(extra)
        elif extra_key == "source":
            out[extra_key] = ("discard", "aside")[extra]
        elif extra_key == "stacked":
            out[extra_key] = bool(extra)
        else:
            out[extra_key] = extra
    return out
