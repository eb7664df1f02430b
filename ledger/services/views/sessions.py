"""A session now: its seats, its progress, its scores and its history (API.md "Session").

A view is a frozen result object a service answers and the pages, the exports and the API
all read. Each has ``to_json()``, the shape of shared/API.md: money as whole units and,
where it is an amount, a Decimal written as a string, never a float.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from typing import Any

from ledger.rules import nights
from ledger.services.views.base import night_currency, timestamp
from ledger.services.views.rounds import RoundView


@dataclass(frozen=True)
class SeatView:
    name: str
    seat: int | None  # 1-based, clockwise; None for a player who has left
    active: bool

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "seat": self.seat, "active": self.active}


@dataclass(frozen=True)
class ProgressView:
    round: int
    hand: int
    hands_in_round: int
    rounds: int
    contract: str | None

    def to_json(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "hand": self.hand,
            "hands_in_round": self.hands_in_round,
            "rounds": self.rounds,
            "contract": self.contract,
        }


@dataclass(frozen=True)
class SessionView:
    """A session now: who sits where, who deals next, the scores (API.md "Session")."""

    id: int
    group: str  # the group's slug
    game: str
    game_name: str
    money: bool
    status: str  # open | finished
    version: int
    options: Mapping[str, Any]
    players: tuple[SeatView, ...]  # seated in clockwise order, then those who left
    hands_played: int
    dealer: str | None
    leader: str | None
    pot: int | None  # units; None in points games
    carried_in: int | None  # the pot the session opened with (money games)
    scores: Mapping[str, int]  # units in money games, points in points games
    amounts: Mapping[str, Decimal] | None  # money games: each balance in the currency
    winners: tuple[str, ...]
    progress: ProgressView | None
    currency: str | None
    unit_value: Decimal | None
    leftover_pot: str | None  # carry | refund once a money game is finished
    started_at: datetime
    finished_at: datetime | None
    # Finished by the players (Finish the night, or a points game ended at the table): its
    # hands can no longer be corrected or undone. A points game that ended by itself can.
    closed: bool = False
    # RULES.md §2: who keeps the pot carried on, and who brought the pot it opened with.
    pot_keeper: str | None = None
    carried_in_keeper: str | None = None
    carried_from: int | None = None  # the session whose pot it opened with
    carried_from_number: int | None = None  # and its number
    # RULES.md §7: a finished points game played for a stake, each player's money in units.
    payout: Mapping[str, int] | None = None
    number: int = 0  # among the group's nights of its game ("Spot #2"; rules/nights.py)
    own_name: str = ""  # the table's name for its game (Any game's "Hearts"), or ""

    @property
    def title(self) -> str:
        """The night for people, in English (messages, the bank QR, the files): "Spot #2"."""
        return nights.night_name(self.game_name, self.own_name, self.number)

    @property
    def paid_in(self) -> str:
        """The currency the night is paid in: its game's, else its rounds' (RULES.md §6c)."""
        return self.currency or night_currency(self.options)

    on_tab: bool = False  # RULES.md §6a
    # RULES.md §8: a finished game's bonuses by player (Gin Rummy), None in other games.
    bonuses: Mapping[str, Mapping[str, int]] | None = None
    # RULES.md §10 (Kaluki): each player's points, who is out of the game (with the hand they
    # went out in) and the totals each buy-in re-entered at; None in other games.
    totals: Mapping[str, int] | None = None
    eliminated: Mapping[str, int] | None = None
    buy_ins: Mapping[str, tuple[int, ...]] | None = None
    may_buy_in: tuple[str, ...] = ()  # who may buy back in now (the page's buttons)
    # whose buy-in since the last hand may be taken back (the page's buttons)
    may_take_back: tuple[str, ...] = ()
    rounds: tuple[RoundView, ...] = ()  # RULES.md §6c: the night's rounds, oldest first
    # Who sits the next hand out as the deal goes round (``Game.sits_out``: the dealer in
    # Spots at five, Skat at four; API.md fifth edition), None where everyone plays.
    sitting_out: str | None = None
    # A game's own parts of the answer beside these (Boerenbridge's ``round``, Klaverjassen's
    # ``teams`` and ``sheet``: ``Game.session_parts``), answered as they are.
    parts: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            **self._game_json(),
            "id": self.id,
            "number": self.number,
            "group": self.group,
            "game": self.game,
            "game_name": self.game_name,
            "status": self.status,
            "version": self.version,
            "options": dict(self.options),
            "sitting_out": self.sitting_out,
            "players": [p.to_json() for p in self.players],
            "hands_played": self.hands_played,
            "dealer": self.dealer,
            "leader": self.leader,
            "pot": self.pot,
            "carried_in": self.carried_in,
            "scores": dict(self.scores),
            "winners": list(self.winners),
            "progress": self.progress.to_json() if self.progress else None,
            "money": (
                {p: str(a) for p, a in self.amounts.items()} if self.amounts is not None else None
            ),
            "currency": self.currency,
            "leftover_pot": self.leftover_pot,
            "started_at": timestamp(self.started_at),
            "finished_at": timestamp(self.finished_at),
            "pot_keeper": self.pot_keeper,
            "carried_in_keeper": self.carried_in_keeper,
            "carried_from": self.carried_from,
            "payout": dict(self.payout) if self.payout is not None else None,
            "on_tab": self.on_tab,
            "rounds": [r.to_json() for r in self.rounds],
        }

    def _game_json(self) -> dict[str, Any]:
        """What only some games answer (API.md "Additions", third edition), only there."""
        found: dict[str, Any] = {}
        if self.bonuses is not None:
            found["bonuses"] = {p: dict(b) for p, b in self.bonuses.items()}
        if self.totals is not None:
            found["totals"] = dict(self.totals)
        if self.eliminated is not None:
            found["eliminated"] = list(self.eliminated)
        if self.buy_ins is not None:
            found["buy_ins"] = {p: len(at) for p, at in self.buy_ins.items()}
        return {**found, **self.parts}


@dataclass(frozen=True)
class AddedSession:
    """``create_session``'s answer: the session, and whether it is new (False: a repeated
    request_id answered the session that request started)."""

    session: SessionView
    created: bool


@dataclass(frozen=True)
class ChangeView:
    """One line of a session's history."""

    kind: str
    hand_number: int | None
    at: datetime
    version: int
    before: Any
    after: Any
    # RULES.md §20: who made it and on whose phone, by their names now; None for nobody named.
    by: str | None = None
    phone: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "hand": self.hand_number,
            "at": timestamp(self.at),
            "version": self.version,
            "before": self.before,
            "after": self.after,
            "by": self.by,
            "phone": self.phone,
        }
