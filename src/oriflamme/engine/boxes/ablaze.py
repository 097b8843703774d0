"""The Ablaze box (docs/rules.md §7): Prince and Twin, Queen, Cutthroat, Apothecary,
Felon, Schemer, and the intrigues Impersonation, Plot, Trap (see base: bait) and Bribery."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import events as ev
from ..actions import (
    ARG_MASK,
    FETCH,
    FROM_ASIDE,
    FROM_DISCARD,
    FROM_NOWHERE,
    GAIN_ACTION,
    PLACE_FIRST,
    PLACE_LAST,
    PLACE_ON,
    SHIFT,
    USE,
)
from ..behaviour import ability, continuation, eliminate_effect, handler, on_eliminated, target_effect
from ..cards import (
    APOTHECARY,
    BRIBERY,
    CUTTHROAT,
    FELON,
    IMPERSONATION,
    IS_CHARACTER,
    PLOT,
    PRINCE,
    QUEEN,
    SCHEMER,
    TRAP,
    TWIN,
)
from ..registry import (
    ABILITY,
    D_FETCH,
    D_PLOT_CHAR,
    D_PLOT_IP,
    D_TWIN,
    K_GAIN,
    K_PLOT,
    P_ACTOR,
    P_CTRL,
    P_IP_LEFT,
    P_KIND,
    P_SIDE,
    P_TWIN_CARD,
)
from ..zones import TOP
from .common import ask_eliminate, ask_target, no_effect

if TYPE_CHECKING:
    from ..game import Game
    from ..state import State

_USE = USE << SHIFT


@ability(PRINCE)
def prince(g: Game, actor: int, ctrl: int, revealed: bool) -> None:
    twins = g.twins[g.owner[actor]]
    if not (revealed and twins):
        g.gain(ctrl, 1, g.kind[actor])
        return
    # The Twin enters by the placement rules: either end, or (from round 2) onto
    # one of the family's own cards other than a Prince. Then the Prince gains 1.
    twin = twins[0]
    g.stack.append((K_GAIN, ctrl, 1))
    g.ask(D_TWIN, ctrl, actor, ctrl, twin, -1, twin_options(g, ctrl, twin))


def twin_options(g: State, ctrl: int, twin: int) -> list[int]:
    """Where ``twin`` may enter: either end, or (from round 2) onto ``ctrl``'s own cards but a Prince.

    A face-down Prince (two Princes in the 2-player variant) is excluded too,
    so these options are shown to the deciding seat only (see the view).
    """
    opts = [PLACE_FIRST << SHIFT | twin, PLACE_LAST << SHIFT | twin]
    if g.round > 1:
        opts += [
            PLACE_ON << SHIFT | twin << 8 | i
            for i, c in enumerate(g.queue)
            if g.ctrl[c] == ctrl and g.kind[c] != PRINCE
        ]
    return opts


@continuation(K_GAIN)
def _prince_gain(g: Game, frame: tuple[int, ...]) -> None:
    """The revealed Prince gains its 1 once its Twin is placed."""
    _, seat, n = frame
    g.gain(seat, n, PRINCE)


@handler(D_TWIN)
def _place_twin(g: Game, p: tuple[int, ...], action: int) -> None:
    twin = p[P_TWIN_CARD]
    g.twins[g.owner[twin]].remove(twin)
    verb = action >> SHIFT
    g.place_card(p[P_CTRL], twin, verb, action & 255 if verb == PLACE_ON else -1)


@ability(TWIN)
def twin(g: Game, actor: int, ctrl: int, revealed: bool) -> None:
    g.gain(ctrl, 1, g.kind[actor])


@on_eliminated(PRINCE, TWIN)
def prince_twin_link(g: Game, victim: int, attacker: int, actl: int, vctrl: int) -> None:
    # Every uncovered, face-up copy of the other card controlled by the same family is
    # discarded (docs/rules.md §11: a face-down Prince or Twin is not part of a pair yet);
    # discards do not chain.
    other = TWIN if g.kind[victim] == PRINCE else PRINCE
    for c in [c for c in g.queue if g.kind[c] == other and g.ctrl[c] == vctrl and g.up[c]]:
        g.discard(c)


@ability(QUEEN)
def queen(g: Game, actor: int, ctrl: int, revealed: bool) -> None:
    g.gain(ctrl, 2, g.kind[actor])


@on_eliminated(QUEEN)
def queen_bonus(g: Game, victim: int, attacker: int, actl: int, vctrl: int) -> None:
    if actl != vctrl:
        g.gain(actl, 1, QUEEN)


@ability(CUTTHROAT)
def cutthroat(g: Game, actor: int, ctrl: int, revealed: bool) -> None:
    ask_eliminate(g, actor, ctrl, CUTTHROAT, g.neighbours(g.queue.index(actor)))


@eliminate_effect(CUTTHROAT)
def _cutthroat_sweep(g: Game, p: tuple[int, ...], victim: int) -> None:
    actor, ctrl = p[P_ACTOR], p[P_CTRL]
    name = g.kind[victim]  # a face-down target is revealed by its elimination
    others = [c for c in g.queue if c != victim and g.up[c] and g.kind[c] == name and g.ctrl[c] != ctrl]
    # Eliminating exactly one card earns nothing "for eliminating".
    reward = bool(others)
    g.eliminate(victim, actor, ctrl, reward)
    for c in others:
        if g.zone[c] == TOP:
            g.eliminate(c, actor, ctrl, reward)


@ability(APOTHECARY)
def apothecary(g: Game, actor: int, ctrl: int, revealed: bool) -> None:
    q = g.queue
    own = [j for j, c in enumerate(q) if c != actor and g.ctrl[c] == ctrl]
    if not own:
        no_effect(g, actor, ctrl, APOTHECARY)
        return
    targets = sorted({t for j in own for t in g.neighbours(j)})
    ask_eliminate(g, actor, ctrl, APOTHECARY, targets)


@ability(FELON)
def felon(g: Game, actor: int, ctrl: int, revealed: bool) -> None:
    q = g.queue
    for j in g.neighbours(q.index(actor)):
        g.lose(g.ctrl[q[j]], 1, g.kind[actor])


@ability(SCHEMER)
def schemer(g: Game, actor: int, ctrl: int, revealed: bool) -> None:
    if any(g.is_stack(j) for j in g.neighbours(g.queue.index(actor))):
        g.discard(actor)
    else:
        g.gain(ctrl, g.rules.schemer_gain, g.kind[actor])


@ability(IMPERSONATION)
def impersonation(g: Game, actor: int, ctrl: int, revealed: bool) -> None:
    ask_eliminate(g, actor, ctrl, IMPERSONATION, g.neighbours(g.queue.index(actor)))


@eliminate_effect(IMPERSONATION)
def _impersonate(g: Game, p: tuple[int, ...], victim: int) -> None:
    actor, ctrl = p[P_ACTOR], p[P_CTRL]
    k = g.kind[victim]
    side = int(g.queue.index(victim) > g.queue.index(actor))
    replace = IS_CHARACTER[k] and g.ctrl[victim] != ctrl and g.under[victim] < 0
    g.eliminate(victim, actor, ctrl)
    if not replace or g.zone[actor] != TOP:
        return
    # Asked whenever a replacement is due, even with one answer or none to
    # fetch: the set-aside cards are hidden, and the question must not tell.
    g.ask_every_time(D_FETCH, ctrl, actor, ctrl, k, side, fetch_options(g, ctrl, k))


def fetch_options(g: State, ctrl: int, k: int) -> tuple[int, ...]:
    """Where ``ctrl`` may take a ``k`` from to replace an impersonated character."""
    opts = []
    if any(g.kind[c] == k for c in g.discards[ctrl]):
        opts.append(FETCH << SHIFT | FROM_DISCARD)
    # A Twin is never a set-aside card: only one that has left play can come back.
    if k != TWIN and any(g.kind[c] == k for c in g.aside[ctrl]):
        opts.append(FETCH << SHIFT | FROM_ASIDE)
    return tuple(opts) if opts else (FETCH << SHIFT | FROM_NOWHERE,)


@handler(D_FETCH)
def _fetch(g: Game, p: tuple[int, ...], action: int) -> None:
    actor, ctrl, k, side = p[P_ACTOR], p[P_CTRL], p[P_KIND], p[P_SIDE]
    source = action & ARG_MASK
    if source == FROM_NOWHERE:
        return
    pile = g.discards[ctrl] if source == FROM_DISCARD else g.aside[ctrl]
    c = next(c for c in pile if g.kind[c] == k)
    pile.remove(c)
    g.up[c] = True  # face up, but not revealed: a Prince brought this way brings no Twin
    g.ctrl[c] = ctrl
    i = g.queue.index(actor) + side
    g.insert(i, c)
    if g.record_events:
        g.events.append((ev.REPLACED, ctrl, c, i, 0, source, 1))


def _own_revealed_characters(g: Game, ctrl: int) -> list[int]:
    return [j for j, c in enumerate(g.queue) if g.up[c] and g.ctrl[c] == ctrl and IS_CHARACTER[g.kind[c]]]


@ability(PLOT)
def plot(g: Game, actor: int, ctrl: int, revealed: bool) -> None:
    n = g.ip[actor]
    g.ip[actor] = 0  # the IP are spent below, not returned to the supply
    g.discard(actor)
    chars = _own_revealed_characters(g, ctrl)
    if not chars:
        g.gain(ctrl, n, PLOT)
        return
    g.stack.append((K_PLOT, ctrl, n))
    g.ask(D_PLOT_CHAR, ctrl, -1, ctrl, n, -1, [_USE | j for j in chars])


def _apply_character(g: Game, j: int, ctrl: int) -> None:
    c = g.queue[j]
    k = g.kind[c]
    if g.record_events:
        g.events.append((ev.ABILITY, ctrl, c, j, k, 0, 1))
    fn = ABILITY[k]
    if fn is not None:
        fn(g, c, ctrl, False)


@handler(D_PLOT_CHAR)
def _plot_first(g: Game, p: tuple[int, ...], action: int) -> None:
    _apply_character(g, action & ARG_MASK, p[P_CTRL])


@continuation(K_PLOT)
def _plot_next(g: Game, frame: tuple[int, ...]) -> None:
    _, ctrl, remaining = frame
    if remaining <= 0:
        return
    chars = _own_revealed_characters(g, ctrl)
    if not chars:
        g.gain(ctrl, remaining, PLOT)
        return
    g.ask(D_PLOT_IP, ctrl, -1, ctrl, remaining, -1, [GAIN_ACTION] + [_USE | j for j in chars])


@handler(D_PLOT_IP)
def _plot_ip(g: Game, p: tuple[int, ...], action: int) -> None:
    ctrl, remaining = p[P_CTRL], p[P_IP_LEFT]
    g.stack.append((K_PLOT, ctrl, remaining - 1))
    if action == GAIN_ACTION:
        g.gain(ctrl, 1, PLOT)
    else:
        _apply_character(g, action & ARG_MASK, ctrl)


@on_eliminated(TRAP)
def trap_sprung(g: Game, victim: int, attacker: int, actl: int, vctrl: int) -> None:
    if actl != vctrl:
        g.steal(vctrl, actl, 3, TRAP)
        g.discard_attacker(attacker)


@ability(BRIBERY)
def bribery(g: Game, actor: int, ctrl: int, revealed: bool) -> None:
    q = g.queue
    targets = [
        j
        for j, c in enumerate(q)
        if g.up[c] and IS_CHARACTER[g.kind[c]] and g.under[c] < 0 and g.ctrl[c] != ctrl
    ]
    if not ask_target(g, actor, ctrl, BRIBERY, targets):
        no_effect(g, actor, ctrl, BRIBERY)


@target_effect(BRIBERY)
def _bribe(g: Game, p: tuple[int, ...], c: int) -> None:
    ctrl = p[P_CTRL]
    previous = g.bribed_by[c]
    if previous >= 0 and g.record_events:
        g.events.append((ev.BRIBE_RETURNED, previous, c, -1, 0, 0, 1))
    # Bribing back one's own card (bribed by another family) sends that token home and
    # brings the card home too: no family ever holds its own card by a token (docs/rules.md §11).
    g.bribed_by[c] = ctrl if g.owner[c] != ctrl else -1
    g.ctrl[c] = ctrl
    if g.record_events:
        g.events.append((ev.BRIBED, ctrl, c, g.queue.index(c), 0, previous, 1))
