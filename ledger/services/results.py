"""What the services answer: frozen result objects the pages, the exports and the API all read.

Each view has ``to_json()``, the shape of shared/API.md: money as whole units and, where it
is an amount, a Decimal written as a string, never a float.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from typing import Any

from ledger.rules import nights
from ledger.rules.keeper import winnings

# The currency of a night without one of its own (a points game with no stake): its rounds'.
DEFAULT_CURRENCY = "EUR"


def night_currency(options: Mapping[str, Any]) -> str:
    """The currency a night's rounds are paid in: its ``currency`` option (EUR without one)."""
    return str(options.get("currency") or DEFAULT_CURRENCY)


def timestamp(moment: datetime | None) -> str | None:
    """A stored (naive UTC) time as ISO 8601 with a Z: ``2024-05-02T21:14:05Z``."""
    return None if moment is None else moment.isoformat(timespec="seconds") + "Z"


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
class ResultView:
    """One player's result in a hand: the cards as codes ("QS", "10", "JK")."""

    player: str
    cards: tuple[str, ...]
    spots: int | None
    points: int | None
    sitting_out: bool
    melds: tuple[tuple[str, ...], ...] = ()
    # Rummy 500 (RULES.md §9): the points melded and the melded cards, where given; the
    # points left in hand are ``spots`` (answered as ``in_hand`` too).
    melded: int | None = None
    melded_cards: tuple[str, ...] = ()
    # What a game says of the result beside these (Boerenbridge's bid and tricks).
    more: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        found = {
            **self.more,
            "player": self.player,
            "cards": list(self.cards),
            "spots": self.spots,
            "points": self.points,
            "sitting_out": self.sitting_out,
            "melds": [list(m) for m in self.melds],
        }
        if self.melded is not None:
            found.update(
                melded=self.melded, in_hand=self.spots, melded_cards=list(self.melded_cards)
            )
        return found


@dataclass(frozen=True)
class MovementView:
    """Money moving: ``source``/``target`` None is the pot."""

    source: str | None
    target: str | None
    units: int

    def to_json(self) -> dict[str, Any]:
        return {"from": self.source, "to": self.target, "units": self.units}


@dataclass(frozen=True)
class HandView:
    """One hand as scored (API.md "Hand"), with the entry as typed and its revision."""

    number: int
    dealer: str
    leader: str
    results: tuple[ResultView, ...]
    out: str | None
    winners: tuple[str, ...]
    movements: tuple[MovementView, ...]  # antes and the pot included
    pot_before: int | None
    pot_after: int | None
    scores_after: Mapping[str, int]
    entry: Mapping[str, Any]  # as typed
    request_id: str | None
    revision: int  # 1 as entered, +1 for every correction
    created_at: datetime
    updated_at: datetime
    ending: str | None = None  # Gin Rummy: knock, gin, big_gin or draw
    # What a game says of the hand beside these (Klaverjassen's teams: points, roem, nat).
    more: Mapping[str, Any] = field(default_factory=dict)

    @property
    def payments(self) -> tuple[MovementView, ...]:
        return tuple(m for m in self.movements if m.source is not None and m.target is not None)

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "dealer": self.dealer,
            "leader": self.leader,
            "results": [r.to_json() for r in self.results],
            "out": self.out,
            "winners": list(self.winners),
            "payments": [m.to_json() for m in self.payments],
            "movements": [m.to_json() for m in self.movements],
            "pot_before": self.pot_before,
            "pot_after": self.pot_after,
            "scores_after": dict(self.scores_after),
            "entry": dict(self.entry),
            "request_id": self.request_id,
            "revision": self.revision,
            "created_at": timestamp(self.created_at),
            "updated_at": timestamp(self.updated_at),
            **({"ending": self.ending} if self.ending is not None else {}),
            **self.more,
        }


@dataclass(frozen=True)
class AddedSession:
    """``create_session``'s answer: the session, and whether it is new (False: a repeated
    request_id answered the session that request started)."""

    session: SessionView
    created: bool


@dataclass(frozen=True)
class AddedHand:
    """``add_hand``'s answer: the hand, and whether it is new (False: a repeated request_id)."""

    hand: HandView
    created: bool


