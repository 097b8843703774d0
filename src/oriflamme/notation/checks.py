"""Is this state one the rules can reach? The checks a stored or built position must pass.

Every card in exactly one place, zones, tokens and control consistent, the
round structure and the resolution pointer where they can be, a pending
decision whose options are exactly the ones the engine would offer. A problem
raises :class:`~oriflamme.engine.errors.SaveFormatError` naming the state's
field (``state.zone[12]: ...``); :func:`check_state` is shared by save files and
:func:`~oriflamme.notation.position.build_position`.
"""

from __future__ import annotations

from ..engine.action_text import action_text
from ..engine.actions import (
    ARG_MASK,
    COPY,
    FETCH,
    FROM_NOWHERE,
    GAIN_ACTION,
    MODE,
    MODE_CASHOUT,
    MODE_COLLECT,
    MODE_CONDEMN,
    MODE_EXCHANGE,
    MODE_GIFT,
    MODE_VERDICT,
    PLACE_FIRST,
    PLACE_LAST,
    PLACE_ON,
    SHIFT,
    STEAL,
    SWAP,
    TARGET,
    TO,
    USE,
)
from ..engine.boxes.ablaze import fetch_options
from ..engine.cards import (
    AGREEMENT,
    DIPLOMAT,
    INFORMANT,
    IS_CHARACTER,
    IS_KEPT,
    JUDGE,
    KINDS,
    PRINCE,
    SLUGS,
    TWIN,
)
from ..engine.game import Game
from ..engine.registry import (
    CONTINUATIONS,
    D_COPY,
    D_DECREE_DEST,
    D_DECREE_PICK,
    D_FETCH,
    D_KEEP_OR_REVEAL,
    D_MODE,
    D_PLACE,
    D_PLOT_CHAR,
    D_PLOT_IP,
    D_SPY,
    D_SWAP,
    D_TARGET_ELIMINATE,
    D_TARGET_OTHER,
    D_TWIN,
    DECISION_NAMES,
    K_DESERTER,
    K_FINISH,
    K_GAIN,
    K_PLOT,
    MODE_EFFECT,
    TARGET_EFFECT,
)
from ..engine.zones import (
    ASIDE,
    COVERED,
    DISCARD,
    HAND,
    KEPT,
    OVER,
    PHASE_NAMES,
    PLACE,
    RESOLVE,
    TOP,
    TWIN_ASIDE,
    ZONE_NAMES,
)
from .fields import MAX_COUNT, card_name, fail, in_range, show

_PILES = ("hands", "aside", "twins", "discards", "kept")
_PILE_ZONE = {"hands": HAND, "aside": ASIDE, "twins": TWIN_ASIDE, "discards": DISCARD, "kept": KEPT}
#: Continuation frames this version can hold: code -> length of the frame.
_FRAME_LENGTH = {K_FINISH: 2, K_GAIN: 3, K_PLOT: 3, K_DESERTER: 2}
#: The modes of each choose-one ability.
_MODES = {
    INFORMANT: (MODE_COLLECT, MODE_EXCHANGE),
    DIPLOMAT: (MODE_GIFT, MODE_CASHOUT),
    JUDGE: (MODE_VERDICT, MODE_CONDEMN),
}
#: Decisions asked about a card in the queue (the ``actor``), which must still be there.
#: Decisions asked even with a single option (docs/rules.md §11, silent choices).
_ASKED_EVERY_TIME = frozenset((D_PLACE, D_KEEP_OR_REVEAL, D_FETCH, D_SWAP))
_ACTOR_IN_QUEUE = frozenset(
    (D_TARGET_ELIMINATE, D_TARGET_OTHER, D_DECREE_PICK, D_DECREE_DEST, D_SPY, D_COPY, D_TWIN, D_FETCH,
     D_MODE, D_SWAP, D_KEEP_OR_REVEAL)
)  # fmt: skip


def check_state(g: Game, first_player: int | None = None) -> None:
    """Raise on the first inconsistency of ``g`` (``first_player``: round one's, when known)."""
    _check_cards(g)
    _check_reachable(g)
    _check_progress(g, first_player)


