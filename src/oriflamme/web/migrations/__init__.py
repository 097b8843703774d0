"""The server database's layout, as Alembic migrations shared by SQLite and PostgreSQL (see :mod:`..schema`)."""
