"""The `ledger` command: serve, init-db, db (migrations), export, backup, restore, groups,
remove-group.

A plain click group that makes the app itself when a command needs it, so `ledger --help`
lists Pub Ledger's commands and none of Flask's --app/--env-file options. The commands are
also on ``app.cli`` (``flask --app ledger …`` and the tests' ``app.test_cli_runner()``).
"""

from __future__ import annotations

import errno
import logging
import os
import traceback
from pathlib import Path
from typing import Any

import click
from flask import Flask, current_app
from flask.cli import ScriptInfo, shell_command, with_appcontext
from sqlalchemy.engine import make_url

from ledger import MIGRATIONS, create_app
from ledger.extensions import db
from ledger.hosting import quiet_queue
from ledger.network import WILDCARD_HOSTS, is_loopback, lan_address
from ledger.web.limits import RESTORE_LIMIT
from ledger.workers import can_fork, listening_socket, run_workers

DISTRIBUTION = "pub-ledger"
APP_KEY = "ledger.app"  # where the group keeps the app it made, in click's ctx.meta


def version() -> str:
    """The installed distribution's version (pyproject.toml's, in the package metadata)."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed_version

    try:
        return installed_version(DISTRIBUTION)
    except PackageNotFoundError:  # run from a checkout that was never installed
        return "unknown (not installed)"


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


def open_message(host: str, port: int, behind_proxy: bool = False) -> str:
    """The line that tells the person at the table which address to type into a phone."""
    if behind_proxy:
        # The phones' address is the proxy's (https://ledger.example.org); only it knows.
        return (
            f"Pub Ledger is running on http://{host}:{port} for the reverse proxy in front "
            "of it; phones open the proxy's address."
        )
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


def body_limit(app: Flask) -> int:
    """The size in bytes from which the app refuses a request's body: the restore's limit, or
    the app's own (MAX_CONTENT_LENGTH) if a host set it higher. (Read from waitress, a body of
    exactly the limit is refused too: werkzeug's stream answers 413 once it is read to the
    limit.) `ledger serve` has waitress refuse such a body from its headers (413), before a
    byte of it is read or spooled to disk."""
    return max(RESTORE_LIMIT, int(app.config.get("MAX_CONTENT_LENGTH") or 0))


# Connections one server process keeps open at once: phones, each on a scoreboard's page.
CONNECTION_LIMIT = 1000
# Requests one process handles at once. A phone opening a page asks for it and its scripts
# together (six at a time), then polls every three seconds; two phones at once overflowed 4.
# Each thread keeps a PostgreSQL connection of the pool (config.POSTGRES_POOL_SIZE, 10).
DEFAULT_THREADS = 8


def _allow_open_files(wanted: int) -> None:
    """Raise this process's limit of open files towards ``wanted`` (as far as the system's
    hard limit allows): each connection is a file, and the usual soft limit is 1,024."""
    try:
        import resource
    except ImportError:  # not on Windows
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))


@click.command("serve")
@click.option("--host", default="0.0.0.0", show_default=True, help="Address to listen on.")
@click.option(
    "--port", default=8000, show_default=True, type=click.IntRange(0, 65535), help="TCP port."
)
@click.option(
    "--threads",
    default=DEFAULT_THREADS,
    show_default=True,
    type=click.IntRange(1, 256),
    help="Requests handled at once.",
)
@click.option(
    "--workers",
    default=1,
    show_default=True,
    type=click.IntRange(1, 64),
    help="Server processes on the one port, each with --threads threads: one per core "
    "for a busy club's server (Linux and macOS).",
)
@click.option(
    "--trusted-proxy",
    is_flag=True,
    help="Behind one reverse proxy (Caddy, nginx): trust its X-Forwarded-For, -Proto and "
    "-Host headers (LEDGER_TRUSTED_PROXY=1).",
)
@click.option(
    "--access-log",
    is_flag=True,
    help="Log one line per request on stderr (LEDGER_ACCESS_LOG=1). Errors are always logged.",
)
@with_appcontext
def serve_command(
    host: str, port: int, threads: int, workers: int, trusted_proxy: bool, access_log: bool
) -> None:
    """Run Pub Ledger for the phones on the wifi.

    Serves with waitress and creates the database on the first start.
    """
    from waitress import create_server

    if workers > 1 and not can_fork():
        raise click.UsageError("--workers needs Linux or macOS; leave it out on this system.")
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    ensure_database(app)
    app.config["LEDGER_LISTEN_HOST"] = host  # the invite page asks (ledger/web/group/page.py)
    # The flags add to the settings; ledger/hosting.py reads them on each request.
    if trusted_proxy:
        app.config["LEDGER_TRUSTED_PROXY"] = True
    if access_log:
        app.config["LEDGER_ACCESS_LOG"] = True
    behind_proxy = bool(app.config["LEDGER_TRUSTED_PROXY"])
    # The proxy's headers are read by the app (ProxyFix), not also by waitress.
    settings = {
        "threads": threads,
        "ident": "Pub Ledger",
        "clear_untrusted_proxy_headers": False,
        # Every phone on a scoreboard keeps its connection open (it asks every 3 s): a club's
        # tables are more phones than waitress's default of 100 connections, past which new
        # ones wait. poll() watches any number of them (select() stops at 1,024).
        "connection_limit": CONNECTION_LIMIT,
        "asyncore_use_poll": True,
        # Just above the largest body the app takes (a restore's file): a larger one is
        # refused (413) from its headers, never read and spooled to a temporary file first.
        # (waitress refuses a body of this size or more, as the app does; its default is
        # 1 GiB.)
        "max_request_body_size": body_limit(app),
    }
    _allow_open_files(CONNECTION_LIMIT + 100)
    quiet_queue(threads)
    try:
        if workers > 1:
            _serve_workers(app, host, port, workers, settings, behind_proxy)
            return
        server = create_server(app, host=host, port=port, **settings)
    except OSError as e:
        if e.errno == errno.EADDRINUSE:
            raise click.ClickException(
                f"Port {port} is already in use. Is Pub Ledger already running? "
                f"Try --port {port + 1}."
            ) from e
        raise
    click.echo(open_message(host, getattr(server, "effective_port", port), behind_proxy))
    click.echo("Press Ctrl+C to stop.")
    server.run()


def _serve_workers(
    app: Flask, host: str, port: int, workers: int, settings: dict[str, Any], behind_proxy: bool
) -> None:
    """``workers`` processes serving one socket (ledger/workers.py), until stopped."""
    from waitress import create_server

    sock = listening_socket(host, port)
    click.echo(open_message(host, sock.getsockname()[1], behind_proxy))
    click.echo(f"{workers} worker processes. Press Ctrl+C to stop.")
    # No database connection may be shared by two processes: each worker opens its own.
    with app.app_context():
        for engine in db.engines.values():
            engine.dispose()
    run_workers(workers, lambda: create_server(app, sockets=[sock], **settings).run())


@click.command("init-db")
@with_appcontext
def init_db_command() -> None:
    """Create the database tables that are missing."""
    ensure_database(current_app._get_current_object())  # type: ignore[attr-defined]
    url = make_url(current_app.config["SQLALCHEMY_DATABASE_URI"])
    click.echo(f"The database is ready: {url.render_as_string(hide_password=True)}")


class LedgerGroup(click.Group):
    """Runs a command; a database or setting it cannot use ends in one sentence and exit 1."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.ClickException:
            raise
        except Exception as e:
            message = problem_sentence(e, ctx.meta.get(APP_KEY))
            if message is None:
                raise
            raise click.ClickException(message) from e


