"""Alembic's entry point: run the migrations on the connection :func:`oriflamme.web.schema.migrate` passes in."""

from alembic import context

connection = context.config.attributes["connection"]
# Batch mode lets SQLite, which cannot alter most of a table in place, take any later change.
context.configure(connection=connection, target_metadata=None, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
