"""The schema's migrations (ledger/migrations): they build exactly the tables of the models."""

from __future__ import annotations

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from flask_migrate import downgrade, upgrade
from sqlalchemy import inspect, text

from ledger import MIGRATIONS, create_app
from ledger.cli import ensure_database
from ledger.extensions import db
from tests.api.helpers import SEED_HAND_1, SEED_HAND_2, Table, hand_of
from tests.api.test_evenings import evenings, new_evening


@pytest.fixture
def empty_app(tmp_path, monkeypatch):
    """The app on a new, empty SQLite file: no create_all, nothing at all."""
    monkeypatch.setenv("LEDGER_INSTANCE_PATH", str(tmp_path / "instance"))
    monkeypatch.delenv("LEDGER_DATABASE_URL", raising=False)
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'migrated.sqlite'}",
        }
    )
    yield app
    with app.app_context():
        db.engine.dispose()


def head() -> str:
    return ScriptDirectory(str(MIGRATIONS)).get_current_head()


def first_revision() -> str:
    """The revision a pub's first database was made at."""
    return ScriptDirectory(str(MIGRATIONS)).get_base()


def differences(app) -> list:
    with app.app_context(), db.engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        return compare_metadata(context, db.metadata)


def stored_revision(app) -> str | None:
    with app.app_context(), db.engine.connect() as connection:
        return connection.execute(text("SELECT version_num FROM alembic_version")).scalar()


def test_the_migrations_on_an_empty_database_make_exactly_the_models_tables(empty_app):
    with empty_app.app_context():
        upgrade(directory=str(MIGRATIONS))

    assert differences(empty_app) == []
    assert stored_revision(empty_app) == head()


def test_the_migrations_go_down_to_nothing_and_up_again(empty_app):
    with empty_app.app_context():
        upgrade(directory=str(MIGRATIONS))
        downgrade(directory=str(MIGRATIONS), revision="base")
        assert set(inspect(db.engine).get_table_names()) == {"alembic_version"}
        upgrade(directory=str(MIGRATIONS))
    assert differences(empty_app) == []


def test_ledger_db_upgrade_makes_the_database(empty_app):
    result = empty_app.test_cli_runner().invoke(args=["db", "upgrade"])
    assert result.exit_code == 0, result.output
    assert stored_revision(empty_app) == head()


def test_serve_brings_an_empty_database_up_to_date_and_keeps_a_used_one(empty_app):
    ensure_database(empty_app)
    assert stored_revision(empty_app) == head()
    client = empty_app.test_client()
    made = client.post("/api/v1/groups", json={"name": "Snug", "passphrase": "pints of plain"})
    assert made.status_code == 201

    ensure_database(empty_app)  # a restart: nothing to do, nothing lost

    with empty_app.app_context(), db.engine.connect() as connection:
        assert connection.execute(text("SELECT name FROM groups")).scalars().all() == ["Snug"]


def test_a_database_made_by_create_all_is_stamped_not_rebuilt(empty_app):
    with empty_app.app_context():
        db.create_all()

    ensure_database(empty_app)

    assert stored_revision(empty_app) == head()
    assert differences(empty_app) == []


def a_night_at_the_table(table: Table) -> list[int]:
    """A Spot night (a join, a correction, an undo, finished with the pot carried), the Spot
    session that took the pot up, and a game of Rummy: their ids."""
    spot = table.session()["id"]
    table.hand(spot, {**SEED_HAND_1, "request_id": "first"})
    table.ok("POST", f"/sessions/{spot}/players", {"name": "Maeve", "after": "Finn"}, 201)
    table.hand(spot, hand_of({"John": "5-5-6", "Rex": "K", "Finn": "3-5", "Maeve": "2"}, "Enda"))
    nobody_out = hand_of({"Enda": "2", "John": "3", "Rex": "4", "Finn": "5", "Maeve": "6"})
    table.hand(spot, nobody_out)
    table.ok("PUT", f"/sessions/{spot}/hands/1", SEED_HAND_2)
    table.ok("DELETE", f"/sessions/{spot}/hands/3", status=204)
    table.hand(spot, nobody_out)
    table.ok("POST", f"/sessions/{spot}/finish", {"leftover_pot": "carry"})
    following = table.session()["id"]
    rummy = table.session(["Enda", "John", "Rex"], dealer="Enda", game="rummy")["id"]
    table.hand(rummy, hand_of({"John": "K Q", "Rex": "5"}, out="Enda"))
    return [spot, following, rummy]


