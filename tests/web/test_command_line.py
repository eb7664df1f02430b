"""The `ledger` command as a product's: its version, its own commands, quiet migrations, and
one clear sentence for a database it cannot open."""

from __future__ import annotations

import os
import re
import socket
import sys
from collections.abc import Iterator
from importlib.metadata import version

import pytest
from click.testing import CliRunner
from sqlalchemy.engine import make_url

from ledger.cli import cli, show_migrations

KEPT = {"LEDGER_INSTANCE_PATH", "LEDGER_TEST_DATABASE_URL"}


@pytest.fixture
def instance(tmp_path, monkeypatch):
    folder = tmp_path / "instance"
    monkeypatch.setenv("LEDGER_INSTANCE_PATH", str(folder))
    for name in list(os.environ):  # no setting of the developer's or of another test
        if name.startswith("LEDGER_") and name not in KEPT:
            monkeypatch.delenv(name)
    yield folder
    show_migrations(False)  # -v in a test leaves Alembic as quiet as it found it


def ledger(*args: str):
    return CliRunner().invoke(cli, list(args))


def test_version_is_pub_ledgers_own():
    result = ledger("--version")
    assert result.exit_code == 0
    assert result.output == f"Pub Ledger {version('pub-ledger')}\n"


def test_help_lists_pub_ledgers_commands_and_none_of_flasks_plumbing():
    result = ledger("--help")

    assert result.exit_code == 0, result.output
    commands = re.findall(r"^  (\S+)", result.output.split("Commands:")[1], re.MULTILINE)
    assert {"serve", "init-db", "db", "export", "backup", "restore"} <= set(commands)
    assert not {"run", "routes"} & set(commands)
    for flask_option in ("--app", "--env-file", "--debug", "FLASK_APP"):
        assert flask_option not in result.output


def test_migrations_say_nothing_unless_asked(instance):
    quiet = ledger("init-db")
    assert quiet.exit_code == 0, quiet.output
    assert quiet.output == f"The database is ready: sqlite:///{instance / 'ledger.sqlite'}\n"

    (instance / "ledger.sqlite").unlink()
    told = ledger("-v", "init-db")
    assert told.exit_code == 0, told.output
    assert "Running upgrade  -> " in told.output


@pytest.fixture
def closed_port() -> Iterator[int]:
    """A port of 127.0.0.1 that nothing listens on: bound here, never listened on, for as long
    as the test runs (a port let go at once could be taken meanwhile by another test's server,
    pytest-xdist running several at the same time)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        yield s.getsockname()[1]


def one_sentence(result) -> str:
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    return lines[0]


COMMANDS = [
    ["init-db"],
    ["serve", "--port", "0"],
    ["db", "upgrade"],
    ["export", "the-local", "x.xlsx"],
    ["backup", "the-local", "x.json"],
]


def psycopg_installed() -> bool:
    try:
        import psycopg  # noqa: F401
    except ModuleNotFoundError:
        return False
    return True


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
def test_a_postgresql_server_that_is_not_there_is_one_sentence(
    instance, monkeypatch, tmp_path, command, closed_port
):
    monkeypatch.chdir(tmp_path)
    port = closed_port
    url = f"postgresql://pub:hunter2@127.0.0.1:{port}/ledger"
    monkeypatch.setenv("LEDGER_DATABASE_URL", url)

    line = one_sentence(ledger(*command))

    if psycopg_installed():
        assert line == (
            "Error: Pub Ledger cannot open the database "
            f"postgresql+psycopg://pub:***@127.0.0.1:{port}/ledger: Connection refused."
        )
    else:
        assert line.startswith("Error: PostgreSQL needs the psycopg driver")
    assert "hunter2" not in line


def test_postgresql_without_its_driver_says_which_extra_to_install(
    instance, monkeypatch, closed_port
):
    monkeypatch.setitem(sys.modules, "psycopg", None)  # as if it were not installed
    monkeypatch.setenv("LEDGER_DATABASE_URL", f"postgresql://pub@127.0.0.1:{closed_port}/x")

    assert one_sentence(ledger("init-db")) == (
        "Error: PostgreSQL needs the psycopg driver: install Pub Ledger with its postgres "
        "extra (pip install 'pub-ledger[postgres]')."
    )


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
def test_a_database_whose_driver_is_missing_says_which_to_install(instance, monkeypatch, command):
    """Issue 29: a mysql:// URL was a traceback ending in "No module named 'MySQLdb'"."""
    monkeypatch.setitem(sys.modules, "MySQLdb", None)  # as if it were not installed
    monkeypatch.setenv("LEDGER_DATABASE_URL", "mysql://pub:hunter2@127.0.0.1/ledger")

    assert one_sentence(ledger(*command)) == (
        "Error: The database URL (LEDGER_DATABASE_URL) is for mysql, whose Python driver "
        "MySQLdb is not installed: install it beside Pub Ledger (pip install mysqlclient), or "
        "use SQLite or PostgreSQL, which Pub Ledger is made for."
    )


def test_a_database_file_that_cannot_be_made_is_one_sentence(instance, monkeypatch, tmp_path):
    where = tmp_path / "no" / "such" / "folder" / "ledger.sqlite"
    monkeypatch.setenv("LEDGER_DATABASE_URL", f"sqlite:///{where}")

    assert one_sentence(ledger("init-db")) == (
        f"Error: Pub Ledger cannot open the database sqlite:///{where}: "
        "unable to open database file."
    )


def test_a_postgresql_database_that_does_not_exist_is_one_sentence(
    instance, monkeypatch, closed_port
):
    """On the PostgreSQL run (LEDGER_TEST_DATABASE_URL), a database name the server lacks;
    elsewhere a server that is not there, which reads the same."""
    test_url = os.environ.get("LEDGER_TEST_DATABASE_URL")
    if test_url and psycopg_installed():
        url = make_url(test_url).set(database="ledger_no_such_database")
        expected = 'database "ledger_no_such_database" does not exist.'
    else:
        url = make_url(f"sqlite:////{closed_port}/no/such/folder/ledger.sqlite")
        expected = "unable to open database file."
    monkeypatch.setenv("LEDGER_DATABASE_URL", url.render_as_string(hide_password=False))

    line = one_sentence(ledger("init-db"))

    assert line.startswith("Error: Pub Ledger cannot open the database ")
    assert line.endswith(expected)


def test_a_bad_setting_is_one_sentence(instance, monkeypatch):
    monkeypatch.setenv("LEDGER_TRUSTED_PROXY", "perhaps")

    assert one_sentence(ledger("init-db")) == (
        "Error: LEDGER_TRUSTED_PROXY must be 1 or 0 (true or false), not 'perhaps'."
    )


def test_an_instance_folder_it_may_not_write_to_is_one_sentence(monkeypatch, tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    monkeypatch.setenv("LEDGER_INSTANCE_PATH", str(locked / "instance"))
    monkeypatch.delenv("LEDGER_DATABASE_URL", raising=False)
    if os.access(locked, os.W_OK):  # root may write anywhere: the refusal is played then
        monkeypatch.setattr("os.makedirs", denied)
        monkeypatch.setattr("os.mkdir", denied)  # what Path.mkdir calls

    line = one_sentence(ledger("init-db"))

    assert line == f"Error: Pub Ledger may not write to {locked / 'instance'}: permission denied."


def denied(path, *args, **kwargs):
    raise PermissionError(13, "Permission denied", str(path))