def problem_sentence(error: BaseException, app: Flask | None = None) -> str | None:
    """What went wrong in one sentence, for the errors a host makes (not for bugs: None)."""
    from sqlalchemy.exc import ArgumentError, NoSuchModuleError, OperationalError

    from ledger.config import ConfigError

    if isinstance(error, ConfigError):
        return str(error)
    if isinstance(error, ModuleNotFoundError) and (error.name or "").startswith("psycopg"):
        return (
            "PostgreSQL needs the psycopg driver: install Pub Ledger with its postgres extra "
            "(pip install 'pub-ledger[postgres]')."
        )
    if isinstance(error, ModuleNotFoundError) and (dialect := _database_dialect(error)):
        return missing_driver(error.name or "", dialect)
    if isinstance(error, PermissionError) and error.filename:
        # Typically the instance folder, made or written by a user that may not (a service
        # account without rights on /var/lib/pub-ledger).
        return f"Pub Ledger may not write to {error.filename}: permission denied."
    if isinstance(error, (ArgumentError, NoSuchModuleError)):
        return f"The database URL cannot be used: {error}."
    if isinstance(error, OperationalError):
        where = shown_database(app)
        return f"Pub Ledger cannot open the database {where}: {database_reason(error)}."
    return None


# The pip package of a database driver SQLAlchemy may look for, where its name differs.
DRIVER_PACKAGES = {"MySQLdb": "mysqlclient", "pymysql": "PyMySQL", "psycopg2": "psycopg2-binary"}


