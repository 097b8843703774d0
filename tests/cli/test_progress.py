"""The progress bar of long commands shows steps per second, named after what is counted, and in a
log file, where rich draws no bar, a plain line a minute."""

from __future__ import annotations

import io

from rich.console import Console
from rich.progress import Progress

from oriflamme.commandline import RateColumn, progress_bar, progress_line


def test_the_rate_column_names_its_unit_and_stays_blank_without_a_speed() -> None:
    progress = Progress(RateColumn())
    task = progress.add_task("games", total=100)
    assert RateColumn().render(progress.tasks[0]).plain == ""
    for _ in range(40):
        progress.advance(task)
    rendered = RateColumn().render(progress.tasks[0]).plain
    assert rendered.endswith(" games/s")
    assert float(rendered.split()[0].replace(",", "")) > 0


def test_every_long_command_gets_the_rate() -> None:
    assert any(isinstance(c, RateColumn) for c in progress_bar().columns)


class _Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _log_of(terminal: bool) -> list[str]:
    """What a progress bar writes while 60 games are played, one every 2 s, with a line a minute."""
    out = io.StringIO()
    clock = _Clock()
    progress = progress_bar(Console(file=out, force_terminal=terminal, width=120), log_every=60, clock=clock)
    with progress:
        task = progress.add_task("games", total=100)
        for _ in range(60):
            clock.now += 2
            progress.advance(task)
    return [line for line in out.getvalue().splitlines() if line.startswith("games ")]


def test_in_a_log_file_the_progress_is_a_plain_line_a_minute() -> None:
    # A command in the background (stderr a file) gets no bar from rich: a line every 60 s instead.
    assert _log_of(terminal=False) == [
        "games 30/100 (0.50 a second, about 2 min left)",
        "games 60/100 (0.50 a second, about 80 s left)",
    ]


def test_at_a_terminal_the_bar_alone_shows_the_progress() -> None:
    assert _log_of(terminal=True) == []


def test_a_task_without_a_total_or_a_speed_says_what_it_has() -> None:
    progress = Progress()
    task = progress.add_task("iterations", total=None)
    assert progress_line(progress.tasks[0]) == "iterations 0"
    progress.update(task, total=7)
    assert progress_line(progress.tasks[0]) == "iterations 0/7"
