"""The per-game record file of ``oriflamme tournament --record``: long runs that survive interruption.

A strength measurement of the search bots takes hours. Written one game at
a time, a record file keeps every finished game however the run ends (Ctrl-C,
a closed terminal, a crash), and a rerun with the same file plays only the
games it lacks. Because game ``g`` is a pure function of the tournament
configuration and ``g`` (see :mod:`oriflamme.tournament`), the standings of a
run resumed any number of times are exactly those of one uninterrupted run;
only the wall time differs. The same property lets a run be extended: raise
``--games`` and the file's games count towards the larger run.

The file is JSON Lines: a header naming the tournament, then one line per
finished game, in completion order::

    {"schema":"oriflamme.tournament-games/3","players":4,"bots":[...],"deck":"base",...}
    {"game":0,"recipe":[...],"seats":[0,1,2,3],"scores":[...],...,"aside":[[...],...],"actions":[...]}

Each game keeps its deal (the set-aside card ids of each seat) and every
action, so it can be replayed: reading a game back replays it, and any
figure of ``oriflamme analyze`` can be recomputed from the file. Games
recorded by version 2, which kept outcomes only, still count; such a file is
upgraded to version 3 when a run opens it (its old games keep their
outcomes only).

Everything read back is checked before any game is played: against the
configuration (the game's recipe and seats follow from the seed and its
number) and for consistency (ranks agree with scores, win shares with
ranks), so that a damaged or edited line cannot produce standings no real
run could. A file that does not pass is refused with its line number and
left as it is. The one repair made is to a last line cut short by a crash
mid-write (it begins like a line this module writes but does not parse): it
holds no finished game and is dropped. A lock keeps a second run from
writing the same file at the same time.
"""

from __future__ import annotations

import contextlib
import dataclasses
import gzip
import json
import os
import stat
import sys
import zlib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from time import monotonic
from types import TracebackType
from typing import IO, Any, cast

from ..engine.errors import OriflammeError, SetupError
from ..engine.options import RuleOptions
from .config import TournamentConfig, parse_entrants
from .games import GameRecord

# The line format lives in record_lines; these names are also read from here.
from .record_lines import MAX_GAME_INDEX, is_bounded_number
from .record_lines import RECORD_SCHEMA as RECORD_SCHEMA
from .record_lines import record_from_json as record_from_json
from .record_lines import record_to_json as record_to_json

if sys.platform != "win32":  # elsewhere the one-writer rule is left to the user
    import fcntl

#: Earlier versions whose games the engine plays the same way: they load, resume and extend; a run
#: rewrites such a file in the current version, its old games without deal and actions.
READABLE_SCHEMAS = {
    "oriflamme.tournament-games/2": "recorded before version 3, they keep their outcomes, not their deals and actions",
}
#: What games without deal and actions lack, in messages.
WITHOUT_ACTIONS = "keep their outcomes only (recorded before version 3, without deals and actions)"
#: Earlier versions, and why their games cannot count towards a run of this one.
OLDER_SCHEMAS = {
    "oriflamme.tournament-games/1": (
        "its games were played by oriflamme 0.1, which answered some one-option questions by itself; "
        "the same seeds play differently now, so its games cannot be resumed or extended"
    ),
}

#: Header fields added after the first files were written, with the value those files implied.
HEADER_DEFAULTS: dict[str, Any] = {"seating": "rotate"}

#: How a game line begins: a last line that begins so but does not parse was cut short.
GAME_LINE_START = b'{"game":'

#: Seconds between forced writes to disk (``fsync``): often enough to survive a power cut with
#: little lost, rarely enough not to slow down tournaments of fast bots.
SYNC_INTERVAL = 5.0


def header_of(config: TournamentConfig, schema: str = RECORD_SCHEMA) -> dict[str, Any]:
    """What identifies a tournament's games: everything in the configuration but their number."""
    return {
        "schema": schema,
        "players": config.players,
        "bots": list(config.specs),
        "deck": config.deck,
        "seed": config.seed,
        "rules": config.rules.to_dict(),
        "seating": config.seating,
    }


def _line(data: Mapping[str, Any]) -> bytes:
    return json.dumps(data, separators=(",", ":")).encode() + b"\n"


def _parse(line: bytes) -> object:
    """One JSON line; :class:`ValueError` for anything that is not (nesting too deep included)."""
    try:
        return json.loads(line)
    except RecursionError:
        raise ValueError("nested too deeply") from None


