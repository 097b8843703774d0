"""Decision plumbing shared by the boxes: target choices and choose-one modes."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from .. import events as ev
from ..actions import ARG_MASK, MODE, SHIFT, TARGET
from ..behaviour import handler
from ..registry import (
    D_MODE,
    D_TARGET_ELIMINATE,
    D_TARGET_OTHER,
    ELIMINATE_EFFECT,
    MODE_EFFECT,
    P_ACTOR,
    P_CTRL,
    P_KIND,
    TARGET_EFFECT,
)
from ..zones import TOP

if TYPE_CHECKING:
    from ..game import Game

_T = TARGET << SHIFT
_M = MODE << SHIFT


def no_effect(g: Game, actor: int, ctrl: int, applied: int) -> None:
    """Record that an ability had no legal target (so clients can say so)."""
    if g.record_events:
        i = g.queue.index(actor) if g.zone[actor] == TOP else -1
        g.events.append((ev.NO_EFFECT, ctrl, actor, i, applied, 0, 1))


def ask_eliminate(g: Game, actor: int, ctrl: int, applied: int, positions: Iterable[int]) -> None:
    """Ask ``ctrl`` which of ``positions`` the ability of kind ``applied`` eliminates."""
    opts = []
    for i in positions:
        opts.append(_T | i)
    if opts:
        g.ask(D_TARGET_ELIMINATE, ctrl, actor, ctrl, applied, -1, opts)
    else:
        no_effect(g, actor, ctrl, applied)


def ask_target(g: Game, actor: int, ctrl: int, applied: int, positions: Iterable[int]) -> bool:
    """Ask for a non-eliminating target; False (and nothing asked) when there is none."""
    opts = []
    for i in positions:
        opts.append(_T | i)
    if not opts:
        return False
    g.ask(D_TARGET_OTHER, ctrl, actor, ctrl, applied, -1, opts)
    return True


def put_ip(g: Game, ctrl: int, card: int, n: int) -> None:
    """Put ``n`` IP from the supply on the top card ``card``, for player ``ctrl`` (Empress's gift)."""
    g.ip[card] += n
    if g.record_events:
        g.events.append((ev.IP_ON_CARD, ctrl, card, g.queue.index(card), n, 0, int(g.up[card])))


def ask_mode(g: Game, actor: int, ctrl: int, applied: int, modes: Iterable[int]) -> None:
    g.ask(D_MODE, ctrl, actor, ctrl, applied, -1, [_M | m for m in modes])


@handler(D_TARGET_ELIMINATE)
def _on_eliminate(g: Game, p: tuple[int, ...], action: int) -> None:
    victim = g.queue[action & ARG_MASK]
    effect = ELIMINATE_EFFECT.get(p[P_KIND])
    if effect is None:
        g.eliminate(victim, p[P_ACTOR], p[P_CTRL])
    else:
        effect(g, p, victim)


@handler(D_TARGET_OTHER)
def _on_target(g: Game, p: tuple[int, ...], action: int) -> None:
    TARGET_EFFECT[p[P_KIND]](g, p, g.queue[action & ARG_MASK])


@handler(D_MODE)
def _on_mode(g: Game, p: tuple[int, ...], action: int) -> None:
    MODE_EFFECT[p[P_KIND]](g, p, action & ARG_MASK)
