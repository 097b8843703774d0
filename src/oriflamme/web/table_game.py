"""A table's game from what the store holds: the deal of its record, and its rows replayed.

Rows are only ever appended: an action, or a take-back (``takeback N``) that
withdraws the actions from number N on. The game in play is the deal with the
rows' effective actions applied.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..engine.cards import KIND_BY_SLUG
from ..engine.events import Event
from ..engine.game import Game
from ..engine.options import RuleOptions
from ..engine.recipes import validate_recipe
from ..engine.setup import Setup
from ..notation.replay import ACTIONS_VERSION, replay
from .store import TableRecord

if TYPE_CHECKING:
    pass


def table_setup(record: TableRecord) -> Setup:
    """The deal of a stored table."""
    recipe = validate_recipe([KIND_BY_SLUG[s] for s in record.recipe])
    return Setup(
        record.players, recipe, RuleOptions.from_dict(record.rules), record.seed, record.first_player
    )


def deal(record: TableRecord) -> Game:
    """The table's game before any action, exactly as first dealt."""
    return table_setup(record).deal()


def replay_with_events(
    record: TableRecord, actions: list[str], version: int = ACTIONS_VERSION
) -> tuple[Game, list[list[Event]], list[str]]:
    """Deal and play the stored actions (written in action-sequence ``version``).

    Also returns each step's events (index 0: the deal's) and the actions as
    the current version writes them (longer than ``actions`` when an older
    sequence gains the answers to newly asked questions).
    """
    events: list[list[Event]] = []
    texts: list[str] = []

    def step(_: Game, happened: list[Event], text: str | None, __: int) -> None:
        events.append(happened)
        if text is not None:
            texts.append(text)

    g = replay(table_setup(record), effective_actions(actions), step, version=version)
    return g, events, texts


#: A stored row that withdraws the actions from a number on: ``takeback 12`` keeps the first 12.
TAKEBACK = "takeback"


def effective_actions(rows: list[str]) -> list[str]:
    """The actions a table's stored rows leave in play, take-backs applied (rows are only appended)."""
    kept: list[str] = []
    for row in rows:
        if row.startswith(TAKEBACK + " "):
            del kept[int(row.split()[1]) :]
        else:
            kept.append(row)
    return kept


def seats_that_decided(record: TableRecord, actions: list[str]) -> set[int]:
    """The seats that took at least one of the actions in play (``actions``, as a table holds them)."""
    decided: set[int] = set()
    to_move: list[int | None] = [None]

    def step(g: Game, _: list[Event], text: str | None, __: int) -> None:
        if text is not None and to_move[0] is not None:
            decided.add(to_move[0])
        to_move[0] = None if g.is_over() else g.current_player()

    replay(table_setup(record), actions, step)
    return decided


def _ends_game(g: Game, action: int) -> bool:
    """Whether ``action`` ends the game (tried on a copy: only in the last round can it)."""
    if g.round < g.rules.rounds:
        return False
    trial = g.clone()
    trial.apply(action)
    return trial.is_over()


def rematch_id(table_id: str) -> str:
    """The id of a table's rematch: ``abc`` → ``abc~2`` → ``abc~3`` (the games of one series)."""
    base, _, number = table_id.rpartition("~")
    if base and number.isdigit():
        return f"{base}~{int(number) + 1}"
    return f"{table_id}~2"


def rematch_message(record: TableRecord, seat: int | None) -> dict[str, Any]:
    """Where a seat (None: a spectator) goes for the rematch: its own link at the new table."""
    token = record.spectator_token if seat is None else record.seats[seat].token
    return {
        "type": "rematch",
        "state": None,
        "table": record.id,
        "token": token,
        "role": "spectator" if seat is None else "player",
    }
