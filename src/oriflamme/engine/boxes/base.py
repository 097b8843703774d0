"""The base box: Archer, Soldier, Spy, Heir, Shapeshifter, Lord, and four intrigues (docs/rules.md §6)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import events as ev
from ..actions import ARG_MASK, COPY, SHIFT, STEAL, TARGET, TO
from ..behaviour import ability, handler, on_eliminated
from ..cards import (
    AMBUSH,
    ARCHER,
    ASSASSINATION,
    CONSPIRACY,
    EXTORTION,
    HEIR,
    IS_CHARACTER,
    LORD,
    ROYAL_DECREE,
    SHAPESHIFTER,
    SOLDIER,
    SPY,
    TRAP,
)
from ..registry import (
    ABILITY,
    D_COPY,
    D_DECREE_DEST,
    D_DECREE_PICK,
    D_SPY,
    P_ACTOR,
    P_CTRL,
    P_PICKED,
    P_SEAT,
)
from .common import ask_eliminate, no_effect

if TYPE_CHECKING:
    from ..game import Game


@ability(ARCHER)
def archer(g: Game, actor: int, ctrl: int, revealed: bool) -> None:
    last = len(g.queue) - 1
    ask_eliminate(g, actor, ctrl, ARCHER, (0,) if last == 0 else (0, last))


@ability(SOLDIER)
def soldier(g: Game, actor: int, ctrl: int, revealed: bool) -> None:
    ask_eliminate(g, actor, ctrl, SOLDIER, g.neighbours(g.queue.index(actor)))


@ability(SPY)
def spy(g: Game, actor: int, ctrl: int, revealed: bool) -> None:
    q = g.queue
    seats: list[int] = []
    for j in g.neighbours(q.index(actor)):
        s = g.ctrl[q[j]]
        if s != ctrl and s not in seats:
            seats.append(s)
    if not seats:
        no_effect(g, actor, ctrl, SPY)
        return
    seats.sort()
    g.ask(D_SPY, ctrl, actor, ctrl, SPY, -1, [STEAL << SHIFT | s for s in seats])


@handler(D_SPY)
def _spy_steal(g: Game, p: tuple[int, ...], action: int) -> None:
    # From the player's supply, never from a card; a player with 0 IP loses nothing.
    g.steal(p[P_CTRL], action & ARG_MASK, 1, g.kind[p[P_ACTOR]])


@ability(HEIR)
def heir(g: Game, actor: int, ctrl: int, revealed: bool) -> None:
    # "Same name" is the name of the card applying the ability: a Shapeshifter
    # copying the Heir competes with other revealed Shapeshifters.
    name = g.kind[actor]
    up = g.up
    kind = g.kind
    for c in g.queue:
        if c != actor and up[c] and kind[c] == name:
            return
    g.gain(ctrl, 2, name)


@ability(SHAPESHIFTER)
def shapeshifter(g: Game, actor: int, ctrl: int, revealed: bool) -> None:
    q = g.queue
    kinds: list[int] = []
    for j in g.neighbours(q.index(actor)):
        c = q[j]
        k = g.kind[c]
        if g.up[c] and IS_CHARACTER[k] and k not in kinds:
            kinds.append(k)
    if not kinds:
        no_effect(g, actor, ctrl, SHAPESHIFTER)
        return
    kinds.sort()
    g.ask(D_COPY, ctrl, actor, ctrl, SHAPESHIFTER, -1, [COPY << SHIFT | k for k in kinds])


@handler(D_COPY)
def _copy(g: Game, p: tuple[int, ...], action: int) -> None:
    actor, ctrl = p[P_ACTOR], p[P_CTRL]
    k = action & ARG_MASK
    if g.record_events:
        g.events.append((ev.ABILITY, ctrl, actor, g.queue.index(actor), k, 0, 1))
    fn = ABILITY[k]
    # Copying a Shapeshifter copies nothing; reveal-only clauses never come with a copy.
    if k != SHAPESHIFTER and fn is not None:
        fn(g, actor, ctrl, False)


@ability(LORD)
def lord(g: Game, actor: int, ctrl: int, revealed: bool) -> None:
    q = g.queue
    gain = 1
    for j in g.neighbours(q.index(actor)):
        if g.ctrl[q[j]] == ctrl:
            gain += 1
    g.gain(ctrl, gain, g.kind[actor])


@ability(ASSASSINATION)
def assassination(g: Game, actor: int, ctrl: int, revealed: bool) -> None:
    ask_eliminate(g, actor, ctrl, ASSASSINATION, range(len(g.queue)))


@ability(ROYAL_DECREE)
def royal_decree(g: Game, actor: int, ctrl: int, revealed: bool) -> None:
    i = g.queue.index(actor)
    opts = [TARGET << SHIFT | j for j in range(len(g.queue)) if j != i]
    if not opts:
        no_effect(g, actor, ctrl, ROYAL_DECREE)
        return
    g.ask(D_DECREE_PICK, ctrl, actor, ctrl, ROYAL_DECREE, -1, opts)


@handler(D_DECREE_PICK)
def _decree_pick(g: Game, p: tuple[int, ...], action: int) -> None:
    j = action & ARG_MASK
    c = g.queue[j]
    n = len(g.queue)
    dests: list[int] | range
    if g.under[c] >= 0:
        # The stack stays where it is, so every gap (n + 1 of them) is a real move.
        dests = range(n + 1)
    else:
        dests = [t for t in range(n) if t != j]  # back into its own gap is no move
    g.ask(D_DECREE_DEST, p[P_SEAT], p[P_ACTOR], p[P_CTRL], j, -1, [TO << SHIFT | t for t in dests])


@handler(D_DECREE_DEST)
def _decree_move(g: Game, p: tuple[int, ...], action: int) -> None:
    j = p[P_PICKED]
    t = action & ARG_MASK
    c = g.queue[j]
    g.detach(c, j)  # a move, not a removal: IP and tokens travel with the card
    g.insert(t, c)
    if g.record_events:
        g.events.append((ev.MOVED, p[P_CTRL], c, j, t, 0, int(g.up[c])))


@ability(AMBUSH, TRAP, EXTORTION)
def bait_revealed(g: Game, actor: int, ctrl: int, revealed: bool) -> None:
    """Revealed by its owner, a bait card throws away its IP and gains 1."""
    if g.ip[actor]:
        if g.record_events:
            g.events.append((ev.IP_OFF_CARD, ctrl, actor, g.queue.index(actor), g.ip[actor], 0, 1))
        g.ip[actor] = 0
    g.gain(ctrl, 1, g.kind[actor])


@ability(CONSPIRACY)
def conspiracy(g: Game, actor: int, ctrl: int, revealed: bool) -> None:
    n = g.ip[actor]
    g.ip[actor] = 0
    g.gain(ctrl, 2 * n, CONSPIRACY)


@on_eliminated(AMBUSH)
def ambush_sprung(g: Game, victim: int, attacker: int, actl: int, vctrl: int) -> None:
    # Only an opponent's card springs it; one's own card just eliminates it.
    if actl != vctrl:
        g.gain(vctrl, 4, AMBUSH)
        g.discard_attacker(attacker)
