"""The skeleton: the factory's configuration, errors, the pages, and `ledger serve` for real."""

from __future__ import annotations

import os
import re
import socket
import stat
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from click.testing import CliRunner
from flask import request
from sqlalchemy import text

from ledger import create_app
from ledger.api.errors import APIError
from ledger.cli import cli, lan_address, open_message
from ledger.config import engine_options, normalise_database_url
from ledger.extensions import db
from ledger.rules.errors import RuleError
from tests.live.server import listening_address


@pytest.fixture
def instance(tmp_path, monkeypatch) -> Path:
    """An empty instance folder named by LEDGER_INSTANCE_PATH, and no other LEDGER_ setting."""
    folder = tmp_path / "instance"
    monkeypatch.setenv("LEDGER_INSTANCE_PATH", str(folder))
    monkeypatch.delenv("LEDGER_DATABASE_URL", raising=False)
    monkeypatch.delenv("LEDGER_SECRET_KEY", raising=False)
    return folder


def add_api_probe(app, view, methods=("POST",)):
    """A route under /api/v1 that the API blueprint's error handlers and CSRF exemption cover.

    The blueprint is shared by every app and takes no routes once registered, so the probe is
    added to the app with an ``api.`` endpoint: Flask treats it as the blueprint's own view.
    """
    app.add_url_rule("/api/v1/_probe", endpoint="api._probe", view_func=view, methods=methods)


# --- Pages and errors ------------------------------------------------------------------------


