"""A night finished, a player of it renamed, the night reopened: it plays on under the new name.

Reopening a night brings back the state it had before its finish, which its history keeps
with the names as they were then. In every game of ledger/rules/registry.py (its own sample
night, ``Game.sample_night``), Bob's night is finished, Bob is renamed Bert, the night is
reopened (by the API, and on its page) and played on and finished again: every answer and
page of it is the one a group that never renamed anybody gets, with Bob read as Bert, the
next hand is taken under Bert's name, and the group's backup restores.
"""

from __future__ import annotations

import json
import re

import pytest

from ledger.backup import backup_group, restore_group
from ledger.extensions import db
from ledger.rules.registry import GAMES
from tests.api.test_renamed_player import (
    NEW,
    OLD,
    _comparable,
    _night,
    _play,
    _rename_on_the_page,
    _same_but_renamed,
    _start,
    answers,
    scoreboards,
)
from tests.export.history import PASSPHRASE, Table


def _finished(table: Table, key: str, bob: str) -> int:
    """The game's sample night up to its half-way mark, Bob in it, finished at the table."""
    night = _night(key, "Ann", bob, "Cas", "Dan")
    sid = _start(table, key, night)
    _play(table, sid, night.before)
    table.ok("POST", f"/sessions/{sid}/finish", dict(night.finish or {}))
    return sid


def _reopen(table: Table, sid: int, on_the_page: bool) -> None:
    if not on_the_page:
        assert table.ok("POST", f"/sessions/{sid}/reopen", {})["status"] == "open"
        return
    client = table.client
    opened = client.post("/open", data={"open-group": table.slug, "open-passphrase": PASSPHRASE})
    assert opened.status_code == 302
    page = client.get(f"/g/{table.slug}/s/{sid}").get_data(as_text=True)
    assert f'action="/g/{table.slug}/s/{sid}/reopen"' in page
    client.post(f"/g/{table.slug}/s/{sid}/reopen")
    assert "The night is open again." in client.get(f"/g/{table.slug}/s/{sid}").get_data(
        as_text=True
    )


def _played_on(table: Table, key: str, sid: int, bob: str) -> None:
    """The rest of the sample night, under Bob's name as it is now, and its finish."""
    night = _night(key, "Ann", bob, "Cas", "Dan")
    _play(table, sid, night.after)
    if night.finish is not None:
        table.ok("POST", f"/sessions/{sid}/finish", dict(night.finish))


@pytest.mark.parametrize("on_the_page", [False, True], ids=["api", "page"])
@pytest.mark.parametrize("key", list(GAMES))
def test_a_night_reopened_after_a_rename_plays_on_under_the_new_name(app, client, key, on_the_page):
    kept, renamed = Table.new_group(client), Table.new_group(client)
    kept_ids = {key: _finished(kept, key, OLD)}
    ids = {key: _finished(renamed, key, OLD)}
    _rename_on_the_page(renamed, OLD, NEW)
    _reopen(kept, kept_ids[key], on_the_page=False)
    _reopen(renamed, ids[key], on_the_page)
    # Open again, the night names Bert only, in every answer and on its page.
    _same_but_renamed(answers(renamed, ids, NEW), answers(kept, kept_ids, OLD))
    _same_but_renamed(scoreboards(renamed, ids), scoreboards(kept, kept_ids))
    assert not re.search(rf"\b{OLD}\b", json.dumps(answers(renamed, ids, NEW)))

    _played_on(kept, key, kept_ids[key], OLD)
    _played_on(renamed, key, ids[key], NEW)
    got = answers(renamed, ids, NEW)
    _same_but_renamed(got, answers(kept, kept_ids, OLD))
    _same_but_renamed(scoreboards(renamed, ids), scoreboards(kept, kept_ids))

    # The group's backup restores, and the copy answers as the group does.
    with app.app_context():
        data = json.loads(json.dumps(backup_group(renamed.slug)))
        db.session.rollback()
        copy = restore_group(data, slug="the-copy")
    restored = Table(client, copy.slug)
    (night,) = restored.get(f"/groups/{copy.slug}")["sessions"]
    assert answers(restored, {key: night["id"]}, NEW) == got


def test_renames_since_the_finish_are_followed_in_their_order(app, client):
    """Bob renamed Bert, then Ann renamed Bob: the night reopened is the night as it was
    before its finish, Ann's part in it under Bob and Bob's under Bert, and it plays on."""
    table = Table.new_group(client)
    night = _night("skat", "Ann", "Bob", "Cas", "Dan")
    sid = _start(table, "skat", night)
    _play(table, sid, night.before)
    was = _comparable(table.get(f"/sessions/{sid}"))
    table.ok("POST", f"/sessions/{sid}/finish", dict(night.finish or {}))
    _rename_on_the_page(table, "Bob", "Bert")
    _rename_on_the_page(table, "Ann", "Bob")
    _reopen(table, sid, on_the_page=False)

    swapped = re.sub(r"\bAnn\b", "Bob", re.sub(r"\bBob\b", "Bert", json.dumps(was)))
    assert _comparable(table.get(f"/sessions/{sid}")) == json.loads(swapped)
    _play(table, sid, _night("skat", "Bob", "Bert", "Cas", "Dan").after)
    table.ok("POST", f"/sessions/{sid}/finish", {})
    with app.app_context():
        data = json.loads(json.dumps(backup_group(table.slug)))
        db.session.rollback()
        copy = restore_group(data, slug="the-copy")
    (again,) = Table(client, copy.slug).get(f"/groups/{copy.slug}")["sessions"]
    assert again["status"] == "finished"
