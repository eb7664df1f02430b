"""The games of RULES.md §8–§12 in a backup: every field of their entries, outcomes and states
restores, Kaluki's buy-ins with them; a crafted buy-in is refused by the restore's replay."""

from __future__ import annotations

import json
from typing import Any

import pytest
from sqlalchemy import func, select

from ledger.backup import BackupError, backup_group, restore_group
from ledger.extensions import db
from ledger.models import GameSession
from tests.export.history import Table


def _post(table: Table, path: str, body: dict[str, Any], status: int = 201) -> Any:
    return table.ok("POST", path, body, status)


def play_new_games(table: Table) -> dict[str, int]:
    """A finished Gin game, a Rummy 500 hand, Kaluki with a buy-in kept in a hand and one
    waiting in the session, Jokeren, and Any game with a player sitting out."""
    ids = {}
    ids["gin"] = table.new_session("gin", ["Ann", "Bob"], "Bob", target=10, stake=1)
    _post(table, f"/sessions/{ids['gin']}/hands", {"ending": "draw", "results": []})
    _post(table, f"/sessions/{ids['gin']}/hands", {"ending": "knock", "out": "Ann", "results": [
        {"player": "Ann", "cards": "2C"}, {"player": "Bob", "cards": "KS QS"}]})  # fmt: skip
    ids["rummy500"] = table.new_session("rummy500", ["Ann", "Bob"], "Bob")
    _post(table, f"/sessions/{ids['rummy500']}/hands", {"out": "Ann", "results": [
        {"player": "Ann", "melded": "AH 2H 3H", "low_aces": 1},
        {"player": "Bob", "melded_points": 0, "cards": "5D"}]})  # fmt: skip
    ids["kaluki"] = sid = table.new_session("kaluki", ["Ann", "Bob", "Cas"], "Cas", entry="totals")
    for bob in (160, 170):
        _post(table, f"/sessions/{sid}/hands", {"out": "Ann", "results": [
            {"player": "Bob", "spots": bob}, {"player": "Cas", "spots": 20}]})  # fmt: skip
        _post(table, f"/sessions/{sid}/buy_in", {"player": "Bob"}, 200)
    ids["jokeren"] = table.new_session("jokeren", ["Ann", "Bob"], "Bob")
    _post(table, f"/sessions/{ids['jokeren']}/hands", {"out": "Ann", "results": [
        {"player": "Bob", "cards": "JK 2C"}]})  # fmt: skip
    ids["tally"] = table.new_session("tally", ["Ann", "Bob", "Cas"], "Cas", name="Whist")
    _post(table, f"/sessions/{ids['tally']}/hands", {"results": [
        {"player": "Ann", "points": -4}, {"player": "Bob", "points": 9},
        {"player": "Cas", "sitting_out": True}]})  # fmt: skip
    return ids


@pytest.fixture
def backup(app, client) -> tuple[Table, dict[str, int], dict[str, Any]]:
    made = Table.new_group(client)
    ids = play_new_games(made)
    with app.app_context():
        data = backup_group(made.slug)
        db.session.rollback()
    return made, ids, json.loads(json.dumps(data))


def test_the_new_games_restore_and_answer_as_before(app, client, backup):
    made, ids, data = backup
    with app.app_context():
        copy = restore_group(data, slug="the-copy")
    table = Table(client, copy.slug)
    new_ids = [s["id"] for s in table.get(f"/groups/{copy.slug}")["sessions"]]

    for old, new in zip(ids.values(), new_ids, strict=True):
        for what in ("", "/hands"):
            before, after = made.get(f"/sessions/{old}{what}"), table.get(f"/sessions/{new}{what}")
            strip = ("id", "group")
            if what == "":
                before = {k: v for k, v in before.items() if k not in strip}
                after = {k: v for k, v in after.items() if k not in strip}
            assert after == before
    kaluki = table.get(f"/sessions/{new_ids[2]}")
    assert kaluki["buy_ins"] == {"Bob": 2} and kaluki["pot"] == 500
    # The buy-in waiting in the restored session goes with the undo of its hand.
    table.ok("DELETE", f"/sessions/{new_ids[2]}/hands/2", status=204)
    assert table.get(f"/sessions/{new_ids[2]}")["buy_ins"] == {"Bob": 1}


def _kaluki(data: dict[str, Any], ids: dict[str, int]) -> dict[str, Any]:
    return next(s for s in data["sessions"] if s["id"] == ids["kaluki"])


def _sessions(app) -> int:
    with app.app_context():
        count = db.session.scalar(select(func.count()).select_from(GameSession))
        db.session.rollback()
    return count


@pytest.mark.parametrize(
    "craft",
    [
        {"player": "Ann", "after_hand": 2, "units": 100, "total": 20},  # Ann was never out
        {"player": "Bob", "after_hand": 2, "units": 1, "total": 20},  # a cheaper buy-in
        {"player": "Bob", "after_hand": 2, "units": 100, "total": 0},  # back in at nothing
        {"player": "Bob", "after_hand": 1, "units": 100, "total": 20},  # not after this hand
    ],
)
def test_a_crafted_buy_in_is_refused_by_the_replay(app, backup, craft):
    _, ids, data = backup
    session = _kaluki(data, ids)
    session["seating"] = [{"buy_in": craft}]
    before = _sessions(app)

    with app.app_context(), pytest.raises(BackupError) as refusal:
        restore_group(data, slug="the-copy")

    assert f"ession {ids['kaluki']}" in refusal.value.message
    assert _sessions(app) == before


def test_a_buy_in_of_the_wrong_shape_is_refused(app, backup):
    _, ids, data = backup
    _kaluki(data, ids)["seating"] = [{"buy_in": {"player": "Bob", "units": "lots"}}]
    with app.app_context(), pytest.raises(BackupError):
        restore_group(data, slug="the-copy")
