"""A carried pot between nights (RULES.md §2): the one a new night takes up, carried into it,
and given back to wait again when that night is deleted before its first hand.

- ``pot_to_take_up`` (the latest pot waiting for a night of the same game and money),
  ``carry_pot`` (it goes into the new night) and ``return_pot`` (it waits again).
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from sqlalchemy import select

from ledger.extensions import db
from ledger.models import GameSession
from ledger.services.unit_of_work import record
from ledger.services.views.groups import GroupRef


def pot_to_take_up(
    group: GroupRef, game: str, options: Mapping[str, Any], here: set[int]
) -> GameSession | None:
    """The latest pot waiting for a session of ``game`` played for the same money.

    A pot with a keeper is where its keeper is: it waits for a session the keeper plays in
    (``here``: the ids of the players sitting down), who brings it back (RULES.md §2).

    The money settings live in the options' JSON, compared here rather than in SQL (JSON
    paths differ between SQLite and PostgreSQL); the pots waiting at once are a handful.
    """
    waiting = db.session.scalars(
        select(GameSession)
        .where(
            GameSession.group_id == group.id,
            GameSession.game == game,
            GameSession.status == "finished",
            GameSession.carried_pot > 0,
            GameSession.carried_into_id.is_(None),
        )
        .order_by(GameSession.finished_at.desc(), GameSession.id.desc())
    )
    wanted = _money_settings(options)
    return next(
        (
            s
            for s in waiting
            if _money_settings(s.options) == wanted
            and (s.pot_keeper_id is None or s.pot_keeper_id in here)
        ),
        None,
    )


def carry_pot(source: GameSession, *, into: GameSession) -> None:
    """The pot left by ``source`` goes into the new session ``into``."""
    # A pot is taken up once: the version guard makes a second taker start over.
    source.carried_into_id = into.id
    source.version += 1
    record(
        source,
        "pot.carried",
        before={"carried_into": None},
        after={"session": into.id, "pot": source.carried_pot},
    )


def return_pot(source: GameSession, deleted: GameSession) -> None:
    """The pot ``source`` carried into ``deleted`` waits again for the next session."""
    source.carried_into_id = None
    source.version += 1
    record(
        source,
        "pot.returned",
        before={"carried_into": deleted.id},
        after={"carried_into": None, "pot": source.carried_pot},
    )
    db.session.flush()


def _money_settings(options: Mapping[str, Any]) -> tuple[str | None, Decimal | None]:
    """What one unit is worth: the currency and the unit value (0.5 and 0.50 are the same)."""
    unit_value = options.get("unit_value")
    return options.get("currency"), Decimal(unit_value) if unit_value is not None else None
