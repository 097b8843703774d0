"""What every command of the ``oriflamme`` program shares: exit codes, user errors, JSON output.

Each client package writes its own commands (``tui/cli.py``, ``web/serve.py``,
``tournament/command.py``, ``bench/command.py``) and :mod:`oriflamme.cli`
assembles them; they all report problems the same way through this module.
Errors a user can fix (a bad player count, an unknown deck, a missing extra)
end with one line on stderr and exit code 2, like a usage error, never a
traceback.
"""

from __future__ import annotations

import json
import signal
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from .engine.errors import OriflammeError
from .extras import MissingExtraError, require_extra

#: The ``--json`` flag of every command that reports (a flag: no ``<bool>`` in the help).
JsonFlag = Annotated[
    bool, typer.Option("--json", help="Print machine-readable JSON instead of a table.", metavar="")
]

#: ``--cards FILE`` (repeatable) of the commands that deal games: play, serve, simulate, tournament, analyze.
CardsOption = Annotated[
    list[Path] | None,
    typer.Option(
        "--cards",
        help="A designer's card module (a Python file, see docs/new-cards.md) to load, so that --deck "
        "can name its cards; repeat for several. Cards of installed packages (entry points "
        "'oriflamme.cards') are always loaded.",
        metavar="FILE",
    ),
]

#: Exit code for bad arguments, the same as a command-line usage error.
EXIT_USAGE = 2
#: 128 + SIGINT, what a shell reports for a program stopped by Ctrl-C.
EXIT_INTERRUPTED = 130


def fail(message: str) -> typer.Exit:
    """Print ``error: message`` on stderr; return the exit to raise."""
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(EXIT_USAGE)


@contextmanager
def user_errors() -> Iterator[None]:
    """Turn the engine's input errors and missing extras into one line on stderr and exit code 2."""
    try:
        yield
    except typer.BadParameter as exc:
        raise fail(exc.format_message()) from None
    except (OriflammeError, MissingExtraError) as exc:
        raise fail(str(exc)) from None


def load_cards(files: Sequence[Path] | None) -> None:
    """Load installed packages' cards and the card ``files``; a bad one stops the command with why."""
    from .designer import CardError, load_entry_points, load_file

    try:
        load_entry_points()
        for file in files or ():
            load_file(file)
    except CardError as exc:
        raise fail(str(exc)) from None


def needs_extra(extra: str, command: str) -> None:
    """Stop the command with the install line when ``extra`` is missing."""
    try:
        require_extra(extra, f"oriflamme {command}")
    except MissingExtraError as exc:
        raise fail(str(exc)) from None


class RateColumn(ProgressColumn):
    """Steps per second, named after the task (``120 games/s``); blank until rich has a speed."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        if speed is None:
            return Text("")
        return Text(
            f"{speed:,.1f} {task.description}/s" if speed < 10 else f"{speed:,.0f} {task.description}/s"
        )


def progress_bar() -> Progress:
    """The progress bar of long commands: on stderr (stdout stays for results), gone when done."""
    return Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        RateColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    )


def print_json(data: dict[str, Any]) -> None:
    """JSON on stdout for scripts (plain echo: rich would wrap long lines and add colour codes)."""
    typer.echo(json.dumps(data, indent=2))


@contextmanager
def stop_on_sigterm() -> Iterator[None]:
    """SIGTERM stops a long command as Ctrl-C does: a run in the background (``nohup``, a service
    manager, a batch queue) is stopped that way, and its shell may have set it to ignore SIGINT.
    What the command does on Ctrl-C (keep finished games, stop its workers, save a checkpoint)
    then happens on ``kill PID`` too, instead of orphaned workers playing on. The previous handler
    is back afterwards."""

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
