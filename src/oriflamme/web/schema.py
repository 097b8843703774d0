"""The server database's layout, versioned and migrated with Alembic, for SQLite and PostgreSQL alike.

Every change to the layout is a revision in :mod:`oriflamme.web.migrations`
(``versions/0001_tables.py`` ...), applied in order when a store opens; the
database records the revision it is at (Alembic's ``alembic_version``). A
database written before migrations existed is recognised by its tables and
stamped with the revision it matches, then brought up to date. A database of
a newer server (a revision this one does not know) is refused, not touched.

The stores query with their own drivers (sqlite3, psycopg); SQLAlchemy is
used only to run the migrations.
"""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path
from typing import Any

from .store_errors import StorageError

log = logging.getLogger("oriflamme.web")

MIGRATIONS = Path(__file__).parent / "migrations"
#: The revision every store is brought to.
HEAD = "0008"
#: An arbitrary key, so that servers starting together migrate one at a time (PostgreSQL).
_LOCK = 4242001


def _config(connection: Any) -> Any:
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    return config


def _legacy_revision(connection: Any) -> str | None:
    """For a database written before migrations existed, the revision its tables match; else None."""
    from sqlalchemy import inspect

    inspector = inspect(connection)
    names = set(inspector.get_table_names())
    if "alembic_version" in names or "tables" not in names:
        return None
    columns = {c["name"] for c in inspector.get_columns("tables")}
    return "0002" if "actions_version" in columns else "0001"


def migrate_connection(connection: Any) -> None:
    """Bring the database behind a SQLAlchemy connection to :data:`HEAD`."""
    from alembic import command
    from alembic.util.exc import CommandError

    config = _config(connection)
    legacy = _legacy_revision(connection)
    try:
        if legacy is not None:
            command.stamp(config, legacy)
        before = current_revision(connection)
        command.upgrade(config, HEAD)
    except CommandError as exc:
        if "Can't locate revision" in str(exc):
            raise StorageError(
                f"the database was written by a newer server ({exc}); this one knows revisions up to {HEAD}"
            ) from None
        raise StorageError(f"cannot bring the database up to date: {exc}") from None
    if before != HEAD:
        log.info("database layout brought from %s to revision %s", before or "nothing", HEAD)


def migrate_sqlite(conn: sqlite3.Connection) -> None:
    """Migrate an SQLite database through the store's own connection (``:memory:`` included)."""
    from sqlalchemy import create_engine
    from sqlalchemy.pool import StaticPool

    engine = create_engine("sqlite://", creator=lambda: conn, poolclass=StaticPool)
    with engine.connect() as connection:
        migrate_connection(connection)
        connection.commit()


def migrate_postgres(dsn: str) -> None:
    """Migrate a PostgreSQL database, holding a lock so that servers starting together take turns."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.exc import OperationalError

    url = "postgresql+psycopg://" + dsn.split("://", 1)[1]
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            connection.execute(text("SELECT pg_advisory_lock(:key)"), {"key": _LOCK})
            try:
                migrate_connection(connection)
                connection.commit()
            finally:
                connection.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": _LOCK})
                connection.commit()
    except OperationalError as exc:
        raise StorageError(f"cannot reach the database: {exc.orig}") from None
    finally:
        engine.dispose()


def current_revision(connection: Any) -> str | None:
    """The revision a database is at (None: none recorded)."""
    from alembic.runtime.migration import MigrationContext

    return MigrationContext.configure(connection).get_current_revision()
