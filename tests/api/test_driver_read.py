"""The reads made straight through the driver (extensions.DriverRead) answer what SQLAlchemy's
own execution of the same select answers: the page access read for any number of grants, and
the scoreboard's session row and hand lines with every column converted as SQLAlchemy does
(JSON decoded, dates read as dates); and each is counted like any other statement."""

from __future__ import annotations

import pytest
from sqlalchemy import event, select, text

from ledger import services
from ledger.extensions import QUICK_READS, _plan_once, db, every_engine, quick_read
from ledger.models import Hand
from ledger.services import auth, hands, pages
from tests.api.helpers import SEED_HAND_1


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
        engines = every_engine()  # on PostgreSQL the quick reads' engine too
        for engine in engines:
            event.listen(engine, "before_cursor_execute", count)
        try:
            pages.session_page_access(slug, sid, hashes)
        finally:
            for engine in engines:
                event.remove(engine, "before_cursor_execute", count)
    assert len(seen) == 1 and "access_grants" in seen[0]


def test_the_scoreboard_reads_convert_every_column_as_core_does(app, table, other):
    played = table.session()["id"]
    for _ in range(3):
        table.hand(played, SEED_HAND_1)
    table.ok("POST", f"/sessions/{played}/finish", {"leftover_pot": "refund"})
    empty = table.session()["id"]  # no hands, no kept chart: the chart's columns are None
    with app.app_context():
        group = services.authenticate(table.slug, table.passphrase)
        with quick_read() as connection:
            for sid, group_id, found in (
                (played, group.id, True),
                (empty, group.id, True),
                (played, group.id + 1000, False),  # no such group: no row
            ):
                params = {"session_id": sid, "group_id": group_id}
                core = connection.execute(hands._SCOREBOARD_ROW.statement, params).first()
                driver = hands._SCOREBOARD_ROW.row(connection, params)
                assert (driver is not None) == found == (core is not None)
                if found:
                    assert driver._asdict() == dict(core._mapping)
            row = hands._SCOREBOARD_ROW.row(
                connection, {"session_id": played, "group_id": group.id}
            )
            assert row.status == "finished" and row.finished_at > row.started_at
            assert row.state["scores"] and row.chart_points is not None
            for after, upto in ((0, 3), (1, 2), (3, 9), (-5, 0)):
                params = {"session_id": played, "after": after, "upto": upto}
                core_lines = connection.execute(hands._LINES.statement, params).all()
                lines = hands._LINES.rows(connection, params)
                assert [line._asdict() for line in lines] == [dict(r._mapping) for r in core_lines]
                assert [line.number for line in lines] == list(
                    range(max(after, 0) + 1, min(upto, 3) + 1)
                )


def test_rows_cut_into_parts_are_the_rows_core_answers(app, grants, table):
    """The scoreboard's access read, cut into its access, its session row and its hand lines:
    each part as Core converts those columns; a part an outer join left empty is None. The
    browser holds two grants of the group: every hand comes twice, and is shown once."""
    slug, sid, hashes = grants
    for _ in range(3):
        table.hand(sid, SEED_HAND_1)
    params = {"slug": slug, "session_id": sid, "grants": hashes, "known": -1, "recent": 8}
    read = pages._SCOREBOARD_ACCESS_READ
    with app.app_context(), quick_read() as connection:
        core = connection.execute(read.statement, params).all()
        parts = read.rows_in_parts(connection, params, pages._PARTS)
        with pytest.raises(ValueError):
            read.rows_in_parts(connection, params, (1, 2))
    assert len(core) == len(parts) == 6  # three hands, two grants
    ends = [sum(pages._PARTS[:i]) for i in range(len(pages._PARTS) + 1)]
    for row, cut in zip(core, parts, strict=True):
        for i, part in enumerate(cut):
            columns = tuple(row)[ends[i] : ends[i + 1]]
            assert part == (None if columns[0] is None else columns)
    boards = [cut[1] for cut in parts if cut[1] is not None]
    assert len(boards) == 2 and boards[0].hands_played == 3 and boards[0].state["scores"]
    with app.app_context():
        found = pages.scoreboard_page_access(slug, sid, hashes, None, 8)
    assert found is not None and found[2] is not None
    assert [h.number for h in found[2].recent] == [1, 2, 3]


