"""The WebSocket protocol between a browser and the server, as typed JSON messages.

Client to server (one JSON object per text frame, at most
:data:`MAX_CLIENT_MESSAGE` bytes)::

    {"type": "join", "token": "<seat or spectator token>"}
    {"type": "act", "state": N, "action": "<action text>"}   # oriflamme.engine.action_text
    {"type": "ping"}
    {"type": "name", "name": "<text>"}                        # a person names their own seat
    {"type": "away"} / {"type": "back"}                       # a bot plays my seat / I play again
    {"type": "concede"}                                       # a bot plays my seat to the end
    {"type": "takeback"}                                      # withdraw my last decision (stored as
                                                              # a record; every page gets the game anew)
    {"type": "chat", "text": "<line>"}                        # 300 characters, 5 lines in 10 s
    {"type": "chat_mod", "seat": s, "mute": bool, "remove": bool} | {"type": "chat_mod",
     "spectators": bool}                                      # the host (seat 1) only

Server to client::

    {"type": "welcome", "state": N, "table": {...}, "seat": s | null, "role": ..., "lang": ...,
     "spectator_token": ..., "invites": [{"seat": s, "token": ...}, ...]}
                                       # invites: the links of the seats nobody joined yet, for
                                       # the host of a table among friends (seat 1), else []
    {"type": "state", "state": N, "seat": s | null, "view": {...}, "events": [...],
     "log": [[...], ...] | absent, "legal": [action text, ...], "result": {...} | null,
     "reveal": {"queue": ..., "hands": ..., "aside": ...} | null,   # every card, once the game is over
     "turn_left": seconds | null,   # before a bot plays the person's decision (a table's turn timer)
     "can_take_back": bool}         # whether this seat may withdraw its last decision now

The state number counts the rows stored for the table (actions and take-backs), so it only grows;
after a take-back every page receives a full state (with ``log``) of the game as it stands.
    {"type": "presence", "state": N, "online": [bool per seat], "away": [seat, ...],
     "conceded": [seat, ...], "waiting": [seat, ...]}
                                       # away: person seats a bot plays for until they come back;
                                       # conceded: those it plays to the end; waiting: person
                                       # seats nobody joined yet (no turn timer runs until none)
    {"type": "seats", "state": N, "seats": [{"name", "kind", "bot"} per seat]}   # after a rename
    {"type": "clock", "state": N, "turn_left": seconds | null}   # the timer changed without a move
    {"type": "chat", "state": N, "line": {"id", "seat": s | null, "text", "at"}}
    {"type": "chat_state", "state": N, "lines": [...], "muted": [seat, ...], "spectators": bool}
                                       # on joining, and when the host changes who may speak
    {"type": "rematch", "state": null, "table": id, "token": "<this seat's link at the rematch>",
     "role": "player" | "spectator"}   # when asked (POST /api/rematch), and on joining a finished
                                       # table whose rematch exists
    {"type": "error", "code": "...", "message": "...", "state": N | null}
    {"type": "pong", "state": N | null}

Every message carries ``state`` (null only before joining): the number of
actions applied so far. An ``act`` whose ``state`` is not the current one is
refused (``stale``), so a click made on an outdated page can never apply to a
position its author did not see.

Every payload is built from the receiver's :class:`~oriflamme.engine.view.SeatView`
and from events redacted for the receiver (:func:`oriflamme.engine.view.redact`):
this module never reads the game's hidden state. Each event carries its
narration (``"say": {"key": ..., "args": {...}}``, :mod:`oriflamme.narration`),
which the page only formats in the reader's language. Cards carry no engine ids,
only what the receiver may know (owner, controller, kind or null, face,
tokens).
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal, TypedDict

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from ..engine.cards import SLUGS
from ..engine.game import Game
from ..engine.view import CardView, SeatView
from ..narration import narration

#: Largest client frame accepted, in bytes of UTF-8 text.
MAX_CLIENT_MESSAGE = 2048
#: Longest action text (the longest real one, ``place royal-decree on 12``, is far shorter).
MAX_ACTION_TEXT = 64
MAX_TOKEN = 64
#: Longest name text accepted before cleaning (names are kept to 24 characters).
MAX_NAME_TEXT = 100
#: Longest chat text accepted before cleaning (a line is kept to 300 characters).
MAX_CHAT_TEXT = 1000


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class JoinMessage(_Message):
    type: Literal["join"]
    token: Annotated[str, Field(min_length=1, max_length=MAX_TOKEN)]


class ActMessage(_Message):
    type: Literal["act"]
    state: Annotated[int, Field(ge=0, le=1_000_000)]
    action: Annotated[str, Field(min_length=1, max_length=MAX_ACTION_TEXT)]


class PingMessage(_Message):
    type: Literal["ping"]


class NameMessage(_Message):
    """A person choosing the name their seat is shown by (cleaned and cut to the server's limit)."""

    type: Literal["name"]
    name: Annotated[str, Field(max_length=MAX_NAME_TEXT)]


class AwayMessage(_Message):
    """A person leaves the table for a while: a bot plays their seat until they come back."""

    type: Literal["away"]


class BackMessage(_Message):
    """A person takes their seat back from the bot playing it."""

    type: Literal["back"]


class ChatMessage(_Message):
    """A line of table chat (cleaned; longer than the chat's limit is refused)."""

    type: Literal["chat"]
    text: Annotated[str, Field(min_length=1, max_length=MAX_CHAT_TEXT)]


class ChatModMessage(_Message):
    """The host's say over the chat: silence or let speak a seat, remove its lines, let spectators talk."""

    type: Literal["chat_mod"]
    seat: Annotated[int | None, Field(ge=0, le=4)] = None
    mute: bool | None = None
    remove: bool = False
    spectators: bool | None = None


class TakeBackMessage(_Message):
    """A person withdraws their last decision, while nobody else decided and nothing was shown since."""

    type: Literal["takeback"]


class ConcedeMessage(_Message):
    """A person gives up: a bot plays their seat to the end, and they cannot take it back."""

    type: Literal["concede"]


AnyClientMessage = (
    JoinMessage
    | ActMessage
    | PingMessage
    | NameMessage
    | AwayMessage
    | BackMessage
    | ConcedeMessage
    | ChatMessage
    | ChatModMessage
    | TakeBackMessage
)
ClientMessage = Annotated[AnyClientMessage, Field(discriminator="type")]
_CLIENT_ADAPTER: TypeAdapter[AnyClientMessage] = TypeAdapter(ClientMessage)


class ProtocolError(Exception):
    """A client message that cannot be accepted; ``code`` is machine-readable."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def parse_client_message(text: str | bytes) -> AnyClientMessage:
    """Check size, JSON syntax and shape of one client frame; raise :class:`ProtocolError` if bad."""
    size = len(text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text)
    if size > MAX_CLIENT_MESSAGE:
        raise ProtocolError("too_large", f"message of {size} bytes; the limit is {MAX_CLIENT_MESSAGE}")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise ProtocolError("malformed", "not a JSON text") from None
    if not isinstance(data, dict):
        raise ProtocolError("malformed", "a message is a JSON object")
    try:
        return _CLIENT_ADAPTER.validate_python(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "message"
        raise ProtocolError("malformed", f"{where}: {first['msg']}") from None


# ---------------------------------------------------------------- server messages


class CardPayload(TypedDict):
    owner: int
    ctrl: int
    kind: str | None
    up: bool
    ip: int
    verdict: bool
    bribe: int | None
    asleep: bool


class ViewPayload(TypedDict):
    players: int
    recipe: list[str]
    round: int
    rounds: int
    first: int
    phase: str
    order: list[int]
    turn: int
    pointer: int
    resolving_left: bool
    scores: list[int]
    verdict_pool: int
    queue: list[list[CardPayload]]
    hand: list[CardPayload]
    hand_counts: list[int]
    known_hands: list[list[CardPayload]]
    aside: list[CardPayload]
    aside_counts: list[int]
    twins: list[list[CardPayload]]
    discards: list[list[CardPayload]]
    kept: list[list[CardPayload]]
    decision: str | None
    to_move: int
    #: The position a Royal Decree picked, while its destination is asked.
    picked: int | None
    #: The IP a Plot still holds, while the Plot's choices are asked (public: the Plot is revealed).
    plot_ip: int | None
    #: The kind whose ability asks the pending decision (a Shapeshifter copying an Archer: archer),
    #: for the decisions of a revealed card's ability; None otherwise.
    ability: str | None
    #: The queue position of the card whose ability asks the pending decision, when this seat sees
    #: it; with ``resolving_left``, a card made to act by another card's effect (a Plot's).
    acting: int | None
    #: The kind of the card whose effect made that card act (``plot``), when it is another card.
    acting_for: str | None
    winners: list[int]


class ResultPayload(TypedDict):
    """The end of a game: scores, the tie-break counts, and the winners."""

    scores: list[int]
    positions: list[int]
    #: Seats from first to last, and the seats tied on the best score (the engine's ranking).
    order: list[int]
    leaders: list[int]
    winners: list[int]
    #: ``score`` (one leader), ``positions`` (tie broken by positions) or ``shared``.
    decided_by: str
    #: Per seat, ``[cause, net IP]`` pairs, largest first (see oriflamme.engine.causes).
    ledger: list[list[list[Any]]]


#: Decisions asked by a revealed card's ability, whose data field is the kind that applies
#: (oriflamme.engine.registry: P_DATA). That kind is public: the card acting is face up, and a
#: copied or plotted ability was chosen in the open.
_ABILITY_DECISIONS = frozenset(("eliminate", "target", "mode", "spy", "copy", "decree_pick", "swap"))


def card_payload(c: CardView) -> CardPayload:
    return {
        "owner": c.owner,
        "ctrl": c.controller,
        "kind": c.kind,
        "up": c.face_up,
        "ip": c.ip,
        "verdict": c.verdict,
        "bribe": c.bribed_by,
        "asleep": c.asleep,
    }


def _pile(cards: tuple[CardView, ...]) -> list[CardPayload]:
    return [card_payload(c) for c in cards]


def _kind_of(v: SeatView, card: int) -> str | None:
    """The kind of the card with id ``card``, wherever in play or discarded this seat sees it."""
    piles = (*v.queue, *v.discards)
    return next((c.kind for pile in piles for c in pile if c.id == card and c.kind is not None), None)


def view_payload(v: SeatView) -> ViewPayload:
    """The browser's copy of a seat view: the same facts, without engine ids or raw frames."""
    picked = plot_ip = None
    if v.decision == "decree_dest" and v.pending is not None:
        picked = v.pending[4]
    if v.decision in ("plot_character", "plot_ip") and v.pending is not None:
        plot_ip = v.pending[4]
    ability = acting = acting_for = None
    if v.decision in _ABILITY_DECISIONS and v.pending is not None:
        ability = SLUGS[v.pending[4]]
        actor = v.pending[2]
        # A hidden card has no id in the view: only a card this seat sees can be named here.
        acting = next((j for j, stack in enumerate(v.queue) if actor >= 0 and stack[-1].id == actor), None)
        if v.resolving is not None and v.resolving != actor:
            acting_for = _kind_of(v, v.resolving)
    return {
        "players": v.players,
        "recipe": list(v.recipe),
        "round": v.round,
        "rounds": v.rounds,
        "first": v.first,
        "phase": v.phase,
        "order": list(v.placement_order),
        "turn": v.placement_turn,
        "pointer": v.pointer,
        "resolving_left": v.resolving_left,
        "scores": list(v.scores),
        "verdict_pool": v.verdict_pool,
        "queue": [_pile(stack) for stack in v.queue],
        "hand": _pile(v.hand),
        "hand_counts": list(v.hand_counts),
        "known_hands": [_pile(h) for h in v.known_hands],
        "aside": _pile(v.aside),
        "aside_counts": list(v.aside_counts),
        "twins": [_pile(t) for t in v.twins],
        "discards": [_pile(d) for d in v.discards],
        "kept": [_pile(k) for k in v.kept],
        "decision": v.decision,
        "to_move": v.to_move,
        "picked": picked,
        "plot_ip": plot_ip,
        "ability": ability,
        "acting": acting,
        "acting_for": acting_for,
        "winners": list(v.winners),
    }


def result_payload(v: SeatView) -> ResultPayload | None:
    """Who won and why: the game's outcome, all of it public."""
    o = v.outcome
    if o is None:
        return None
    return {
        "scores": list(o.scores),
        "positions": list(o.positions),
        "order": list(o.order),
        "leaders": list(o.leaders),
        "winners": list(o.winners),
        "decided_by": o.decided_by,
        "ledger": [[list(line) for line in seat] for seat in o.ledger],
    }


class RevealPayload(TypedDict):
    """Every card of a finished game by name: the queue (face-down ones keep ``up: false``),
    and each seat's last hand and set-aside cards."""

    queue: list[list[CardPayload]]
    hands: list[list[CardPayload]]
    aside: list[list[CardPayload]]


def reveal_payload(game: Game) -> RevealPayload | None:
    """The final reveal, once the game is over (None before: nothing hidden is ever sent)."""
    if not game.is_over():
        return None
    r = game.final_reveal()
    return {
        "queue": [_pile(stack) for stack in r.queue],
        "hands": [_pile(h) for h in r.hands],
        "aside": [_pile(a) for a in r.aside],
    }


def event_payload(redacted: dict[str, Any]) -> dict[str, Any]:
    """A redacted event with what to say about it (the key and arguments of its sentence)."""
    return {**redacted, "say": narration(redacted)}


def dumps(message: dict[str, Any] | Any) -> str:
    """Compact JSON for the wire."""
    return _ENCODER.encode(message)


# Payloads are trees of plain data built here: no cycles to look for.
_ENCODER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, check_circular=False)


def error_message(code: str, message: str, state: int | None = None) -> str:
    return dumps({"type": "error", "code": code, "message": message, "state": state})
