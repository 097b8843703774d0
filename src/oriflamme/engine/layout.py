"""A table before play: its card ids, the action codes built from them, the blank game and the deal.

A table's cards are numbered once, by :func:`layout`: a family's cards are
contiguous ids in recipe order (two copies of the recipe in the 2-player
variant), so an id tells only owner and kind. Placement action codes are
precomputed per card and position. :func:`set_blank` makes the state before the
deal, and the set-aside cards are drawn (:func:`draw`) or checked
(:func:`checked_asides`) here; :class:`~oriflamme.engine.game.Game` deals from them.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence

from . import causes
from .actions import PLACE_FIRST, PLACE_LAST, PLACE_ON, SHIFT
from .cards import TWIN
from .causes import NUM_CAUSES
from .errors import SetupError
from .options import RuleOptions
from .recipes import family_kinds, validate_recipe
from .state import State
from .zones import HAND, PLACE, TWIN_ASIDE

_PF = PLACE_FIRST << SHIFT
_PL = PLACE_LAST << SHIFT
_PO = PLACE_ON << SHIFT
MAX_CARDS = 64  # ids < 64 and positions < 64 (2-player variant: 44 cards, 24+ positions)
#: Placement codes by card: first in an empty queue; at either end (first, then last).
FIRST_CODES = [_PF | c for c in range(MAX_CARDS)]
END_CODES = [(_PF | c, _PL | c) for c in range(MAX_CARDS)]
#: Placement codes onto a position, by card then position.
ON_CODES = [[_PO | c << 8 | i for i in range(MAX_CARDS)] for c in range(MAX_CARDS)]
#: Per player count, one empty pile per seat (copied for each new game).
NO_PILES = [((),) * n for n in range(6)]


@functools.lru_cache(maxsize=256)
def layout(
    players: int, recipe: tuple[int, ...]
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """Card ids of a table: kind and owner of each, and per seat its dealt cards and its Twins."""
    fam = family_kinds(recipe)
    copies = 2 if players == 2 else 1
    kinds: list[int] = []
    owners: list[int] = []
    for s in range(players):
        for _ in range(copies):
            kinds.extend(fam)
            owners.extend([s] * len(fam))
    per_seat = tuple(
        tuple(c for c in range(len(kinds)) if owners[c] == s and kinds[c] != TWIN) for s in range(players)
    )
    twins = tuple(
        tuple(c for c in range(len(kinds)) if owners[c] == s and kinds[c] == TWIN) for s in range(players)
    )
    return tuple(kinds), tuple(owners), per_seat, twins


def family_ids(owner: Sequence[int], seat: int) -> range:
    """The card ids of ``seat``'s family (every card it owns), from a table's owners.

    :func:`layout` deals every seat a family of one size, seat after seat, so
    the ids are contiguous and found without a search (searches ask often).
    """
    size = len(owner) // (owner[-1] + 1)
    start = seat * size
    return range(start, start + size)


def dealt_cards(players: int, recipe: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """Per seat, the card ids dealt to it (its family but the Twin): its hand and set-aside cards."""
    return layout(players, validate_recipe(tuple(recipe)))[2]


def below(bits: Callable[[int], int], n: int) -> int:
    """A uniform draw from ``range(n)``: ``random.Random.randrange(n)``'s draw, from its ``getrandbits``."""
    k = n.bit_length()
    r = bits(k)
    while r >= n:
        r = bits(k)
    return r


def shuffle(bits: Callable[[int], int], cards: list[int]) -> None:
    """Shuffle ``cards`` in place: ``random.Random.shuffle``'s draws written out (as CPython 3.11
    makes them, each a :func:`below`), so that a search's deals stay the seed's on any Python
    version, without the library's overhead on the path every search iteration takes."""
    for i in range(len(cards) - 1, 0, -1):
        j = below(bits, i + 1)
        cards[i], cards[j] = cards[j], cards[i]


