"""``oriflamme bench analysis``: what a balance study costs, played and read back.

Plays a study with ``--record`` into a scratch directory (heuristic bots by
default, 2 to 5 players, the three boxes and random recipes), then reads the
record files back and recomputes every game's facts and their sums, and
reports the time of each phase: playing (with each game replayed for its
facts in the worker), reading and recomputing, and drawing the report. It
also writes the study again from the records and says whether its figures
are those of the run that played the games. A
measurement, not a test: the numbers go in the README and the notes.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from time import perf_counter
from typing import Annotated, Any

import typer

from ..build import build_kind
from ..commandline import JsonFlag, needs_extra, print_json, user_errors
from ..tournament.record import open_record
from ..tournament.runner import resolve_workers
from .command import study_configs
from .study import recorded_facts, run_study, write_report
from .summary import Totals

#: The targets of the analysis issue, on a 2-core machine.
TARGET_SECONDS_FOR_10K = 180.0
TARGET_READ_SHARE = 0.1


def measure(
    games: int, bots: str, players: str, decks: list[str], workers: int | None, seed: int
) -> dict[str, Any]:
    """Play, then read back, a study of about ``games`` games; the seconds of each phase."""
    from ..engine.options import RuleOptions

    probe = study_configs(bots, players, decks, 1, seed, RuleOptions(), "rotate")
    per_study = max(1, round(games / len(probe)))
    configs = study_configs(bots, players, decks, per_study, seed, RuleOptions(), "rotate")
    total = per_study * len(configs)
    with tempfile.TemporaryDirectory(prefix="oriflamme-bench-analysis-") as scratch:
        root = Path(scratch)
        start = perf_counter()
        played = run_study(root / "played", configs=configs, workers=workers, record_dir=root / "records")
        whole = perf_counter() - start
        start = perf_counter()
        (root / "redraw").mkdir()
        write_report(root / "redraw", played.summary)
        report_seconds = perf_counter() - start
        start = perf_counter()
        sources = [open_record(path) for path in sorted((root / "records").glob("*.jsonl"))]
        totals = Totals()
        totals.add_all(facts for _, facts in recorded_facts(sources, workers))
        reading = perf_counter() - start
        read = run_study(root / "read", sources=sources, workers=workers)
    same = {k: v for k, v in read.summary.items() if k != "run"} == {
        k: v for k, v in played.summary.items() if k != "run"
    }
    return {
        "games": total,
        "studies": len(configs),
        "bots": bots,
        "workers": resolve_workers(workers, total),
        "build": build_kind(),
        "play_and_analyse_seconds": round(whole, 2),
        "games_per_second": round(total / whole, 1),
        "playing_seconds": round(played.seconds_playing, 2),
        "report_seconds": round(report_seconds, 2),
        "read_and_recompute_seconds": round(reading, 2),
        "read_share_of_playing": round(reading / played.seconds_playing, 3),
        "seconds_for_10000_games": round(whole * 10_000 / total, 1),
        "same_figures_read_back": same,
    }


def bench_analysis_command(
    games: Annotated[
        int, typer.Option("--games", "-n", help="Games in all (split evenly over the studies).")
    ] = 10_000,
    bots: Annotated[
        str, typer.Option("--bots", "-b", help="Bot specs, repeated to fill each table.")
    ] = "heuristic",
    players: Annotated[str, typer.Option("--players", "-p", help="Player counts.")] = "2-5",
    deck: Annotated[
        list[str] | None, typer.Option("--deck", "-d", help="Decks (default: the three boxes and random).")
    ] = None,
    workers: Annotated[
        int | None, typer.Option("--workers", "-w", help="Worker processes (default: CPU count).")
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed of the study.")] = 0,
    as_json: JsonFlag = False,
) -> None:
    """A balance study played, analysed and read back: seconds per phase (targets: 10,000 games in 3 min, reading under a tenth of playing)."""
    needs_extra("analysis", "bench analysis")
    with user_errors():
        result = measure(
            games, bots, players, deck or ["base", "ablaze", "alliance", "random"], workers, seed
        )
    if as_json:
        print_json(result)
        return
    typer.echo(json.dumps(result, indent=2))
    typer.echo(
        f"{result['games']:,} games: played and analysed in {result['play_and_analyse_seconds']:.1f} s "
        f"({result['seconds_for_10000_games']:.0f} s per 10,000; target {TARGET_SECONDS_FOR_10K:.0f}); "
        f"reading them back took {100 * result['read_share_of_playing']:.1f}% of playing (target under "
        f"{100 * TARGET_READ_SHARE:.0f}%)"
    )
