"""The scoreboard page's access read, which brings the page's reads along for a version the
process does not keep yet (services/pages.py, ``scoreboard_page_access``).

What it brings must be what the scoreboard's own reads (``services.scoreboard``) answer, for
every shape of night; it brings nothing to a phone that is not signed in, nothing for a
version already kept, and nothing of another group's session. Run on SQLite and PostgreSQL.
"""

from __future__ import annotations

import pytest

from ledger import services
from ledger.services import auth, pages
from ledger.services.results import ScoreboardView
from tests.api.helpers import SEED_HAND_1, SEED_HAND_2
from tests.api.test_hands import count_queries

RECENT = 8


def signed_in(app, table) -> tuple[services.GroupRef, list[str]]:
    """The table's group and the grant hashes of a browser signed in to it."""
    with app.app_context():
        group = services.authenticate(table.slug, table.passphrase)
        token = auth.grant(group.id, auth.WEB)
    return group, [auth.token_hash(token)]


def same(a: ScoreboardView, b: ScoreboardView) -> None:
    """Two scoreboard reads show the same: the session, the lines (as the page and the API
    tell them) and the chart."""
    assert a.session == b.session
    assert [(h.number, h.revision, h.stored) for h in a.recent] == [
        (h.number, h.revision, h.stored) for h in b.recent
    ]
    assert [h.view().to_json() for h in a.recent] == [h.view().to_json() for h in b.recent]
    assert [h.told() for h in a.recent] == [h.told() for h in b.recent]
    assert a.history == b.history
    assert a.saved is None


def brought(app, table, sid: int, grants: list[str], known: int | None = None):
    with app.app_context():
        return pages.scoreboard_page_access(table.slug, sid, grants, known, RECENT)


def check_against_own_reads(app, table, sid: int, grants: list[str]) -> ScoreboardView:
    found = brought(app, table, sid, grants)
    assert found is not None
    access, stamp, board = found
    assert access.signed_in and stamp is not None and board is not None
    with app.app_context():
        own = services.scoreboard(access.group, sid, RECENT)
    same(board, own)
    assert board.session.version == stamp.version
    assert board.session.hands_played == stamp.hands_played
    return board


def test_it_brings_what_the_scoreboards_own_reads_answer_through_a_night(app, table):
    group, grants = signed_in(app, table)
    sid = table.session()["id"]
    board = check_against_own_reads(app, table, sid, grants)
    assert board.recent == () and board.history == ()
    for i in range(1, 21):
        table.hand(sid, SEED_HAND_2 if i % 3 == 0 else SEED_HAND_1)
        if i in (1, 2, 7, 8, 9, 20):
            board = check_against_own_reads(app, table, sid, grants)
            assert [h.number for h in board.recent] == list(range(max(1, i - RECENT + 1), i + 1))
    table.ok("PUT", f"/sessions/{sid}/hands/15", SEED_HAND_2)  # later scores move
    board = check_against_own_reads(app, table, sid, grants)
    assert [h.revision for h in board.recent if h.number == 15] == [2]
    table.call("DELETE", f"/sessions/{sid}/hands/20")
    board = check_against_own_reads(app, table, sid, grants)
    assert board.recent[-1].number == 19


def test_a_finished_session_is_brought_as_read(app, table):
    _group, grants = signed_in(app, table)
    sid = table.session()["id"]
    table.hand(sid, SEED_HAND_1)
    table.ok("POST", f"/sessions/{sid}/finish", {})
    board = check_against_own_reads(app, table, sid, grants)
    assert board.session.status == "finished"


def test_nothing_is_brought_for_the_version_kept_already(app, table):
    _group, grants = signed_in(app, table)
    sid = table.session()["id"]
    table.hand(sid, SEED_HAND_1)
    _access, stamp, board = brought(app, table, sid, grants)
    assert board is not None
    _access, again, none = brought(app, table, sid, grants, known=stamp.version)
    assert none is None and again == stamp
    table.hand(sid, SEED_HAND_2)  # the next version is brought though the last is kept
    _access, newer, board = brought(app, table, sid, grants, known=stamp.version)
    assert board is not None and newer.version > stamp.version
    assert board.recent[-1].number == 2


def test_a_phone_not_signed_in_is_told_only_that_the_group_exists(app, table):
    sid = table.session()["id"]
    table.hand(sid, SEED_HAND_1)
    access, stamp, board = brought(app, table, sid, ["not a grant of this group"])
    assert not access.signed_in and board is None
    assert stamp is not None  # the page answers 401 before it is used


def test_another_groups_session_is_not_found_and_brings_nothing(app, table, other):
    _group, grants = signed_in(app, table)
    theirs = other.session()["id"]
    other.hand(theirs, SEED_HAND_1)
    access, stamp, board = brought(app, table, theirs, grants)
    assert access.signed_in and stamp is None and board is None
    assert brought(app, table, 10**9, grants)[1:] == (None, None)
    with app.app_context():
        assert pages.scoreboard_page_access("no-such-group", theirs, grants, None, RECENT) is None


def test_it_is_one_statement_whether_it_brings_the_reads_or_not(app, table):
    _group, grants = signed_in(app, table)
    sid = table.session()["id"]
    for _ in range(12):
        table.hand(sid, SEED_HAND_1)
    found: list = []
    assert count_queries(app, lambda: found.append(brought(app, table, sid, grants))) == 1
    version = found[0][1].version
    assert count_queries(app, lambda: brought(app, table, sid, grants, known=version)) == 1


def test_a_scoreboard_shows_at_least_its_last_hand(app, table):
    with app.app_context(), pytest.raises(ValueError):
        pages.scoreboard_page_access(table.slug, 1, [], None, 0)
