"""A club evening as every page and the API show it (RULES.md §19; API.md fifth edition)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import Any

from ledger.rules.evening import EveningList
from ledger.rules.money import amount
from ledger.services.season_views import SeasonSettlement
from ledger.services.views.base import timestamp


@dataclass(frozen=True)
class TableView:
    """One table of a round: its night, its players in seat order (seat 1 dealt first), the
    hands played (of how many, where the night has a set number), who leads, its status."""

    table: int
    session: int
    number: int  # the night's number ("Skat #12")
    players: tuple[str, ...]
    hands_played: int
    hands: int | None
    leaders: tuple[str, ...]
    status: str

    @property
    def leader(self) -> str | None:
        return self.leaders[0] if len(self.leaders) == 1 else None

    def seat_of(self, player: str) -> int | None:
        return self.players.index(player) + 1 if player in self.players else None

    def to_json(self) -> dict[str, Any]:
        return {
            "table": self.table,
            "session": self.session,
            "number": self.number,
            "players": list(self.players),
            "hands_played": self.hands_played,
            "hands": self.hands,
            "leader": self.leader,
            "leaders": list(self.leaders),
            "status": self.status,
        }


@dataclass(frozen=True)
class RoundView:
    round: int
    tables: tuple[TableView, ...]

    @property
    def finished(self) -> bool:
        return all(t.status == "finished" for t in self.tables)

    def table_of(self, player: str) -> TableView | None:
        return next((t for t in self.tables if player in t.players), None)

    def to_json(self) -> dict[str, Any]:
        return {"round": self.round, "tables": [t.to_json() for t in self.tables]}


@dataclass(frozen=True)
class EveningView:
    """The evening now: who is checked in, each round's tables, the list and the money."""

    id: int
    name: str
    game: str
    game_name: str
    status: str  # open | closed
    options: Mapping[str, Any]
    money: Mapping[str, Any]
    rounds: int
    players: tuple[str, ...]
    drawn: tuple[RoundView, ...]
    standings: EveningList
    currency: str
    unit_value: Decimal
    created_at: datetime
    closed_at: datetime | None = None
    on_tab: bool = False
    settlement: SeasonSettlement | None = None

    def amount(self, units: int) -> Decimal:
        """Units in the evening's currency."""
        return amount(units, self.unit_value, self.currency)

    def prize_of(self, player: str) -> int:
        return next((p.units for p in self.standings.prizes if p.player == player), 0)

    @property
    def round_now(self) -> RoundView | None:
        return self.drawn[-1] if self.drawn else None

    @property
    def may_draw(self) -> bool:
        """Whether the next round may be drawn now (the evening open, rounds left, every
        table drawn so far finished: an earlier round's may be reopened)."""
        return (
            self.status == "open"
            and bool(self.players)
            and len(self.drawn) < self.rounds
            and all(r.finished for r in self.drawn)
        )

    @property
    def may_close(self) -> bool:
        """Whether the evening may close now: open, a round drawn, every table finished."""
        return self.status == "open" and bool(self.drawn) and all(r.finished for r in self.drawn)

    @property
    def checking_in(self) -> bool:
        """Players check in and out until the first draw."""
        return self.status == "open" and not self.drawn

    def to_json(self) -> dict[str, Any]:
        answer: dict[str, Any] = {
            "id": self.id,
            "name": self.name,
            "game": self.game,
            "status": self.status,
            "options": dict(self.options),
            "rounds_to_play": self.rounds,
            # The list's and the money's options as a season's ``options`` holds them (the
            # prizes as percentages): beside the game's ``options``, whose own names (Any
            # game's stake has a currency and unit value too) they must not overwrite, and
            # apart from ``prizes`` below, what the pot pays each player.
            "money": dict(self.money),
            "players": list(self.players),
            "rounds": [r.to_json() for r in self.drawn],
            "standings": [line.to_json() for line in self.standings.lines],
            "pot": self.standings.pot,
            "prizes": [{"player": p.player, "units": p.units} for p in self.standings.prizes],
            "created_at": timestamp(self.created_at),
            "closed_at": timestamp(self.closed_at),
        }
        if self.settlement is not None:
            answer["settlement"] = self.settlement.to_json()
        return answer


@dataclass(frozen=True)
class AddedEvening:
    evening: EveningView
    created: bool


@dataclass(frozen=True)
class PlayerEvening:
    """An evening a player played: its place on the list once closed (None while open)."""

    id: int
    name: str
    game: str
    rank: int | None
    players: int


@dataclass(frozen=True)
class PlayerEvenings:
    """A player's club evenings, newest first, for their page."""

    evenings: tuple[PlayerEvening, ...]

    @property
    def played(self) -> int:
        return len(self.evenings)

    @property
    def won(self) -> int:
        return sum(1 for e in self.evenings if e.rank == 1)


@dataclass(frozen=True)
class NightAtEvening:
    """A night that is a table of a club evening: the evening, the round and the table."""

    evening: int
    name: str
    round: int
    table: int
