"""One game's line of a record file: written as JSON, and read back checked against the tournament.

Everything read back is checked before the game counts: against the
configuration (the game's recipe and seats follow from the seed and its
number) and for consistency (ranks agree with scores, win shares with ranks);
a game with its deal and actions is also replayed. A damaged or edited line is
refused with a :class:`ValueError` that says what is wrong with it.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Collection, Mapping, Sequence
from itertools import chain
from typing import Any

from ..engine.cards import SLUGS
from ..engine.outcome import tie_averaged_ranks
from ..engine.recipes import parse_recipe
from .config import TournamentConfig, derive_seed
from .games import GameRecord, replay
from .seating import seating

#: Version of the record layout; a file of another version is refused, not guessed at.
#: Version 2: games played by the engine that always asks the silent choices
#: (action-sequence version 2), so the same seed plays some games differently.
#: Version 3: each game also keeps its deal and every action, so that any figure can be
#: recomputed by replaying it (``oriflamme analyze --from``).
RECORD_SCHEMA = "oriflamme.tournament-games/3"
#: Bounds no real game reaches: a larger number is damage, refused before it can overflow anything.
MAX_GAME_INDEX = 2**62
MAX_SCORE = 10**6
MAX_DECISION_SECONDS = 10**7

_OUTCOME_KEYS = frozenset({"game", "recipe", "seats", "scores", "shares", "ranks", "decision_seconds"})
_RECORD_KEYS = _OUTCOME_KEYS | {"aside", "actions"}
#: Bound of an action code (the engine's codes are far below it).
MAX_ACTION = 2**31
#: Bound of a game's length in actions: the longest real games have a few hundred.
MAX_ACTIONS = 100_000


def record_to_json(record: GameRecord) -> dict[str, Any]:
    """One game as a JSON object; floats keep every bit (``json`` writes their shortest exact form).

    A game recorded before version 3 has no deal and actions to write.
    """
    data: dict[str, Any] = {
        "game": record.index,
        "recipe": list(record.recipe),
        "seats": list(record.seats),
        "scores": list(record.scores),
        "shares": list(record.shares),
        "ranks": list(record.ranks),
        "decision_seconds": [list(times) for times in record.decision_seconds],
    }
    if record.has_actions:
        data["aside"] = [list(cards) for cards in record.aside]
        data["actions"] = list(record.actions)
    return data


def _recipe_of_game(config: TournamentConfig, index: int) -> tuple[str, ...]:
    """The recipe's slugs as game ``index`` deals it (:meth:`Game.new` reads the deck the same way)."""
    return tuple(SLUGS[k] for k in parse_recipe(config.deck, derive_seed(config.seed, index, "deal")))


def is_bounded_number(value: object, bound: float, *, whole: bool = False) -> bool:
    """A JSON number from 0 to ``bound`` (not a bool, not NaN); ``whole`` asks for an integer.

    Bounded before anything else is done with it: ``math.isfinite(10**400)``
    would raise OverflowError.
    """
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return 0 <= value <= bound
    return not whole and isinstance(value, float) and math.isfinite(value) and 0 <= value <= bound


def _numbers(data: Mapping[str, Any], key: str, n: int, bound: float, *, whole: bool = False) -> list[Any]:
    """``data[key]`` checked to be ``n`` numbers from 0 to ``bound``, one per entrant."""
    values = data[key]
    kind = "whole numbers" if whole else "numbers"
    if not isinstance(values, list) or len(values) != n:
        raise ValueError(f"{key!r} must be a list of {n} {kind}, one per entrant")
    for v in values:
        if not is_bounded_number(v, bound, whole=whole):
            raise ValueError(f"{key!r} must hold {kind} from 0 to {bound:g}, got {v!r}")
    return values


def win_shares(ranks: Sequence[float]) -> list[float]:
    """1/k for each of the k entrants ranked best, 0 for the others."""
    best = min(ranks)
    winners = sum(1 for r in ranks if r == best)
    return [1 / winners if r == best else 0.0 for r in ranks]