def test_on_postgresql_a_driver_read_is_prepared_at_its_first_use_on_a_connection(app, grants):
    """Planning the scoreboard's read costs more than running it: prepared on the server the
    first time a connection runs it, not only after psycopg's five; where preparing was
    switched off on a connection (behind a pooler that cannot keep them), never."""
    if not app.config["SQLALCHEMY_DATABASE_URI"].startswith("postgresql"):
        pytest.skip("the test database is SQLite: nothing is prepared on a server")
    slug, sid, hashes = grants
    params = {"slug": slug, "session_id": sid, "grants": hashes, "known": -1, "recent": 8}
    prepared = "SELECT count(*) FROM pg_prepared_statements WHERE strpos(statement, 'AS board') > 0"
    with app.app_context():
        for threshold, expected in ((5, 1), (None, 0)):
            with quick_read() as connection:
                connection.invalidate()  # a fresh connection: nothing prepared on it yet
            with quick_read() as connection:
                driver = connection.connection.driver_connection
                before = connection.exec_driver_sql(prepared).scalar()
                usual, driver.prepare_threshold = driver.prepare_threshold, threshold
                try:
                    rows = pages._SCOREBOARD_ACCESS_READ.rows_in_parts(
                        connection, params, pages._PARTS
                    )
                finally:
                    driver.prepare_threshold = usual
                assert rows and rows[0][1] is not None  # the session's row came along
                after = connection.exec_driver_sql(prepared).scalar()
                assert (before, after) == (0, expected)


def on_postgresql(app) -> None:
    if not app.config["SQLALCHEMY_DATABASE_URI"].startswith("postgresql"):
        pytest.skip("the test database is SQLite: there is no plan cache on a server")


GENERIC_AND_CUSTOM = """
SELECT name, generic_plans, custom_plans FROM pg_prepared_statements
 WHERE strpos(statement, 'AS board') > 0
"""


def test_on_postgresql_the_quick_reads_plan_once_and_keep_it_past_the_orms_rollbacks(app, grants):
    """PostgreSQL may plan a prepared statement anew at every run for good (its choice after
    five runs rests on estimates that drift); planning the scoreboard's read costs three times
    its run. The quick reads' connections keep the first plan; the ORM's are left to choose.
    And an ORM session that only read ends in a ROLLBACK, at which psycopg forgets every
    prepared statement on its connection: the quick reads' prepared statements live on
    connections that never roll back, so they are still there after it."""
    on_postgresql(app)
    slug, sid, hashes = grants
    params = {"slug": slug, "session_id": sid, "grants": hashes, "known": -1, "recent": 8}
    with app.app_context():
        with quick_read() as connection:
            connection.invalidate()  # a fresh connection: nothing prepared on it yet
        with quick_read() as connection:
            assert connection.exec_driver_sql("SHOW plan_cache_mode").scalar() == (
                "force_generic_plan"
            )
            for _ in range(3):
                read = pages._SCOREBOARD_ACCESS_READ.rows_in_parts(connection, params, pages._PARTS)
                assert read and read[0][1] is not None
            first = connection.exec_driver_sql(GENERIC_AND_CUSTOM).all()
        # The ORM's own connection keeps PostgreSQL's default choice.
        assert db.session.execute(text("SHOW plan_cache_mode")).scalar() == "auto"
        db.session.execute(select(Hand.number).where(Hand.session_id == sid)).all()
        db.session.rollback()  # what ends every request that only read through the ORM
        with quick_read() as connection:
            pages._SCOREBOARD_ACCESS_READ.rows_in_parts(connection, params, pages._PARTS)
            later = connection.exec_driver_sql(GENERIC_AND_CUSTOM).all()
    # One statement, planned once for any values, and the same one after the rollback.
    assert [(name, custom) for name, _generic, custom in first] == [(first[0][0], 0)]
    assert first[0][1] == 3
    assert later == [(first[0][0], 4, 0)]


def test_where_preparing_is_off_the_quick_reads_leave_the_plan_choice_to_postgresql(app):
    """Behind a pooler that shares the server's sessions (preparing switched off), a setting
    made on one session would reach other clients: none is made."""
    on_postgresql(app)
    with app.app_context():
        raw = app.extensions[QUICK_READS].raw_connection()
        try:
            driver = raw.driver_connection
            driver.execute("RESET plan_cache_mode")
            driver.prepare_threshold = None
            _plan_once(driver, None)
            assert driver.execute("SHOW plan_cache_mode").fetchone() == ("auto",)
            driver.prepare_threshold = 5
            _plan_once(driver, None)
            assert driver.execute("SHOW plan_cache_mode").fetchone() == ("force_generic_plan",)
        finally:
            raw.invalidate()
