"""The per-game record file of ``oriflamme tournament --record``: long runs that survive interruption.

A strength measurement of the search bots takes hours. Written one game at
a time, a record file keeps every finished game however the run ends (Ctrl-C,
a closed terminal, a killed machine), and a rerun with the same file plays
only the games it lacks. Because game ``g`` is a pure function of the
tournament configuration and ``g`` (see :mod:`oriflamme.tournament`), the
standings of a run resumed any number of times are exactly those of one
uninterrupted run; only the wall time differs. The same property lets a run
be split: raise ``--games`` and the file's games count towards the larger run.

The file is JSON Lines: a header naming the tournament, then one line per
finished game, in completion order::

    {"schema": "oriflamme.tournament-games/1", "players": 4, "bots": [...], "deck": "base", ...}
    {"game": 0, "recipe": [...], "seats": [0, 1, 2, 3], "scores": [...], ...}

Everything read back is checked against the configuration (seat of each
entrant in that game, sizes, ranges) before any game is played, and a file
that does not pass is refused with its line number and left as it is. The
one repair made is to a last line cut short by a crash mid-write: it holds
no finished game and is dropped. One process writes a file at a time.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Mapping
from pathlib import Path
from types import TracebackType
from typing import IO, Any

from .cards import SLUGS
from .errors import SetupError
from .tournament import GameRecord, TournamentConfig, seating

#: Version of the record layout; a file of another version is refused, not guessed at.
RECORD_SCHEMA = "oriflamme.tournament-games/1"

_KNOWN_SLUGS = frozenset(SLUGS)
_RECORD_KEYS = frozenset({"game", "recipe", "seats", "scores", "shares", "ranks", "decision_seconds"})


def header_of(config: TournamentConfig) -> dict[str, Any]:
    """What identifies a tournament's games: everything in the configuration but their number."""
    return {
        "schema": RECORD_SCHEMA,
        "players": config.players,
        "bots": list(config.specs),
        "deck": config.deck,
        "seed": config.seed,
        "rules": config.rules.to_dict(),
        "seating": config.seating,
    }


def record_to_json(record: GameRecord) -> dict[str, Any]:
    """One game as a JSON object; floats keep every bit (``json`` writes their shortest exact form)."""
    return {
        "game": record.index,
        "recipe": list(record.recipe),
        "seats": list(record.seats),
        "scores": list(record.scores),
        "shares": list(record.shares),
        "ranks": list(record.ranks),
        "decision_seconds": [list(times) for times in record.decision_seconds],
    }


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _numbers(data: Mapping[str, Any], key: str, n: int, *, integers: bool = False) -> list[Any]:
    values = data[key]
    if not isinstance(values, list) or len(values) != n:
        raise ValueError(f"{key!r} must be a list of {n} numbers, one per entrant")
    for v in values:
        if not _is_number(v) or (integers and not isinstance(v, int)):
            raise ValueError(f"{key!r} must hold {'whole ' if integers else ''}numbers, got {v!r}")
    return values


def record_from_json(data: object, config: TournamentConfig) -> GameRecord:
    """A game read back from a record file, checked against ``config``; :class:`ValueError` says what is wrong."""
    if not isinstance(data, dict):
        raise ValueError("a game line must be a JSON object")
    if set(data) != _RECORD_KEYS:
        missing = sorted(_RECORD_KEYS - set(data))
        unknown = sorted(set(data) - _RECORD_KEYS)
        raise ValueError(f"a game line needs exactly the keys {sorted(_RECORD_KEYS)} (missing {missing}, unknown {unknown})")
    n = config.players
    index = data["game"]
    if not isinstance(index, int) or isinstance(index, bool) or index < 0:
        raise ValueError(f"'game' must be a game number (0 or more), got {index!r}")
    recipe = data["recipe"]
    if not isinstance(recipe, list) or not recipe or any(k not in _KNOWN_SLUGS for k in recipe):
        raise ValueError(f"'recipe' must be a list of card slugs, got {recipe!r}")
    seats = _numbers(data, "seats", n, integers=True)
    at_seat = seating(n, index, config.seating)
    if seats != [at_seat.index(e) for e in range(n)]:
        raise ValueError(f"'seats' {seats} are not the {config.seating} seating's seats for game {index}")
    scores = _numbers(data, "scores", n, integers=True)
    shares = _numbers(data, "shares", n)
    if any(not 0 <= s <= 1 for s in shares) or not math.isclose(sum(shares), 1.0):
        raise ValueError(f"'shares' must be win shares between 0 and 1 summing to 1, got {shares}")
    ranks = _numbers(data, "ranks", n)
    if any(not 1 <= r <= n for r in ranks):
        raise ValueError(f"'ranks' must lie between 1 and {n}, got {ranks}")
    times = data["decision_seconds"]
    if not isinstance(times, list) or len(times) != n:
        raise ValueError(f"'decision_seconds' must be a list of {n} lists, one per entrant")
    for entrant_times in times:
        if not isinstance(entrant_times, list) or any(not _is_number(t) or t < 0 for t in entrant_times):
            raise ValueError("'decision_seconds' must hold lists of times in seconds (0 or more)")
    return GameRecord(
        index=index,
        recipe=tuple(recipe),
        seats=tuple(seats),
        scores=tuple(scores),
        shares=tuple(float(s) for s in shares),
        ranks=tuple(float(r) for r in ranks),
        decision_seconds=tuple(tuple(float(t) for t in ts) for ts in times),
    )


