"""Backup and restore: a group restored into another database answers every call as before."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from pypdf import PdfReader
from sqlalchemy import event, func, select

from ledger import create_app
from ledger.backup import (
    NOT_BACKED_UP,
    TABLES,
    BackupError,
    backup_group,
    dumps,
    loads,
    restore_group,
)
from ledger.extensions import db
from ledger.models import GameSession, Group, Hand
from ledger.services.errors import Conflict
from tests.export.history import Table, play_a_history
from tests.export.sheets import load, rows


@contextmanager
def sqlite_app(tmp_path: Path, monkeypatch, name: str) -> Iterator[Flask]:
    """Another app beside the test's own, on a SQLite database of its own."""
    before = str(tmp_path / "instance")
    monkeypatch.setenv("LEDGER_INSTANCE_PATH", str(tmp_path / f"{name}-instance"))
    other = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "WTF_CSRF_ENABLED": False,
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / name}.sqlite",
        }
    )
    monkeypatch.setenv("LEDGER_INSTANCE_PATH", before)
    with other.app_context():
        db.create_all()
    try:
        yield other
    finally:
        with other.app_context():
            db.session.remove()
            for engine in db.engines.values():
                engine.dispose()


def every_answer(app: Flask, table: Table) -> dict[str, tuple[int, Any]]:
    """Every GET of the API for the group: each URL's status and answer, downloads read.

    The calls are the API's own routes, so a GET added later is compared too; a route whose
    parameters this cannot fill fails the test rather than being skipped.
    """
    group = table.get(f"/groups/{table.slug}")
    fill = {
        "slug": [table.slug],
        "session_id": [s["id"] for s in group["sessions"]],
        "name": [p["name"] for p in group["players"]],
        "season_id": [s["id"] for s in table.get(f"/groups/{table.slug}/seasons")["seasons"]],
        # Club evenings (RULES.md §19): tests/export/test_evening_backup.py plays some.
        "evening_id": [e["id"] for e in table.get(f"/groups/{table.slug}/evenings")["evenings"]],
    }
    urls = app.url_map.bind("localhost")
    answers = {}
    for rule in app.url_map.iter_rules():
        if not rule.endpoint.startswith("api.") or "GET" not in (rule.methods or ()):
            continue
        unknown = set(rule.arguments) - set(fill)
        assert not unknown, f"every_answer cannot fill {sorted(unknown)} of {rule.rule}"
        values: list[dict[str, Any]] = [{}]
        for argument in sorted(rule.arguments):
            values = [{**v, argument: x} for v in values for x in fill[argument]]
        for v in values:
            path = urls.build(rule.endpoint, v).removeprefix("/api/v1")
            response = table.call("GET", path)
            answers[path] = (response.status_code, readable(path, response))
    return answers


def readable(path: str, response) -> Any:
    if path.endswith(".xlsx"):
        wb = load(response.data)
        return {ws.title: rows(ws) for ws in wb}
    if path.endswith("backup.json"):
        data = json.loads(response.data)
        data.pop("made_at")
        # A restore gives every row a new id, in the order of the file's: a row deleted at
        # the source (an undone hand) leaves a gap in PostgreSQL's ids there, none here. No
        # row refers to these, so their ids are left out; the others must come out the same.
        for key in ("session_players", "hands", "changes"):
            data[key] = [{k: v for k, v in row.items() if k != "id"} for row in data[key]]
        return data
    if path.endswith(".pdf"):
        pages = PdfReader(io.BytesIO(response.data)).pages
        return [page.extract_text() for page in pages]
    if response.is_json:
        return response.get_json()
    return response.get_data(as_text=True)


def test_a_group_restored_into_another_database_answers_every_call_as_before(
    app, client, tmp_path, monkeypatch
):
    with sqlite_app(tmp_path, monkeypatch, "source") as source:
        made = Table.new_group(source.test_client())
        ids = play_a_history(made)
        before = every_answer(source, made)
        backup = made.call("GET", f"/groups/{made.slug}/backup.json").data

    with app.app_context():
        restored = restore_group(loads(backup))
    assert restored.slug == made.slug
    table = Table(client, made.slug)  # the same passphrase

    assert every_answer(app, table) == before
    players = len(made.get(f"/groups/{made.slug}")["players"])
    # /games, the group's 8 (its stats, tab, seasons, evenings and ratings among them), 11 per
    # session (its two PDFs and its rounds among them), a page and rivals per player, 2 per
    # season.
    assert len(before) == 9 + 11 * len(ids) + 2 * players + 2 * 2

    # The table plays on: new ids do not clash with the restored ones.
    table.hand(ids["spots"], {"Nora": "", "Enda": "K", "John": "2", "Finn": "3"}, out="Nora")
    new = table.new_session("spot", ["Enda", "Ciara"], "Enda")
    assert new == max(ids.values()) + 1
    assert (
        table.ok("POST", f"/groups/{table.slug}/players", {"name": "Dara"}, 201)["id"] == 8
    )  # 6, Ciara, Dara
    assert Table.new_group(client, "Another Table").slug


