"""The tests' shared compiled SQL (tests/shared_sql.py) changes nothing a test reads or stores.

Every test's SQLite engine takes a statement's compiled SQL from one cache per process. These
hold it to its promise: another engine on another file reads its own rows through the shared
SQL, and an engine whose dialect binds values otherwise compiles its own.
"""

from __future__ import annotations

from sqlalchemy import create_engine, insert, select

from ledger.extensions import db
from ledger.models import Group
from tests.shared_sql import SHARED_SQL


def _names(engine) -> tuple[list[str], object]:
    """The groups' names on ``engine``, and whether the select's SQL came from a cache."""
    with engine.connect() as connection:
        result = connection.execute(select(Group.name).order_by(Group.name))
        names = list(result.scalars())
        return names, result.context.cache_hit


def _engine_with_groups(path, *names: str, **options):
    engine = create_engine(f"sqlite:///{path}", **options)
    engine.update_execution_options(compiled_cache=SHARED_SQL)
    db.metadata.create_all(engine)
    with engine.begin() as connection:
        for name in names:
            connection.execute(
                insert(Group).values(name=name, slug=name.lower(), passphrase_hash="x")
            )
    return engine


def test_engines_on_other_files_share_the_sql_and_read_their_own_rows(app, tmp_path):
    with app.app_context():
        # The app fixture's SQLite engine takes the shared SQL; a PostgreSQL engine its own.
        on_sqlite = db.engine.dialect.name == "sqlite"
        shared = db.engine.get_execution_options().get("compiled_cache") is SHARED_SQL
        assert shared == on_sqlite
    first = _engine_with_groups(tmp_path / "a.sqlite", "Thursday", "Friday")
    second = _engine_with_groups(tmp_path / "b.sqlite", "Monday")
    try:
        names, _ = _names(first)
        assert names == ["Friday", "Thursday"]
        names, hit = _names(second)
        assert names == ["Monday"]
        assert hit == second.dialect.CACHE_HIT  # the first engine's SQL, the second's rows
    finally:
        first.dispose()
        second.dispose()


def test_an_engine_that_binds_values_otherwise_compiles_its_own(tmp_path):
    usual = _engine_with_groups(tmp_path / "a.sqlite", "Thursday")
    named = _engine_with_groups(tmp_path / "b.sqlite", "Monday", paramstyle="named")
    try:
        assert _names(usual)[0] == ["Thursday"]
        names, hit = _names(named)
        assert names == ["Monday"]
        assert hit != named.dialect.CACHE_HIT
    finally:
        usual.dispose()
        named.dispose()
