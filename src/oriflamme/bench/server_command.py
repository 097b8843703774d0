"""``oriflamme bench server``: its options, its runs and its report (the load itself is :mod:`.server`)."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from ..commandline import JsonFlag, needs_extra
from .load_report import LoadReport
from .server import TARGET_P95_MS, TARGET_TABLES, run_load


def bench_server_command(
    tables: Annotated[int, typer.Option(help="Concurrent tables.")] = TARGET_TABLES,
    players: Annotated[int, typer.Option(help="Seats per table.")] = 4,
    seconds: Annotated[float, typer.Option(help="Measured duration, after every seat has joined.")] = 30.0,
    think_min: Annotated[
        float | None,
        typer.Option(help="Shortest think time of a client, in seconds (default 0.3; 0 with --shipped)."),
    ] = None,
    think_max: Annotated[
        float | None,
        typer.Option(help="Longest think time of a client, in seconds (default 1.2; 0 with --shipped)."),
    ] = None,
    shipped: Annotated[
        bool,
        typer.Option(
            "--shipped",
            help="The server as oriflamme serve ships it (bot delay, bot processes): each table one person "
            "driven from here, the other seats the server's own bots.",
            metavar="",
        ),
    ] = False,
    bot: Annotated[str, typer.Option(help="The server's bots with --shipped.")] = "heuristic",
    bot_workers: Annotated[
        int | None,
        typer.Option(help="With --shipped: the server's bot processes (default: as shipped, 2)."),
    ] = None,
    bot_runner: Annotated[
        str | None,
        typer.Option(help="With --shipped: where the server's bots think (split, processes, threads)."),
    ] = None,
    sweep: Annotated[
        str | None,
        typer.Option(
            metavar="N,N,...",
            help="Run once per table count (e.g. 50,100,200,300) and report the largest with p95 within target.",
        ),
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed of the deals and of the client bots.")] = 0,
    url: Annotated[str | None, typer.Option(help="Use a running server instead of starting one.")] = None,
    db: Annotated[
        str | None,
        typer.Option(
            metavar="URL",
            help="A PostgreSQL server (postgresql://user@host/dbname) on which each run makes a scratch "
            "database, dropped after it (default: an SQLite file).",
        ),
    ] = None,
    workers: Annotated[
        int, typer.Option(metavar="N", help="Server processes (serve --workers N; needs --db).")
    ] = 1,
    kill_after: Annotated[
        float | None,
        typer.Option(
            metavar="SECONDS",
            help="Kill one worker with SIGKILL this long into the measured window (needs --workers 2 or "
            "more); report actions lost and how soon every table moved on.",
        ),
    ] = None,
    rated: Annotated[
        float,
        typer.Option(
            metavar="SHARE",
            help="The share of tables (0 to 1) whose every seat an account holds, so that their games "
            "are rated when they end; each account holds seats at up to 5 tables.",
        ),
    ] = 0.0,
    clients: Annotated[
        int,
        typer.Option(
            metavar="N",
            help="Processes the clients are shared among (one process parses every message itself and "
            "is the limit at a few hundred actions a second); their windows open together.",
        ),
    ] = 1,
    as_json: JsonFlag = False,
) -> None:
    """Load benchmark: tables of clients over real WebSockets; action-to-broadcast latency, server CPU and memory."""
    needs_extra("bench", "bench server")
    think = (
        think_min if think_min is not None else (0.0 if shipped else 0.3),
        think_max if think_max is not None else (0.0 if shipped else 1.2),
    )
    try:
        counts = [int(t) for t in sweep.split(",")] if sweep else [tables]
    except ValueError:
        typer.echo(f"error: --sweep takes table counts separated by commas, got {sweep!r}", err=True)
        raise typer.Exit(2) from None
    if not (all(1 <= n <= 5000 for n in counts) and 2 <= players <= 5 and 0 <= think[0] <= think[1]):
        typer.echo("error: need 1-5000 tables, 2-5 players and 0 <= think-min <= think-max", err=True)
        raise typer.Exit(2)
    if workers != 1 and db is None:
        typer.echo(
            "error: --workers needs --db postgresql://... (several processes share a PostgreSQL database)",
            err=True,
        )
        raise typer.Exit(2)
    if not 1 <= workers <= 64 or (url is not None and (db is not None or workers != 1)):
        typer.echo(
            "error: --workers must be 1 to 64, and --url runs against a server as it is (no --db, --workers)",
            err=True,
        )
        raise typer.Exit(2)
    if kill_after is not None and (workers < 2 or not 0 <= kill_after < seconds):
        typer.echo("error: --kill-after needs --workers 2 or more and a time within --seconds", err=True)
        raise typer.Exit(2)
    if not 0 <= rated <= 1 or (rated and (shipped or url is not None)):
        typer.echo(
            "error: --rated takes a share from 0 to 1, for a server the benchmark starts, without --shipped",
            err=True,
        )
        raise typer.Exit(2)
    if not 1 <= clients <= 16 or (clients > 1 and kill_after is not None):
        typer.echo("error: --clients must be 1 to 16, and 1 with --kill-after", err=True)
        raise typer.Exit(2)
    if db is not None and not db.startswith(("postgresql://", "postgres://")):
        typer.echo(f"error: --db must be a postgresql:// URL, got {db!r}", err=True)
        raise typer.Exit(2)
    reports = []
    for n in counts:
        if not as_json:
            what = "one person and server bots" if shipped else f"{players} client seats"
            typer.echo(f"{n} tables ({what}), {seconds:g} s, think {think[0]:g}-{think[1]:g} s ...", err=True)
        reports.append(
            run_load(
                n,
                players,
                seconds,
                think,
                seed,
                url,
                shipped=shipped,
                bot=bot,
                bot_workers=bot_workers,
                bot_runner=bot_runner,
                db=db,
                workers=workers,
                kill_after=kill_after,
                rated=rated,
                clients=clients,
            )
        )
    if as_json:
        payload = [r.to_dict() for r in reports]
        typer.echo(json.dumps(payload[0] if not sweep else payload, indent=2))
        return
    for r in reports:
        _print_report(r)
    if sweep:
        passing = [r.tables for r in reports if r.actor_p95 <= TARGET_P95_MS and r.errors == 0]
        typer.echo(
            f"largest table count with p95 <= {TARGET_P95_MS:g} ms: {max(passing) if passing else 'none'} "
            f"(of {', '.join(map(str, counts))})"
        )


def _codes(codes: dict[str, int]) -> str:
    return " (" + ", ".join(f"{c}: {n}" for c, n in sorted(codes.items())) + ")" if codes else ""


def _print_report(r: LoadReport) -> None:
    ok = r.actor_p95 <= TARGET_P95_MS and r.errors == 0
    typer.echo(
        f"{r.tables} tables, {r.players} seats each{' (server as shipped)' if r.shipped else ''}, "
        + (
            "the running server, "
            if r.database == "given"
            else f"{r.workers} server process{'es' if r.workers > 1 else ''} on {r.database}, "
        )
        + f"{r.seconds:g} s: "
        f"{r.actions} actions ({r.actions_per_second:g}/s), {r.messages} messages received, {r.errors} errors{_codes(r.error_codes)}, "
        f"{r.finished_games} games finished"
    )
    typer.echo(
        f"action -> broadcast at the acting seat: p50 {r.actor_p50:g} ms, p95 {r.actor_p95:g} ms, "
        f"p99 {r.actor_p99:g} ms, max {r.actor_max:g} ms"
    )
    typer.echo(f"action -> broadcast at every seat: p95 {r.all_seats_p95:g} ms, p99 {r.all_seats_p99:g} ms")
    if r.killed_at is not None:
        typer.echo(
            f"a worker killed {r.killed_at:g} s in: {r.reconnects} reconnections, {r.lost_actions} actions shown "
            f"but not stored; {r.recovered_tables} of {r.tables} tables moved on after it, the last "
            f"within {r.recovery_max} s (median {r.recovery_p50} s)"
        )
    if r.accounts:
        typer.echo(
            f"accounts: {r.accounts} holding every seat of {r.rated_tables} tables; "
            f"{r.rated_games} games rated during the run"
        )
    if r.server_cpu_percent is not None:
        typer.echo(
            f"server CPU (with its bot processes): {r.server_cpu_percent:g}% of one core, "
            f"{r.server_cpu_ms_per_table_second:g} ms per table-second; memory "
            f"{r.server_memory_kib_per_table:g} KiB per table"
        )
    typer.echo(
        f"target: {TARGET_TABLES} tables with p95 <= {TARGET_P95_MS:g} ms — "
        + ("met" if ok and r.tables >= TARGET_TABLES else "not met")
    )
