"""A balance study from start to finish: play or read the games, add up their facts, write the report.

:func:`run_study` is what ``oriflamme analyze`` calls, and what a script
calls to get the same files. What it writes to the output directory:

* ``summary.json``: every figure with its interval, and the run that made it;
* ``report.md`` (with ``figures/*.png``) and ``report.html`` (self-contained);
* ``data/``: the per-game tables, as CSV and Parquet (see :mod:`.tables`).

Games come from record files (``sources``), from playing (``configs``), or
both; played games can be recorded (``record_dir``, one tournament record
per study), which makes a long study resumable: a rerun plays only what the
records lack.
"""

from __future__ import annotations

import contextlib
import json
import os
import platform
import shutil
import tempfile
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from time import perf_counter
from typing import Any

from .. import __version__
from ..engine.errors import SetupError
from ..pools import worker_pool
from ..tournament.config import TournamentConfig
from ..tournament.games import GameRecord
from ..tournament.record import WITHOUT_ACTIONS, RecordFile, RecordReader
from ..tournament.runner import resolve_workers, run_games
from .facts import GameFacts, facts_of, outcome_facts
from .report import FIGURE_NAMES
from .run import Analyzed, InOrder, analyze_games
from .summary import Totals
from .tables import TABLES, TableWriter

#: Version of ``summary.json``'s layout.
SUMMARY_SCHEMA = "oriflamme.analysis/1"


@dataclass(frozen=True, slots=True)
class StudyResult:
    """What a study wrote and how it went."""

    summary: dict[str, Any]
    files: tuple[Path, ...]
    games: int
    played: int
    interrupted: bool
    seconds_playing: float


def record_name(config: TournamentConfig) -> str:
    """The record file of one study inside ``--record DIR``: ``4p-base.jsonl``, ``3p-heir+lord+....jsonl``."""
    return f"{config.players}p-{config.deck.replace(',', '+')}.jsonl"