def seen(table: Table, sessions: list[int]) -> list:
    """Everything the API shows of the group and these sessions (the first one for money)."""
    answers = [table.ok("GET", f"/groups/{table.slug}")]
    for sid in sessions:
        for suffix in ["", "/hands", "/history"]:
            answers.append(table.ok("GET", f"/sessions/{sid}{suffix}"))
    answers.append(table.ok("GET", f"/sessions/{sessions[0]}/settlement"))
    return answers


@pytest.mark.parametrize("how", ["ledger serve", "ledger db upgrade"])
def test_an_upgrade_keeps_every_group_session_hand_and_change(empty_app, how):
    empty_app.config["LEDGER_PASSPHRASE_HASH"] = "pbkdf2:sha256:1000"  # see tests/conftest.py
    # The rows are written by today's app, then the database is taken back to the first
    # schema (each revision's downgrade drops what it added, the rows stay): a database as
    # the first version of the app left it, with a night in it.
    with empty_app.app_context():
        upgrade(directory=str(MIGRATIONS))
    table = Table(empty_app.test_client())
    sessions = a_night_at_the_table(table)
    before = seen(table, sessions)
    with empty_app.app_context():
        downgrade(directory=str(MIGRATIONS), revision=first_revision())
    assert stored_revision(empty_app) == first_revision() != head()

    if how == "ledger serve":
        ensure_database(empty_app)
    else:
        result = empty_app.test_cli_runner().invoke(args=["db", "upgrade"])
        assert result.exit_code == 0, result.output

    assert stored_revision(empty_app) == head()
    assert differences(empty_app) == []
    assert seen(table, sessions) == before
    # And the night goes on: the session that took the pot up takes a hand on it.
    carried = table.ok("GET", f"/sessions/{sessions[1]}")["carried_in"]
    assert carried > 0
    assert table.hand(sessions[1], SEED_HAND_1)["pot_before"] == carried + 4 * 5


# --- Ids never reused, on a database made any way (issue 36) ----------------------------------


def earlier_revisions() -> list[str]:
    """Every revision before the head, oldest first."""
    script = ScriptDirectory(str(MIGRATIONS))
    return [r.revision for r in reversed(list(script.walk_revisions()))][:-1]


def tables_without_autoincrement(app) -> list[str]:
    """The tables whose model keeps ids once (sqlite_autoincrement) but whose SQLite table
    does not say AUTOINCREMENT."""
    wanted = [
        t.name for t in db.metadata.sorted_tables if t.dialect_options["sqlite"]["autoincrement"]
    ]
    assert {"groups", "sessions", "payments", "tab_payments"} <= set(wanted)
    with app.app_context(), db.engine.connect() as connection:
        made = dict(connection.execute(text("SELECT name, sql FROM sqlite_master")).all())
    return [t for t in wanted if "AUTOINCREMENT" not in (made.get(t) or "").upper()]


def a_deleted_nights_id_comes_back(app) -> bool:
    """A night started, deleted and started again: does the new one get the deleted one's id
    (its address, and the page kept for it)?"""
    app.config["LEDGER_PASSPHRASE_HASH"] = "pbkdf2:sha256:1000"
    table = Table(app.test_client())
    first = table.session()["id"]
    table.ok("DELETE", f"/sessions/{first}", status=204)
    again = table.session()
    return again["id"] == first


def test_ledger_serve_on_an_empty_folder_never_reuses_an_id(empty_app):
    ensure_database(empty_app)  # what `ledger serve` does first

    assert tables_without_autoincrement(empty_app) == []
    assert not a_deleted_nights_id_comes_back(empty_app)


def test_ledger_init_db_never_reuses_an_id(empty_app):
    result = empty_app.test_cli_runner().invoke(args=["init-db"])
    assert result.exit_code == 0, result.output

    assert tables_without_autoincrement(empty_app) == []
    assert not a_deleted_nights_id_comes_back(empty_app)


@pytest.mark.parametrize("revision", earlier_revisions())
def test_an_upgrade_from_every_earlier_revision_never_reuses_an_id(empty_app, revision):
    with empty_app.app_context():
        upgrade(directory=str(MIGRATIONS), revision=revision)
    assert stored_revision(empty_app) == revision

    ensure_database(empty_app)

    assert stored_revision(empty_app) == head()
    assert tables_without_autoincrement(empty_app) == []
    assert not a_deleted_nights_id_comes_back(empty_app)