def _database_dialect(error: ModuleNotFoundError) -> str | None:
    """The database SQLAlchemy was looking for a driver of ("mysql"), or None: not that."""
    for frame in traceback.extract_tb(error.__traceback__):
        where = Path(frame.filename)
        if frame.name == "import_dbapi" and where.parent.parent.name == "dialects":
            return where.parent.name
    return None


def missing_driver(module: str, dialect: str) -> str:
    """Which driver a database URL needs and how to install it, in one sentence."""
    package = DRIVER_PACKAGES.get(module, module)
    return (
        f"The database URL (LEDGER_DATABASE_URL) is for {dialect}, whose Python driver {module} "
        f"is not installed: install it beside Pub Ledger (pip install {package}), or use "
        "SQLite or PostgreSQL, which Pub Ledger is made for."
    )


def shown_database(app: Flask | None) -> str:
    """The database URL the app was given, its password hidden."""
    if app is None:
        return "(the app was not made)"
    return make_url(app.config["SQLALCHEMY_DATABASE_URI"]).render_as_string(hide_password=True)


def database_reason(error: Exception) -> str:
    """The driver's own words for why, on one line: "Connection refused", 'database "x"
    does not exist', "unable to open database file"."""
    text = str(getattr(error, "orig", None) or error)
    first = text.strip().splitlines()[0] if text.strip() else "no reason given"
    # psycopg: 'connection failed: connection to server at "…", port 1 failed: <why>'
    reason = first.rsplit("failed: ", 1)[-1]
    reason = reason.removeprefix("FATAL:").strip().rstrip(".")
    return reason or first


def show_migrations(verbose: bool) -> None:
    """Alembic's steps ("Running upgrade …") on stderr with -v; otherwise only its warnings
    and errors, which Python prints anyway."""
    from ledger.hosting import StderrHandler

    logger = logging.getLogger("alembic")  # Alembic gives it a NullHandler of its own
    ours = [h for h in logger.handlers if isinstance(h, StderrHandler)]
    if verbose and not ours:
        handler = StderrHandler()
        handler.setFormatter(logging.Formatter("%(message)s"))
        logger.addHandler(handler)
    elif not verbose:
        for handler in ours:
            logger.removeHandler(handler)
    logger.setLevel(logging.INFO if verbose else logging.WARNING)


@click.group(
    "ledger",
    cls=LedgerGroup,
    context_settings={"help_option_names": ["-h", "--help"]},
)
@click.version_option(
    version=None,
    package_name=DISTRIBUTION,
    prog_name="Pub Ledger",
    message="%(prog)s %(version)s",
)
@click.option("-v", "--verbose", is_flag=True, help="Show the database migrations as they run.")
@click.pass_context
def cli(ctx: click.Context, verbose: bool) -> None:
    """Pub Ledger: the score and the money for card games at a pub table.

    Settings come from instance/config.py and LEDGER_* environment variables
    (docs/configuration.md); LEDGER_INSTANCE_PATH names the folder of the database and the key.
    """
    show_migrations(verbose)

    def make_app() -> Flask:
        app = create_app()
        ctx.meta[APP_KEY] = app  # for the error message, after the command's context is gone
        return app

    # with_appcontext (each command's) makes the app from this when the command runs.
    ctx.obj = ScriptInfo(create_app=make_app, set_debug_flag=False)


def main() -> None:
    cli.main(prog_name="ledger")


