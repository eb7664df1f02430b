"""SQL compiled once per test process: a statement cache every test's SQLite engine shares.

SQLAlchemy compiles each statement (a select of the ORM, an insert of a flush) to SQL once
per engine and keeps it in the engine's cache. Every test's app has an engine of its own, so
every test compiled again the same few hundred statements the one before had: a tenth and
more of an API or page test's CPU. The compiled SQL depends on the statement and on the
dialect's settings, not on the file the engine opens, so the engines of the tests' SQLite
databases share one cache (SQLAlchemy's ``compiled_cache`` execution option) whose keys name
the dialect by its class and settings rather than by the engine's own dialect object.
Nothing a test stores or reads is shared: only the text of the SQL and how its values are
bound.
"""

from __future__ import annotations

from collections.abc import Iterator, MutableMapping
from typing import Any

# Enough for every statement of the suite several times over; past it, start again (the
# cache is for speed alone, so forgetting is always safe).
LIMIT = 20_000


def dialect_settings(dialect: Any) -> tuple[Any, ...]:
    """What a dialect compiles with: its class, how values are bound, the server's version
    and the features it detected; two engines of the tests' SQLite files have the same."""
    return (
        type(dialect),
        dialect.paramstyle,
        dialect.positional,
        dialect.server_version_info,
        dialect.supports_multivalues_insert,
        dialect.use_insertmanyvalues,
        dialect.insert_returning,
        dialect.update_returning,
        dialect.delete_returning,
        dialect.supports_native_decimal,
        dialect.label_length,
        dialect.max_identifier_length,
    )


class SharedCompiledSql(MutableMapping[Any, Any]):
    """SQLAlchemy's compiled statements by (dialect, statement, …), the dialect read as its
    settings: a statement compiled for one test's engine serves every engine alike."""

    def __init__(self) -> None:
        self.kept: dict[Any, Any] = {}

    @staticmethod
    def _key(key: Any) -> Any:
        dialect, *rest = key
        return (dialect_settings(dialect), *rest)

    def __getitem__(self, key: Any) -> Any:
        return self.kept[self._key(key)]

    def get(self, key: Any, default: Any = None) -> Any:
        return self.kept.get(self._key(key), default)

    def __setitem__(self, key: Any, value: Any) -> None:
        if len(self.kept) >= LIMIT:
            self.kept.clear()
        self.kept[self._key(key)] = value

    def __delitem__(self, key: Any) -> None:
        del self.kept[self._key(key)]

    def __iter__(self) -> Iterator[Any]:
        return iter(self.kept)

    def __len__(self) -> int:
        return len(self.kept)


SHARED_SQL = SharedCompiledSql()