def draw(bits: Callable[[int], int], cards: Sequence[int], k: int) -> list[int]:
    """``k`` of ``cards``, sorted: what ``sorted(random.Random.sample(cards, k))`` draws, for up to 21 cards.

    A deal is the seed's: these are the standard library's draws written out (its
    sampling of a small population, as CPython 3.11 does it), so the seeds of saved and
    golden games keep their deals, on any Python version, without the library's per-call
    overhead on the path that every new game and every benchmark game takes.
    """
    pool = list(cards)
    n = len(pool)
    out = []
    for i in range(k):
        j = below(bits, n - i)
        out.append(pool[j])
        pool[j] = pool[n - i - 1]
    out.sort()
    return out


def set_blank(g: State, players: int, recipe: tuple[int, ...], rules: RuleOptions, seed: int | None) -> None:
    """Make ``g`` a table before the deal: every card in its owner's hand (Twins aside), round 0."""
    if not 2 <= players <= 5:
        raise SetupError(f"Oriflamme is played by 2 to 5 players (2 with the variant), got {players}")
    kinds, owners, cards, twins = layout(players, recipe)
    n = len(kinds)
    g.players = players
    g.recipe = recipe
    g.rules = rules
    g.seed = seed
    g.kind = kinds
    g.owner = owners
    g.hand_size = 16 if players == 2 else 7
    per_round = rules.two_player_cards_per_round if players == 2 else 1
    if rules.rounds * per_round > g.hand_size:
        raise SetupError(
            f"{rules.rounds} rounds of {per_round} card(s) need {rules.rounds * per_round} cards, "
            f"but a hand holds {g.hand_size}"
        )
    g.ctrl = list(owners)
    g.up = [False] * n
    g.ip = [0] * n
    g.under = [-1] * n
    g.zone = [HAND] * n
    g.verdict = [False] * n
    g.bribed_by = [-1] * n
    g.asleep = [False] * n
    g.exposed = [False] * n
    g.queue = []
    g.hands = list(map(list, cards))
    g.aside = list(map(list, NO_PILES[players]))
    g.twins = list(map(list, twins))
    for t in twins:
        for c in t:
            g.zone[c] = TWIN_ASIDE
            g.up[c] = True
    g.discards = list(map(list, NO_PILES[players]))
    g.kept = list(map(list, NO_PILES[players]))
    g.score = [1] * players
    g.ledger = [0] * (players * NUM_CAUSES)
    g.ledger_shared = False
    for s in range(players):
        g.ledger[s * NUM_CAUSES + causes.START] = 1
    g.verdict_pool = State.VERDICT_TOKENS
    g.round = 0
    g.first = 0
    g.phase = PLACE
    g.order = ()
    g.turn = 0
    g.ptr = 0
    g.cur = -1
    g.cur_gone = False
    g.stack = []
    g.pending = None
    g.options = ()
    g.history = []
    g.events = []
    g.record_events = True
    g.winners = ()


def checked_asides(
    players: int, recipe: tuple[int, ...], hand_size: int, aside: Sequence[Sequence[int]]
) -> list[list[int]]:
    """Each seat's set-aside card ids, sorted, or SetupError saying what is wrong with them."""
    dealt = layout(players, recipe)[2]
    if len(aside) != players:
        raise SetupError(f"{players} players need {players} set-aside piles, got {len(aside)}")
    asides = []
    for s, (cards, pile) in enumerate(zip(dealt, aside, strict=True)):
        chosen = sorted(set(pile))
        if len(chosen) != len(pile) or len(chosen) != len(cards) - hand_size or not set(chosen) <= set(cards):
            raise SetupError(
                f"p{s + 1} must set aside {len(cards) - hand_size} different cards of its own "
                f"(ids {cards[0]} to {cards[-1]}, not a Twin), got {list(pile)}"
            )
        asides.append(chosen)
    return asides
