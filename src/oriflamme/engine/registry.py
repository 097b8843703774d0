"""The one place where card behaviour is registered.

Each box module (:mod:`oriflamme.engine.boxes.base`, ``ablaze``, ``alliance``) fills
these tables at import time with small functions; the engine looks behaviour
up here by kind, decision kind or continuation code. State never holds a
function: pending decisions and continuations are tuples of ints naming an
entry in these tables, so a state clones and serializes at any point.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from .cards import MAX_KINDS

# The first argument of every function registered here is the
# :class:`~oriflamme.engine.game.Game`. It is typed ``Any`` here so that this module
# sits below the game in the import graph (the game dispatches through these
# tables); the tables are filled only through :mod:`.behaviour`, whose decorators
# and types name the game, so mypy checks each function registered.

#: ``ability(game, actor, ctrl, revealed)``: apply a kind's ability from the
#: card ``actor`` (its position, "this card") for player ``ctrl``. ``revealed``
#: is True only when the owner has just turned the card face up.
Ability = Callable[[Any, int, int, bool], None]
#: ``reaction(game, victim, attacker, attacker_ctrl, victim_ctrl)`` after an elimination.
Reaction = Callable[[Any, int, int, int, int], None]
#: ``handler(game, pending, action)``: continue after a player's decision.
Handler = Callable[[Any, tuple[int, ...], int], None]
#: ``continuation(game, frame)``: resume work saved on the frame stack.
Continuation = Callable[[Any, tuple[int, ...]], None]

ABILITY: Final[list[Ability | None]] = [None] * MAX_KINDS
ON_ELIMINATED: Final[list[Reaction | None]] = [None] * MAX_KINDS
#: ``can_reveal(game, card)``: a reveal precondition (Insurrection needs IP on it).
CAN_REVEAL: Final[list[Callable[[Any, int], bool] | None]] = [None] * MAX_KINDS
HANDLERS: Final[dict[int, Handler]] = {}
#: ``effect(game, pending, card)``: what happens to the card chosen by a target
#: decision, keyed by the kind whose ability asked (pending field 4).
#: ELIMINATE_EFFECT serves eliminating choices (kinds without an entry simply
#: eliminate the chosen card); TARGET_EFFECT serves the others.
TargetEffect = Callable[[Any, tuple[int, ...], int], None]
ELIMINATE_EFFECT: Final[dict[int, TargetEffect]] = {}
TARGET_EFFECT: Final[dict[int, TargetEffect]] = {}
#: ``effect(game, pending, mode)``: a chosen mode of a choose-one ability.
MODE_EFFECT: Final[dict[int, TargetEffect]] = {}
CONTINUATIONS: Final[dict[int, Continuation]] = {}

# A pending decision is a tuple of six ints, ``(decision, seat, actor, ctrl, data, data2)``;
# code names its fields with these constants (plain ints: indexing stays as fast as ``p[1]``).
P_DECISION: Final = 0  # the decision kind, one of the D_* below
P_SEAT: Final = 1  # the seat that decides
P_ACTOR: Final = 2  # the card whose ability asks, or the card a keep-or-reveal is about (-1: none)
P_CTRL: Final = 3  # the player the ability works for
P_DATA: Final = 4  # per decision: the kind whose ability applies, the Twin card, the IP left to spend ...
P_DATA2: Final = 5  # per decision: the picked card of a Decree, ... (-1: unused)
#: The type of a pending decision.
Pending = tuple[int, int, int, int, int, int]
# What the data fields hold, decision by decision: names for P_DATA and P_DATA2 where they are read
# (the same indices: reading ``p[P_PICKED]`` costs what ``p[4]`` does).
#: eliminate, target, mode, spy, copy, swap: the kind whose ability asks; fetch: the kind to fetch.
P_KIND: Final = P_DATA
#: twin: the Twin card to place.
P_TWIN_CARD: Final = P_DATA
#: plot_character, plot_ip: the IP the Plot still has to spend.
P_IP_LEFT: Final = P_DATA
#: decree_dest: the position of the card the Royal Decree moves.
P_PICKED: Final = P_DATA
#: fetch: the side of the Impersonation where the replaced card was (0: before it, 1: after).
P_SIDE: Final = P_DATA2

# Decision kinds (the first field of a pending decision).
D_PLACE: Final = 0
D_KEEP_OR_REVEAL: Final = 1
D_TARGET_ELIMINATE: Final = 2  # eliminate the chosen position (Archer, Soldier, Assassination, ...)
D_DECREE_PICK: Final = 3
D_DECREE_DEST: Final = 4
D_SPY: Final = 5
D_COPY: Final = 6
D_TWIN: Final = 7
D_FETCH: Final = 8
D_PLOT_CHAR: Final = 9
D_PLOT_IP: Final = 10
D_MODE: Final = 11
D_SWAP: Final = 12
D_TARGET_OTHER: Final = 13  # a non-eliminating target (Bribery, Empress, verdict, gift)

DECISION_NAMES: Final = (
    "place",
    "keep_or_reveal",
    "eliminate",
    "decree_pick",
    "decree_dest",
    "spy",
    "copy",
    "twin",
    "fetch",
    "plot_character",
    "plot_ip",
    "mode",
    "swap",
    "target",
)

#: A continuation frame is a tuple of ints; its first field is the code, the rest depends on it.
F_CODE: Final = 0

# Continuation codes (the first field of a frame on the stack).
K_FINISH: Final = 0  # (K_FINISH, card): end of a position's resolution
K_GAIN: Final = 1  # (K_GAIN, seat, n): a revealed Prince's gain, once its Twin is placed
K_PLOT: Final = 2  # (K_PLOT, ctrl, remaining IP)
K_DESERTER: Final = 3  # (K_DESERTER, deserter card)
K_INSURRECTION: Final = 4  # (K_INSURRECTION, card, ctrl, other target or -1)
K_IMPERSONATE: Final = 5  # (K_IMPERSONATE, actor, ctrl, kind, side)