def sound_length(raw: bytes, config: TournamentConfig) -> int:
    """How much of a file's content to keep: all of it, or all but a last line cut short mid-write.

    A last line without its newline that does not parse is a cut-short write
    only if it begins the way this module's lines begin (the header, for a
    file of one line; ``{"game":`` after it). Anything else is not ours to
    drop, and is left for :func:`parse_record_file` to refuse.
    """
    if not raw or raw.endswith(b"\n"):
        return len(raw)
    start = raw.rfind(b"\n") + 1
    tail = raw[start:]
    try:
        _parse(tail)
        return len(raw)
    except ValueError:
        pass
    headers = [_line(header_of(config, schema)) for schema in (RECORD_SCHEMA, *READABLE_SCHEMAS)]
    cut_short = any(h.startswith(tail) for h in headers) if start == 0 else tail.startswith(GAME_LINE_START)
    return start if cut_short else len(raw)


def parse_record_file(raw: bytes, config: TournamentConfig, name: str) -> dict[int, GameRecord]:
    """The games in a record file's content, by index; :class:`SetupError` naming the line otherwise."""
    return read_record_games(raw, config, name)[1]


def read_record_games(
    raw: bytes, config: TournamentConfig, name: str, *, check_replay: bool = True
) -> tuple[str, dict[int, GameRecord]]:
    """The schema of a record file's content and its games, by index; :class:`SetupError` naming the line otherwise.

    An empty content is a new file, of the current schema.
    """
    lines = raw.split(b"\n")
    if not any(line.strip() for line in lines):
        return RECORD_SCHEMA, {}
    if not lines[0].strip():
        raise SetupError(f"{name}: line 1 must be the tournament header, found a blank line")
    try:
        header = _parse(lines[0])
    except ValueError as exc:
        raise SetupError(f"{name}: line 1 is not JSON ({exc})") from None
    schema = _schema_of(name, header)
    _check_header(name, header, header_of(config, schema))
    games = {
        r.index: r
        for r in _games(
            lines[1:], config, schema, _without_actions(name, header), name, check_replay=check_replay
        )
    }
    return schema, games


def _games(
    lines: Iterable[bytes],
    config: TournamentConfig,
    schema: str,
    without_actions: frozenset[int],
    name: str,
    *,
    check_replay: bool,
) -> Iterator[GameRecord]:
    """The games of a record file's lines after the header, checked one by one, in file order."""
    seen: set[int] = set()
    for number, line in enumerate(lines, start=2):
        if not line.strip():
            continue
        try:
            data = _parse(line)
        except ValueError as exc:
            raise SetupError(f"{name}: line {number} is not JSON ({exc})") from None
        try:
            record = record_from_json(
                data, config, schema, check_replay=check_replay, without_actions=without_actions
            )
        except (ValueError, OriflammeError) as exc:
            raise SetupError(f"{name}: line {number}: {exc}") from None
        if record.index in seen:
            raise SetupError(f"{name}: line {number}: game {record.index} is recorded twice")
        seen.add(record.index)
        yield record


def _without_actions(name: str, header: object) -> frozenset[int]:
    """The games an upgraded file's header lists as recorded before version 3 (outcomes only)."""
    listed = header.get("without_actions", []) if isinstance(header, dict) else []
    if not isinstance(listed, list) or not all(
        is_bounded_number(g, MAX_GAME_INDEX, whole=True) for g in listed
    ):
        raise SetupError(f"{name}: line 1: 'without_actions' must be a list of game numbers")
    return frozenset(listed)


def _schema_of(name: str, data: object) -> str:
    """The schema a header names, if this version reads it; :class:`SetupError` otherwise."""
    found = data.get("schema") if isinstance(data, dict) else None
    if isinstance(found, str) and found in OLDER_SCHEMAS:
        raise SetupError(
            f"{name} is a record of an earlier version: {OLDER_SCHEMAS[found]}. Use another file."
        )
    if not isinstance(found, str) or (found != RECORD_SCHEMA and found not in READABLE_SCHEMAS):
        raise SetupError(
            f"{name} is not a tournament record file of this version "
            f"(line 1 should have schema {RECORD_SCHEMA!r}, found {found!r})"
        )
    return found


