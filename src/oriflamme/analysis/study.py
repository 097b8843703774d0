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

import json
import platform
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import __version__
from ..tournament.config import TournamentConfig
from ..tournament.record import Recorded, RecordFile
from ..tournament.runner import resolve_workers, run_games
from .facts import GameFacts, facts_of, outcome_facts
from .run import Analyzed, InOrder, analyze_games
from .summary import Totals
from .tables import TableWriter

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
    sources: Sequence[Recorded] = (),
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
    from time import perf_counter

    tick = on_game or (lambda: None)
    notice = on_notice or (lambda text: None)
    totals = Totals()
    out.mkdir(parents=True, exist_ok=True)
    interrupted = False
    played = 0
    without_actions = 0
    seconds = 0.0
    with TableWriter(out / "data") as tables:

        def take(f: GameFacts) -> None:
            tables.add(f)
            totals.add(f)

        for source in sources:
            if source.lacks:
                notice(f"{source.path}: {source.lacks}; its games count for outcome figures only")
            for record in source.games:
                if record.has_actions:
                    take(facts_of(source.config, record))
                else:
                    without_actions += 1
                    take(outcome_facts(source.config, record))
                tick()
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
                for record in previous:
                    if record.has_actions:
                        in_order.add(record.index, facts_of(config, record))
                    else:
                        without_actions += 1
                        in_order.add(record.index, outcome_facts(config, record))
                    tick()
                done = {r.index for r in previous}
                todo = [g for g in range(config.games) if g not in done]

                def finished(
                    a: Analyzed, log: RecordFile | None = log, in_order: InOrder[GameFacts] = in_order
                ) -> None:
                    if log is not None:
                        log.append(a.record)
                    in_order.add(a.index, a.facts)
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
                played += len(todo)
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
    files = write_report(out, summary) + [out / "summary.json", *tables.files]
    (out / "summary.json").write_text(json.dumps(summary, indent=2, sort_keys=False) + "\n", encoding="utf-8")
    result = StudyResult(summary, tuple(files), totals.games, played, interrupted, seconds)
    if interrupted:
        raise StudyInterrupted(result)
    return result


class StudyInterrupted(KeyboardInterrupt):
    """Ctrl-C during a study; ``result`` describes what was written from the games that finished."""

    def __init__(self, result: StudyResult) -> None:
        super().__init__(f"study interrupted after {result.games} games")
        self.result = result


def build_summary(
    totals: Totals,
    *,
    configs: Sequence[TournamentConfig],
    sources: Sequence[Recorded],
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
