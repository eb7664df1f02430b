"""`ledger serve` on a database it has seen before: it brings it up to date and keeps its data."""

from __future__ import annotations

import pytest
from sqlalchemy import create_engine, inspect, text

from ledger import MIGRATIONS
from tests.live.api import Api, hand_entry, new_group, new_spot_session
from tests.live.server import fresh_database, run_ledger, running_server


def migrations():
    from alembic.script import ScriptDirectory

    return ScriptDirectory(str(MIGRATIONS))


def stored_revision(database_url: str) -> str | None:
    """The migration the database says it is at (Alembic's alembic_version), if any."""
    engine = create_engine(database_url)
    try:
        with engine.connect() as connection:
            if not inspect(connection).has_table("alembic_version"):
                return None
            return connection.execute(text("SELECT version_num FROM alembic_version")).scalar()
    finally:
        engine.dispose()


def play_a_little(url: str) -> tuple[Api, int, list]:
    """A group with a session and a hand, and everything the API says about them."""
    api = new_group(url, "Still Here")
    sid = new_spot_session(api, ["Enda", "John", "Rex"], dealer="Rex")["id"]
    entry = hand_entry({"Enda": "J-10", "John": "A-3", "Rex": "2-9"})
    api.ok("POST", f"/sessions/{sid}/hands", entry, 201)
    return api, sid, everything(api, sid)


def everything(api: Api, sid: int) -> list:
    return [
        api.ok("GET", f"/groups/{api.slug}"),
        api.ok("GET", f"/sessions/{sid}"),
        api.ok("GET", f"/sessions/{sid}/hands"),
    ]


def test_a_restarted_server_still_has_the_groups_sessions_and_hands(tmp_path, external_database):
    instance = tmp_path / "instance"
    head = migrations().get_current_head()
    with fresh_database(external_database, tmp_path) as database_url:
        with running_server(instance, database_url) as url:
            api, sid, before = play_a_little(url)
        # Alembic sees the newest migration: the next release applies only what is new.
        assert stored_revision(database_url) == head

        with running_server(instance, database_url) as url:
            again = Api(url, api.slug, api.passphrase)
            assert everything(again, sid) == before
            # …and it carries on where it stopped.
            entry = hand_entry({"Enda": "J-10", "John": "A-3", "Rex": "2-9"})
            assert again.ok("POST", f"/sessions/{sid}/hands", entry, 201)["number"] == 2
        assert stored_revision(database_url) == head


def test_serve_takes_a_database_made_by_ledger_db_upgrade(tmp_path, external_database):
    instance = tmp_path / "instance"
    with fresh_database(external_database, tmp_path) as database_url:
        run_ledger(instance, database_url, "db", "upgrade")
        with running_server(instance, database_url) as url:
            play_a_little(url)
        assert stored_revision(database_url) == migrations().get_current_head()


def test_serve_upgrades_a_database_of_the_previous_schema(tmp_path, external_database):
    script = migrations()
    head = script.get_current_head()
    previous = script.get_revision(head).down_revision
    if previous is None:
        pytest.skip("there is only one migration so far: no older schema to upgrade from")
    instance = tmp_path / "instance"
    with fresh_database(external_database, tmp_path) as database_url:
        run_ledger(instance, database_url, "db", "upgrade", str(previous))
        with running_server(instance, database_url) as url:
            play_a_little(url)
        assert stored_revision(database_url) == head
