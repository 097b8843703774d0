"""The per-game data of a study as tables, for people who analyse in their own tools.

Three long-format tables, written as CSV (and as Parquet when pyarrow is
installed, with the ``analysis`` extra):

* ``games``: one row per game (study, recipe, length, lead changes, winners);
* ``seats``: one row per game and seat (bot, score, rank, win share, dealt kinds);
* ``cards``: one row per game and kind in its recipe (IP, eliminations, seats dealt it).

Rows are written as games come (in game order, see :class:`~.run.InOrder`),
so a study of any size is never held in memory.
"""

from __future__ import annotations

import csv
import importlib
from pathlib import Path
from types import TracebackType
from typing import IO, Any

from .facts import GameFacts

GAME_COLUMNS = (
    "players",
    "deck",
    "game",
    "recipe",
    "replayed",
    "rounds",
    "decisions",
    "lead_changes",
    "late_leader_lost",
    "winners",
)
SEAT_COLUMNS = ("players", "deck", "game", "seat", "bot", "score", "rank", "win_share", "dealt")
CARD_COLUMNS = (
    "players",
    "deck",
    "game",
    "kind",
    "seats_dealt",
    "ip_gained",
    "ip_lost",
    "ip_taken_on_reveal",
    "eliminations_made",
    "eliminations_suffered",
)
TABLES = {"games": GAME_COLUMNS, "seats": SEAT_COLUMNS, "cards": CARD_COLUMNS}
#: Parquet types (pyarrow's names) of the columns; anything not named is a 32-bit integer.
PARQUET_TYPES = {
    "deck": "string",
    "game": "int64",
    "recipe": "string",
    "replayed": "bool_",
    "late_leader_lost": "bool_",
    "winners": "string",
    "bot": "string",
    "rank": "float64",
    "win_share": "float64",
    "dealt": "string",
    "kind": "string",
}
#: Rows per Parquet row group: big enough to compress well, small enough to stream.
ROW_GROUP = 50_000


def rows_of(f: GameFacts) -> dict[str, list[tuple[Any, ...]]]:
    """A game's rows in each table (seats are 1-based, as players call them: p1 starts round 1)."""
    lost = f.late_leader_lost
    games = [
        (
            f.players,
            f.deck,
            f.index,
            ",".join(f.recipe),
            f.replayed,
            f.rounds if f.replayed else None,
            f.decisions if f.replayed else None,
            f.lead_changes if f.replayed else None,
            None if lost is None else lost,
            ",".join(f"p{s + 1}" for s, share in enumerate(f.shares) if share),
        )
    ]
    seats = [
        (
            f.players,
            f.deck,
            f.index,
            s + 1,
            f.specs[s],
            f.scores[s],
            f.ranks[s],
            f.shares[s],
            ",".join(k for k, held in f.held.items() if held[s]) if f.replayed else None,
        )
        for s in range(f.players)
    ]
    cards = [
        (
            f.players,
            f.deck,
            f.index,
            kind,
            sum(1 for copies in held if copies),
            f.gained.get(kind, 0),
            f.lost.get(kind, 0),
            f.revealed_ip.get(kind, 0),
            f.eliminations_made.get(kind, 0),
            f.eliminations_suffered.get(kind, 0),
        )
        for kind, held in f.held.items()
    ]
    return {"games": games, "seats": seats, "cards": cards}


class TableWriter:
    """Writes the three tables to ``directory`` as CSV, and as Parquet if pyarrow is there."""

    def __init__(self, directory: Path, parquet: bool = True) -> None:
        self.directory = directory
        self._csv: dict[str, tuple[IO[str], Any]] = {}
        self._pending: dict[str, list[tuple[Any, ...]]] = {name: [] for name in TABLES}
        self._parquet: dict[str, Any] = {}
        self._pa: Any = None
        self._pq: Any = None
        if parquet:
            try:
                self._pa = importlib.import_module("pyarrow")
                self._pq = importlib.import_module("pyarrow.parquet")
            except ImportError:
                self._pa = None
        #: The files written, by table and format.
        self.files: list[Path] = []

    @property
    def writes_parquet(self) -> bool:
        return self._pa is not None

    def __enter__(self) -> TableWriter:
        self.directory.mkdir(parents=True, exist_ok=True)
        for name, columns in TABLES.items():
            path = self.directory / f"{name}.csv"
            stream = path.open("w", newline="", encoding="utf-8")
            writer = csv.writer(stream)
            writer.writerow(columns)
            self._csv[name] = (stream, writer)
            self.files.append(path)
        return self

    def add(self, facts: GameFacts) -> None:
        for name, rows in rows_of(facts).items():
            self._csv[name][1].writerows(rows)
            if self._pa is not None:
                pending = self._pending[name]
                pending.extend(rows)
                if len(pending) >= ROW_GROUP:
                    self._write_parquet(name)

    def _write_parquet(self, name: str) -> None:
        rows = self._pending[name]
        if not rows and name in self._parquet:
            return
        pa = self._pa
        columns = TABLES[name]
        schema = pa.schema([(c, getattr(pa, PARQUET_TYPES.get(c, "int32"))()) for c in columns])
        table = pa.table({c: [row[i] for row in rows] for i, c in enumerate(columns)}, schema=schema)
        writer = self._parquet.get(name)
        if writer is None:
            path = self.directory / f"{name}.parquet"
            writer = self._parquet[name] = self._pq.ParquetWriter(str(path), schema)
            self.files.append(path)
        if rows:
            writer.write_table(table)
        rows.clear()

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        try:
            if self._pa is not None:
                for name in TABLES:
                    self._write_parquet(name)
        finally:
            for writer in self._parquet.values():
                writer.close()
            for stream, _ in self._csv.values():
                stream.close()