def _check_cards(g: Game) -> None:
    """Every card is in exactly one place, and that place agrees with its zone and tokens."""
    n = len(g.kind)
    seen: dict[int, str] = {}

    def put(c: int, path: str) -> None:
        if c in seen:
            fail(path, f"card {c} ({card_name(g, c)}) is also at {seen[c]}")
        seen[c] = path

    for i, top in enumerate(g.queue):
        put(top, f"state.queue[{i}]")
        if g.zone[top] != TOP:
            fail(
                f"state.zone[{top}]",
                f"card {top} is the top of queue position {i + 1} but its zone is "
                f"{ZONE_NAMES[g.zone[top]]!r}",
            )
        c, above = g.under[top], top
        while c >= 0:
            if c in seen:
                fail(f"state.under[{above}]", f"card {c} under card {above} is already at {seen[c]}")
            put(c, f"state.under[{above}]")
            if g.zone[c] != COVERED:
                fail(
                    f"state.zone[{c}]",
                    f"card {c} lies under card {above} in queue position {i + 1} but its zone is "
                    f"{ZONE_NAMES[g.zone[c]]!r}, not 'covered'",
                )
            c, above = g.under[c], c
    for name in _PILES:
        zone = _PILE_ZONE[name]
        for s, pile in enumerate(getattr(g, name)):
            for j, c in enumerate(pile):
                path = f"state.{name}[{s}][{j}]"
                put(c, path)
                if g.zone[c] != zone:
                    fail(path, f"card {c} is in {name} but its zone is {ZONE_NAMES[g.zone[c]]!r}")
                if name != "kept" and g.owner[c] != s:
                    fail(path, f"card {c} ({card_name(g, c)}) is in the {name} pile of p{s + 1}")
    for c in range(n):
        if c not in seen:
            fail(
                f"state.zone[{c}]",
                f"card {c} ({card_name(g, c)}) has zone {ZONE_NAMES[g.zone[c]]!r} but no pile or queue "
                "position holds it",
            )
        _check_card(g, c)
    on_cards = sum(g.verdict)
    if on_cards + g.verdict_pool != Game.VERDICT_TOKENS:
        fail(
            "state.verdict_pool",
            f"{g.verdict_pool} in the pool and {on_cards} on cards make "
            f"{g.verdict_pool + on_cards}, not {Game.VERDICT_TOKENS}",
        )


def _check_card(g: Game, c: int) -> None:
    zone = g.zone[c]
    k = g.kind[c]
    if zone not in (TOP, COVERED):
        for name, value, free in (
            ("under", g.under[c], -1),
            ("ctrl", g.ctrl[c], g.owner[c]),
            ("bribed_by", g.bribed_by[c], -1),
            ("verdict", g.verdict[c], False),
            ("asleep", g.asleep[c], False),
            ("exposed", g.exposed[c], False),
        ):
            if value != free:
                fail(
                    f"state.{name}[{c}]",
                    f"must be {show(free)} for a card out of the queue (zone {ZONE_NAMES[zone]!r}), "
                    f"got {show(value)}",
                )
        if zone != KEPT and g.ip[c]:
            fail(f"state.ip[{c}]", f"IP on a card in zone {ZONE_NAMES[zone]!r}")
        if zone == KEPT and g.ip[c] and k != AGREEMENT:
            fail(f"state.ip[{c}]", f"IP on a kept {SLUGS[k]} (only a kept Agreement carries IP)")
    if g.bribed_by[c] >= 0 and g.ctrl[c] != g.bribed_by[c]:
        fail(
            f"state.ctrl[{c}]",
            f"card {c} bears p{g.bribed_by[c] + 1}'s Bribery token but is controlled by p{g.ctrl[c] + 1}",
        )
    if zone in (DISCARD, KEPT, TWIN_ASIDE) and not g.up[c]:
        fail(f"state.up[{c}]", f"a card in zone {ZONE_NAMES[zone]!r} must be face up")
    if zone == ASIDE and g.up[c]:
        fail(f"state.up[{c}]", "a set-aside card must be face down")
    if (zone == TWIN_ASIDE) != (k == TWIN and zone not in (TOP, COVERED, DISCARD)):
        fail(f"state.zone[{c}]", f"a {SLUGS[k]} cannot be in zone {ZONE_NAMES[zone]!r}")
    if zone == KEPT and not IS_KEPT[k]:
        fail(f"state.zone[{c}]", f"a {SLUGS[k]} is never kept")
    if g.exposed[c] and g.up[c]:
        fail(f"state.exposed[{c}]", "only a face-down card can be exposed")
    if g.asleep[c] and g.phase != RESOLVE:
        fail(f"state.asleep[{c}]", "cards sleep only during a resolution")