def test_the_nights_there_are_get_their_numbers_in_start_order_per_game_and_name(empty_app):
    """Migration a4c7e2f9b1d3: a database from before nights had numbers gets them, each
    game counted apart and an Any game per name (Hearts and Whist are two games)."""
    empty_app.config["LEDGER_PASSPHRASE_HASH"] = "pbkdf2:sha256:1000"
    with empty_app.app_context():
        upgrade(directory=str(MIGRATIONS))
    table = Table(empty_app.test_client())
    made = [
        table.session(["Enda", "John"], dealer="Enda", game="tally", name=name)["id"]
        for name in ("Hearts", "Whist", "Hearts")
    ]
    made += [
        table.session()["id"],
        table.session(["Enda", "John"], dealer="Enda", game="tally")["id"],
    ]
    with empty_app.app_context():
        downgrade(directory=str(MIGRATIONS), revision="f3b8e1c2a7d9")
        assert "number" not in {c["name"] for c in inspect(db.engine).get_columns("sessions")}

    ensure_database(empty_app)

    numbers = [table.ok("GET", f"/sessions/{sid}")["number"] for sid in made]
    assert numbers == [1, 1, 2, 1, 1]  # Hearts 1, Whist 1, Hearts 2, Spot 1, unnamed 1
    assert table.session()["number"] == 2  # and the next Spot night goes on from them


def test_changes_from_before_who_made_them_was_kept_name_nobody_and_new_ones_name_them(empty_app):
    """Migration c4e9a7b2d1f6 (RULES.md §20): the history written before it names nobody (by
    null, "a phone"); a change after it names the player the call gave."""
    empty_app.config["LEDGER_PASSPHRASE_HASH"] = "pbkdf2:sha256:1000"
    with empty_app.app_context():
        upgrade(directory=str(MIGRATIONS))
    table = Table(empty_app.test_client())
    spot = table.session()["id"]
    table.hand(spot, {**SEED_HAND_1, "by": "Rex"})
    with empty_app.app_context():
        downgrade(directory=str(MIGRATIONS), revision="d8e2b6a4c9f1")
        columns = {c["name"] for c in inspect(db.engine).get_columns("changes")}
        assert not {"by_id", "phone_id"} & columns
        upgrade(directory=str(MIGRATIONS))
    assert differences(empty_app) == []
    assert [c["by"] for c in table.ok("GET", f"/sessions/{spot}/history")] == [None, None]
    table.hand(spot, {**SEED_HAND_2, "by": "finn"})
    history = table.ok("GET", f"/sessions/{spot}/history")
    assert [(c["kind"], c["by"]) for c in history][-1] == ("hand.created", "Finn")


def test_an_upgrade_takes_the_ids_the_draw_gave_off_its_tables(empty_app):
    """Migration e7a1c5d9b3f2: the tables drawn before it held the draw's own request ids; a
    client sending one afterwards starts a night of its own."""
    empty_app.config["LEDGER_PASSPHRASE_HASH"] = "pbkdf2:sha256:1000"
    with empty_app.app_context():
        upgrade(directory=str(MIGRATIONS))
    table = Table(empty_app.test_client())
    evening = new_evening(table, game="spot")
    body = {"game": "rummy", "players": ["Zed", "Yan"], "dealer": "Zed"}
    tables = table.ok("POST", f"{evenings(table)}/{evening['id']}/rounds", {}, 201)["tables"]
    with empty_app.app_context():
        downgrade(directory=str(MIGRATIONS), revision="c4e9a7b2d1f6")
        db.session.execute(
            text(
                "UPDATE sessions SET request_id = 'evening-' || ("
                "SELECT evening_id || '-round-' || round || '-table-' || number "
                "FROM evening_tables WHERE session_id = sessions.id)"
            )
        )
        db.session.commit()
        upgrade(directory=str(MIGRATIONS))
    assert differences(empty_app) == []

    drawn = [t["session"] for t in tables]
    for t in tables:
        asked = f"evening-{evening['id']}-round-1-table-{t['table']}"
        mine = table.ok(
            "POST", f"/groups/{table.slug}/sessions", {**body, "request_id": asked}, 201
        )
        assert mine["id"] not in drawn
