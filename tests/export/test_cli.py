"""`ledger export`, `ledger backup` and `ledger restore` on the command line."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from flask import Flask
from sqlalchemy import inspect

from ledger import create_app
from ledger.backup import loads, restore_group
from ledger.extensions import db
from tests.export.history import Table, play_a_history
from tests.export.sheets import csv_rows, load, rows
from tests.export.test_backup import every_answer, sqlite_app


def test_ledger_export_writes_the_groups_workbook(app, client, runner, tmp_path):
    table = Table.new_group(client)
    play_a_history(table)
    path = tmp_path / "history.xlsx"

    result = runner.invoke(args=["export", table.slug, str(path)])

    assert result.exit_code == 0, result.output
    assert f"The history of {table.slug} is in {path}." in result.output
    from_cli = load(path.read_bytes())
    from_api = load(table.ok("GET", f"/groups/{table.slug}/export.xlsx"))
    assert from_cli.sheetnames == from_api.sheetnames
    assert from_cli.sheetnames[:3] == ["Sessions", "Players", "Hands"]  # then one per player
    assert {ws.title: rows(ws) for ws in from_cli} == {ws.title: rows(ws) for ws in from_api}


def test_ledger_export_to_a_csv_file_writes_every_hand_as_the_workbooks_hands_sheet(
    client, runner, tmp_path
):
    table = Table.new_group(client)
    play_a_history(table)
    path = tmp_path / "history.CSV"

    result = runner.invoke(args=["export", table.slug, str(path)])

    assert result.exit_code == 0, result.output
    text = path.read_bytes().decode("utf-8")
    assert text.startswith("\ufeffSession,Id,Game,Hand,")  # Excel reads it as UTF-8
    sheet = rows(load(table.ok("GET", f"/groups/{table.slug}/export.xlsx"))["Hands"])
    lines = csv_rows(text)
    width = len(lines[0])
    assert [[as_text(v) for v in r] + [""] * (width - len(r)) for r in sheet] == lines
    assert len(lines) > 2


def as_text(value) -> str:
    """A cell as CSV writes it: an empty cell as nothing, a time in ISO form."""
    if value is None:
        return ""
    return value.isoformat() if hasattr(value, "isoformat") else str(value)


def test_ledger_export_names_a_group_it_cannot_find(runner, tmp_path):
    result = runner.invoke(args=["export", "no-such-table", str(tmp_path / "x.xlsx")])

    assert result.exit_code != 0
    assert "There is no group no-such-table." in result.output
    assert not (tmp_path / "x.xlsx").exists()


def test_ledger_backup_and_restore_move_a_group_to_another_database(
    app, client, runner, tmp_path, monkeypatch
):
    table = Table.new_group(client)
    play_a_history(table)
    before = every_answer(app, table)
    path = tmp_path / "backup.json"

    path.write_text("an older file, readable by everyone")
    path.chmod(0o644)
    result = runner.invoke(args=["backup", table.slug, str(path)])
    assert result.exit_code == 0, result.output
    assert json.loads(path.read_text(encoding="utf-8"))["group"]["slug"] == table.slug
    # It holds the passphrase's hash: only its owner may read it.
    assert path.stat().st_mode & 0o777 == 0o600

    with sqlite_app(tmp_path, monkeypatch, "elsewhere") as elsewhere:
        result = elsewhere.test_cli_runner().invoke(args=["restore", str(path)])
        assert result.exit_code == 0, result.output
        assert f"The Local is restored as {table.slug}" in result.output
        assert every_answer(elsewhere, Table(elsewhere.test_client(), table.slug)) == before

        again = elsewhere.test_cli_runner().invoke(args=["restore", str(path)])
        assert again.exit_code != 0
        assert "already" in again.output


def test_ledger_restore_can_give_the_group_another_slug(app, client, runner, tmp_path):
    table = Table.new_group(client)
    play_a_history(table)
    path = tmp_path / "backup.json"
    runner.invoke(args=["backup", table.slug, str(path)])

    result = runner.invoke(args=["restore", str(path), "--slug", "the-local-again"])

    assert result.exit_code == 0, result.output
    copy = Table(client, "the-local-again")
    assert copy.get("/groups/the-local-again")["name"] == "The Local"


def test_ledger_restore_refuses_a_file_that_is_not_a_backup(runner, tmp_path):
    path = tmp_path / "notes.json"
    path.write_text('{"hello": "world"}', encoding="utf-8")

    result = runner.invoke(args=["restore", str(path)])

    assert result.exit_code != 0
    assert "This file is not a Pub Ledger backup." in result.output


def test_restore_group_is_the_service_a_web_upload_calls(app, client):
    """restore_group(data) -> GroupRef, for the pages' upload (the web engineer's to wire)."""
    table = Table.new_group(client)
    play_a_history(table)
    raw = table.call("GET", f"/groups/{table.slug}/backup.json").data
    with app.app_context():
        group = restore_group(loads(raw), slug="uploaded")
    assert (group.slug, group.name) == ("uploaded", "The Local")
    assert group.id != 1


@contextmanager
def a_new_database(tmp_path: Path, monkeypatch) -> Iterator[Flask]:
    """The app on a database file nothing has been written to yet: no tables at all."""
    monkeypatch.setenv("LEDGER_INSTANCE_PATH", str(tmp_path / "new-instance"))
    fresh = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'new.sqlite'}",
        }
    )
    try:
        yield fresh
    finally:
        with fresh.app_context():
            db.session.remove()
            for engine in db.engines.values():
                engine.dispose()


def said_in_one_line(result) -> str:
    """The command failed as a command should: a non-zero exit and a one-line error last (after
    what the migrations log on a new database), no traceback."""
    assert result.exit_code != 0
    assert isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    lines = result.output.strip().splitlines()
    assert [line for line in lines if line.startswith("Error")] == lines[-1:], result.output
    return lines[-1]


@pytest.mark.parametrize("command", ["export", "backup"])
def test_export_and_backup_on_a_new_database_say_there_is_no_such_group(
    tmp_path, monkeypatch, command
):
    with a_new_database(tmp_path, monkeypatch) as fresh:
        result = fresh.test_cli_runner().invoke(args=[command, "the-local", str(tmp_path / "x")])

        assert said_in_one_line(result) == "Error: There is no group the-local."
        assert not (tmp_path / "x").exists()
        # The database was brought up to date on the way, as `ledger serve` would.
        with fresh.app_context():
            assert "groups" in inspect(db.engine).get_table_names()


@pytest.mark.parametrize(("command", "name"), [("export", "x.xlsx"), ("backup", "x.json")])
def test_export_and_backup_into_a_folder_that_does_not_exist_say_so(
    client, runner, tmp_path, command, name
):
    table = Table.new_group(client)
    path = tmp_path / "missing_dir" / name

    result = runner.invoke(args=[command, table.slug, str(path)])

    line = said_in_one_line(result)
    assert line == f"Error: There is no folder {path.parent} to write {name} in."
    assert not path.parent.exists()
