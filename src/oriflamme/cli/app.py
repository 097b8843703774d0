"""The ``oriflamme`` command line, assembled from the commands of each client package.

Each subcommand parses options, calls a library function and formats what it
returns (a rich table for people, ``--json`` for scripts). Errors a user can
fix (a bad player count, an unknown deck) end with one line on stderr and exit
code 2, like a usage error, never a traceback.

New subcommands (play, serve, tournament, ...) are added with ``@app.command()``
here, or written in their own module and registered with
``app.command("name")(function)`` / ``app.add_typer(sub_app, name="name")``.
"""

from __future__ import annotations

import inspect
import re
from typing import Annotated, Any

import typer
import typer.core
from rich.console import Console
from rich.table import Table

from .. import __version__
from ..analysis.bench import bench_analysis_command
from ..analysis.command import AnalyzeCommand, analyze_command
from ..bench.command import bench_app
from ..bench.engine import SimulationResult, simulate
from ..bench.server_command import bench_server_command
from ..commandline import CardsOption, JsonFlag, load_cards, print_json, user_errors
from ..tournament.command import TournamentCommand, tournament_command
from ..tui.cli import play_command, replay_command, review_command
from ..web.admin import admin_app
from ..web.backup import backup_command
from ..web.ladder_bench import bench_ladder_command
from ..web.serve import serve_command
from .audit import audit_command
from .openspiel_bench import bench_openspiel_command
from .rl_bench import bench_rl_command
from .selfplay import selfplay_command
from .train import train_command
from .vector import bench_vector_command, check_app


def _help_flag_without_type() -> None:
    """Show ``--help`` as the flag it is: recent Typer versions label it ``<bool>`` in every help panel.

    Typer builds the help option itself, so its metavar (what the panel prints
    as the type) is set when the option is first made, for commands and groups.
    """
    for cls in (typer.core.TyperCommand, typer.core.TyperGroup):
        original = cls.get_help_option
        if getattr(original, "_oriflamme_quiet", False):
            continue

        def get_help_option(self: Any, ctx: Any, _original: Any = original) -> Any:
            option = _original(self, ctx)
            if option is not None:
                option.metavar = ""
            return option

        get_help_option._oriflamme_quiet = True  # type: ignore[attr-defined]
        cls.get_help_option = get_help_option  # type: ignore[method-assign]


_help_flag_without_type()

app = typer.Typer(
    name="oriflamme",
    help="Play Oriflamme, Ablaze and Alliance in the terminal or the browser, pit bots against each other, "
    "and measure the rules engine.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _show_version(value: bool) -> None:
    if value:
        typer.echo(f"oriflamme {__version__}")
        raise typer.Exit()


@app.callback()
def root(
    version: Annotated[
        bool,
        typer.Option(
            "--version", help="Print the version and exit.", callback=_show_version, is_eager=True, metavar=""
        ),
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
    as_json: JsonFlag = False,
    cards: CardsOption = None,
) -> None:
    """Play random legal games and report wins, scores and speed."""
    load_cards(cards)
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


app.command("tournament", cls=TournamentCommand)(tournament_command)
app.command("analyze", cls=AnalyzeCommand)(analyze_command)


app.command("serve")(serve_command)
app.command("backup")(backup_command)
app.add_typer(admin_app, name="admin")
app.command("train")(train_command)
app.command("selfplay")(selfplay_command)
bench_app.command("rl")(bench_rl_command)
bench_app.command("openspiel")(bench_openspiel_command)
bench_app.command("analysis")(bench_analysis_command)
bench_app.command("ladder")(bench_ladder_command)
bench_app.command("vector")(bench_vector_command)
app.add_typer(bench_app, name="bench")
app.add_typer(check_app, name="check")
app.command("bench-server", help="The same as `oriflamme bench server` (kept for scripts).")(
    bench_server_command
)


app.command("play")(play_command)
app.command("replay")(replay_command)
app.command("review")(review_command)
app.command("audit")(audit_command)


#: An RST inline literal (``--bots net:OUT``), as docstrings write code for the API documentation.
_LITERAL = re.compile(r"``(.+?)``")


def plain_help(text: str) -> str:
    """``text`` without the RST literal marks that read as stray backticks in a terminal."""
    return _LITERAL.sub(r"\1", text)


def _plain_command_help(typer_app: typer.Typer) -> None:
    """Give every command and group of ``typer_app`` its help without RST marks.

    Typer takes a command's help from its docstring, which is also the API
    documentation's text: the marks are dropped here, once, for all commands.
    """
    for command in typer_app.registered_commands:
        text = command.help or inspect.getdoc(command.callback)
        if text:
            command.help = plain_help(text)
    for group in typer_app.registered_groups:
        if group.help:
            group.help = plain_help(group.help)
        if group.typer_instance is not None:
            _plain_command_help(group.typer_instance)


_plain_command_help(app)
