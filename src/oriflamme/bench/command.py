"""``oriflamme bench``: the benchmarks under one command (``engine``, ``bots``, ``server``).

``oriflamme bench`` with only options is ``oriflamme bench engine``, as before
the benchmarks were grouped; ``oriflamme bench-server`` stays an alias of
``oriflamme bench server``. Benchmarks are measurements, never tests: their
numbers go in the README and the release notes, not in assertions.
"""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from ..commandline import JsonFlag, print_json, user_errors
from .bots import DEFAULT_BOTS, DEFAULT_DECKS, run_bot_bench
from .engine import (
    BENCH_DECKS,
    BENCH_PLAYERS,
    TARGET_BASE_4P_GAMES_PER_SECOND,
    TARGET_DECISIONS_PER_SECOND,
    BenchReport,
    run_bench,
)
from .server_command import bench_server_command

bench_app = typer.Typer(
    help="Benchmarks (not tests): the engine on random play, bot decisions, a server under load.",
    no_args_is_help=False,
)

DecksOption = Annotated[
    list[str] | None,
    typer.Option(
        "--deck",
        "-d",
        metavar="<str>",
        help="Deck(s) to measure (repeatable; default: base, ablaze and alliance).",
    ),
]
PlayersOption = Annotated[
    list[int] | None,
    typer.Option(
        "--players", "-p", metavar="<int>", help="Player count(s) to measure (repeatable; default: 2 to 5)."
    ),
]
SecondsOption = Annotated[float, typer.Option("--seconds", "-s", help="Time budget per cell.")]
SeedOption = Annotated[int, typer.Option(help="Seed of the first game of each cell.")]


@bench_app.callback(invoke_without_command=True)
def bench_command(
    ctx: typer.Context,
    deck: DecksOption = None,
    players: PlayersOption = None,
    seconds: SecondsOption = 2.0,
    seed: SeedOption = 0,
    as_json: JsonFlag = False,
) -> None:
    """Benchmarks: `engine` (the default), `bots`, `server`. With no subcommand, options measure the engine."""
    if ctx.invoked_subcommand is None:
        engine_command(deck, players, seconds, seed, as_json=as_json)


@bench_app.command("engine")
def engine_command(
    deck: DecksOption = None,
    players: PlayersOption = None,
    seconds: SecondsOption = 2.0,
    seed: SeedOption = 0,
    events: Annotated[
        bool,
        typer.Option(
            "--events/--no-events",
            metavar="",
            help="Record each game's event log, as a client's games do (default), or play without it, "
            "as playouts, tournaments and the training environments do.",
        ),
    ] = True,
    as_json: JsonFlag = False,
) -> None:
    """Measure random games/s, decisions/s and clone time on one core, per deck and player count."""
    decks = tuple(deck) if deck else BENCH_DECKS
    counts = tuple(players) if players else BENCH_PLAYERS

    def progress(d: str, p: int) -> None:
        typer.echo(f"measuring {d}, {p} players ({seconds:g} s) ...", err=True)

    with user_errors():
        report = run_bench(
            decks=decks,
            players=counts,
            seconds=seconds,
            seed=seed,
            on_cell=None if as_json else progress,
            record_events=events,
        )
    if as_json:
        print_json(report.to_dict())
    else:
        _print_bench(report)


def _print_bench(report: BenchReport) -> None:
    console = Console()
    log = "with" if report.record_events else "without"
    table = Table(title=f"Measured on {report.machine}, games {log} their event log")
    table.add_column("deck")
    table.add_column("players", justify="right")
    table.add_column("games/s", justify="right")
    table.add_column("decisions/s", justify="right")
    table.add_column("decisions/game", justify="right")
    table.add_column("clone µs", justify="right")
    for c in report.cells:
        table.add_row(
            c.deck,
            str(c.players),
            f"{c.games_per_second:,.0f}",
            f"{c.decisions_per_second:,.0f}",
            f"{c.decisions_per_game:.1f}",
            f"{c.clone_us:.1f}",
        )
    console.print(table)
    console.print(
        f"Targets on one core: {TARGET_DECISIONS_PER_SECOND:,} decisions/s and "
        f"{TARGET_BASE_4P_GAMES_PER_SECOND:,} four-player base games/s."
    )


@bench_app.command("bots")
def bots_command(
    bot: Annotated[
        list[str] | None,
        typer.Option(
            "--bot",
            "-b",
            metavar="<str>",
            help="Bot spec(s) to time (repeatable; default: random, heuristic, ismcts:easy, ismcts:normal, net).",
        ),
    ] = None,
    deck: Annotated[
        list[str] | None,
        typer.Option(
            "--deck",
            "-d",
            metavar="<str>",
            help="Deck(s) of the games (repeatable; default: base, ablaze, alliance).",
        ),
    ] = None,
    players: Annotated[
        int, typer.Option("--players", "-p", help="Players per game (every seat is the bot).")
    ] = 4,
    seconds: Annotated[float, typer.Option("--seconds", "-s", help="Time budget per bot and deck.")] = 5.0,
    seed: Annotated[int, typer.Option(help="Seed of the games and bots.")] = 0,
    games: Annotated[
        int | None,
        typer.Option(
            "--games",
            "-g",
            help="Play exactly this many whole games per bot and deck instead of --seconds: the same"
            " seeded games on every run, so two versions or machines are timed on the same deals.",
        ),
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    """Time each bot's decisions with a choice (median, p95, max; search iterations per second)."""
    specs = tuple(bot) if bot else DEFAULT_BOTS
    decks = tuple(deck) if deck else DEFAULT_DECKS
    with user_errors():
        report = run_bot_bench(specs, decks, players, seconds, seed, games)
    if as_json:
        print_json(report)
        return
    table = Table(title=f"Bot decision times (choices only), {players} players ({report['build']})")
    for name in ("bot", "deck", "games", "choices", "median ms", "p95 ms", "max ms", "iter/s"):
        table.add_column(name, justify="left" if name in ("bot", "deck") else "right", no_wrap=True)
    for r in report["bots"]:
        rate = r["iterations_per_s"]
        table.add_row(
            r["spec"],
            r["deck"],
            str(r["games"]),
            f"{r['decisions']:,}",
            f"{r['median_ms']:.3g}",
            f"{r['p95_ms']:.3g}",
            f"{r['max_ms']:.3g}",
            "" if rate is None else f"{rate:,.0f}",
        )
    Console().print(table)


bench_app.command("server")(bench_server_command)