def _check_reachable(g: Game) -> None:
    """What no sequence of legal moves can produce (docs/rules.md §11, impossible positions)."""
    for i, top in enumerate(g.queue):
        c, above = top, -1
        while c >= 0:
            path = f"queue position {i + 1}"
            if g.ctrl[c] != g.ctrl[top]:
                fail(
                    f"state.ctrl[{c}]",
                    f"{path} mixes families: {card_name(g, c)} is controlled by p{g.ctrl[c] + 1} under "
                    f"a card of p{g.ctrl[top] + 1} (a player stacks only onto their own cards)",
                )
            if above >= 0 and g.kind[above] == TWIN and g.kind[c] == PRINCE:
                fail(
                    f"state.under[{above}]",
                    f"{path}: a Twin lies on a Prince (the Twin never enters onto a Prince)",
                )
            if (
                g.up[c]
                and not IS_CHARACTER[g.kind[c]]
                and not (g.phase == RESOLVE and c == g.cur and c == top)
            ):
                fail(
                    f"state.up[{c}]",
                    f"{path}: a face-up {SLUGS[g.kind[c]]} rests in the queue (an intrigue leaves, or turns face "
                    "down, when it has resolved; only the one resolving now is face up)",
                )
            above, c = c, g.under[c]
    for c, briber in enumerate(g.bribed_by):
        if briber < 0:
            continue
        if not g.up[c] or not IS_CHARACTER[g.kind[c]]:
            fail(
                f"state.bribed_by[{c}]",
                f"a Bribery token on a {'face-down card' if not g.up[c] else SLUGS[g.kind[c]]}: "
                "only a revealed character can be bribed",
            )
        if briber == g.owner[c]:
            fail(
                f"state.bribed_by[{c}]",
                f"p{briber + 1}'s Bribery token on p{briber + 1}'s own {SLUGS[g.kind[c]]}: "
                "a family never bribes its own card (bribing it back only sends the other token home)",
            )


def _check_progress(g: Game, first_player: int | None) -> None:
    """Round, turn, pointer, frames and the pending decision agree with each other."""
    players = g.players
    f = g.first
    if first_player is not None and f != (first_player + g.round - 1) % players:
        fail(
            "state.first",
            f"round {g.round} of a game that p{first_player + 1} started has p"
            f"{(first_player + g.round - 1) % players + 1} first, got p{f + 1}",
        )
    if players == 2:
        order = (f, 1 - f) * g.rules.two_player_cards_per_round
    else:
        order = tuple((f + i) % players for i in range(players))
    if g.order != order:
        fail("state.order", f"with p{f + 1} first the placement order is {list(order)}, got {list(g.order)}")
    over = g.phase == OVER
    if g.phase == PLACE:
        if g.turn >= len(g.order):
            fail("state.turn", f"placement turn {g.turn} of {len(g.order)} is past the last placer")
    elif g.turn != len(g.order):
        fail("state.turn", f"every placer has played once placement is over: expected {len(g.order)}")
    if g.phase != RESOLVE:
        for name, value, rest in (("ptr", g.ptr, 0), ("cur", g.cur, -1), ("cur_gone", g.cur_gone, False)):
            if value != rest:
                fail(f"state.{name}", f"must be {show(rest)} outside a resolution, got {show(value)}")
        if g.stack:
            fail("state.stack", "frames are left only during a resolution")
    if over:
        if g.round != g.rules.rounds:
            fail("state.round", f"a finished game ended in round {g.rules.rounds}")
        if g.pending is not None:
            fail("state.pending", "a finished game has no pending decision")
        if g.options:
            fail("state.options", "a finished game has no legal actions")
        winners = g.outcome().winners
        if g.winners != winners:
            fail("state.winners", f"the scores and the queue make {list(winners)} the winners")
        return
    if g.winners:
        fail("state.winners", "a game in progress has no winners")
    if g.pending is None:
        fail("state.pending", "a game in progress waits for a decision; got null")
    if not g.options:
        fail("state.options", "a game in progress has at least one legal action")
    for i, frame in enumerate(g.stack):
        _check_frame(g, frame, f"state.stack[{i}]")
    _check_pending(g, g.pending)


def _check_frame(g: Game, frame: tuple[int, ...], path: str) -> None:
    code = frame[0] if frame else -1
    length = _FRAME_LENGTH.get(code)
    if length is None or code not in CONTINUATIONS:
        fail(path, f"unknown continuation frame {show(list(frame))}")
    if len(frame) != length:
        fail(path, f"a frame of code {code} has {length} numbers, got {len(frame)}")
    if code in (K_FINISH, K_DESERTER):
        in_range(frame[1], f"{path}[1]", 0, len(g.kind) - 1, "a card")
    else:
        in_range(frame[1], f"{path}[1]", 0, g.players - 1, "a seat")
        in_range(frame[2], f"{path}[2]", 0, MAX_COUNT, "a count")