def test_a_backup_made_here_restores_into_an_empty_database_elsewhere(
    app, client, tmp_path, monkeypatch
):
    made = Table.new_group(client)
    play_a_history(made)
    before = every_answer(app, made)
    with app.app_context():
        text = dumps(backup_group(made.slug))

    with sqlite_app(tmp_path, monkeypatch, "target") as target:
        with target.app_context():
            restore_group(loads(text))
        assert every_answer(target, Table(target.test_client(), made.slug)) == before


def test_a_restore_beside_the_group_itself_takes_new_ids_and_a_new_slug(app, client):
    made = Table.new_group(client)
    ids = play_a_history(made)
    before = every_answer(app, made)
    with app.app_context():
        data = backup_group(made.slug)
        with pytest.raises(Conflict, match="already"):
            restore_group(data)
        copy = restore_group(data, slug="the-local-copy")

    table = Table(client, copy.slug)
    assert every_answer(app, made) == before  # the original is untouched
    group = table.get(f"/groups/{copy.slug}")
    new_ids = [s["id"] for s in group["sessions"]]
    assert len(new_ids) == len(ids) and not set(new_ids) & set(ids.values())

    renamed = dict(zip(ids.values(), new_ids, strict=True))

    def comparable(answer: Any, rename: dict[int, int], top: bool = True) -> Any:
        """An answer without the group's slug, every session id in it (the session's own,
        the settlement's, the pots carried on in the history) renamed by ``rename``. A
        payment's id (the one id nested in these answers) is new too: left out."""
        if isinstance(answer, dict):
            return {
                k: rename.get(v, v)
                if k in ("session", "carried_from", "carried_into") or (top and k == "id")
                else comparable(v, rename, top=False)
                for k, v in answer.items()
                if k not in ("group", "slug") and (top or k != "id")
            }
        if isinstance(answer, list):
            return [comparable(v, rename, top=False) for v in answer]
        return answer

    for old, new in renamed.items():
        for what in ("", "/hands", "/history", "/settlement"):
            a = made.call("GET", f"/sessions/{old}{what}")
            b = table.call("GET", f"/sessions/{new}{what}")
            assert (b.status_code, comparable(b.get_json(), {})) == (
                a.status_code,
                comparable(a.get_json(), renamed),
            )
    # A pot carried from one night into the next follows the new ids.
    with app.app_context():
        carried = db.session.scalar(
            select(GameSession.carried_into_id).where(GameSession.id == new_ids[0])
        )
    assert carried == new_ids[2]


def test_the_backup_holds_the_history_and_the_passphrase_hash_but_no_remembered_login(app, client):
    made = Table.new_group(client)
    ids = play_a_history(made)
    data = json.loads(made.call("GET", f"/groups/{made.slug}/backup.json").data)

    assert data["format"] == "pub-ledger-backup" and data["version"] == 1
    assert data["group"]["slug"] == made.slug
    assert data["group"]["passphrase_hash"].startswith(("scrypt:", "pbkdf2:"))
    assert "failed_logins" not in data["group"]
    assert "credentials" not in data
    assert [s["id"] for s in data["sessions"]] == list(ids.values())
    kinds = {c["kind"] for c in data["changes"]}
    assert {"hand.corrected", "hand.deleted", "player.joined", "player.left"} <= kinds
    assert {"session.created", "hand.created", "session.finished"} <= kinds


def test_every_table_is_either_backed_up_or_left_out_on_purpose():
    backed_up = {"groups"} | {model.__tablename__ for _, model in TABLES}
    assert set(db.metadata.tables) == backed_up | NOT_BACKED_UP


def count_rows(app: Flask) -> tuple[int, int, int]:
    with app.app_context():
        return tuple(
            db.session.scalar(select(func.count()).select_from(model))
            for model in (Group, GameSession, Hand)
        )


