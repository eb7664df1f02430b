"""Pub Ledger: the application factory, create_app(), and the steps it takes."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from flask import Flask

# The web stack is imported inside the functions below, not up here: ``import ledger.rules``
# runs this file first, and the card engine, its tests and its benchmarks need no Flask.

PACKAGE = Path(__file__).resolve().parent
MIGRATIONS = PACKAGE / "migrations"


def web_folder(name: str) -> Path:
    """templates/ or static/: inside the package when installed from a wheel (setup.py copies
    them in), else beside the package, in the checkout (an editable install runs from it)."""
    inside = PACKAGE / name
    return inside if inside.is_dir() else PACKAGE.parent / name


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """Build the app. ``test_config`` is applied last, over every other setting."""
    from flask import Flask

    from ledger import ids
    from ledger.config import instance_path, load_config

    app = Flask(
        __name__,
        instance_path=instance_path(),
        instance_relative_config=True,
        template_folder=str(web_folder("templates")),
        static_folder=str(web_folder("static")),
    )
    load_config(app, test_config)
    # Before any route is added: ids in addresses are bounded by what a row can hold.
    ids.init_app(app)
    register_extensions(app)
    register_blueprints(app)
    register_errorhandlers(app)
    register_commands(app)
    return app


def register_extensions(app: Flask) -> None:
    """Bind the extensions of ledger/extensions.py to this app."""
    # (models: its tables must be on db.metadata)
    from ledger import compress, hosting, models, security  # noqa: F401
    from ledger.extensions import babel, csrf, db, init_engine_events, migrate
    from ledger.web import i18n, limits

    db.init_app(app)
    init_engine_events(app)
    # An absolute folder, so `ledger db upgrade` works from any working directory.
    migrate.init_app(app, db, directory=str(MIGRATIONS))
    # First: a restore may send more than MAX_CONTENT_LENGTH, and CSRFProtect reads the form.
    limits.init_app(app)
    csrf.init_app(app)
    # English or Dutch: the language switch's cookie, else the browser's Accept-Language.
    babel.init_app(app, locale_selector=i18n.select_locale)
    # Headers every answer carries, pages, API and static files alike (ledger/security.py).
    security.init_app(app)
    # Gzip for clients that accept it, pages and API alike (ledger/compress.py).
    compress.init_app(app)
    # Behind a reverse proxy, Secure cookies over https, the access log (LEDGER_* settings).
    hosting.init_app(app)


def register_blueprints(app: Flask) -> None:
    """The pages, the health check and the JSON API."""
    from ledger import api, web
    from ledger.extensions import csrf
    from ledger.services import actors
    from ledger.web import assets, health

    web.register_pages(app)
    # /favicon.ico, and static files' versioned URLs with their cache lifetimes.
    assets.init_app(app)
    app.register_blueprint(health.bp)
    app.register_blueprint(api.bp)
    # Who acts (RULES.md §20) is set per request by the pages and the API: never carried on.
    app.teardown_request(lambda _error: actors.forget())
    # The API authenticates every call with Basic auth and sets no cookies (API.md): a
    # forged cross-site request has nothing to ride on, so it needs no CSRF token.
    csrf.exempt(api.bp)


def register_errorhandlers(app: Flask) -> None:
    """Errors answer JSON under /api/ and a friendly page everywhere else."""
    from werkzeug.exceptions import HTTPException

    from ledger.errors import handle_http_exception

    app.register_error_handler(HTTPException, handle_http_exception)


def register_commands(app: Flask) -> None:
    """`ledger serve`, `ledger init-db` (and `flask --app ledger …`)."""
    from ledger import cli

    app.cli.add_command(cli.serve_command)
    app.cli.add_command(cli.init_db_command)
    # A group's workbook, backup and restore (ledger/export/, ledger/backup/).
    app.cli.add_command(cli.export_command)
    app.cli.add_command(cli.backup_command)
    app.cli.add_command(cli.restore_command)
    # The groups by size, and removing one (ledger/services/upkeep.py).
    app.cli.add_command(cli.groups_command)
    app.cli.add_command(cli.remove_group_command)
