"""A group, its players and its nights listed; the games offered (API.md "Group", "Games")."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from ledger.services.views.base import timestamp


@dataclass(frozen=True)
class GroupRef:
    """An authenticated group: what every other service takes to know whose data it is."""

    id: int
    slug: str
    name: str

    def to_json(self) -> dict[str, Any]:
        return {"slug": self.slug, "name": self.name}


@dataclass(frozen=True)
class GameInfo:
    key: str
    name: str
    description: str
    min_players: int
    max_players: int
    money: bool
    options: Mapping[str, Any]  # each option's default
    open_seating: bool
    # What a hand entry of the game holds beside ``request_id`` and ``version`` (API.md "Hand
    # entry"): each field's kind, and each result's (the game's own declaration).
    entry: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "name": self.name,
            "description": self.description,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "money": self.money,
            "options": dict(self.options),
            "open_seating": self.open_seating,
            "entry": dict(self.entry),
        }


@dataclass(frozen=True)
class PlayerView:
    id: int
    name: str

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name}


@dataclass(frozen=True)
class SessionSummary:
    id: int
    game: str
    status: str
    started_at: datetime
    finished_at: datetime | None
    hands_played: int
    number: int  # among the group's nights of its game (ledger/rules/nights.py)
    own_name: str = ""  # the table's name for its game (Any game's "Hearts"), or ""

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "number": self.number,
            "game": self.game,
            "status": self.status,
            "started_at": timestamp(self.started_at),
            "finished_at": timestamp(self.finished_at),
            "hands_played": self.hands_played,
        }


@dataclass(frozen=True)
class GroupView:
    slug: str
    name: str
    players: tuple[PlayerView, ...]  # by name
    sessions: tuple[SessionSummary, ...]  # oldest first

    def to_json(self) -> dict[str, Any]:
        return {
            "slug": self.slug,
            "name": self.name,
            "players": [p.to_json() for p in self.players],
            "sessions": [s.to_json() for s in self.sessions],
        }