def _player_of_another_session(d: dict) -> None:
    """A payment to a player of the group who did not play in the session (Nora)."""
    (payment,) = d["payments"]
    seated = {sp["player_id"] for sp in d["session_players"] if sp["session_id"] == 1}
    payment["payee_id"] = next(p["id"] for p in d["players"] if p["id"] not in seated)


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda d: d.update(format="something else"), "not a Pub Ledger backup"),
        (lambda d: d.update(version=99), "version 99"),
        (lambda d: d["hands"][0].update(session_id=12345), "refers to sessions 12345"),
        (lambda d: d["sessions"][0].update(hands_played="four"), "sessions.hands_played"),
        (lambda d: d["players"][0].pop("name"), "has no name"),
        (lambda d: d["group"].update(slug="Not A Slug"), "cannot be a group's slug"),
        (lambda d: d["sessions"][1]["state"].pop("scores"), "cannot be read back"),
        (lambda d: d["hands"].append(dict(d["hands"][0])), "two rows of hands"),
        # Payments: between two players of a money session, of something, as the app writes.
        (_player_of_another_session, "not between two players of a session played for money"),
        (lambda d: d["payments"][0].update(session_id=2), "not between two players"),  # Rummy
        (lambda d: d["payments"][0].update(payee_id=d["payments"][0]["payer_id"]), "nobody"),
        (lambda d: d["payments"][0].update(units=0), "pays nobody anything"),
        (lambda d: d["payments"][0].update(units=-5), "payments.units"),
        (lambda d: d["payments"][0].update(payer_id=12345), "refers to players 12345"),
        (lambda d: d["payments"][0].update(at="yesterday"), "payments.at"),
        (lambda d: d["payments"][0].update(note="x"), "payments.note"),
        (
            lambda d: next(c for c in d["changes"] if c["kind"] == "payment.recorded")[
                "after"
            ].update(units="lots"),
            "payment.recorded",
        ),
        # Seasons (RULES.md §13): as the app makes and closes them.
        (lambda d: d["seasons"][0].update(first_day="1 May"), "seasons.first_day"),
        (lambda d: d["seasons"][0].update(name=""), "Season 1 .* needs a name"),
        (lambda d: d["seasons"][0]["options"].update(prizes=[50, 30]), "add up to 80 %"),
        (lambda d: d["seasons"][0]["options"].update(extra=1), "not as the app keeps them"),
        (lambda d: d["seasons"][1].update(on_tab=True), "its close is incomplete"),
        (
            lambda d: d["seasons"][0]["closed"]["prizes"][0].update(units=10**6),
            "prizes are not what its pot and options make",
        ),
        (lambda d: d["seasons"][0]["closed"]["nights"][0].update(session=999), "does not hold"),
        (lambda d: d["seasons"][0]["closed"].pop("standings"), "its table is damaged"),
    ],
)
def test_a_damaged_backup_is_refused_and_changes_nothing(app, client, damage, message):
    made = Table.new_group(client)
    play_a_history(made)
    with app.app_context():
        data = backup_group(made.slug)
        db.session.rollback()
    data["group"]["slug"] = "restored-here"
    damage(data)
    counted = count_rows(app)

    with app.app_context(), pytest.raises(BackupError, match=message):
        restore_group(data)
    assert count_rows(app) == counted


def test_a_file_that_is_not_json_is_not_a_backup():
    with pytest.raises(BackupError, match="not JSON"):
        loads(b"PK\x03\x04 a workbook perhaps")
    with pytest.raises(BackupError, match="not a Pub Ledger backup"):
        loads("[1, 2, 3]")


