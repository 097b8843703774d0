"""``oriflamme backup``: a consistent copy of the server's SQLite database, taken while it runs.

SQLite's online backup copies the database page by page under its own
locks, so the copy is a database as it was at one moment, with every
committed action and none half-written, even while the server writes. The
copy is written to a temporary file beside the target and renamed into place,
so an interrupted backup never leaves a damaged file under the target's name.

Restoring is starting a server on the copy (``oriflamme serve --db COPY``)
or, with the server stopped, putting the copy where the database was. A
PostgreSQL database is backed up with PostgreSQL's own ``pg_dump`` (see the
README).
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from pathlib import Path
from typing import Annotated

import typer

from ..commandline import fail, needs_extra


def backup_sqlite(source: Path, target: Path) -> tuple[int, int]:
    """Copy the database ``source`` to ``target`` (which must not exist); return its tables and actions.

    Raises :class:`ValueError` saying what is wrong: a missing source, an
    existing target, a file that is not a server database.
    """
    if not source.is_file():
        raise ValueError(f"no database at {source}")
    if target.exists():
        raise ValueError(f"{target} exists; give a new file name (a backup never overwrites)")
    scratch = target.with_name(f".{target.name}.partial")
    try:
        # Read-only: a backup must not create or change anything in the source.
        with contextlib.closing(sqlite3.connect(f"file:{source}?mode=ro", uri=True)) as src:
            try:
                tables = src.execute("SELECT count(*) FROM tables").fetchone()[0]
                actions = src.execute("SELECT count(*) FROM actions").fetchone()[0]
            except sqlite3.DatabaseError as exc:
                raise ValueError(f"{source} is not a games database of this server ({exc})") from None
            with contextlib.closing(sqlite3.connect(scratch)) as dst:
                src.backup(dst)
        os.replace(scratch, target)
    finally:
        with contextlib.suppress(FileNotFoundError):
            scratch.unlink()
    return int(tables), int(actions)


def backup_command(
    target: Annotated[Path, typer.Argument(help="The file to write the copy to (must not exist).")],
    db: Annotated[
        Path | None,
        typer.Option(
            help="The server's SQLite database (default: games.sqlite3 in your user data directory)."
        ),
    ] = None,
) -> None:
    """Copy the web server's games database, consistently, even while the server runs."""
    needs_extra("web", "backup")
    from .serve import default_db

    source = db if db is not None else default_db()
    try:
        tables, actions = backup_sqlite(source, target)
    except (ValueError, OSError) as exc:
        raise fail(
            str(exc) if isinstance(exc, ValueError) else f"cannot write {target}: {exc.strerror}"
        ) from None
    typer.echo(f"{target}: {tables} tables, {actions} actions (restore: oriflamme serve --db {target})")
