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
import time
from collections.abc import Callable, Iterator, Sequence
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
    TaskID,
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


#: Seconds between the plain progress lines of a command whose stderr is not a terminal.
LOG_SECONDS = 60.0


class _LoggingProgress(Progress):
    """Rich's progress bar, which draws nothing where its console is not a terminal (a command run
    in the background, its stderr a log file); there it writes a plain line of each task's progress
    every ``log_every`` seconds instead, so an hour-long job's log says how far it is."""

    def __init__(
        self, *columns: ProgressColumn, log_every: float, clock: Callable[[], float], **options: Any
    ) -> None:
        super().__init__(*columns, get_time=clock, **options)
        self._log_every = log_every
        self._logged_at = clock()

    def update(self, task_id: TaskID, **changes: Any) -> None:
        super().update(task_id, **changes)
        self._log_if_due()

    def advance(self, task_id: TaskID, advance: float = 1) -> None:
        super().advance(task_id, advance)
        self._log_if_due()

    def _log_if_due(self) -> None:
        if self.console.is_terminal or self.get_time() - self._logged_at < self._log_every:
            return
        self._logged_at = self.get_time()
        for task in self.tasks:
            if task.visible:
                self.console.print(progress_line(task), highlight=False, markup=False, soft_wrap=True)


def progress_line(task: Task) -> str:
    """One task's progress as a line of a log: ``games 420/1,100 (0.33 a second, about 34 min left)``."""
    done = f"{task.description} {task.completed:,.0f}"
    if task.total is not None:
        done += f"/{task.total:,.0f}"
    speed = task.speed
    if not speed:
        return done
    left = task.time_remaining
    rest = f", about {_minutes(left)} left" if left is not None else ""
    rate = f"{speed:.2f}" if speed < 10 else f"{speed:,.0f}"
    return f"{done} ({rate} a second{rest})"


def _minutes(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds < 120 else f"{seconds / 60:.0f} min"


def progress_bar(
    console: Console | None = None,
    log_every: float = LOG_SECONDS,
    clock: Callable[[], float] = time.monotonic,
) -> Progress:
    """The progress bar of long commands: on stderr (stdout stays for results), gone when done; a
    line every ``log_every`` seconds where stderr is not a terminal."""
    return _LoggingProgress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        RateColumn(),
        TimeRemainingColumn(),
        console=console or Console(stderr=True),
        transient=True,
        log_every=log_every,
        clock=clock,
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