def _check_pending(g: Game, p: tuple[int, int, int, int, int, int]) -> None:
    decision, seat, actor, ctrl, a, b = p
    path = "state.pending"
    in_range(decision, f"{path}[0]", 0, len(DECISION_NAMES) - 1, "a decision kind")
    in_range(seat, f"{path}[1]", 0, g.players - 1, "a seat")
    if ctrl != seat:
        fail(
            path, f"the deciding seat ({seat}) and the controller ({ctrl}) of a decision are the same player"
        )
    in_range(actor, f"{path}[2]", -1, len(g.kind) - 1, "a card or -1")
    name = DECISION_NAMES[decision]
    if (decision == D_PLACE) != (g.phase == PLACE):
        fail(f"{path}[0]", f"a {name!r} decision in the {PHASE_NAMES[g.phase]} phase")
    if decision in _ACTOR_IN_QUEUE and (actor < 0 or g.zone[actor] != TOP):
        fail(f"{path}[2]", f"the card deciding a {name!r} decision must be the top of a queue position")
    if len(set(g.options)) != len(g.options):
        fail("state.options", "the legal actions are distinct")
    if decision not in _ASKED_EVERY_TIME and len(g.options) < 2:
        fail("state.options", f"a {name!r} decision with one option is never asked")
    if not g.options:
        fail("state.options", f"a {name!r} decision needs at least one option")
    q = g.queue
    nq = len(q)

    def expect(index: int, value: int, wanted: int, what: str) -> None:
        if value != wanted:
            fail(f"{path}[{index}]", f"for a {name!r} decision this is {what} ({wanted}), got {value}")

    def kind_field(index: int, value: int) -> None:
        in_range(value, f"{path}[{index}]", 0, len(KINDS) - 1, "a card kind")

    if decision == D_PLACE:
        expect(1, seat, g.order[g.turn], "the placer whose turn it is")
        expect(2, actor, -1, "unused")
        # Placement options depend on the state alone: ask the engine for them.
        probe = g.clone()
        probe.pending, probe.options = None, ()
        probe._ask_place()
        if probe.options != g.options:
            fail(
                "state.options",
                f"p{seat + 1}'s placements here are {show(list(probe.options))}, got {show(list(g.options))}",
            )
    if decision == D_KEEP_OR_REVEAL:
        top = q[g.ptr] if g.ptr < nq else -1
        expect(2, actor, top, "the card at the resolution pointer")
        expect(1, seat, g.ctrl[actor], "its controller")
        if g.up[actor] or g.asleep[actor] or g.cur != actor or g.cur_gone:
            fail(path, f"card {actor} at the pointer is not a face-down card waiting to resolve")
        # What a face-down card at the pointer offers depends on the state alone: ask the engine.
        probe = g.clone()
        probe.pending, probe.options = None, ()
        probe._resolve_next()
        if probe.options != g.options:
            fail(
                "state.options",
                f"card {actor} ({card_name(g, actor)}) at the pointer offers {show(list(probe.options))}, "
                f"got {show(list(g.options))}",
            )
    if decision not in (D_DECREE_DEST, D_TWIN, D_FETCH):
        expect(5, b, -1, "unused")
    if decision in (D_PLACE, D_KEEP_OR_REVEAL):
        expect(4, a, -1, "unused")
    if decision in (D_TARGET_ELIMINATE, D_TARGET_OTHER, D_DECREE_PICK, D_SPY, D_COPY, D_MODE, D_SWAP):
        kind_field(4, a)
    if decision == D_TARGET_OTHER and a not in TARGET_EFFECT:
        fail(f"{path}[4]", f"{SLUGS[a]} has no targeting ability")
    if decision == D_MODE and (a not in MODE_EFFECT or a not in _MODES):
        fail(f"{path}[4]", f"{SLUGS[a]} has no choose-one ability")
    if decision == D_DECREE_DEST:
        in_range(a, f"{path}[4]", 0, nq - 1, "the position of the card being moved")
        expect(5, b, -1, "unused")
    if decision == D_TWIN:
        in_range(a, f"{path}[4]", 0, len(g.kind) - 1, "the twin card")
        if g.kind[a] != TWIN or a not in g.twins[g.owner[a]]:
            fail(f"{path}[4]", f"card {a} is not a twin waiting for its prince")
        expect(5, b, -1, "unused")
    if decision == D_FETCH:
        kind_field(4, a)
        if not IS_CHARACTER[a]:
            fail(f"{path}[4]", f"impersonation replaces characters, not a {SLUGS[a]}")
        in_range(b, f"{path}[5]", 0, 1, "the side (0 or 1)")
    if decision == D_PLOT_CHAR:
        expect(2, actor, -1, "unused")
        in_range(a, f"{path}[4]", 0, MAX_COUNT, "the IP on the plot")
    if decision == D_PLOT_IP:
        expect(2, actor, -1, "unused")
        in_range(a, f"{path}[4]", 1, MAX_COUNT, "the IP left to spend")

    for i, action in enumerate(g.options):
        why = _option_problem(g, p, action)
        if why is not None:
            fail(f"state.options[{i}]", f"{action} is not an action of this {name!r} decision: {why}")
    if decision == D_FETCH:
        # Where the character can come from depends on the piles alone: ask the engine.
        wanted = fetch_options(g, ctrl, a)
        if sorted(g.options) != sorted(wanted):
            fail(
                "state.options",
                f"p{ctrl + 1} can fetch a {SLUGS[a]} as {show([action_text(g, o) for o in wanted])}, "
                f"got {show(list(g.options))}",
            )


