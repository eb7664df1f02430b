"""The `ledger` command: `ledger serve`, `ledger init-db`, `ledger db upgrade` and Flask's shell."""

from __future__ import annotations

import errno
from pathlib import Path

import click
from flask import Flask, current_app
from flask.cli import FlaskGroup, routes_command, shell_command, with_appcontext
from sqlalchemy.engine import make_url

from ledger import MIGRATIONS, create_app
from ledger.extensions import db
from ledger.network import WILDCARD_HOSTS, is_loopback, lan_address


def ensure_database(app: Flask) -> None:
    """Bring the database up to date with the migrations, so the first start needs no step.

    An empty database gets every table; one made by an older version gets what is new, its
    data kept (Alembic, ledger/migrations). A database whose tables were made without
    migrations (``db.create_all()``, as the tests do) is stamped as current instead.
    """
    from flask_migrate import stamp, upgrade
    from sqlalchemy import inspect

    with app.app_context():
        tables = set(inspect(db.engine).get_table_names())
        if "alembic_version" not in tables and tables and tables >= set(db.metadata.tables):
            stamp(directory=str(MIGRATIONS))
        else:
            upgrade(directory=str(MIGRATIONS))


def open_message(host: str, port: int) -> str:
    """The line that tells the person at the table which address to type into a phone."""
    shown = lan_address() if host in WILDCARD_HOSTS else host
    if is_loopback(shown):
        where = "on this computer"
        if host in WILDCARD_HOSTS:
            where += " (no network was found for a phone to reach it)"
        else:
            where += " (use --host 0.0.0.0 to let phones on the wifi reach it)"
        return f"Pub Ledger is running. Open http://{shown}:{port} {where}."
    if ":" in shown:
        shown = f"[{shown}]"
    return f"Pub Ledger is running. Open http://{shown}:{port} on a phone on the same wifi."


@click.command("serve")
@click.option("--host", default="0.0.0.0", show_default=True, help="Address to listen on.")
@click.option(
    "--port", default=8000, show_default=True, type=click.IntRange(0, 65535), help="TCP port."
)
@click.option(
    "--threads",
    default=4,
    show_default=True,
    type=click.IntRange(1, 256),
    help="Requests handled at once.",
)
@with_appcontext
def serve_command(host: str, port: int, threads: int) -> None:
    """Run Pub Ledger for the phones on the wifi.

    Serves with waitress and creates the database on the first start.
    """
    from waitress import create_server

    app = current_app._get_current_object()  # type: ignore[attr-defined]
    ensure_database(app)
    app.config["LEDGER_LISTEN_HOST"] = host  # the invite page asks (ledger/web/groups.py)
    try:
        server = create_server(app, host=host, port=port, threads=threads, ident="Pub Ledger")
    except OSError as e:
        if e.errno == errno.EADDRINUSE:
            raise click.ClickException(
                f"Port {port} is already in use. Is Pub Ledger already running? "
                f"Try --port {port + 1}."
            ) from e
        raise
    click.echo(open_message(host, getattr(server, "effective_port", port)))
    click.echo("Press Ctrl+C to stop.")
    server.run()


@click.command("init-db")
@with_appcontext
def init_db_command() -> None:
    """Create the database tables that are missing."""
    ensure_database(current_app._get_current_object())  # type: ignore[attr-defined]
    url = make_url(current_app.config["SQLALCHEMY_DATABASE_URI"])
    click.echo(f"The database is ready: {url.render_as_string(hide_password=True)}")


# The app's own commands (serve, init-db) and Flask-Migrate's `db` group are found through
# the app, so `ledger` works without FLASK_APP. Flask's `run` (the development server) is
# left out on purpose: `ledger serve` is the way to run it.
cli = FlaskGroup(
    name="ledger",
    create_app=create_app,
    add_default_commands=False,
    help="Pub Ledger: the score and the money for card games at a pub table.",
)
cli.add_command(shell_command)
cli.add_command(routes_command)


def main() -> None:
    cli.main()


# --- Export, backup and restore (ledger/export.py, ledger/backup.py) ---------------------------
# On the command line the group is named by its slug and no passphrase is asked: whoever runs
# these can read the database file anyway.


def _target(file: str) -> Path:
    """FILE as a path to write to, or a one-line error when its folder is not there (checked
    before anything is read, so a typo costs no export)."""
    path = Path(file)
    if not path.parent.is_dir():
        raise click.ClickException(f"There is no folder {path.parent} to write {path.name} in.")
    return path


def _write(path: Path, data: bytes) -> None:
    try:
        path.write_bytes(data)
    except OSError as e:
        raise click.ClickException(f"{path} cannot be written: {e.strerror or e}.") from e


@click.command("export")
@click.argument("group")
@click.argument("file", type=click.Path(dir_okay=False, writable=True))
@with_appcontext
def export_command(group: str, file: str) -> None:
    """Write GROUP's whole history to FILE as a workbook (GROUP is the group's slug)."""
    from ledger.api.exports import group_export_bytes
    from ledger.backup import find_group
    from ledger.services.errors import ServiceError

    # Like `serve` and `restore`: a database never started has no tables to read yet.
    ensure_database(current_app._get_current_object())  # type: ignore[attr-defined]
    path = _target(file)
    try:
        data = group_export_bytes(find_group(group))
    except ServiceError as e:
        raise click.ClickException(e.message) from e
    _write(path, data)
    click.echo(f"The history of {group} is in {file}.")


@click.command("backup")
@click.argument("group")
@click.argument("file", type=click.Path(dir_okay=False, writable=True))
@with_appcontext
def backup_command(group: str, file: str) -> None:
    """Write everything of GROUP to FILE (JSON), for `ledger restore`."""
    from ledger.backup import backup_group, dumps
    from ledger.services.errors import ServiceError

    ensure_database(current_app._get_current_object())  # type: ignore[attr-defined]
    path = _target(file)
    try:
        text = dumps(backup_group(group))
    except ServiceError as e:
        raise click.ClickException(e.message) from e
    _write(path, text.encode("utf-8"))
    click.echo(f"{group} is backed up in {file}.")


@click.command("restore")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--slug", help="Restore the group under this slug instead of its own.")
@with_appcontext
def restore_command(file: str, slug: str | None) -> None:
    """Put back the group backed up in FILE, with its players, sessions, hands and history."""
    from ledger.backup import loads, restore_group
    from ledger.services.errors import ServiceError

    ensure_database(current_app._get_current_object())  # type: ignore[attr-defined]
    try:
        group = restore_group(loads(Path(file).read_bytes()), slug=slug)
    except ServiceError as e:
        raise click.ClickException(e.message) from e
    click.echo(f"{group.name} is restored as {group.slug}; its passphrase is as it was.")
