"""The page access read made straight through the driver (extensions.DriverRead) answers what
SQLAlchemy's own execution of the same select answers, for any number of grants, and is
counted like any other statement."""

from __future__ import annotations

import pytest
from sqlalchemy import event

from ledger import services
from ledger.extensions import db, quick_read
from ledger.services import auth, pages


@pytest.fixture
def grants(app, table):
    """The hashes of two web grants of the table's group, and its slug and a session."""
    sid = table.session()["id"]
    with app.app_context():
        group = services.authenticate(table.slug, table.passphrase)
        tokens = [auth.grant(group.id, auth.WEB) for _ in range(2)]
    return table.slug, sid, [auth.token_hash(t) for t in tokens]


@pytest.mark.parametrize("held", [0, 1, 2, 3])
def test_the_driver_read_answers_what_core_answers(app, grants, other, held):
    slug, sid, hashes = grants
    asked = (hashes + ["not-a-grant-of-anyone"])[:held]
    with app.app_context(), quick_read() as connection:
        for params in (
            {"slug": slug, "session_id": sid, "grants": asked},
            {"slug": slug, "session_id": sid + 1000, "grants": asked},  # no such session
            {"slug": other.slug, "session_id": sid, "grants": asked},  # another group's
            {"slug": "no-such-group", "session_id": sid, "grants": asked},
        ):
            core = connection.execute(pages._PAGE_ACCESS, params).first()
            driver = pages._PAGE_ACCESS_READ.first(connection, params)
            assert driver == (tuple(core) if core is not None else None)
    with app.app_context():
        found = pages.session_page_access(slug, sid, asked)
    assert found is not None
    assert found[0].signed_in == any(h in hashes for h in asked)
    assert found[1] is not None and found[1].hands_played == 0


def test_the_driver_read_is_counted_like_any_statement(app, grants):
    slug, sid, hashes = grants
    seen: list[str] = []

    def count(connection, cursor, statement, *args):
        seen.append(statement)

    with app.app_context():
        event.listen(db.engine, "before_cursor_execute", count)
        try:
            pages.session_page_access(slug, sid, hashes)
        finally:
            event.remove(db.engine, "before_cursor_execute", count)
    assert len(seen) == 1 and "access_grants" in seen[0]
