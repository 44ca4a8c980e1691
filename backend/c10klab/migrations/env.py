"""Alembic's entry point. The course runs it from c10klab.db.migrate() with a connection
already in a transaction and holding the migration lock; `alembic` on the command line (for a
developer writing a migration) gets one from C10K_DATABASE_URL instead."""

import os

from alembic import context
from sqlalchemy import Connection, create_engine

from c10klab.db import database_url
from c10klab.schema import metadata


def run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=metadata,
        # SQLite alters a table by copying it; Alembic's batch mode does that for us.
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()


connection = context.config.attributes.get("connection")
if connection is not None:
    run(connection)
else:
    engine = create_engine(database_url(os.environ["C10K_DATABASE_URL"]))
    with engine.begin() as fresh:
        run(fresh)
