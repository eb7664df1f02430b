"""Who made a change (RULES.md §20): the player named for it and the phone's own player.

A request says once who acts (the API's ``by``, a page's form and its phone's player) and
every line of history its writes leave names them (unit_of_work.record): no service takes
the actor as an argument. It is kept per request in a context variable, set by the API and
the pages after the group's credentials have opened the group, and cleared when the
request ends. Naming a player grants nothing: it only says who did what in that group.

- ``act``, ``acting``, ``forget``; ``named_player`` (a ``by`` read, or refused naming it),
  ``player_of`` (a player of the group by id, or None); ``change_views`` (history lines with
  who made them, by their names now).
"""

from __future__ import annotations

from collections.abc import Sequence
from contextvars import ContextVar
from dataclasses import dataclass

from sqlalchemy import select

from ledger.extensions import db
from ledger.models import NAME_LENGTH, Change, Player
from ledger.rules.errors import RuleError
from ledger.services.views.groups import PlayerView
from ledger.services.views.sessions import ChangeView


@dataclass(frozen=True)
class Actor:
    """The players of ``group_id`` behind the request's changes, by id (a rename keeps them)."""

    group_id: int | None = None
    by_id: int | None = None  # who did it: the one named (``by``), else the phone's player
    phone_id: int | None = None  # whose phone it was done on (pages only; None over the API)


_NOBODY = Actor()
_actor: ContextVar[Actor] = ContextVar("ledger_actor", default=_NOBODY)


def act(actor: Actor) -> None:
    """From now until the request ends, changes are made by ``actor``."""
    _actor.set(actor)


def acting(group_id: int) -> Actor:
    """Who acts in ``group_id`` now; nobody when the actor set is of another group."""
    actor = _actor.get()
    return actor if actor.group_id == group_id else _NOBODY


def forget() -> None:
    """The request is over: the next one on this thread starts with nobody named."""
    _actor.set(_NOBODY)


def player_of(group_id: int, player_id: int | None) -> PlayerView | None:
    """The group's player with this id, or None (never one of another group's players)."""
    if player_id is None:
        return None
    player = db.session.scalar(
        select(Player).where(Player.id == player_id, Player.group_id == group_id)
    )
    return PlayerView(player.id, player.name) if player is not None else None


def named_player(group_id: int, name: str, field: str = "by") -> PlayerView:
    """The group's player called ``name`` (any case, its spaces as a name's are kept: "Ann "
    is Ann), or a RuleError (422) naming ``field``."""
    tidy = " ".join(name.split())
    player = db.session.scalar(
        select(Player).where(Player.group_id == group_id, Player.name_key == tidy.casefold())
    )
    if player is None:
        raise RuleError(
            "There is no player called {player} in this group to have done this.",
            field=field,
            player=tidy[:NAME_LENGTH],  # a name is never longer: what was sent may be
        )
    return PlayerView(player.id, player.name)


def change_views(changes: Sequence[Change]) -> list[ChangeView]:
    """The history lines of ``changes``, each with who made it and on whose phone."""
    ids = {i for c in changes for i in (c.by_id, c.phone_id) if i is not None}
    names: dict[int, str] = {}
    if ids:
        found = db.session.execute(select(Player.id, Player.name).where(Player.id.in_(ids)))
        names = {player_id: name for player_id, name in found}
    return [
        ChangeView(
            c.kind,
            c.hand_number,
            c.at,
            c.version,
            c.before,
            c.after,
            by=names.get(c.by_id) if c.by_id is not None else None,
            phone=names.get(c.phone_id) if c.phone_id is not None else None,
        )
        for c in changes
    ]
