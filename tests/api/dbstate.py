"""What the database holds, cheaply: to show that a refused request changed nothing."""

from __future__ import annotations

from typing import Any

from flask import Flask
from sqlalchemy import func, select

from ledger.extensions import db
from ledger.models import GameSession

# Not the group's data: a passphrase that passed is remembered (its digest) by any call that
# authenticates, refused or not, and a wrong guess is counted against its address.
BOOKKEEPING = frozenset({"credentials", "address_failures"})


def snapshot(app: Flask) -> dict[str, Any]:
    """Every table's row count, and each session's version (a change to a session bumps it)."""
    with app.app_context():
        tables = [t for t in db.metadata.sorted_tables if t.name not in BOOKKEEPING]
        # One query for all the counts: the fuzz test takes two snapshots per request.
        row = db.session.execute(
            select(*(select(func.count()).select_from(t).scalar_subquery() for t in tables))
        ).one()
        counts = {t.name: n for t, n in zip(tables, row, strict=True)}
        versions = dict(db.session.execute(select(GameSession.id, GameSession.version)).all())
        db.session.remove()
    return {"counts": counts, "versions": versions}
