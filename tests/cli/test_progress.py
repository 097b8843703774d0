"""The progress bar of long commands shows steps per second, named after what is counted."""

from __future__ import annotations

from rich.progress import Progress

from oriflamme.commandline import RateColumn, progress_bar


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