def record_from_json(
    data: object,
    config: TournamentConfig,
    schema: str = RECORD_SCHEMA,
    *,
    check_replay: bool = True,
    without_actions: Collection[int] = (),
) -> GameRecord:
    """A game read back from a record file, checked against ``config``; :class:`ValueError` says what is wrong.

    A game with its deal and actions is also replayed (:func:`replay`): the
    deal must be the seed's and the actions must be legal and end with its
    scores. ``check_replay=False`` leaves that to a caller that replays the
    game anyway (``oriflamme analyze`` does, with the same checks). Version 2
    kept outcomes only; version 3 keeps deal and actions, but still holds the
    outcome-only games of a version-2 file it was upgraded from: those listed
    in ``without_actions`` (the file's header lists them), and no other.
    """
    if not isinstance(data, dict):
        raise ValueError("a game line must be a JSON object")
    keys = _RECORD_KEYS if schema == RECORD_SCHEMA and not set(data) <= _OUTCOME_KEYS else _OUTCOME_KEYS
    if set(data) != keys:
        missing = sorted(keys - set(data))
        unknown = sorted(set(data) - keys)
        raise ValueError(
            f"a game line needs exactly the keys {sorted(keys)} (missing {missing}, unknown {unknown})"
        )
    n = config.players
    index = data["game"]
    if not is_bounded_number(index, MAX_GAME_INDEX, whole=True):
        raise ValueError(f"'game' must be a game number (0 or more), got {index!r}")
    recipe = data["recipe"]
    if not isinstance(recipe, list) or tuple(recipe) != _recipe_of_game(config, index):
        raise ValueError(f"'recipe' is not the recipe this tournament deals in game {index}: {recipe!r}")
    seats = _numbers(data, "seats", n, n - 1, whole=True)
    at_seat = seating(n, index, config.seating)
    if seats != [at_seat.index(e) for e in range(n)]:
        raise ValueError(f"'seats' {seats} are not the {config.seating} seating's seats for game {index}")
    scores = _numbers(data, "scores", n, MAX_SCORE, whole=True)
    ranks = _numbers(data, "ranks", n, n)
    if ranks != tie_averaged_ranks([-r for r in ranks]):
        raise ValueError(f"'ranks' {ranks} are not places 1 to {n} with ties averaged")
    if any(ranks[a] < ranks[b] and scores[a] < scores[b] for a in range(n) for b in range(n)):
        raise ValueError(f"'ranks' {ranks} put a lower score ahead of a higher one ({scores})")
    shares = _numbers(data, "shares", n, 1)
    if not all(math.isclose(s, w) for s, w in zip(shares, win_shares(ranks), strict=True)):
        raise ValueError(f"'shares' {shares} are not 1/k for the k entrants ranked first ({ranks})")
    times = data["decision_seconds"]
    if not isinstance(times, list) or len(times) != n:
        raise ValueError(f"'decision_seconds' must be a list of {n} lists, one per entrant")
    for entrant_times in times:
        if not isinstance(entrant_times, list) or not all(
            is_bounded_number(t, MAX_DECISION_SECONDS) for t in entrant_times
        ):
            raise ValueError(
                f"'decision_seconds' must hold lists of times from 0 to {MAX_DECISION_SECONDS:g} s"
            )
    record = GameRecord(
        index=index,
        recipe=tuple(recipe),
        seats=tuple(seats),
        scores=tuple(scores),
        shares=tuple(float(s) for s in shares),
        ranks=tuple(float(r) for r in ranks),
        decision_seconds=tuple(tuple(float(t) for t in ts) for ts in times),
    )
    if keys is _OUTCOME_KEYS:
        if schema == RECORD_SCHEMA and index not in without_actions:
            raise ValueError(
                f"game {index} has no deal and actions; only games recorded before version 3 may lack them"
            )
        return record
    aside = data["aside"]
    if not isinstance(aside, list) or len(aside) != n or not all(isinstance(a, list) for a in aside):
        raise ValueError(f"'aside' must be a list of {n} lists of card ids, one per seat")
    actions = data["actions"]
    if not isinstance(actions, list) or len(actions) > MAX_ACTIONS:
        raise ValueError(f"'actions' must be a list of at most {MAX_ACTIONS:,} action codes")
    for value in chain(chain.from_iterable(aside), actions):
        if not is_bounded_number(value, MAX_ACTION, whole=True):
            raise ValueError(
                f"card ids and action codes must be whole numbers from 0 to {MAX_ACTION}, got {value!r}"
            )
    record = dataclasses.replace(record, aside=tuple(tuple(a) for a in aside), actions=tuple(actions))
    if check_replay:
        replay(config, record)
    return record