def _check_header(name: str, data: object, expected: dict[str, Any]) -> None:
    """Refuse the header of another tournament, saying which fields differ."""
    assert isinstance(data, dict)
    differences = [
        f"{key} {data.get(key, HEADER_DEFAULTS.get(key))!r} (this run: {value!r})"
        for key, value in expected.items()
        if data.get(key, HEADER_DEFAULTS.get(key)) != value
    ]
    if differences:
        raise SetupError(
            f"{name} records another tournament: {'; '.join(differences)}. "
            "Use the same bots, deck, seed, seating and rule options, or another file."
        )


@dataclass(frozen=True, slots=True)
class RecordReader:
    """A record file opened on its own (``oriflamme analyze --from``): its tournament, read game by game.

    Only the header is read on opening; :meth:`games` reads and checks the
    games one line at a time, so a file of a million games is never in
    memory whole.
    """

    path: Path
    #: The tournament the header describes (its ``games`` is not known before reading: 1).
    config: TournamentConfig
    schema: str
    #: Games the file keeps outcomes of only (recorded before version 3).
    outcome_only: frozenset[int]

    def games(self, *, check_replay: bool = True) -> Iterator[GameRecord]:
        """Every game of the file in file order, each checked as a resumed run would check it.

        A last line cut short by a crash mid-write is left out, as a run would
        drop it. Raises :class:`SetupError` naming the file and line of
        anything wrong.
        """
        try:
            stream = _open_for_reading(self.path)
        except _UNREADABLE as exc:
            raise _unreadable(self.path, exc) from None
        with stream:
            stream.readline()  # the header, read when opening
            try:
                yield from _games(
                    _sound_lines(stream),
                    self.config,
                    self.schema,
                    self.outcome_only,
                    str(self.path),
                    check_replay=check_replay,
                )
            except _UNREADABLE as exc:  # a gzipped record cut short or damaged
                raise _unreadable(self.path, exc) from None


def _sound_lines(stream: IO[bytes]) -> Iterator[bytes]:
    """A file's lines, without a last line that was cut short mid-write (no newline, does not parse)."""
    for line in stream:
        if line.endswith(b"\n"):
            yield line
            continue
        try:
            _parse(line)
        except ValueError:
            if line.startswith(GAME_LINE_START):
                return
        yield line


@dataclass(frozen=True, slots=True)
class Recorded:
    """A record file read whole: its tournament, version and games in game order."""

    path: Path
    #: The tournament the header describes; ``games`` is one more than the largest game number.
    config: TournamentConfig
    schema: str
    games: tuple[GameRecord, ...]

    @property
    def without_actions(self) -> int:
        """Games that cannot be replayed (recorded before version 3)."""
        return sum(1 for r in self.games if not r.has_actions)


#: What reading a file may raise: the file system's errors, and a gzipped file's cut short
#: (``EOFError``) or damaged (``zlib.error``) data.
_UNREADABLE = (OSError, EOFError, zlib.error)


def _unreadable(path: Path, exc: BaseException) -> SetupError:
    if isinstance(exc, OSError) and exc.strerror:
        why = exc.strerror  # the file system's reason
    elif path.suffix == ".gz":
        why = f"not a whole gzip file ({exc})"
    else:
        why = str(exc)
    return SetupError(f"cannot read the record file {path}: {why}")


#: Bytes unpacked at a time when a gzipped record is checked whole before any of it is parsed.
_CHECK_CHUNK = 1 << 20


def _open_for_reading(path: Path) -> IO[bytes]:
    """A record's bytes; a ``.gz`` file (as records are kept in ``docs/measurements``) unpacked as read.

    A gzipped file is checked whole first (:func:`_check_gzip`): what is
    returned unpacks to the content that was packed, or the file was refused.
    """
    if path.suffix != ".gz":
        return path.open("rb")
    _check_gzip(path)
    return cast(IO[bytes], gzip.open(path, "rb"))


def _check_gzip(path: Path) -> None:
    """Unpack a gzipped file through to its end, in chunks, to check its checksum and length.

    gzip keeps the checksum and length of the content at the end of the file,
    and a damaged byte may still unpack, to other content. Parsing as we
    unpack would then read a wrong header or game line before the checksum
    says so, and refuse the file for the wrong reason (or, were the change
    consistent, read games no run played). Checked first, damage raises one of
    :data:`_UNREADABLE` before any line is trusted. Unpacking is fast beside
    checking and replaying the games.
    """
    with gzip.open(path, "rb") as stream:
        while stream.read(_CHECK_CHUNK):
            pass