def run_study(
    out: Path,
    *,
    configs: Sequence[TournamentConfig] = (),
    sources: Sequence[RecordReader] = (),
    workers: int | None = None,
    use_ray: bool = False,
    ray_address: str | None = None,
    record_dir: Path | None = None,
    command: str = "",
    on_game: Callable[[], None] | None = None,
    on_notice: Callable[[str], None] | None = None,
) -> StudyResult:
    """Play and read every game, then write the summary, the report and the tables to ``out``.

    Ctrl-C stops the playing; what finished is still written (the summary
    says the run was interrupted) and then :class:`KeyboardInterrupt` is
    raised again.
    """
    tick = on_game or (lambda: None)
    notice = on_notice or (lambda text: None)
    # Everything is written to a scratch directory beside ``out`` and moved into it at the end, so a
    # study refused half-way (an edited record) leaves ``out`` as it was.
    out.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{out.name}-", dir=out.parent))
    try:
        return _study_in(
            work, out, configs, sources, workers, use_ray, ray_address, record_dir, command, tick, notice
        )
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _study_in(
    work: Path,
    out: Path,
    configs: Sequence[TournamentConfig],
    sources: Sequence[RecordReader],
    workers: int | None,
    use_ray: bool,
    ray_address: str | None,
    record_dir: Path | None,
    command: str,
    tick: Callable[[], None],
    notice: Callable[[str], None],
) -> StudyResult:
    totals = Totals()
    interrupted = False
    played = 0
    without_actions = 0
    seconds = 0.0
    with TableWriter(work / "data") as tables:

        def take(f: GameFacts) -> None:
            tables.add(f)
            totals.add(f)

        lacking: dict[Path, int] = {}
        for source, facts in recorded_facts(sources, workers):
            take(facts)
            if not facts.replayed:
                lacking[source.path] = lacking.get(source.path, 0) + 1
            tick()
        for path, count in lacking.items():
            notice(f"{path}: {count} games {WITHOUT_ACTIONS}; they count for outcome figures only")
            without_actions += count
        for config in configs:
            if interrupted:
                break
            in_order: InOrder[GameFacts] = InOrder(range(config.games), take)
            log: RecordFile | None = None
            if record_dir is not None:
                record_dir.mkdir(parents=True, exist_ok=True)
                log = RecordFile(record_dir / record_name(config), config)
                log.__enter__()
            try:
                previous = log.previous if log is not None else []
                if log is not None and previous:
                    notice(f"{log.path}: {len(previous)} of {config.games} games already played")
                if log is not None and log.upgraded_from:
                    notice(
                        f"{log.path}: rewritten in the current version; {log.without_actions} games {WITHOUT_ACTIONS}"
                    )
                for record in previous:
                    if record.has_actions:
                        in_order.add(record.index, facts_of(config, record))
                    else:
                        without_actions += 1
                        in_order.add(record.index, outcome_facts(config, record))
                    tick()
                done = {r.index for r in previous}
                todo = [g for g in range(config.games) if g not in done]

                counted = [0]

                def finished(
                    a: Analyzed,
                    log: RecordFile | None = log,
                    in_order: InOrder[GameFacts] = in_order,
                    counted: list[int] = counted,
                ) -> None:
                    if log is not None:
                        log.append(a.record)
                    in_order.add(a.index, a.facts)
                    counted[0] += 1
                    tick()

                start = perf_counter()
                try:
                    run_games(
                        config,
                        todo,
                        analyze_games,
                        finished,
                        workers=resolve_workers(workers, max(1, len(todo))),
                        use_ray=use_ray,
                        ray_address=ray_address,
                    )
                except KeyboardInterrupt:
                    interrupted = True
                    in_order.flush()
                seconds += perf_counter() - start
                played += counted[0]
            finally:
                if log is not None:
                    log.__exit__(None, None, None)
    summary = build_summary(
        totals,
        configs=configs,
        sources=sources,
        command=command,
        interrupted=interrupted,
        without_actions=without_actions,
    )
    files = write_report(work, summary) + [work / "summary.json", *tables.files]
    (work / "summary.json").write_text(
        json.dumps(summary, indent=2, sort_keys=False) + "\n", encoding="utf-8"
    )
    published = _publish(work, out, files)
    result = StudyResult(summary, tuple(published), totals.games, played, interrupted, seconds)
    if interrupted:
        raise StudyInterrupted(result)
    return result


#: Recorded games per task when reading records in worker processes.
READ_CHUNK = 250

#: What a study writes in ``--out``, relative to it: a rerun removes those it does not write again
#: (a figure a smaller study has no data for), and leaves anything else in the directory alone.
OUTPUTS = (
    "summary.json",
    "report.md",
    "report.html",
    *(f"figures/{name}.png" for name in FIGURE_NAMES),
    *(f"data/{table}.{ext}" for table in TABLES for ext in ("csv", "parquet")),
)


def _publish(work: Path, out: Path, files: Sequence[Path]) -> list[Path]:
    """Move the study's files from ``work`` into ``out``; remove earlier outputs it did not write."""
    out.mkdir(exist_ok=True)
    written = {path.relative_to(work).as_posix() for path in files}
    for name in OUTPUTS:
        if name not in written:
            with contextlib.suppress(FileNotFoundError):
                (out / name).unlink()
    published = []
    for path in files:
        target = out / path.relative_to(work)
        target.parent.mkdir(parents=True, exist_ok=True)
        os.replace(path, target)
        published.append(target)
    return published


def facts_of_records(config: TournamentConfig, records: Sequence[GameRecord]) -> list[GameFacts]:
    """The facts of recorded games (a worker's task): replayed, or outcomes only for records without actions."""
    return [facts_of(config, r) if r.has_actions else outcome_facts(config, r) for r in records]


def _chunks(sources: Sequence[RecordReader]) -> Iterator[tuple[RecordReader, list[GameRecord]]]:
    """The games of every file, file after file, in chunks, read as they are needed."""
    for source in sources:
        chunk: list[GameRecord] = []
        for record in source.games(check_replay=False):  # replayed once, for the facts
            chunk.append(record)
            if len(chunk) == READ_CHUNK:
                yield source, chunk
                chunk = []
        if chunk:
            yield source, chunk