@dataclass(frozen=True)
class BalanceView:
    """A player's money for the night: ``amount`` is exact (units × unit value); ``settled`` is
    what the settle-up pays or receives for it in the currency's coins (API.md "Coins");
    ``outstanding`` the units still to pay (negative) or receive (positive) after the payments
    made, and ``outstanding_amount`` what the transfers left move for it, in coins."""

    player: str
    units: int
    amount: Decimal
    settled: Decimal | None = None  # None: the same as amount
    outstanding: int | None = None  # None: the same as units (nothing paid)
    outstanding_amount: Decimal | None = None
    # RULES.md §2: the units of the pot this player keeps (counted in ``units``, not won),
    # and of the pot they brought back at the night's start (their score started at minus it).
    pot_kept: int = 0
    # RULES.md §6c, a night with rounds: what the rounds give the player, and the total
    # (``amount`` plus ``rounds``) that ``settled`` and ``outstanding_amount`` then settle.
    rounds: Decimal | None = None
    total: Decimal | None = None
    brought_back: int = 0
    # False on a night without game money (a points game with no stake settling its rounds
    # alone, RULES.md §6c): it has no winnings, as its standings say (services/night.py).
    game_money: bool = True

    @property
    def winnings(self) -> int | None:
        """What the player won or lost on the night, in units: ``units`` without the pot kept
        or brought back (RULES.md §2); None on a night without game money."""
        if not self.game_money:
            return None
        return winnings(self.units - self.pot_kept, self.brought_back)

    @property
    def exact(self) -> Decimal:
        """What is settled for the player, exactly, before rounding to the coin: the amount,
        or on a night with rounds the total (RULES.md §6c)."""
        return self.amount if self.total is None else self.total

    def to_json(self) -> dict[str, Any]:
        settled = self.amount if self.settled is None else self.settled
        outstanding = self.units if self.outstanding is None else self.outstanding
        left = settled if self.outstanding_amount is None else self.outstanding_amount
        found = {
            "player": self.player,
            "units": self.units,
            "amount": str(self.amount),
            "settled": str(settled),
            "outstanding": outstanding,
            "outstanding_amount": str(left),
            "pot_kept": self.pot_kept,
            "brought_back": self.brought_back,
            "winnings": self.winnings,
        }
        if self.total is not None:
            # The totals are settled in the currency: no units are outstanding as such.
            found.update(outstanding=None, rounds=str(self.rounds), total=str(self.total))
        if not self.game_money:
            # A night without game money (RULES.md §6c) has no units nor game amount to give:
            # null, as its standings' balance, beside the rounds and the total it settles.
            found.update(units=None, amount=None)
        return found


@dataclass(frozen=True)
class PaymentView:
    """Money handed over at the table to settle up (API.md "Payments"), recorded at ``at``."""

    id: int
    source: str
    target: str
    units: int | None  # None: given in the currency (a night with rounds, RULES.md §6c)
    amount: Decimal
    at: datetime

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "from": self.source,
            "to": self.target,
            "units": self.units,
            "amount": str(self.amount),
            "at": timestamp(self.at),
        }


@dataclass(frozen=True)
class RoundView:
    """A round of drinks or food (RULES.md §6c, API.md "Rounds"): ``cents`` of the night's
    ``currency`` paid by ``paid_by`` for the people in ``shares`` (in the seating order it was
    recorded in), each owing their part; ``what`` it was, None when nobody said."""

    id: int
    what: str | None
    cents: int
    amount: Decimal
    currency: str
    paid_by: str
    shares: Mapping[str, int]
    parts: Mapping[str, Decimal]
    at: datetime

    @property
    def people(self) -> tuple[str, ...]:
        return tuple(self.shares)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "what": self.what,
            "amount": str(self.amount),
            "paid_by": self.paid_by,
            "for": list(self.shares),
            "shares": dict(self.shares),
            "parts": {p: str(part) for p, part in self.parts.items()},
            "at": timestamp(self.at),
        }


@dataclass(frozen=True)
class AddedRound:
    """A round recorded, or (``created`` False) the one a resend of its request recorded."""

    round: RoundView
    created: bool


@dataclass(frozen=True)
class TransferView:
    """A payment at the end of the night; None is the pot (a pot carried on, or refunded)."""

    source: str | None
    target: str | None
    units: int | None  # None: a night with rounds settles its totals in the currency (§6c)
    amount: Decimal
    # RULES.md §6b: the QR code's text for a transfer in euros to a player with an account.
    epc: str | None = None

    def to_json(self) -> dict[str, Any]:
        found = {
            "from": self.source,
            "to": self.target,
            "units": self.units,
            "amount": str(self.amount),
        }
        return found if self.epc is None else {**found, "epc": self.epc}


