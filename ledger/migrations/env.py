"""Alembic's environment for Flask-Migrate: the app's engine and the models' metadata.

Runs inside the app (``ledger db …`` or ensure_database), so the database is the app's own
whatever the configuration says. Batch mode (``render_as_batch``, set on Migrate in
ledger/extensions.py) lets SQLite alter tables by copying them.
"""

from __future__ import annotations

import logging

from alembic import context
from flask import current_app

config = context.config

# No fileConfig(alembic.ini) here: the `ledger` command sets how much Alembic says (nothing
# but warnings, its steps with `ledger -v`), and the app's own loggers are left alone as
# `ledger serve` upgrades the database in-process before it starts serving.
logger = logging.getLogger("alembic.env")

db = current_app.extensions["migrate"].db
config.set_main_option(
    "sqlalchemy.url", db.engine.url.render_as_string(hide_password=False).replace("%", "%%")
)


def run_migrations_offline() -> None:
    """Write the SQL out (``ledger db upgrade --sql``) instead of running it."""
    context.configure(
        url=config.get_main_option("sqlalchemy.url"),
        target_metadata=db.metadata,
        literal_binds=True,
        **current_app.extensions["migrate"].configure_args,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    def process_revision_directives(context, revision, directives):
        # `ledger db migrate` with no change to the models writes no empty revision.
        if getattr(config.cmd_opts, "autogenerate", False):
            script = directives[0]
            if script.upgrade_ops.is_empty():
                directives[:] = []
                logger.info("No changes in schema detected.")

    conf_args = dict(current_app.extensions["migrate"].configure_args)
    conf_args.setdefault("process_revision_directives", process_revision_directives)
    conf_args.setdefault("compare_type", True)

    with db.engine.connect() as connection:
        sqlite = connection.dialect.name == "sqlite"
        if sqlite:
            # Batch mode alters a SQLite table by copying it and dropping the old one; with
            # foreign keys on (ledger/extensions.py turns them on for every connection), that
            # DROP would cascade and delete the rows that refer to it (a session's hands).
            # SQLite ignores this pragma inside a transaction, so it comes first.
            connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
            connection.commit()
        try:
            context.configure(connection=connection, target_metadata=db.metadata, **conf_args)
            with context.begin_transaction():
                context.run_migrations()
        finally:
            if sqlite:
                connection.exec_driver_sql("PRAGMA foreign_keys=ON")
                connection.commit()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