# --- Export, backup and restore (ledger/export/, ledger/backup/) ---------------------------
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
    """Write a file only its owner may read: a backup holds the passphrase's hash, and every
    file a group's history (tightened too when it was there before)."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as out:
            os.fchmod(out.fileno(), 0o600)
            out.write(data)
    except OSError as e:
        raise click.ClickException(f"{path} cannot be written: {e.strerror or e}.") from e


@click.command("export")
@click.argument("group")
@click.argument("file", type=click.Path(dir_okay=False, writable=True))
@with_appcontext
def export_command(group: str, file: str) -> None:
    """Write GROUP's whole history to FILE (GROUP is the group's slug): a workbook, or every
    hand as CSV when FILE ends in .csv."""
    from ledger.backup import find_group
    from ledger.export import group_export_csv, group_export_workbook
    from ledger.services import exports
    from ledger.services.errors import ServiceError

    # Like `serve` and `restore`: a database never started has no tables to read yet.
    ensure_database(current_app._get_current_object())  # type: ignore[attr-defined]
    path = _target(file)
    try:
        found = find_group(group)
        if path.suffix.lower() == ".csv":
            data = group_export_csv(exports.group_export(found)).encode("utf-8")
        else:
            data = group_export_workbook(exports.group_book(found))
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


# --- Groups on this server: their sizes, and removing one after abuse --------------------------


@click.command("groups")
@with_appcontext
def groups_command() -> None:
    """List every group, the largest first: its size in hands as LEDGER_GROUP_HANDS counts
    them (every change to a session and every player counts one), hands, sessions, players,
    when it was made and last played."""
    from ledger.services import room, upkeep

    ensure_database(current_app._get_current_object())  # type: ignore[attr-defined]
    found = upkeep.group_sizes()
    most = room.most_hands()
    click.echo(f"{len(found)} groups; each keeps at most {_most(most)} (LEDGER_GROUP_HANDS).")
    if not found:
        return
    click.echo(_row("size", "hands", "sessions", "players", "made", "played", "slug", "name"))
    for g in found:
        made = g.created_at.date().isoformat()
        played = g.last_played.date().isoformat() if g.last_played else "-"
        click.echo(_row(g.size, g.hands, g.sessions, g.players, made, played, g.slug, g.name))


def _row(*cells: object) -> str:
    """A line of `ledger groups`: the numbers right-aligned, the dates in columns."""
    numbers, dates, words = cells[:4], cells[4:6], cells[6:]
    return "  ".join(
        [*(f"{n!s:>8}" for n in numbers), *(f"{d!s:<10}" for d in dates), *map(str, words)]
    )


def _most(most: int) -> str:
    return f"{most} hands" if most > 0 else "any number of hands"


@click.command("remove-group")
@click.argument("slug")
@click.option("--yes", is_flag=True, help="Remove it without asking first.")
@with_appcontext
def remove_group_command(slug: str, yes: bool) -> None:
    """Remove the group SLUG and everything it holds, for good (after abuse, say); asks
    first. `ledger backup SLUG FILE` before it keeps a copy to restore."""
    from ledger.services import upkeep
    from ledger.services.errors import ServiceError

    ensure_database(current_app._get_current_object())  # type: ignore[attr-defined]
    try:
        found = upkeep.group_size(slug)
    except ServiceError as e:
        raise click.ClickException(e.message) from e
    click.echo(
        f"{found.name} ({found.slug}), made {found.created_at.date().isoformat()}: "
        f"{found.sessions} sessions, {found.hands} hands, {found.players} players."
    )
    if not yes and not click.confirm("Remove it and all of its history for good?"):
        raise click.ClickException("Nothing was removed.")
    try:
        upkeep.remove_group(slug)
    except ServiceError as e:
        raise click.ClickException(e.message) from e
    click.echo(f"{found.slug} is removed.")


# The `ledger` group's commands: Pub Ledger's own, Flask-Migrate's `db` and Flask's `shell`
# (a Python prompt inside the app, for a repair by hand). Flask's `run` (the development
# server) and `routes` are left out on purpose: `ledger serve` is the way to run it.
def _add_commands() -> None:
    from flask_migrate.cli import db as db_group

    for command in (
        serve_command,
        init_db_command,
        db_group,
        export_command,
        backup_command,
        restore_command,
        groups_command,
        remove_group_command,
        shell_command,
    ):
        cli.add_command(command)


_add_commands()
