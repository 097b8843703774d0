"""A concise way to build any position, for tests, puzzles and bug reports.

The queue is written in resolution order as space-separated *positions*; a
position is one card token or a stack of them joined by ``/`` (bottom first).
A card token is::

    pN:[~]slug[+IP][!][@pM]

* ``pN`` — the owning player (p1 is seat 0);
* ``~`` — face down (no mark: face up);
* ``+IP`` — influence points lying on the card;
* ``!`` — a verdict token on the card;
* ``@pM`` — controlled by pM through Bribery.

Example: ``"p1:soldier p2:~heir+2 p1:~spy/p1:~assassination"``.

Hands, set-aside cards, discard piles and kept cards are lists of slugs per
seat (a space-separated string or a list). A kept Agreement may carry the IP
it was kept with: ``kept={0: "agreement+3"}``. Every card of a family not
written anywhere is set aside (a Twin waits face up for its Prince).

``phase="start"`` builds the position at the very start of round ``round``:
the start-of-round income (a kept Agreement) is still to come, then the
placements. The position must be one the rules can reach (docs/rules.md §11):
the checks of :mod:`oriflamme.notation.checks`, shared with save files,
refuse any other with a message naming the problem.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from ..engine.cards import AGREEMENT, IS_KEPT, SLUGS, TWIN, kind_from_slug
from ..engine.errors import SaveFormatError, SetupError
from ..engine.game import Game
from ..engine.options import RuleOptions
from ..engine.recipes import parse_recipe, validate_recipe
from ..engine.zones import ASIDE, COVERED, DISCARD, HAND, KEPT, RESOLVE, TOP
from .checks import check_state

_TOKEN = re.compile(r"^p(\d):(~?)([a-z-]+)(?:\+(\d+))?(!?)(?:@p(\d))?$")

Piles = Mapping[int, str | Sequence[str]] | Sequence[str | Sequence[str]] | None


def _slugs(value: str | Sequence[str]) -> list[str]:
    return value.split() if isinstance(value, str) else list(value)


def _per_seat(value: Piles, players: int, what: str) -> list[list[str]]:
    out: list[list[str]] = [[] for _ in range(players)]
    if value is None:
        return out
    items = value.items() if isinstance(value, Mapping) else enumerate(value)
    for seat, cards in items:
        if not 0 <= seat < players:
            raise SetupError(f"{what}: no seat {seat} in a {players}-player game")
        out[seat] = _slugs(cards)
    return out


def build_position(
    players: int,
    deck: str | Sequence[int] = "base",
    queue: str = "",
    hands: Piles = None,
    discards: Piles = None,
    kept: Piles = None,
    aside: Piles = None,
    scores: Sequence[int] | None = None,
    round: int = 1,
    first: int = 0,
    phase: str = "resolve",
    pointer: int = 0,
    turn: int = 0,
    rules: RuleOptions | None = None,
) -> Game:
    """Build a game in the described position and run the rules to its first decision.

    ``phase="resolve"`` starts (or continues) the resolution at position
    ``pointer`` (0-based); ``phase="place"`` asks the ``turn``-th placer of
    the round (0 is the first player) for a card; ``phase="start"`` begins
    the round (start-of-round income, then the first placement).
    """
    recipe = parse_recipe(deck) if isinstance(deck, str) else validate_recipe(tuple(deck))
    g = Game._blank(players, recipe, rules or RuleOptions(), None)
    free: dict[tuple[int, int], list[int]] = {}
    for c in range(len(g.kind)):
        free.setdefault((g.owner[c], g.kind[c]), []).append(c)
    for h in g.hands:
        h.clear()
    for t in g.twins:
        t.clear()

    def take(seat: int, slug: str, where: str) -> int:
        try:
            k = kind_from_slug(slug)
        except ValueError as exc:
            raise SetupError(f"{where}: {exc}") from None
        cards = free.get((seat, k))
        if not cards:
            raise SetupError(f"{where}: p{seat + 1} has no (more) {slug} in this deck")
        return cards.pop(0)

    for i, text in enumerate(queue.split()):
        below = -1
        for token in text.split("/"):
            m = _TOKEN.match(token.strip().lower())
            if not m:
                raise SetupError(f"queue position {i + 1}: cannot read card token {token!r}")
            seat = int(m[1]) - 1
            if not 0 <= seat < players:
                raise SetupError(f"queue position {i + 1}: no player p{seat + 1}")
            c = take(seat, m[3], f"queue position {i + 1}")
            g.up[c] = not m[2]
            g.ip[c] = int(m[4] or 0)
            if m[5]:
                g.verdict[c] = True
                g.verdict_pool -= 1
            if m[6]:
                briber = int(m[6]) - 1
                if not 0 <= briber < players:
                    raise SetupError(f"queue position {i + 1}: no player p{briber + 1}")
                g.bribed_by[c] = briber
                g.ctrl[c] = briber
            if below >= 0:
                g.under[c] = below
                g.zone[below] = COVERED
            g.zone[c] = TOP
            below = c
        g.queue.append(below)
    if g.verdict_pool < 0:
        raise SetupError(f"at most {Game.VERDICT_TOKENS} verdict tokens can be on cards")

    for zone, pile_of, value, what in (
        (HAND, g.hands, hands, "hands"),
        (DISCARD, g.discards, discards, "discards"),
        (KEPT, g.kept, kept, "kept"),
        (ASIDE, g.aside, aside, "aside"),
    ):
        for seat, slugs in enumerate(_per_seat(value, players, what)):
            for token in slugs:
                slug, plus, amount = token.partition("+")
                c = take(seat, slug, f"{what} of p{seat + 1}")
                if plus:
                    if zone != KEPT or g.kind[c] != AGREEMENT or not amount.isdigit():
                        raise SetupError(
                            f"{what} of p{seat + 1}: {token!r}: only a kept agreement carries IP (agreement+N)"
                        )
                    g.ip[c] = int(amount)
                if zone == KEPT and not IS_KEPT[g.kind[c]]:
                    raise SetupError(
                        f"kept of p{seat + 1}: only infiltration and agreement are kept, not {slug}"
                    )
                g.zone[c] = zone
                g.up[c] = zone in (DISCARD, KEPT)
                pile_of[seat].append(c)
            pile_of[seat].sort()
    for (seat, k), cards in free.items():
        for c in cards:
            if k == TWIN:
                g.twins[seat].append(c)
            else:
                g.zone[c] = ASIDE
                g.up[c] = False
                g.aside[seat].append(c)
        g.aside[seat].sort()
    if scores is not None:
        if len(scores) != players or any(type(s) is not int or s < 0 for s in scores):
            raise SetupError(f"scores must be {players} non-negative integers, got {scores!r}")
        g.set_scores(list(scores))
    if not 1 <= round <= g.rules.rounds:
        raise SetupError(f"round must be 1 to {g.rules.rounds}, got {round}")
    if not 0 <= first < players:
        raise SetupError(f"first must be a seat from 0 to {players - 1}, got {first}")
    g.round = round
    g.first = first
    g.set_order()
    if phase == "start":
        # The round begins now: its income is paid, then its first player places.
        g.round = round - 1
        g._start_round()
    elif phase == "place":
        if not 0 <= turn < len(g.order):
            raise SetupError(f"turn must be 0 to {len(g.order) - 1}, got {turn}")
        g.turn = turn
    elif phase == "resolve":
        if not 0 <= pointer <= len(g.queue):
            raise SetupError(f"pointer must be 0 to {len(g.queue)}, got {pointer}")
        g.phase = RESOLVE
        g.turn = len(g.order)
        g.ptr = pointer
    else:
        raise SetupError(f"phase must be 'start', 'place' or 'resolve', got {phase!r}")
    g.events = []
    g._run()
    # The same checks as a loaded save file's state: a position no game can reach is refused.
    try:
        check_state(g)
    except SaveFormatError as exc:
        raise SetupError(f"not a position the rules can reach: {exc}") from None
    return g


def card_token(g: Game, c: int) -> str:
    """The position-notation token of a queue card."""
    out = f"p{g.owner[c] + 1}:{'' if g.up[c] else '~'}{SLUGS[g.kind[c]]}"
    if g.ip[c]:
        out += f"+{g.ip[c]}"
    if g.verdict[c]:
        out += "!"
    if g.bribed_by[c] >= 0:
        out += f"@p{g.bribed_by[c] + 1}"
    return out


def queue_string(g: Game) -> str:
    """The queue in position notation (a test's one-line view of the table)."""
    return " ".join("/".join(card_token(g, c) for c in g.stack_cards(i)) for i in range(len(g.queue)))


def pile_slugs(g: Game, pile: Sequence[int]) -> list[str]:
    return [SLUGS[g.kind[c]] for c in pile]


__all__ = ["build_position", "card_token", "pile_slugs", "queue_string"]