def test_healthz_answers_ok(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.get_json() == {"status": "ok"}


def test_front_page_is_made_for_a_phone(client):
    response = client.get("/")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert '<meta name="viewport" content="width=device-width' in html
    assert "Pub Ledger" in html
    assert "/static/style.css" in html


def test_stylesheet_follows_the_phones_dark_mode(client):
    response = client.get("/static/style.css")
    assert response.status_code == 200
    assert b"prefers-color-scheme: dark" in response.data
    response.close()


def test_an_unknown_page_shows_a_friendly_html_page(client):
    response = client.get("/no-such-page")
    assert response.status_code == 404
    assert response.content_type.startswith("text/html")
    assert "There is no page at this address." in response.get_data(as_text=True)


def test_an_unknown_api_address_answers_json(client):
    response = client.get("/api/v1/no-such-thing")
    assert response.status_code == 404
    assert response.get_json() == {
        "error": {"message": "There is nothing at this address.", "field": None}
    }


def test_a_wrong_method_under_the_api_answers_json_and_says_what_is_allowed(app, client):
    add_api_probe(app, lambda: "", methods=["POST"])
    response = client.delete("/api/v1/_probe")
    assert response.status_code == 405
    assert response.get_json()["error"]["message"] == (
        "This address does not take a DELETE request."
    )
    assert "POST" in response.headers["Allow"]


def test_malformed_json_answers_400_in_the_error_shape(app, client):
    add_api_probe(app, lambda: request.get_json())
    response = client.post(
        "/api/v1/_probe", data="{not json", headers={"Content-Type": "application/json"}
    )
    assert response.status_code == 400
    assert response.get_json()["error"]["message"]
    assert response.get_json()["error"]["field"] is None


def test_an_api_error_carries_its_message_and_field(app, client):
    def view():
        raise APIError(409, "There is already a player called Rex.", field="name")

    add_api_probe(app, view)
    response = client.post("/api/v1/_probe")
    assert response.status_code == 409
    assert response.get_json() == {
        "error": {"message": "There is already a player called Rex.", "field": "name"}
    }


def test_a_broken_rule_answers_422_with_the_engines_sentence(app, client):
    def view():
        raise RuleError("Two players both have the Q♠ (Rex, Finn).", field="results[1].cards")

    add_api_probe(app, view)
    response = client.post("/api/v1/_probe")
    assert response.status_code == 422
    assert response.get_json() == {
        "error": {
            "message": "Two players both have the Q♠ (Rex, Finn).",
            "field": "results[1].cards",
        }
    }


def test_a_crash_answers_json_500_under_the_api_and_a_page_elsewhere(app, client, monkeypatch):
    def crash():
        raise RuntimeError("boom")

    app.config["PROPAGATE_EXCEPTIONS"] = False
    # The traceback it would log is expected here. The logger ("ledger") is every app's, so
    # it is switched back on after this test, for the tests that check errors are logged.
    monkeypatch.setattr(app.logger, "disabled", True)
    add_api_probe(app, crash, methods=["GET"])
    app.add_url_rule("/crash", view_func=crash)

    api = client.get("/api/v1/_probe")
    assert api.status_code == 500
    assert api.get_json()["error"]["message"] == (
        "Something went wrong on the server. Please try again."
    )

    page = client.get("/crash")
    assert page.status_code == 500
    assert "Something went wrong" in page.get_data(as_text=True)
    assert "boom" not in page.get_data(as_text=True)


def test_forms_need_a_csrf_token_but_the_api_does_not(app, client):
    app.config["WTF_CSRF_ENABLED"] = True
    app.add_url_rule("/form", view_func=lambda: "saved", methods=["POST"])
    add_api_probe(app, lambda: "saved")

    assert client.post("/form").status_code == 400
    assert client.post("/api/v1/_probe").status_code == 200


# --- Configuration ---------------------------------------------------------------------------


def test_settings_come_from_the_environment(instance, tmp_path, monkeypatch):
    url = f"sqlite:///{tmp_path / 'elsewhere.sqlite'}"
    monkeypatch.setenv("LEDGER_DATABASE_URL", url)
    monkeypatch.setenv("LEDGER_SECRET_KEY", "from-the-environment")

    app = create_app()

    assert app.instance_path == str(instance)
    assert instance.is_dir()
    assert app.config["SQLALCHEMY_DATABASE_URI"] == url
    assert app.config["SECRET_KEY"] == "from-the-environment"
    assert not (instance / "secret_key").exists()


def test_by_default_the_database_is_a_sqlite_file_in_the_instance_folder(instance):
    app = create_app()
    assert app.config["SQLALCHEMY_DATABASE_URI"] == f"sqlite:///{instance / 'ledger.sqlite'}"


def test_the_generated_secret_key_is_private_and_kept_across_restarts(instance):
    first = create_app().config["SECRET_KEY"]

    key_file = instance / "secret_key"
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert len(first) >= 32
    assert create_app().config["SECRET_KEY"] == first
    assert [p.name for p in instance.iterdir()] == ["secret_key"]  # no temporary left over


def test_instance_config_py_is_read_and_the_environment_and_tests_override_it(
    instance, monkeypatch
):
    instance.mkdir()
    (instance / "config.py").write_text(
        "SECRET_KEY = 'from-the-file'\n"
        "LEDGER_GREETING = 'Evening all'\n"
        "SQLALCHEMY_DATABASE_URI = 'sqlite:////tmp/from-the-file.sqlite'\n"
    )
    app = create_app()
    assert app.config["LEDGER_GREETING"] == "Evening all"
    assert app.config["SECRET_KEY"] == "from-the-file"

    monkeypatch.setenv("LEDGER_SECRET_KEY", "from-the-environment")
    app = create_app({"SQLALCHEMY_DATABASE_URI": "sqlite:////tmp/from-the-test.sqlite"})
    assert app.config["SECRET_KEY"] == "from-the-environment"
    assert app.config["SQLALCHEMY_DATABASE_URI"] == "sqlite:////tmp/from-the-test.sqlite"


def test_plain_postgres_urls_are_sent_to_psycopg_3():
    assert (
        normalise_database_url("postgres://pub:pint@db.local/ledger")
        == "postgresql+psycopg://pub:pint@db.local/ledger"
    )
    assert (
        normalise_database_url("postgresql://pub@db.local/ledger")
        == "postgresql+psycopg://pub@db.local/ledger"
    )
    assert normalise_database_url("sqlite:////tmp/x.sqlite") == "sqlite:////tmp/x.sqlite"


def test_engine_options_suit_the_database():
    from ledger.cli import serve_command

    postgres = engine_options("postgresql+psycopg://pub@db/ledger", {})
    # A connection dropped by a server restart is replaced before use, not reported.
    assert postgres["pool_pre_ping"] is True
    # Each thread of `ledger serve` keeps a connection: none is opened and closed per request.
    threads = next(p.default for p in serve_command.params if p.name == "threads")
    assert postgres["pool_size"] >= threads
    assert engine_options("postgresql+psycopg://pub@db/ledger", {"pool_size": 3})["pool_size"] == 3
    assert engine_options("sqlite:////tmp/x.sqlite", {})["connect_args"]["timeout"] > 0
    assert engine_options("sqlite://", {"echo": True})["echo"] is True


def test_sqlite_connections_use_wal_and_enforce_foreign_keys(app):
    if app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite"):
        with app.app_context():
            assert db.session.execute(text("PRAGMA journal_mode")).scalar() == "wal"
            assert db.session.execute(text("PRAGMA foreign_keys")).scalar() == 1
    else:
        pytest.skip("the test database is not SQLite")


# --- The `ledger` command --------------------------------------------------------------------


def test_init_db_creates_the_database(runner, app):
    result = runner.invoke(args=["init-db"])
    assert result.exit_code == 0, result.output
    assert "The database is ready" in result.output


def test_the_ledger_command_offers_serve_and_migrations_but_not_the_dev_server(instance):
    result = CliRunner().invoke(cli, ["--help"])
    assert result.exit_code == 0, result.output
    commands = re.findall(r"^  (\S+)", result.output.split("Commands:")[1], re.MULTILINE)
    assert {"serve", "init-db", "db"} <= set(commands)
    assert "run" not in commands


def test_the_lan_address_falls_back_to_this_computer_without_a_network(monkeypatch):
    def unreachable(self, address):
        raise OSError("Network is unreachable")

    monkeypatch.setattr(socket.socket, "connect", unreachable)
    assert lan_address() == "127.0.0.1"


def test_the_open_message_names_an_address_a_phone_can_use(monkeypatch):
    monkeypatch.setattr("ledger.cli.lan_address", lambda: "192.168.1.20")
    assert open_message("0.0.0.0", 8000) == (
        "Pub Ledger is running. Open http://192.168.1.20:8000 on a phone on the same wifi."
    )
    assert "use --host 0.0.0.0" in open_message("127.0.0.1", 8000)


def ledger_command() -> list[str]:
    """The installed `ledger` script beside this Python, else `python -m ledger`."""
    script = Path(sys.executable).with_name("ledger")
    return [str(script)] if script.exists() else [sys.executable, "-m", "ledger"]


def test_ledger_serve_starts_waitress_makes_the_database_and_says_where_to_connect(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LEDGER_", "FLASK_"))}
    env |= {"LEDGER_INSTANCE_PATH": str(tmp_path), "PYTHONUNBUFFERED": "1"}
    log = tmp_path / "stdout.txt"

    # Port 0: the server takes a free port and says which (tests/live/server.py).
    with (
        log.open("w") as stdout,
        subprocess.Popen(
            [*ledger_command(), "serve", "--port", "0"],
            env=env,
            cwd=tmp_path,
            stdin=subprocess.DEVNULL,
            stdout=stdout,
            stderr=subprocess.PIPE,
            text=True,
        ) as server,
    ):
        try:
            status, body = None, None
            deadline = time.monotonic() + 20
            url = listening_address(server, log, deadline)
            while time.monotonic() < deadline and server.poll() is None:
                try:
                    with urllib.request.urlopen(f"{url}/healthz", timeout=1) as response:
                        status, body = response.status, response.read()
                    break
                except (urllib.error.URLError, ConnectionError, TimeoutError):
                    time.sleep(0.05)
        finally:
            server.terminate()
            _, err = server.communicate(timeout=10)

    out = log.read_text()
    assert status == 200, f"no answer from ledger serve\nstdout:\n{out}\nstderr:\n{err}"
    assert body == b'{"status":"ok"}\n'
    port = url.rsplit(":", 1)[1]
    assert re.search(rf"^Pub Ledger is running\. Open http://[\d.]+:{port} ", out, re.MULTILINE)
    assert (tmp_path / "ledger.sqlite").is_file()
    assert stat.S_IMODE((tmp_path / "secret_key").stat().st_mode) == 0o600