def read_record_file(path: Path, config: TournamentConfig) -> tuple[dict[int, GameRecord], int]:
    """The games a record file holds, by index, and the byte length of its sound part.

    Raises :class:`SetupError` (naming the file and line) for a file of
    another tournament or with a malformed line. A last line with no newline
    that does not parse is a write cut short: it is left out of the length,
    and so overwritten by the next game. A file with no header at all counts
    as empty (length 0).
    """
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise SetupError(f"cannot read the record file {path}: {exc.strerror}") from None
    sound = len(raw)
    if raw and not raw.endswith(b"\n"):
        tail = raw[raw.rfind(b"\n") + 1 :]
        try:
            json.loads(tail)
        except ValueError:
            sound -= len(tail)
    lines = raw[:sound].split(b"\n")
    if not any(line.strip() for line in lines):
        return {}, 0
    if not lines[0].strip():
        raise SetupError(f"{path}: line 1 must be the tournament header, found a blank line")
    games: dict[int, GameRecord] = {}
    expected = header_of(config)
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except ValueError as exc:
            raise SetupError(f"{path}: line {number} is not JSON ({exc})") from None
        if number == 1:
            _check_header(path, data, expected)
            continue
        try:
            record = record_from_json(data, config)
        except ValueError as exc:
            raise SetupError(f"{path}: line {number}: {exc}") from None
        if record.index in games:
            raise SetupError(f"{path}: line {number}: game {record.index} is recorded twice")
        games[record.index] = record
    return games, sound


def _check_header(path: Path, data: object, expected: dict[str, Any]) -> None:
    if not isinstance(data, dict) or data.get("schema") != RECORD_SCHEMA:
        found = data.get("schema") if isinstance(data, dict) else None
        raise SetupError(
            f"{path} is not a tournament record file of this version "
            f"(line 1 should have schema {RECORD_SCHEMA!r}, found {found!r})"
        )
    differences = [
        f"{key} {data.get(key)!r} (this run: {value!r})"
        for key, value in expected.items()
        if data.get(key) != value
    ]
    if differences:
        raise SetupError(
            f"{path} records another tournament: {'; '.join(differences)}. "
            "Use the same bots, deck, seed, seating and rule options, or another file."
        )


class RecordFile:
    """An open record file: the games it already holds, and :meth:`append` for each new one.

    Use as a context manager; nothing is written until the file has been
    read and checked, so a refused file is left exactly as it was.
    """

    def __init__(self, path: str | os.PathLike[str], config: TournamentConfig) -> None:
        self.path = Path(path)
        self.config = config
        self.dropped_partial_line = False
        if self.path.exists():
            if not self.path.is_file():
                raise SetupError(f"{self.path} is not a file")
            games, sound = read_record_file(self.path, config)
            self.dropped_partial_line = 0 < sound < self.path.stat().st_size
        else:
            games, sound = {}, 0
        #: Every game in the file, including any beyond this run's ``games``.
        self.games: dict[int, GameRecord] = games
        self._sound = sound
        self._stream: IO[bytes] | None = None

    @property
    def previous(self) -> list[GameRecord]:
        """The recorded games this run counts: those with an index below ``config.games``."""
        return [r for g, r in sorted(self.games.items()) if g < self.config.games]

    def __enter__(self) -> RecordFile:
        try:
            stream = open(self.path, "r+b" if self.path.exists() else "wb")
        except OSError as exc:
            raise SetupError(f"cannot write the record file {self.path}: {exc.strerror}") from None
        needs_newline = False
        if self._sound:
            stream.seek(self._sound - 1)
            needs_newline = stream.read(1) != b"\n"
        stream.seek(self._sound)
        stream.truncate()
        if self._sound == 0:
            self._write(stream, header_of(self.config))
        elif needs_newline:
            stream.write(b"\n")
        self._stream = stream
        return self

    @staticmethod
    def _write(stream: IO[bytes], data: Mapping[str, Any]) -> None:
        stream.write(json.dumps(data, separators=(",", ":")).encode() + b"\n")
        stream.flush()

    def append(self, record: GameRecord) -> None:
        """Write one finished game, flushed at once so that a crash loses at most the game being played."""
        if self._stream is None:
            raise RuntimeError("RecordFile.append outside its 'with' block")
        self._write(self._stream, record_to_json(record))
        self.games[record.index] = record

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        if self._stream is not None:
            self._stream.close()
            self._stream = None
