"""Boerenbridge and Klaverjassen in the files a group keeps: a backup restores both (the bids
saved before a round replayed where they were made), the workbooks and the stats read them, a
renamed player keeps their saved bid, and a crafted saved bid is refused by the replay."""

from __future__ import annotations

import json
from typing import Any

import pytest

from ledger import services
from ledger.backup import BackupError, backup_group, restore_group
from ledger.extensions import db
from tests.export.history import PASSPHRASE, Table
from tests.export.sheets import load, rows

SEATS = ["Ann", "Bob", "Cas", "Dee"]


def play_trick_games(table: Table) -> dict[str, int]:
    """Two rounds of Boerenbridge (bids saved first; the third round's bids saved and waiting)
    and two hands of Klaverjassen, one of them nat."""
    ids = {"boerenbridge": table.new_session("boerenbridge", SEATS, "Ann", max_cards=4)}
    sid = ids["boerenbridge"]
    rounds = [({"Bob": 0, "Cas": 1, "Dee": 0, "Ann": 0}, {"Cas": 1}),
              ({"Cas": 1, "Dee": 1, "Ann": 0, "Bob": 1}, {"Cas": 1, "Ann": 1})]  # fmt: skip
    for bids, tricks in rounds:
        table.ok("PUT", f"/sessions/{sid}/bids", {"bids": bids})
        results = [{"player": p, "tricks": tricks.get(p, 0)} for p in SEATS]
        table.ok("POST", f"/sessions/{sid}/hands", {"results": results}, 201)
    table.ok("PUT", f"/sessions/{sid}/bids", {"bids": {"Dee": 2, "Ann": 1, "Bob": 0, "Cas": 1}})
    ids["klaverjassen"] = kid = table.new_session("klaverjassen", SEATS, "Dee", hands=2)
    for playing, points, roem in ((1, 100, 20), (1, 70, 20)):
        body = {"playing": playing, "teams": [{"team": 1, "points": points, "roem": roem}]}
        table.ok("POST", f"/sessions/{kid}/hands", body, 201)
    return ids


@pytest.fixture
def played(app, client) -> tuple[Table, dict[str, int], dict[str, Any]]:
    made = Table.new_group(client)
    ids = play_trick_games(made)
    with app.app_context():
        data = backup_group(made.slug)
        db.session.rollback()
    return made, ids, json.loads(json.dumps(data))


def test_the_trick_games_restore_and_answer_as_before(app, client, played):
    made, ids, data = played
    with app.app_context():
        copy = restore_group(data, slug="the-copy")
    table = Table(client, copy.slug)
    new_ids = [s["id"] for s in table.get(f"/groups/{copy.slug}")["sessions"]]
    for old, new in zip(ids.values(), new_ids, strict=True):
        for what in ("", "/hands"):
            before, after = made.get(f"/sessions/{old}{what}"), table.get(f"/sessions/{new}{what}")
            if what == "":
                before = {k: v for k, v in before.items() if k not in ("id", "group")}
                after = {k: v for k, v in after.items() if k not in ("id", "group")}
            assert after == before
    restored = table.get(f"/sessions/{new_ids[0]}")
    assert restored["round"]["bids"] == {"Dee": 2, "Ann": 1, "Bob": 0, "Cas": 1}
    klaver = table.get(f"/sessions/{new_ids[1]}")
    assert [t["score"] for t in klaver["teams"]] == [120, 62 + 182]


def test_a_crafted_saved_bid_is_refused_by_the_replay(app, played):
    _, ids, data = played
    session = next(s for s in data["sessions"] if s["id"] == ids["boerenbridge"])
    session["seating"] = [{"call": "bids", "body": {"bids": {"Dee": 9, "Ann": 1, "Bob": 0}}}]
    with app.app_context(), pytest.raises(BackupError):
        restore_group(data, slug="the-copy")


def test_a_klaverjassen_entry_with_a_field_of_another_game_is_refused(app, played):
    _, ids, data = played
    hand = next(h for h in data["hands"] if h["session_id"] == ids["klaverjassen"])
    hand["entry"]["results"] = [{"player": "Ann", "cards": "AS"}]
    with app.app_context(), pytest.raises(BackupError):
        restore_group(data, slug="the-copy")


def test_the_workbooks_and_stats_read_the_trick_games(client, played):
    made, ids, _ = played
    for sid in ids.values():
        response = client.get(f"/api/v1/sessions/{sid}/export.xlsx", headers=made.headers)
        assert response.status_code == 200
        summary = rows(load(response.data)["Summary"])
        assert summary
    klaver = made.get(f"/sessions/{ids['klaverjassen']}")
    assert klaver["status"] == "finished" and klaver["winners"] == ["Bob", "Dee"]
    stats = made.get(f"/groups/{made.slug}/stats")
    assert stats


def test_a_renamed_player_keeps_their_saved_bid(app, client, played):
    made, ids, _ = played
    players = {p["name"]: p["id"] for p in made.get(f"/groups/{made.slug}")["players"]}
    with app.app_context():
        group = services.authenticate(made.slug, PASSPHRASE)
        services.rename_player(group, players["Dee"], "Deirdre")
    session = made.get(f"/sessions/{ids['boerenbridge']}")
    assert session["round"]["bids"]["Deirdre"] == 2 and "Dee" not in session["round"]["bids"]
    results = [{"player": p, "tricks": n} for p, n in
               (("Ann", 0), ("Bob", 0), ("Cas", 1), ("Deirdre", 2))]  # fmt: skip
    hand = made.ok("POST", f"/sessions/{ids['boerenbridge']}/hands", {"results": results}, 201)
    assert {r["player"]: r["points"] for r in hand["results"]}["Deirdre"] == 14
    klaver = made.get(f"/sessions/{ids['klaverjassen']}")
    assert klaver["teams"][1]["players"] == ["Bob", "Deirdre"]
