"""The Alliance box (docs/rules.md §8): Empress, Fanatic, Informant, Diplomat, Deserter,
Judge, and the intrigues Insurrection, Extortion (see base: bait), Infiltration, Agreement."""

from __future__ import annotations

import bisect
from typing import TYPE_CHECKING

from .. import causes
from .. import events as ev
from ..actions import (
    ARG_MASK,
    MODE_CASHOUT,
    MODE_COLLECT,
    MODE_CONDEMN,
    MODE_EXCHANGE,
    MODE_GIFT,
    MODE_VERDICT,
    SHIFT,
    SWAP,
)
from ..behaviour import (
    ability,
    can_reveal,
    continuation,
    eliminate_effect,
    handler,
    mode_effect,
    on_eliminated,
    target_effect,
)
from ..cards import (
    AGREEMENT,
    DESERTER,
    DIPLOMAT,
    EMPRESS,
    EXTORTION,
    FANATIC,
    INFILTRATION,
    INFORMANT,
    INSURRECTION,
    IS_CHARACTER,
    JUDGE,
)
from ..registry import (
    D_SWAP,
    K_DESERTER,
    P_ACTOR,
    P_CTRL,
)
from ..zones import HAND, TOP
from .common import ask_eliminate, ask_mode, ask_target, no_effect, put_ip

if TYPE_CHECKING:
    from ..game import Game
    from ..state import State


@ability(EMPRESS)
def empress(g: Game, actor: int, ctrl: int, revealed: bool) -> None:
    g.gain(ctrl, 2, g.kind[actor])
    targets = [j for j, c in enumerate(g.queue) if not g.up[c] and g.ctrl[c] != ctrl]
    ask_target(g, actor, ctrl, EMPRESS, targets)


@target_effect(EMPRESS)
def _empress_ip(g: Game, p: tuple[int, ...], c: int) -> None:
    put_ip(g, p[P_CTRL], c, 1)  # always a face-down card


@ability(FANATIC)
def fanatic(g: Game, actor: int, ctrl: int, revealed: bool) -> None:
    alone = not any(c != actor and g.up[c] and g.ctrl[c] == ctrl for c in g.queue)
    g.gain(ctrl, 2 if alone else 1, g.kind[actor])


@ability(INFORMANT)
def informant(g: Game, actor: int, ctrl: int, revealed: bool) -> None:
    modes = [MODE_COLLECT]
    if g.hands[ctrl]:
        modes.append(MODE_EXCHANGE)
    ask_mode(g, actor, ctrl, INFORMANT, modes)


@mode_effect(INFORMANT)
def _informant_mode(g: Game, p: tuple[int, ...], mode: int) -> None:
    actor, ctrl = p[P_ACTOR], p[P_CTRL]
    q = g.queue
    if mode == MODE_COLLECT:
        # The IP stay on the cards; the Informant's player takes as many from the supply.
        total = sum(
            g.ip[q[j]] for j in g.neighbours(q.index(actor)) if not g.up[q[j]] and g.ctrl[q[j]] != ctrl
        )
        g.gain(ctrl, total, g.kind[actor])
        return
    # Asked even when every card in hand is of one kind: the hand is hidden,
    # and answering at once would tell the others what it holds.
    g.ask_every_time(D_SWAP, ctrl, actor, ctrl, INFORMANT, -1, swap_options(g, ctrl))


def swap_options(g: State, ctrl: int) -> tuple[int, ...]:
    """One swap per kind of card in ``ctrl``'s hand (copies of a kind are the same choice)."""
    seen = 0
    opts = []
    for c in g.hands[ctrl]:
        bit = 1 << g.kind[c]
        if not seen & bit:
            seen |= bit
            opts.append(SWAP << SHIFT | c)
    return tuple(opts)


@handler(D_SWAP)
def _informant_swap(g: Game, p: tuple[int, ...], action: int) -> None:
    actor, ctrl = p[P_ACTOR], p[P_CTRL]
    c = action & ARG_MASK
    i = g.queue.index(actor)
    hand = g.hands[ctrl]
    hand.remove(c)
    # Putting a hand card face down ends what everybody knew of that hand, as a
    # placement does (docs/rules.md §11.3, "What everybody knows"): the card may be an
    # Informant taken back earlier. The card comes from the controller's hand, so
    # that is the hand whose marks go.
    up = g.up
    for h in hand:
        up[h] = False
    # The hand card takes the Informant's place (stack and all) face down, and
    # sleeps until the next round; the position itself has resolved.
    g.queue[i] = c
    g.under[c] = g.under[actor]
    g.under[actor] = -1
    g.zone[c] = TOP
    g.up[c] = False
    g.ip[c] = 0
    g.ctrl[c] = ctrl
    g.asleep[c] = True
    g.release(actor)
    g.ip[actor] = 0
    # Everybody saw it go back: it stays face up (publicly known) in its owner's hand,
    # which keeps its own marks when a bribed Informant returns home (that owner put
    # nothing face down).
    g.zone[actor] = HAND
    bisect.insort(g.hands[g.owner[actor]], actor)
    if g.record_events:
        g.events.append((ev.SWAPPED, ctrl, actor, i, 0, c, 1))