def _option_problem(g: Game, p: tuple[int, int, int, int, int, int], action: int) -> str | None:
    """Why ``action`` cannot be an option of the pending decision ``p``, or None if it can."""
    decision, seat, _actor, ctrl, a, _b = p
    verb, arg = action >> SHIFT, action & ARG_MASK
    q = g.queue
    nq = len(q)
    if decision in (D_PLACE, D_TWIN):
        if verb not in (PLACE_FIRST, PLACE_LAST, PLACE_ON):
            return "not a placement"
        c, i = (arg >> 8, arg & 255) if verb == PLACE_ON else (arg, -1)
        if decision == D_PLACE:
            if c not in g.hands[seat]:
                return f"card {c} is not in p{seat + 1}'s hand"
            if verb == PLACE_LAST and not q:
                return "the queue is empty: a card goes first"
        elif c != a:
            return f"the card placed is the twin {a}"
        if verb == PLACE_ON:
            if g.round == 1:
                return "stacking starts in round 2"
            if not 0 <= i < nq or g.ctrl[q[i]] != seat:
                return f"position {i + 1} is not p{seat + 1}'s"
        return None
    if decision == D_KEEP_OR_REVEAL:
        return None  # checked as a whole
    if decision in (D_TARGET_ELIMINATE, D_TARGET_OTHER, D_DECREE_PICK):
        if verb != TARGET or arg >= nq:
            return "not a target position in the queue"
        if decision == D_TARGET_OTHER and a == JUDGE and (g.verdict[q[arg]] or not g.verdict_pool):
            return "no verdict can go there"
        return None
    if decision == D_DECREE_DEST:
        return None if verb == TO and arg <= nq else "not a place in the queue"
    if decision == D_SPY:
        return None if verb == STEAL and arg < g.players else "not a seat to steal from"
    if decision == D_COPY:
        return None if verb == COPY and arg < len(KINDS) and IS_CHARACTER[arg] else "not a character to copy"
    if decision == D_FETCH:
        return None if verb == FETCH and arg <= FROM_NOWHERE else "not a pile to fetch from"
    if decision in (D_PLOT_CHAR, D_PLOT_IP):
        if decision == D_PLOT_IP and action == GAIN_ACTION:
            return None
        if verb != USE or arg >= nq:
            return "not a position to use"
        c = q[arg]
        if not (g.up[c] and IS_CHARACTER[g.kind[c]] and g.ctrl[c] == ctrl):
            return f"position {arg + 1} is not a revealed character of p{ctrl + 1}"
        return None
    if decision == D_MODE:
        if verb != MODE or arg not in _MODES[a]:
            return f"not a mode of the {SLUGS[a]}"
        if arg == MODE_EXCHANGE and not g.hands[ctrl]:
            return "an empty hand has nothing to swap"
        if arg == MODE_CONDEMN and not any(g.verdict[c] for c in q):
            return "no card bears a verdict"
        return None
    if decision == D_SWAP:
        return None if verb == SWAP and arg in g.hands[ctrl] else f"not a card in p{ctrl + 1}'s hand"
    return "unknown decision"
