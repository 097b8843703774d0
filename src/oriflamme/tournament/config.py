"""A tournament's configuration: entrants, deck, games, seed, seating, rule options; and per-game seeds."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ..bots import parse_bot_spec
from ..engine import seeds
from ..engine.errors import SetupError
from ..engine.game import Game
from ..engine.options import RuleOptions

#: Player counts a tournament can seat (the engine's 2 to 5).
MIN_ENTRANTS = 2
MAX_ENTRANTS = 5


#: Version of the ``--json`` layout; bumped when a field changes meaning.
JSON_SCHEMA = "oriflamme.tournament/1"

#: Seating schemes (see :func:`seating`).
SEATINGS = ("rotate", "permute")

#: What ``pip`` must install for the Ray backend.
RAY_HINT = "pip install 'oriflamme[cluster]'"


# ----------------------------------------------------------------- set-up


def normalize_spec(spec: str, *, buildable: bool = True) -> str:
    """The canonical form of a bot spec: lower case, with the kind's default level filled in.

    ``buildable`` as :func:`~oriflamme.bots.parse_bot_spec` takes it.
    """
    kind, level = parse_bot_spec(spec, custom=True, buildable=buildable)
    return kind if level is None else f"{kind}:{level}"


def normalize_deck(deck: str) -> str:
    """A deck argument in the one spelling that names it (``Base`` -> ``base``, no spaces after commas).

    The deck is part of what identifies a tournament (its games, a record
    file), so two spellings of one deck must not look like two tournaments.
    """
    return ",".join(part.strip() for part in deck.strip().lower().split(","))


def parse_entrants(specs: str | Sequence[str], *, buildable: bool = True) -> tuple[str, ...]:
    """Check a comma-separated list (or sequence) of bot specs, one per seat; return them normalized.

    Raises :class:`SetupError` for an unknown bot or level, and for fewer than
    2 or more than 5 specs. ``buildable=False`` does not ask that the bots
    could be built here (a recorded tournament's, read but not played on).
    """
    items = specs.split(",") if isinstance(specs, str) else list(specs)
    items = [s.strip() for s in items]
    if any(not s for s in items):
        raise SetupError(f"empty bot spec in {','.join(items)!r}; give one spec per seat, e.g. random,random")
    if not MIN_ENTRANTS <= len(items) <= MAX_ENTRANTS:
        raise SetupError(
            f"a tournament seats {MIN_ENTRANTS} to {MAX_ENTRANTS} bots (one spec per seat), got {len(items)}"
        )
    return tuple(normalize_spec(s, buildable=buildable) for s in items)


def entrant_names(specs: Sequence[str]) -> tuple[str, ...]:
    """Display names: the spec itself, numbered ``spec#k`` when the spec appears more than once."""
    counts: dict[str, int] = {}
    for s in specs:
        counts[s] = counts.get(s, 0) + 1
    seen: dict[str, int] = {}
    names = []
    for s in specs:
        if counts[s] == 1:
            names.append(s)
        else:
            seen[s] = seen.get(s, 0) + 1
            names.append(f"{s}#{seen[s]}")
    return tuple(names)


@dataclass(frozen=True, slots=True)
class TournamentConfig:
    """What a tournament plays; with it, game ``g`` is fully determined (see :func:`play_tournament_game`)."""

    #: Normalized bot specs, entrant ``i`` first seated at seat ``i``.
    specs: tuple[str, ...]
    deck: str = "random"
    games: int = 100
    seed: int = 0
    rules: RuleOptions = field(default_factory=RuleOptions)
    #: ``rotate`` or ``permute``, see :func:`seating`.
    seating: str = "rotate"

    @property
    def players(self) -> int:
        return len(self.specs)

    @property
    def names(self) -> tuple[str, ...]:
        return entrant_names(self.specs)

    def check(self, *, buildable: bool = True) -> None:
        """Raise :class:`SetupError` for anything that would fail only once games are running.

        ``buildable=False`` checks a tournament that is read, not played on:
        its bots need not be buildable here (:func:`parse_entrants`).
        """
        if self.games < 1:
            raise SetupError(f"the number of games must be at least 1, got {self.games}")
        if self.seating not in SEATINGS:
            raise SetupError(f"unknown seating {self.seating!r}; use one of {', '.join(SEATINGS)}")
        if tuple(parse_entrants(self.specs, buildable=buildable)) != self.specs:
            raise SetupError(f"bot specs must be normalized with parse_entrants, got {self.specs}")
        Game.new(players=self.players, deck=self.deck, seed=0, first_player=0, rules=self.rules)


def derive_seed(seed: int, game: int, purpose: str) -> int:
    """A 63-bit seed for one use (``deal``, ``bot3``, ...) in one game, from the tournament seed."""
    return seeds.derive_seed("tournament", seed, game, purpose)