def test_a_hand_entered_while_the_backup_is_read_never_splits_the_session_from_its_hands(
    app, client, tmp_path, monkeypatch
):
    made = Table.new_group(client)
    night = made.new_session("spot", ["Enda", "John", "Rex"], "Enda")
    made.hand(night, {"Enda": "J 10", "John": "A 3", "Rex": "2 9"})
    entered = []

    def a_phone_enters_a_hand(conn, cursor, statement, parameters, context, executemany):
        # Once the backup has read the sessions and is about to read their hands, a phone at
        # the table saves the next hand (on a connection of its own, and commits it).
        if (
            not entered
            and statement.lstrip().upper().startswith("SELECT")
            and ("FROM hands" in statement)
        ):
            entered.append(made.hand(night, {"Enda": "", "John": "K", "Rex": "3"}, out="Enda"))

    with app.app_context():
        event.listen(db.engine, "before_cursor_execute", a_phone_enters_a_hand)
        try:
            data = backup_group(made.slug)
        finally:
            event.remove(db.engine, "before_cursor_execute", a_phone_enters_a_hand)
    assert entered and made.get(f"/sessions/{night}")["hands_played"] == 2

    (session,) = data["sessions"]
    assert [h["number"] for h in data["hands"]] == list(range(1, session["hands_played"] + 1))
    assert len([c for c in data["changes"] if c["kind"] == "hand.created"]) == len(data["hands"])
    with sqlite_app(tmp_path, monkeypatch, "target") as target:
        with target.app_context():
            restore_group(data)
        table = Table(target.test_client(), made.slug)
        table.hand(night, {"Enda": "5", "John": "", "Rex": "6"}, out="John")  # 201, not 500


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda d: d["hands"].pop(), r"played in session 1 \(2\) .* the hands it holds \(1\)"),
        (lambda d: d["sessions"][0].update(hands_played=1), r"session 1 \(1\) .* holds \(2\)"),
        (lambda d: d["hands"][1].update(number=3), "hands of session 1 are not numbered 1 to 2"),
    ],
)
def test_a_backup_whose_session_does_not_count_its_hands_is_refused_naming_the_session(
    app, client, damage, message
):
    made = Table.new_group(client)
    night = made.new_session("spot", ["Enda", "John", "Rex"], "Enda")
    assert night == 1
    made.hand(night, {"Enda": "J 10", "John": "A 3", "Rex": "2 9"})
    made.hand(night, {"Enda": "", "John": "K", "Rex": "3"}, out="Enda")
    with app.app_context():
        data = backup_group(made.slug)
        db.session.rollback()
    data["group"]["slug"] = "restored-here"
    damage(data)
    counted = count_rows(app)

    with app.app_context(), pytest.raises(BackupError, match=message):
        restore_group(data)
    assert count_rows(app) == counted


def test_a_restore_under_new_ids_renames_the_sessions_named_in_the_history(app, client):
    made = Table.new_group(client)
    first = made.new_session("spot", ["Enda", "John"], "Enda")
    made.hand(first, {"Enda": "J 10", "John": "A 3"})  # nobody out: the pot is carried on
    made.ok("POST", f"/sessions/{first}/finish", {"leftover_pot": "carry"})
    second = made.new_session("spot", ["Enda", "John"], "John")
    with app.app_context():
        data = backup_group(made.slug)
        db.session.rollback()
    (carried,) = [c for c in data["changes"] if c["kind"] == "pot.carried"]
    assert carried["after"]["session"] == second
    # A history record of a shape the app never writes is refused (it once was restored as
    # "a later version may write it"; a restore now takes only what this version makes).
    crafted = json.loads(json.dumps(data))
    (record,) = [c for c in crafted["changes"] if c["kind"] == "pot.carried"]
    record["before"] = {"carried_into": None, "pot": 10}
    with app.app_context(), pytest.raises(BackupError, match="nothing called .*pot"):
        restore_group(crafted, slug="the-copy")

    with app.app_context():
        copy = restore_group(data, slug="the-copy")
    table = Table(client, copy.slug)
    first_copy, second_copy = (s["id"] for s in table.get(f"/groups/{copy.slug}")["sessions"])
    assert (first_copy, second_copy) != (first, second)

    history = table.get(f"/sessions/{first_copy}/history")
    pots = [c for c in history if c["kind"] == "pot.carried"]
    assert [c["after"]["session"] for c in pots] == [second_copy]
    assert [c["before"] for c in pots] == [{"carried_into": None}]
    (created,) = [
        c for c in table.get(f"/sessions/{second_copy}/history") if c["kind"] == "session.created"
    ]
    assert created["after"]["carried_from"] == first_copy