@ability(DIPLOMAT)
def diplomat(g: Game, actor: int, ctrl: int, revealed: bool) -> None:
    ask_mode(g, actor, ctrl, DIPLOMAT, (MODE_GIFT, MODE_CASHOUT))


@mode_effect(DIPLOMAT)
def _diplomat_mode(g: Game, p: tuple[int, ...], mode: int) -> None:
    actor, ctrl = p[P_ACTOR], p[P_CTRL]
    if mode == MODE_CASHOUT:
        n = g.ip[actor]
        g.ip[actor] = 0
        g.gain(ctrl, n, g.kind[actor])
        g.discard(actor)
        return
    g.gain(ctrl, 1, g.kind[actor])
    others = [j for j, c in enumerate(g.queue) if c != actor and g.up[c] and g.kind[c] == DIPLOMAT]
    ask_target(g, actor, ctrl, DIPLOMAT, others)


@target_effect(DIPLOMAT)
def _diplomat_gift(g: Game, p: tuple[int, ...], c: int) -> None:
    g.ip[c] += 2
    if g.record_events:
        g.events.append((ev.IP_ON_CARD, p[P_CTRL], c, g.queue.index(c), 2, 0, 1))


@ability(DESERTER)
def deserter(g: Game, actor: int, ctrl: int, revealed: bool) -> None:
    g.stack.append((K_DESERTER, actor))
    ask_eliminate(g, actor, ctrl, DESERTER, g.neighbours(g.queue.index(actor)))


@eliminate_effect(DESERTER)
def _desert(g: Game, p: tuple[int, ...], victim: int) -> None:
    character = IS_CHARACTER[g.kind[victim]]
    g.eliminate(victim, p[P_ACTOR], p[P_CTRL])
    if character:
        g.gain(p[P_CTRL], 1, g.kind[p[P_ACTOR]])


@continuation(K_DESERTER)
def _deserter_leaves(g: Game, frame: tuple[int, ...]) -> None:
    _, actor = frame
    if g.zone[actor] != TOP:
        return
    q = g.queue
    if not any(g.up[q[j]] and IS_CHARACTER[g.kind[q[j]]] for j in g.neighbours(q.index(actor))):
        g.discard(actor)


@ability(JUDGE)
def judge(g: Game, actor: int, ctrl: int, revealed: bool) -> None:
    modes = [MODE_VERDICT]
    if any(g.verdict[c] for c in g.queue):
        modes.append(MODE_CONDEMN)
    ask_mode(g, actor, ctrl, JUDGE, modes)


@mode_effect(JUDGE)
def _judge_mode(g: Game, p: tuple[int, ...], mode: int) -> None:
    actor, ctrl = p[P_ACTOR], p[P_CTRL]
    q = g.queue
    if mode == MODE_CONDEMN:
        ask_eliminate(g, actor, ctrl, JUDGE, [j for j, c in enumerate(q) if g.verdict[c]])
        return
    g.gain(ctrl, 1, g.kind[actor])
    if g.verdict_pool > 0:
        ask_target(g, actor, ctrl, JUDGE, [j for j, c in enumerate(q) if not g.verdict[c]])


@target_effect(JUDGE)
def _place_verdict(g: Game, p: tuple[int, ...], c: int) -> None:
    g.verdict[c] = True
    g.verdict_pool -= 1
    if g.record_events:
        g.events.append((ev.VERDICT_PLACED, p[P_CTRL], c, g.queue.index(c), 0, 0, int(g.up[c])))


@can_reveal(INSURRECTION)
def _insurrection_can_reveal(g: Game, c: int) -> bool:
    return g.ip[c] >= 1


@ability(INSURRECTION)
def insurrection(g: Game, actor: int, ctrl: int, revealed: bool) -> None:
    n = g.ip[actor]
    g.ip[actor] = 0
    # Revealing costs 1 of the IP on it; the rest are gained.
    g.gain(ctrl, max(n - 1, 0), causes.REVEALED_IP)
    q = g.queue
    targets = [q[j] for j in g.neighbours(q.index(actor))]
    if not targets:
        no_effect(g, actor, ctrl, INSURRECTION)
    for c in targets:
        if g.zone[c] == TOP:
            g.eliminate(c, actor, ctrl)


@on_eliminated(EXTORTION)
def extortion_sprung(g: Game, victim: int, attacker: int, actl: int, vctrl: int) -> None:
    if actl == vctrl:
        return
    g.gain(vctrl, 2 * g.positions_controlled(actl), EXTORTION)
    for i, c in enumerate(g.queue):
        if g.ctrl[c] == actl and not g.up[c] and g.ip[c]:
            g.ip[c] -= 1
            if g.record_events:
                g.events.append((ev.IP_OFF_CARD, actl, c, i, 1, 0, 0))


@ability(INFILTRATION)
def infiltration(g: Game, actor: int, ctrl: int, revealed: bool) -> None:
    for i, c in enumerate(g.queue):
        if not g.up[c] and g.ctrl[c] == ctrl:
            g.ip[c] += 1
            if g.record_events:
                g.events.append((ev.IP_ON_CARD, ctrl, c, i, 1, 0, 0))


@ability(AGREEMENT)
def agreement(g: Game, actor: int, ctrl: int, revealed: bool) -> None:
    """Nothing happens now: the card is kept with its IP (see Game.finish and the round start)."""
