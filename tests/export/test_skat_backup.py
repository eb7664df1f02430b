"""A Skat night in a backup: its deals (German cards typed, kept in English), the list, the games
won and lost and the dealer sitting out at four restore and answer as before; a deal crafted in
the backup is refused by the restore's replay."""

from __future__ import annotations

import json
from typing import Any

import pytest

from ledger.backup import BackupError, backup_group, restore_group
from ledger.extensions import db
from tests.api.test_skat import WORKED
from tests.export.history import Table


@pytest.fixture
def backup(app, client) -> tuple[Table, list[int], dict[str, Any]]:
    made = Table.new_group(client)
    three = made.new_session("skat", ["Ann", "Bob", "Cas"], "Cas", stake=1)
    for deal in WORKED:
        made.ok("POST", f"/sessions/{three}/hands", deal, 201)
    four = made.new_session("skat", ["Ann", "Bob", "Cas", "Dee"], "Dee", list="plain")
    made.ok("POST", f"/sessions/{four}/hands", {"declarer": "Ann", "bid": 18, "game": "spades",
            "matadors": -3, "card_points": 40}, 201)  # fmt: skip
    with app.app_context():
        data = backup_group(made.slug)
        db.session.rollback()
    return made, [three, four], json.loads(json.dumps(data))


def test_a_skat_night_restores_and_answers_as_before(app, client, backup):
    made, ids, data = backup
    with app.app_context():
        copy = restore_group(data, slug="the-copy")
    table = Table(client, copy.slug)
    new_ids = [s["id"] for s in table.get(f"/groups/{copy.slug}")["sessions"]]
    for old, new in zip(ids, new_ids, strict=True):
        for what in ("", "/hands"):
            before, after = made.get(f"/sessions/{old}{what}"), table.get(f"/sessions/{new}{what}")
            if what == "":
                before = {k: v for k, v in before.items() if k not in ("id", "group")}
                after = {k: v for k, v in after.items() if k not in ("id", "group")}
            assert after == before
    restored = table.get(f"/sessions/{new_ids[0]}")
    assert restored["scores"] == {"Ann": 30, "Bob": 226, "Cas": -90}
    assert restored["won_games"] == {"Ann": 1, "Bob": 1, "Cas": 0}
    assert table.get(f"/sessions/{new_ids[1]}")["sitting_out"] == "Ann"


def test_a_deal_crafted_in_the_backup_is_refused(app, backup):
    _made, ids, data = backup
    first = next(h for h in data["hands"] if h["session_id"] == ids[0] and h["number"] == 1)
    first["entry"]["card_points"] = 121  # no deal has more than 120
    with app.app_context(), pytest.raises(BackupError, match="Card points are 0 to 120"):
        restore_group(data, slug="the-copy")
