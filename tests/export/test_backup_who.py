"""RULES.md §20 in a backup: who made each change, and on whose phone, goes into the file
and comes back with a restore, named as before; a backup made before names nobody."""

from __future__ import annotations

import json

from ledger.backup import backup_group, restore_group
from ledger.extensions import db
from tests.export.history import Table, play_a_history


def backed_up(app, client) -> tuple[Table, dict]:
    made = Table.new_group(client)
    play_a_history(made)  # names Rex for a correction and the payees for the ticks
    with app.app_context():
        data = backup_group(made.slug)
        db.session.rollback()
    data["group"]["slug"] = "the-copy"
    return made, json.loads(json.dumps(data))


def who(table: Table, slug: str) -> list[list[tuple[str, str | None]]]:
    """Each session's history as (kind, who made it), sessions in the group's order."""
    sessions = table.get(f"/groups/{slug}")["sessions"]
    return [
        [(c["kind"], c["by"]) for c in table.get(f"/sessions/{s['id']}/history")]
        for s in sorted(sessions, key=lambda s: s["started_at"])
    ]


def test_a_restore_names_who_made_each_change_as_the_original_does(app, client):
    made, data = backed_up(app, client)
    assert any(c["by_id"] is not None for c in data["changes"])
    with app.app_context():
        copy = restore_group(data)
    original = who(made, made.slug)
    assert ("hand.corrected", "Rex") in original[0]
    assert who(Table(client, copy.slug), copy.slug) == original


def test_a_backup_from_before_names_nobody_and_restores(app, client):
    made, data = backed_up(app, client)
    for change in data["changes"]:
        del change["by_id"], change["phone_id"]
    with app.app_context():
        copy = restore_group(data)
    restored = who(Table(client, copy.slug), copy.slug)
    assert [len(s) for s in restored] == [len(s) for s in who(made, made.slug)]
    assert {by for s in restored for _, by in s} == {None}