def open_record(path: str | os.PathLike[str]) -> RecordReader:
    """Open a record file whose tournament is not known beforehand: read and check its header.

    Raises :class:`SetupError` naming the file of anything wrong.
    """
    path = Path(path)
    try:
        with _open_for_reading(path) as stream:
            first = stream.readline()
            empty = not first.strip() and not stream.read(1)
    except _UNREADABLE as exc:
        raise _unreadable(path, exc) from None
    if not first.strip():
        raise SetupError(
            f"{path}: line 1 must be the tournament header, found {'nothing' if empty else 'a blank line'}"
        )
    try:
        data = _parse(first)
    except ValueError as exc:
        raise SetupError(f"{path}: line 1 is not JSON ({exc})") from None
    schema = _schema_of(str(path), data)
    assert isinstance(data, dict)
    try:
        specs = data["bots"]
        if not isinstance(specs, list) or not all(isinstance(b, str) for b in specs):
            raise SetupError("'bots' must be a list of bot specs")
        rules = data["rules"]
        if not isinstance(rules, dict):
            raise SetupError("'rules' must be an object of rule options")
        deck = data["deck"]
        if not isinstance(deck, str):
            raise SetupError(f"'deck' must be a deck's text, got {deck!r}")
        config = TournamentConfig(
            specs=parse_entrants(specs, buildable=False),
            deck=deck,
            seed=_header_int(data, "seed"),
            rules=RuleOptions.from_dict(rules),
            seating=str(data.get("seating", HEADER_DEFAULTS["seating"])),
        )
        if _header_int(data, "players") != config.players:
            raise SetupError(f"'players' is {data['players']!r} but 'bots' names {config.players}")
        config.check(buildable=False)
    except KeyError as exc:
        raise SetupError(f"{path}: line 1 lacks the header field {exc}") from None
    except (OriflammeError, ValueError, TypeError) as exc:
        raise SetupError(f"{path}: line 1: {exc}") from None
    return RecordReader(path, config, schema, _without_actions(str(path), data))


def read_record(path: str | os.PathLike[str], *, check_replay: bool = True) -> Recorded:
    """Read and check a whole record file whose tournament is not known beforehand.

    The tournament comes from the header; each game is checked against it as
    a resumed run would check it (and replayed, when it has its actions).
    Raises :class:`SetupError` naming the file and line of anything wrong.
    For files too large to hold, :func:`open_record` reads game by game.
    """
    reader = open_record(path)
    games = sorted(reader.games(check_replay=check_replay), key=lambda r: r.index)
    config = dataclasses.replace(reader.config, games=games[-1].index + 1 if games else 1)
    return Recorded(reader.path, config, reader.schema, tuple(games))


def _header_int(data: Mapping[str, Any], key: str) -> int:
    value = data[key]
    if isinstance(value, bool) or not isinstance(value, int):
        raise SetupError(f"{key!r} must be a whole number, got {value!r}")
    return value