def test_a_pot_that_came_back_from_a_deleted_session_restores_and_backs_up_again(app, client):
    """The history of the night that carried its pot names the session deleted since: the
    restore keeps that history (the deleted session's id as null) and takes it again."""
    made = Table.new_group(client)
    first = made.new_session("spot", ["Enda", "John"], "Enda")
    made.hand(first, {"Enda": "J 10", "John": "A 3"})  # nobody out: the pot is carried on
    made.ok("POST", f"/sessions/{first}/finish", {"leftover_pot": "carry"})
    mistake = made.new_session("spot", ["Enda", "John"], "John")
    made.ok("DELETE", f"/sessions/{mistake}", None, 204)
    with app.app_context():
        data = backup_group(made.slug)
        db.session.rollback()
    kinds = [c["kind"] for c in data["changes"]]
    assert kinds.count("pot.carried") == kinds.count("pot.returned") == 1

    # A pot carried into a session not in the file, which never came back, is still refused.
    crafted = json.loads(json.dumps(data))
    crafted["changes"] = [c for c in crafted["changes"] if c["kind"] != "pot.returned"]
    with app.app_context(), pytest.raises(BackupError):
        restore_group(crafted, slug="the-crafted")

    with app.app_context():
        copy = restore_group(data, slug="the-copy")
        again = backup_group(copy.slug)
        db.session.rollback()
        restore_group(again, slug="the-copy-again")
    table = Table(client, copy.slug)
    (copied,) = table.get(f"/groups/{copy.slug}")["sessions"]
    returned = table.get(f"/sessions/{copied['id']}/history")[-1]
    assert returned["kind"] == "pot.returned"
    assert returned["before"] == {"carried_into": None}
    # The pot waits for the next night of the copy as it did in the group.
    following = table.new_session("spot", ["Enda", "John"], "Enda")
    pot = table.get(f"/sessions/{copied['id']}")["pot"]
    assert pot > 0 and table.get(f"/sessions/{following}")["carried_in"] == pot


def test_payments_are_backed_up_and_restored_with_their_players_and_history(app, client):
    made = Table.new_group(client)
    ids = play_a_history(made)
    paid = made.get(f"/sessions/{ids['spot']}/payments")
    assert len(paid) == 1  # one paid, one taken back
    with app.app_context():
        data = backup_group(made.slug)
        db.session.rollback()
    (row,) = data["payments"]
    assert row["units"] == paid[0]["units"]
    kinds = [c["kind"] for c in data["changes"]]
    assert kinds.count("payment.recorded") == 2 and kinds.count("payment.deleted") == 1

    with app.app_context():
        copy = restore_group(data, slug="the-copy")
    table = Table(client, copy.slug)
    new_id = table.get(f"/groups/{copy.slug}")["sessions"][0]["id"]
    (restored,) = table.get(f"/sessions/{new_id}/payments")
    assert {k: v for k, v in restored.items() if k != "id"} == {
        k: v for k, v in paid[0].items() if k != "id"
    }
    # The restored payment can be taken back like any other.
    table.ok("DELETE", f"/sessions/{new_id}/payments/{restored['id']}", status=204)


def test_an_open_nights_plan_and_a_reopened_night_restore_and_a_crafted_plan_is_refused(
    app, client
):
    """Issue 29: an open night's plan for its pot (and a night reopened after its finish)
    is in the backup and comes back; a plan the services never make is refused."""
    made = Table.new_group(client)
    reopened = made.new_session("spot", ["Enda", "John"], "Enda")
    made.hand(reopened, {"Enda": "J 10", "John": "A 3"})  # nobody out: a pot stays
    made.ok("POST", f"/sessions/{reopened}/finish", {"leftover_pot": "refund"})
    made.ok("POST", f"/sessions/{reopened}/reopen", {})
    made.ok("PUT", f"/sessions/{reopened}/pot", {"leftover_pot": "carry", "pot_keeper": "John"})
    with app.app_context():
        data = backup_group(made.slug)
        db.session.rollback()
    (row,) = data["sessions"]
    assert (row["status"], row["leftover_pot"]) == ("open", "carry")

    crafted = json.loads(json.dumps(data))
    crafted["sessions"][0]["leftover_pot"] = "refund"  # a keeper with a refund
    with app.app_context(), pytest.raises(BackupError):
        restore_group(crafted, slug="the-crafted")

    with app.app_context():
        copy = restore_group(data, slug="the-copy")
    table = Table(client, copy.slug)
    (copied,) = table.get(f"/groups/{copy.slug}")["sessions"]
    session = table.get(f"/sessions/{copied['id']}")
    assert (session["leftover_pot"], session["pot_keeper"]) == ("carry", "John")
    kinds = [c["kind"] for c in table.get(f"/sessions/{copied['id']}/history")]
    assert kinds[-2:] == ["session.reopened", "pot.planned"]
    done = table.ok("POST", f"/sessions/{copied['id']}/finish", {})
    assert (done["leftover_pot"], done["pot_keeper"]) == ("carry", "John")
