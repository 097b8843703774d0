"""The ``oriflamme`` command line: a thin client of the engine and of :mod:`oriflamme.bench`.

Each subcommand parses options, calls a library function and formats what it
returns (a rich table for people, ``--json`` for scripts). Errors a user can
fix (a bad player count, an unknown deck) end with one line on stderr and exit
code 2, like a usage error, never a traceback.

New subcommands (play, serve, tournament, ...) are added with ``@app.command()``
here, or written in their own module and registered with
``app.command("name")(function)`` / ``app.add_typer(sub_app, name="name")``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from . import __version__
from .bench.engine import (
    BENCH_DECKS,
    BENCH_PLAYERS,
    TARGET_BASE_4P_GAMES_PER_SECOND,
    TARGET_DECISIONS_PER_SECOND,
    BenchReport,
    SimulationResult,
    run_bench,
    simulate,
)
from .bench.server import bench_server_command
from .engine.errors import OriflammeError
from .tournament.command import TournamentCommand, tournament_command
from .tui.cli import play_command, replay_command
from .web.serve import serve_command

#: Exit code for bad arguments, the same as a command-line usage error.
EXIT_USAGE = 2

app = typer.Typer(
    name="oriflamme",
    help="Rules engine for the Oriflamme card games: simulate and benchmark (more to come).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@contextmanager
def user_errors() -> Iterator[None]:
    """Turn the engine's input errors into one line on stderr and exit code 2."""
    try:
        yield
    except typer.BadParameter as exc:
        typer.echo(f"error: {exc.format_message()}", err=True)
        raise typer.Exit(EXIT_USAGE) from None
    except OriflammeError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(EXIT_USAGE) from None


def print_json(data: dict[str, Any]) -> None:
    # Plain echo, not rich: rich would wrap long lines and add colour codes.
    typer.echo(json.dumps(data, indent=2))


def _show_version(value: bool) -> None:
    if value:
        typer.echo(f"oriflamme {__version__}")
        raise typer.Exit()


@app.callback()
def root(
    version: Annotated[
        bool,
        typer.Option("--version", help="Print the version and exit.", callback=_show_version, is_eager=True),
    ] = False,
) -> None:
    """Rules engine for Oriflamme, Ablaze and Alliance."""


DeckOption = Annotated[
    str,
    typer.Option(
        "--deck",
        "-d",
        help="Deck recipe: base, ablaze, alliance, random, or a comma-separated list of 10 card slugs.",
    ),
]


@app.command("simulate")
def simulate_command(
    players: Annotated[int, typer.Option("--players", "-p", help="Number of players (2 to 5).")] = 4,
    deck: DeckOption = "base",
    games: Annotated[int, typer.Option("--games", "-n", help="Number of games to play.")] = 100,
    seed: Annotated[
        int, typer.Option(help="Game i is dealt, and its random player seeded, with seed + i.")
    ] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")] = False,
) -> None:
    """Play random legal games and report wins, scores and speed."""
    with user_errors():
        result = simulate(players=players, deck=deck, games=games, seed=seed)
    if as_json:
        print_json(result.to_dict())
    else:
        _print_simulation(result)


def _print_simulation(r: SimulationResult) -> None:
    console = Console()
    table = Table(title=f"{r.games} games, {r.players} players")
    table.add_column("seat")
    table.add_column("wins", justify="right")
    table.add_column("win %", justify="right")
    table.add_column("mean IP", justify="right")
    for s in range(r.players):
        table.add_row(
            f"p{s + 1}",
            f"{round(r.wins[s], 2):g}",
            f"{100 * r.wins[s] / r.games:.1f}",
            f"{r.mean_score[s]:.2f}",
        )
    console.print(table)
    if len(r.recipes) == 1:
        console.print(f"deck {r.deck}: {', '.join(r.recipes[0])}")
    else:
        console.print(f"deck {r.deck}: {len(r.recipes)} different recipes")
    console.print(
        f"{r.decisions:,} decisions in {r.seconds:.2f} s: "
        f"{r.games_per_second:,.0f} games/s, {r.decisions_per_second:,.0f} decisions/s (dealing excluded)"
    )


@app.command("bench")
def bench_command(
    deck: Annotated[
        list[str] | None,
        typer.Option(
            "--deck", "-d", help="Deck(s) to measure (repeatable; default: base, ablaze and alliance)."
        ),
    ] = None,
    players: Annotated[
        list[int] | None,
        typer.Option("--players", "-p", help="Player count(s) to measure (repeatable; default: 2 to 5)."),
    ] = None,
    seconds: Annotated[float, typer.Option("--seconds", "-s", help="Time budget per cell.")] = 2.0,
    seed: Annotated[int, typer.Option(help="Seed of the first game of each cell.")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")] = False,
) -> None:
    """Measure random games/s, decisions/s and clone time on one core, per deck and player count."""
    decks = tuple(deck) if deck else BENCH_DECKS
    counts = tuple(players) if players else BENCH_PLAYERS

    def progress(d: str, p: int) -> None:
        typer.echo(f"measuring {d}, {p} players ({seconds:g} s) ...", err=True)

    with user_errors():
        report = run_bench(
            decks=decks, players=counts, seconds=seconds, seed=seed, on_cell=None if as_json else progress
        )
    if as_json:
        print_json(report.to_dict())
    else:
        _print_bench(report)


def _print_bench(report: BenchReport) -> None:
    console = Console()
    table = Table(title=f"Measured on {report.machine}")
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


app.command("tournament", cls=TournamentCommand)(tournament_command)


app.command("serve")(serve_command)
app.command("bench-server")(bench_server_command)


app.command("play")(play_command)
app.command("replay")(replay_command)


def main() -> None:
    """Console-script entry point."""
    app(prog_name="oriflamme")