class RecordFile:
    """A record file open for a run: the games it holds, and :meth:`append` for each new one.

    A context manager. Entering opens (or creates) the file, locks it, reads
    and checks everything in it, and only then writes: a refused file is left
    exactly as it was.
    """

    def __init__(self, path: str | os.PathLike[str], config: TournamentConfig) -> None:
        self.path = Path(path)
        self.config = config
        #: Every game in the file when it was opened, including any beyond this run's ``games``
        #: (games appended since are written, not kept: a long run's memory does not grow).
        self.games: dict[int, GameRecord] = {}
        #: Whether entering dropped a last line cut short by an earlier crash.
        self.dropped_partial_line = False
        #: The version the file was in, when entering upgraded it to the current one.
        self.upgraded_from: str | None = None
        self._stream: IO[bytes] | None = None
        self._synced = monotonic()

    @property
    def without_actions(self) -> int:
        """Games of the file that cannot be replayed (recorded before version 3)."""
        return sum(1 for r in self.games.values() if not r.has_actions)

    @property
    def previous(self) -> list[GameRecord]:
        """The recorded games this run counts: those with an index below ``config.games``."""
        return [r for g, r in sorted(self.games.items()) if g < self.config.games]

    def __enter__(self) -> RecordFile:
        if self._stream is not None:
            raise RuntimeError(f"{self.path} is already open")
        stream = self._open_locked()
        try:
            raw = stream.read()
            sound = sound_length(raw, self.config)
            # Nothing was written before this point; from here on the file is this run's.
            self.dropped_partial_line = sound < len(raw)
            schema, self.games = read_record_games(raw[:sound], self.config, str(self.path))
            if schema != RECORD_SCHEMA:
                stream = self._upgrade(stream, schema)
                raw = stream.read()
                sound = len(raw)
            if not self.games and not raw[:sound].strip():
                sound = 0
            stream.seek(sound)
            stream.truncate()
            if sound == 0:
                stream.write(_line(header_of(self.config)))
            elif not raw[:sound].endswith(b"\n"):
                stream.write(b"\n")
            stream.flush()
        except BaseException:
            stream.close()
            raise
        self._stream = stream
        return self

    def _open_locked(self, *, create: bool = True) -> IO[bytes]:
        """The file open for reading and writing, locked, and still the one its path names.

        Another run may replace the file (upgrading it) between our open and
        our lock; the lock would then be on a file nobody reads. So after
        locking, the open file must be the one at the path, or we open again.
        """
        for _ in range(10):
            try:
                fd = os.open(self.path, os.O_RDWR | (os.O_CREAT if create else 0), 0o644)
            except OSError as exc:
                raise SetupError(f"cannot open the record file {self.path}: {exc.strerror}") from None
            stream: IO[bytes] = os.fdopen(fd, "r+b")
            try:
                self._lock(stream)
                if os.path.samestat(os.fstat(stream.fileno()), os.stat(self.path)):
                    return stream
            except FileNotFoundError:
                pass  # replaced while we looked: open again
            except BaseException:
                stream.close()
                raise
            stream.close()
        raise SetupError(f"{self.path} keeps being replaced by another run; wait for it or use another file")

    def _upgrade(self, stream: IO[bytes], schema: str) -> IO[bytes]:
        """Rewrite the file in the current version (through a new file renamed over it); the new file, locked.

        Its games are already read and checked; the rewrite keeps them all, and
        its header lists the games recorded without deal and actions (only
        those may lack them). A crash at any point leaves either the old file
        or the new one whole. The new file keeps the old one's permissions, and
        a symbolic link stays one (the file it points to is rewritten).
        """
        header = header_of(self.config) | {
            "upgraded_from": schema,
            "without_actions": sorted(i for i, r in self.games.items() if not r.has_actions),
        }
        content = _line(header) + b"".join(_line(record_to_json(r)) for _, r in sorted(self.games.items()))
        target = Path(os.path.realpath(self.path))
        scratch = target.with_name(target.name + ".upgrading")
        try:
            mode = stat.S_IMODE(os.fstat(stream.fileno()).st_mode)
            with scratch.open("wb") as new:
                os.chmod(scratch, mode)
                new.write(content)
                new.flush()
                os.fsync(new.fileno())
            os.replace(scratch, target)
        except OSError as exc:
            with contextlib.suppress(OSError):
                scratch.unlink()
            raise SetupError(f"cannot rewrite {self.path} in the current version: {exc.strerror}") from None
        # Released only now: a run waiting for the lock finds the old file replaced and opens again.
        stream.close()
        fresh = self._open_locked(create=False)
        self.upgraded_from = schema
        return fresh

    def _lock(self, stream: IO[bytes]) -> None:
        if sys.platform == "win32":  # pragma: no cover
            return
        try:
            fcntl.flock(stream.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise SetupError(
                f"{self.path} is being written by another run; wait for it or use another file"
            ) from None

    def append(self, record: GameRecord) -> None:
        """Write one finished game, flushed at once so that a crash loses at most the games being played."""
        if self._stream is None:
            raise RuntimeError("RecordFile.append outside its 'with' block")
        self._stream.write(_line(record_to_json(record)))
        self._stream.flush()
        if monotonic() - self._synced >= SYNC_INTERVAL:
            os.fsync(self._stream.fileno())
            self._synced = monotonic()

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        if self._stream is not None:
            try:
                os.fsync(self._stream.fileno())
            finally:
                self._stream.close()  # also releases the lock
                self._stream = None