@dataclass(frozen=True)
class SettlementView:
    """Who pays whom (API.md "Settlement"): the fewest transfers that square every balance
    still outstanding once the payments made at the table are counted."""

    session: int
    status: str
    currency: str
    unit_value: Decimal
    balances: tuple[BalanceView, ...]
    pot: int
    pot_amount: Decimal
    transfers: tuple[TransferView, ...]  # what is still outstanding after the payments
    payments: tuple[PaymentView, ...] = ()  # oldest first
    pot_keeper: str | None = None  # who the pot's money is paid to (RULES.md §2)
    on_tab: bool = False  # RULES.md §6a: the night is paid with the tab, no transfers of its own
    rounds: tuple[RoundView, ...] = ()  # RULES.md §6c: the balances then carry their totals

    def to_json(self) -> dict[str, Any]:
        return {
            "on_tab": self.on_tab,
            "session": self.session,
            "status": self.status,
            "currency": self.currency,
            "unit_value": str(self.unit_value),
            "balances": [b.to_json() for b in self.balances],
            "pot": self.pot,
            "pot_amount": str(self.pot_amount),
            "transfers": [t.to_json() for t in self.transfers],
            "payments": [p.to_json() for p in self.payments],
            "pot_keeper": self.pot_keeper,
            "rounds": [r.to_json() for r in self.rounds],
        }

    @property
    def with_rounds(self) -> bool:
        """Whether the totals are settled in the currency (RULES.md §6c): the night has
        rounds, or a payment given in the currency."""
        return any(b.total is not None for b in self.balances)


@dataclass(frozen=True)
class ChangeView:
    """One line of a session's history."""

    kind: str
    hand_number: int | None
    at: datetime
    version: int
    before: Any
    after: Any

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "hand": self.hand_number,
            "at": timestamp(self.at),
            "version": self.version,
            "before": self.before,
            "after": self.after,
        }


@dataclass(frozen=True)
class TabPaymentView:
    """A payment against the tab (API.md "The tab")."""

    id: int
    source: str
    target: str
    amount: Decimal
    currency: str
    at: datetime

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "from": self.source,
            "to": self.target,
            "amount": str(self.amount),
            "currency": self.currency,
            "at": timestamp(self.at),
        }


@dataclass(frozen=True)
class TabNightView:
    """A night on the tab: its session, game, date and each player's part (exact)."""

    session: int
    game: str
    game_name: str
    at: datetime
    parts: Mapping[str, Decimal]
    number: int = 0  # the night's number ("Spot #2": ledger/rules/nights.py)
    own_name: str = ""  # the table's name for its game (Any game's), or ""
    correctable: bool = False  # a points game that ended by itself: its hands may change
    season: int | None = None  # a season closed onto the tab: its id; game_name its name

    @property
    def title(self) -> str:
        """The night for people, in English: "Spot #2"."""
        return nights.night_name(self.game_name, self.own_name, self.number)


@dataclass(frozen=True)
class TabBalanceView:
    player: str
    amount: Decimal  # exact, to the cent
    settled: Decimal  # in coins
    outstanding_amount: Decimal  # after the payments, in coins
    nights: int  # the nights on the tab this player played

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "amount": str(self.amount),
            "settled": str(self.settled),
            "outstanding_amount": str(self.outstanding_amount),
        }


@dataclass(frozen=True)
class TabView:
    """The group's tab in one currency (RULES.md §6a, API.md "The tab")."""

    currency: str
    balances: tuple[TabBalanceView, ...]
    transfers: tuple[TransferView, ...]
    nights: tuple[TabNightView, ...]
    payments: tuple[TabPaymentView, ...]

    @property
    def since(self) -> datetime | None:
        return self.nights[0].at if self.nights else None

    def to_json(self) -> dict[str, Any]:
        return {
            "currency": self.currency,
            "balances": [b.to_json() for b in self.balances],
            "transfers": [
                {k: v for k, v in t.to_json().items() if k != "units"} for t in self.transfers
            ],
            "sessions": [n.session for n in self.nights if n.season is None],
            "seasons": [n.season for n in self.nights if n.season is not None],
            "payments": [p.to_json() for p in self.payments],
            "since": timestamp(self.since),
            "settled": not self.transfers,
        }


@dataclass(frozen=True)
class AccountView:
    """A player's bank account (RULES.md §6b)."""

    iban: str
    name: str

    def to_json(self) -> dict[str, Any]:
        return {"iban": self.iban, "name": self.name}
