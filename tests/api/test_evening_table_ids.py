"""A club evening's tables are the nights its draw started, whatever request ids a client sends.

A session's ``request_id`` makes a client's retry safe (API.md: the same id answers the
session it started). A table's night is no client's: the draw finds its tables by its own
rows, so a client that starts a night with any id (even one shaped like the draw's own
``evening-<id>-round-1-table-1``, as the draw used to name its tables) neither becomes a
table nor reaches one, and the group's backup holding such a night restores.
"""

from __future__ import annotations

import json

from ledger.backup import backup_group
from ledger.extensions import db
from tests.api.helpers import Table
from tests.api.test_evenings import evenings, new_evening
from tests.export.history import Table as History
from tests.export.test_evening_backup import evening_answers, given, restored


def _sessions(table: Table | History) -> list[dict]:
    return table.ok("GET", f"/groups/{table.slug}")["sessions"]


def _start(table: Table | History, request_id: str) -> tuple[int, dict]:
    body = {"game": "rummy", "players": ["Zed", "Yan"], "dealer": "Zed"}
    response = table.call(
        "POST", f"/groups/{table.slug}/sessions", {**body, "request_id": request_id}
    )
    return response.status_code, response.get_json()


def test_a_night_a_client_started_with_a_tables_id_is_never_taken_by_the_draw(table):
    evening = new_evening(table, game="spot")
    at = f"{evenings(table)}/{evening['id']}"
    asked = f"evening-{evening['id']}-round-1-table-1"
    status, mine = _start(table, asked)
    assert status == 201

    tables = table.ok("POST", f"{at}/rounds", {}, 201)["tables"]

    # Each table is a night of the evening's game, with the players drawn to it.
    assert mine["id"] not in [t["session"] for t in tables]
    for t in tables:
        night = table.ok("GET", f"/sessions/{t['session']}")
        assert night["game"] == "spot"
        assert [p["name"] for p in night["players"]] == t["players"]
    # The client's night is as it started it, and its retry still answers it.
    assert [p["name"] for p in table.ok("GET", f"/sessions/{mine['id']}")["players"]] == [
        "Zed",
        "Yan",
    ]
    status, again = _start(table, asked)
    assert (status, again["id"]) == (200, mine["id"])


def test_a_client_sending_a_drawn_tables_id_starts_its_own_night(table):
    evening = new_evening(table, game="spot")
    at = f"{evenings(table)}/{evening['id']}"
    tables = table.ok("POST", f"{at}/rounds", {}, 201)["tables"]

    status, mine = _start(table, f"evening-{evening['id']}-round-1-table-1")

    assert status == 201
    assert mine["id"] not in [t["session"] for t in tables]
    assert mine["game"] == "rummy"
    assert len(_sessions(table)) == len(tables) + 1


def test_a_group_with_a_client_night_holding_a_tables_id_restores(app, client):
    table = History.new_group(client)
    evening = new_evening(table, game="spot")
    at = f"{evenings(table)}/{evening['id']}"
    status, mine = _start(table, f"evening-{evening['id']}-round-1-table-1")
    assert status == 201
    table.ok("POST", f"{at}/rounds", {}, 201)
    kept = evening_answers(table), given(table.get(f"/sessions/{mine['id']}"))

    copy = History(client, restored(app, _backup(app, table.slug)))

    night = next(s for s in _sessions(copy) if s["game"] == "rummy")
    assert (evening_answers(copy), given(copy.get(f"/sessions/{night['id']}"))) == kept


def test_a_backup_from_before_gives_its_tables_no_request_id_a_client_could_send(app, client):
    """A file made when the draw named its tables' nights by a request id of its own."""
    table = History.new_group(client)
    evening = new_evening(table, game="spot")
    tables = table.ok("POST", f"{evenings(table)}/{evening['id']}/rounds", {}, 201)["tables"]
    data = _backup(app, table.slug)
    by_session = {t["session_id"]: t for t in data["evening_tables"]}
    for s in data["sessions"]:
        t = by_session[s["id"]]
        s["request_id"] = f"evening-{t['evening_id']}-round-{t['round']}-table-{t['number']}"

    copy = History(client, restored(app, data))

    (again,) = copy.get(f"/groups/{copy.slug}/evenings")["evenings"]
    ids = [t["session"] for t in again["rounds"][0]["tables"]]
    for number in range(1, len(ids) + 1):
        asked = f"evening-{again['id']}-round-1-table-{number}"
        status, mine = _start(copy, asked)
        assert status == 201 and mine["id"] not in ids
    assert len(ids) == len(tables)


def _backup(app, slug: str) -> dict:
    with app.app_context():
        data = json.loads(json.dumps(backup_group(slug)))
        db.session.rollback()
    data["group"]["slug"] = "the-copy"  # restored beside the group
    return data
