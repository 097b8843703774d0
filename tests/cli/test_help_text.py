"""The help of every command reads as plain text: no RST marks from the docstrings it comes from."""

from __future__ import annotations

from typing import Any

import pytest
import typer.main
from typer.testing import CliRunner

from oriflamme.cli.app import app, plain_help

runner = CliRunner()


def command_paths(command: Any, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """``()`` for the program, then every command and subcommand as the words that run it."""
    out = [path]
    if hasattr(command, "commands"):  # a group (Typer's click may be its own copy: no isinstance)
        for name, sub in sorted(command.commands.items()):
            out.extend(command_paths(sub, (*path, name)))
    return out


PATHS = command_paths(typer.main.get_command(app))


def test_every_command_is_reached() -> None:
    assert ("train",) in PATHS and ("bench", "rl") in PATHS and len(PATHS) > 10


@pytest.mark.parametrize("path", PATHS, ids=lambda p: " ".join(p) or "oriflamme")
def test_help_shows_no_double_backticks(path: tuple[str, ...]) -> None:
    result = runner.invoke(app, [*path, "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "``" not in result.output, result.output


def test_the_train_command_names_the_net_bot_plainly() -> None:
    result = runner.invoke(app, ["--help"], env={"COLUMNS": "200"})
    assert "Train a network for the net bot" in result.output


def test_plain_help_drops_only_the_marks() -> None:
    assert (
        plain_help("play it with ``--bots net:OUT``, then ``x``.") == "play it with --bots net:OUT, then x."
    )
    assert plain_help("a `single` mark stays") == "a `single` mark stays"