def recorded_facts(
    sources: Sequence[RecordReader], workers: int | None
) -> Iterator[tuple[RecordReader, GameFacts]]:
    """The facts of every recorded game with its file, in file order, replayed on ``workers`` processes.

    Replaying is most of the cost of reading records, and it parallelizes as
    playing does; the order, and so every file written, stays the same. The
    files are read as the workers need them, a few chunks ahead, so memory
    does not grow with their size. A game that does not replay is refused
    with its file's name.
    """
    workers = resolve_workers(workers, 1_000_000)
    chunks = _chunks(sources)
    if workers == 1:
        for source, chunk in chunks:
            try:
                facts = facts_of_records(source.config, chunk)
            except ValueError as exc:
                raise SetupError(f"{source.path}: {exc}") from None
            for f in facts:
                yield source, f
        return
    pool = worker_pool(workers)
    pending: deque[tuple[RecordReader, Future[list[GameFacts]]]] = deque()
    try:
        while True:
            while len(pending) < 4 * workers and (item := next(chunks, None)) is not None:
                source, chunk = item
                pending.append((source, pool.submit(facts_of_records, source.config, chunk)))
            if not pending:
                break
            source, future = pending.popleft()
            try:
                facts = future.result()
            except ValueError as exc:
                raise SetupError(f"{source.path}: {exc}") from None
            for f in facts:
                yield source, f
    finally:
        # On an error or Ctrl-C, the chunks not started are dropped rather than replayed for nothing.
        pool.shutdown(wait=True, cancel_futures=True)


class StudyInterrupted(KeyboardInterrupt):
    """Ctrl-C during a study; ``result`` describes what was written from the games that finished."""

    def __init__(self, result: StudyResult) -> None:
        super().__init__(f"study interrupted after {result.games} games")
        self.result = result


def build_summary(
    totals: Totals,
    *,
    configs: Sequence[TournamentConfig],
    sources: Sequence[RecordReader],
    command: str,
    interrupted: bool,
    without_actions: int,
) -> dict[str, Any]:
    """The content of ``summary.json``: the run, then the figures of :meth:`Totals.to_dict`."""
    every = [*(s.config for s in sources), *configs]
    bots = list(dict.fromkeys(spec for c in every for spec in c.specs))
    return {
        "schema": SUMMARY_SCHEMA,
        "run": {
            "version": __version__,
            "python": platform.python_version(),
            "command": command,
            "games": totals.games,
            "bots": bots,
            "seed": sorted({c.seed for c in every})[0] if every else None,
            "seeds": sorted({c.seed for c in every}),
            "rules": [c.rules.to_dict() for c in {c.rules: c for c in every}.values()],
            "studies": [
                {"players": c.players, "deck": c.deck, "bots": list(c.specs), "games": c.games}
                for c in configs
            ],
            "sources": [str(s.path) for s in sources],
            "without_actions": without_actions,
            "interrupted": interrupted,
        },
        **totals.to_dict(),
    }


def write_report(out: Path, summary: dict[str, Any]) -> list[Path]:
    """Draw the figures and write ``report.md``, ``report.html`` and ``figures/*.png``; return the paths."""
    from .figures import FIGURES, png
    from .report import blocks, to_html, to_markdown

    files: list[Path] = []
    images: dict[str, bytes] = {}
    if summary["studies"]:
        (out / "figures").mkdir(exist_ok=True)
        for name, draw in FIGURES.items():
            fig = draw(summary)
            if fig is None:
                continue
            images[name] = png(fig)
            path = out / "figures" / f"{name}.png"
            path.write_bytes(images[name])
            files.append(path)
    content = blocks(summary, list(images))
    (out / "report.md").write_text(to_markdown(content), encoding="utf-8")
    (out / "report.html").write_text(to_html(content, images), encoding="utf-8")
    return [out / "report.md", out / "report.html", *files]
