"""The group's numbers over any period: every player's nights and totals, from one place.

The group page's leaderboard, a player's page, the stats and player API calls and the group
workbook all read their numbers here, so they can never disagree:

- a player's **night** is one session they played: its game, when it started, its status,
  their score (units in a money game, points in a points game), their money (money games)
  and whether they won it;
- **won** means a finished game that the player won or shared (the session's own
  ``winners``: a points game's, Kaluki's players still in at its end). A Spot night has no
  winner: being up the most is money, not a game won;
- their **totals** add the nights up: sessions, hands dealt in, hands won or shared, games
  won per game, points per game (and per scoring where a game's option changes what a point
  means: Rummy played for penalties), never added across games, and money per currency.

The reads are bounded: a period's sessions in one query and their hands' outcomes in a
second, however many sessions the group has played. ``night_facts`` and ``add_up`` are pure,
so the group workbook builds its sheets from the same arithmetic as the sessions stream by.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from decimal import Decimal
from typing import Any

from sqlalchemy import select

from ledger.extensions import db
from ledger.models import GameSession, Hand, Player
from ledger.rules.base import State
from ledger.rules.money import amount
from ledger.rules.nights import NAME_OPTION, game_key, own_name
from ledger.rules.registry import GAMES
from ledger.services.building import cents_amount, night_scores
from ledger.services.errors import NotFound, RuleError
from ledger.services.groups import name_key
from ledger.services.loading import session_game, table_state
from ledger.services.night import night_winnings
from ledger.services.rounds import rounds_by_session, rounds_from_json
from ledger.services.views.base import night_currency, timestamp
from ledger.services.views.groups import GroupRef


@dataclass(frozen=True)
class Period:
    """Sessions started from ``start`` (inclusive) to ``end`` (exclusive), naive UTC; None is
    open-ended."""

    start: datetime | None = None
    end: datetime | None = None

    @classmethod
    def of_dates(cls, first: date | None, last: date | None) -> Period:
        """The whole UTC days from ``first`` to ``last``, both included (the calendar's last
        day has no day after it: open-ended)."""
        start = datetime.combine(first, time()) if first is not None else None
        end = None
        if last is not None and last < date.max:
            end = datetime.combine(last + timedelta(days=1), time())
        return cls(start, end)

    def holds(self, moment: datetime) -> bool:
        return (self.start is None or moment >= self.start) and (
            self.end is None or moment < self.end
        )


ALL_TIME = Period()

# A night at the pub runs past midnight: "tonight" is the sessions started in the last hours.
TONIGHT = timedelta(hours=12)


def named_period(key: str, now: datetime) -> Period | None:
    """The leaderboard's named periods: ``tonight``, this ``month``, this ``year``; None for
    any other key (all time)."""
    if key == "tonight":
        return Period(now - TONIGHT, None)
    if key == "month":
        return Period.of_dates(now.date().replace(day=1), None)
    if key == "year":
        return Period.of_dates(date(now.year, 1, 1), None)
    return None


# The years a period may name: a spreadsheet counts days from 1900, and Python's calendar
# ends with 9999.
FIRST_YEAR = 1900
LAST_YEAR = date.max.year


def parse_day(text: str | None, field_name: str) -> date | None:
    """A date as YYYY-MM-DD in the years FIRST_YEAR to LAST_YEAR (None when not given), or a
    RuleError naming the field."""
    if text is None or text == "":
        return None
    try:
        if len(text) != 10:
            raise ValueError(text)
        day = date.fromisoformat(text)
    except ValueError:
        raise RuleError(
            "{name} must be a date written YYYY-MM-DD, like 2026-11-23.",
            name=field_name,
            field=field_name,
        ) from None
    if day.year < FIRST_YEAR:
        raise RuleError(
            "{name} must be a date in the years {first} to {last}.",
            name=field_name,
            field=field_name,
            first=str(FIRST_YEAR),
            last=str(LAST_YEAR),
        )
    return day


def period_of(first: str | None, last: str | None) -> Period:
    """The period of the ``from`` and ``to`` dates as typed (API.md "History and stats")."""
    start, end = parse_day(first, "from"), parse_day(last, "to")
    if start is not None and end is not None and end < start:
        raise RuleError("The period cannot end (to) before it starts (from).", field="to")
    return Period.of_dates(start, end)


@dataclass(frozen=True)
class Night:
    """One player's session (see the module's docstring)."""

    session: int
    game: str
    started_at: datetime
    status: str
    score: int
    money: Decimal | None  # money games: the balance in the currency
    currency: str | None
    won: bool
    points_key: str | None  # points games: the column their points add up in
    place: int  # 1 for the best of the session (shared places share the number)
    players: int
    hands: int  # dealt in (not sitting out)
    hands_won: int
    unit_value: Decimal | None = None  # money games: what one unit of ``score`` is worth
    # RULES.md §6c: what the player paid for rounds and what their parts of rounds came to,
    # in ``rounds_currency``; kept apart from ``money``: rounds are not winnings.
    rounds_paid: Decimal | None = None
    rounds_owed: Decimal | None = None
    rounds_currency: str | None = None
    # The game as it is counted: its key, or an Any game's with its name ("tally:Hearts").
    kind: str = ""
    number: int = 0  # the night's number ("Hearts #1": ledger/rules/nights.py)
    own_name: str = ""  # the table's name for its game (Any game's), or ""

    def to_json(self) -> dict[str, Any]:
        return {
            **_rounds_json(self.rounds_paid, self.rounds_owed, self.rounds_currency),
            "id": self.session,
            "number": self.number,
            "game": self.game,
            "started_at": timestamp(self.started_at),
            "status": self.status,
            "score": self.score,
            "money": str(self.money) if self.money is not None else None,
            "currency": self.currency,
            "won": self.won,
            "place": self.place,
            "players": self.players,
            "hands": self.hands,
            "hands_won": self.hands_won,
        }


@dataclass(frozen=True)
class Totals:
    """A player's nights added up (see the module's docstring)."""

    name: str
    sessions: int = 0
    hands: int = 0
    hands_won: int = 0
    # game (ledger/rules/nights.py game_key: an Any game by its name) → games won
    games_won: Mapping[str, int] = field(default_factory=dict)
    points: Mapping[str, int] = field(default_factory=dict)  # points key → points
    money: Mapping[str, Decimal] = field(default_factory=dict)  # currency → net amount
    # currency → the unit ``money`` is counted in for the API: the sessions' unit value, or
    # where they differ, the largest one that measures each of them exactly.
    units: Mapping[str, Decimal] = field(default_factory=dict)
    # RULES.md §6c: currency → (paid for rounds, owed for parts of rounds); not money won.
    rounds: Mapping[str, tuple[Decimal, Decimal]] = field(default_factory=dict)

    @property
    def plays_points(self) -> bool:
        return bool(self.points)

    @property
    def all_games_won(self) -> int:
        return sum(self.games_won.values())

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "sessions": self.sessions,
            "hands": self.hands,
            "hands_won": self.hands_won,
            "games_won": dict(self.games_won),
            "points": dict(self.points),
            "money": {c: _in_units(v, self.units.get(c)) for c, v in self.money.items()},
            "amounts": {c: str(v) for c, v in self.money.items()},
            "rounds": {c: {"paid": str(p), "owed": str(o)} for c, (p, o) in self.rounds.items()},
        }


def _rounds_json(
    paid: Decimal | None, owed: Decimal | None, currency: str | None
) -> dict[str, Any]:
    """A night's rounds as a player's nights answer them, where the night had any."""
    if currency is None:
        return {}
    return {"rounds_paid": str(paid), "rounds_owed": str(owed), "rounds_currency": currency}


def _in_units(money: Decimal, unit: Decimal | None) -> int:
    """A net amount counted in ``unit`` (exact: the unit measures every session's)."""
    return int(money / unit) if unit else 0


def _common_unit(units: Iterable[Decimal]) -> Decimal:
    """The largest amount that measures each unit value exactly (they have at most six
    decimals): their greatest common divisor, counted in millionths."""
    micro = [int(u.scaleb(6)) for u in units]
    return Decimal(math.gcd(*micro)).scaleb(-6).normalize()


@dataclass(frozen=True)
class StatsView:
    """Every player's totals over a period, best first (API.md "History and stats")."""

    players: tuple[Totals, ...]
    period: Period = ALL_TIME

    @property
    def points_keys(self) -> list[str]:
        return points_order(k for t in self.players for k in t.points)

    @property
    def currencies(self) -> list[str]:
        return sorted({c for t in self.players for c in t.money})

    def to_json(self) -> dict[str, Any]:
        return {"players": [t.to_json() for t in self.players]}


@dataclass(frozen=True)
class PlayerHistory:
    """One player's nights, oldest first, and their totals (the same as the stats')."""

    name: str
    nights: tuple[Night, ...]
    totals: Totals

    @property
    def best(self) -> Night | None:
        return _ranked(self.nights)[0] if self.nights else None

    @property
    def worst(self) -> Night | None:
        ranked = _ranked(self.nights)
        return ranked[-1] if len(ranked) > 1 else None

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "sessions": [n.to_json() for n in self.nights],
            "totals": self.totals.to_json(),
        }


# --- The arithmetic, pure -------------------------------------------------------------------


def points_key(key: str, options: Mapping[str, Any]) -> str:
    """The column a points game's points add up in: the game, and its scoring when it is not
    the game's default (a point of Rummy played for penalties is a point against); a game
    the table names itself by its name ("tally:Hearts"): Hearts and Whist are two games."""
    if own_name(options):
        return game_key(key, options)
    game = GAMES.get(key)
    scoring = options.get("scoring")
    if game is None or "scoring" not in game.options or scoring is None:
        return key
    return key if scoring == game.options["scoring"].default else f"{key}:{scoring}"


def named_by_table(game_key: str) -> bool:
    """Whether the table names its nights of this game itself (Any game: "Hearts")."""
    game = GAMES.get(game_key)
    return game is not None and NAME_OPTION in game.options


def won_key(points: str) -> str:
    """The game a points column counts (``games_won``'s key): the column's game, or a game
    named by the table with its name ("tally:Hearts")."""
    game = points.partition(":")[0]
    return points if named_by_table(game) else game


def points_order(keys: Iterable[str]) -> list[str]:
    """Points keys in the registry's order of games, a game's default scoring first."""
    order = list(GAMES)

    def rank(key: str) -> tuple[int, str]:
        game = key.split(":")[0]
        return (order.index(game) if game in order else len(order), key)

    return sorted(set(keys), key=rank)


@dataclass(frozen=True)
class SessionFacts:
    """What the numbers of one session are made of: its row's columns, its hands' counts."""

    id: int
    game: str
    options: Mapping[str, Any]
    status: str
    started_at: datetime
    scores: Mapping[str, int]
    winners: Sequence[str]  # the game's winners once finished (points games)
    hands: Mapping[str, int]  # dealt in, per player
    hands_won: Mapping[str, int]
    # What each won or lost on the night in units, as the night's read model has it
    # (services/night.py ``night_winnings``: RULES.md §2, §7); None: no money was won.
    winnings: Mapping[str, int] | None = None
    # RULES.md §6c: each player's (paid, owed) for the night's rounds, in cents.
    rounds: Mapping[str, tuple[int, int]] = field(default_factory=dict)
    number: int = 0  # the night's number (ledger/rules/nights.py)

    def money_of(self, name: str) -> int | None:
        """What the player won or lost on the night, in units: the night's own figure, never
        worked out again here; None on a night without money."""
        if self.winnings is None:
            return None
        return int(self.winnings.get(name, 0))


def night_facts(facts: SessionFacts) -> list[tuple[str, Night]]:
    """Each player's night of this session, in the order of its scores."""
    game = GAMES.get(facts.game)
    money = game is not None and game.money
    options = {**(game.defaults() if game is not None else {}), **facts.options}
    priced = facts.winnings is not None
    currency = str(options.get("currency", "")) if priced else None
    unit_value = Decimal(str(options["unit_value"])) if priced else None
    # The session's own winners: a points game's, or Kaluki's last players in (RULES.md §10);
    # a Spot night has none (being up the most is money, not a game won).
    winners = set(facts.winners) if facts.status == "finished" else set()
    ranks = night_ranks(facts, options, money)
    nights = []
    for name, score in facts.scores.items():
        night = Night(
            session=facts.id,
            game=facts.game,
            started_at=facts.started_at,
            status=facts.status,
            score=int(score),
            money=amount(facts.money_of(name) or 0, unit_value, currency or "")
            if unit_value is not None
            else None,
            currency=currency,
            won=name in winners,
            points_key=None if money else points_key(facts.game, options),
            place=ranks.get(name, 1),
            players=len(facts.scores),
            hands=facts.hands.get(name, 0),
            hands_won=facts.hands_won.get(name, 0),
            unit_value=unit_value,
            **_night_rounds(facts, name, options),
            kind=game_key(facts.game, facts.options),
            number=facts.number,
            own_name=own_name(facts.options),
        )
        nights.append((name, night))
    return nights


def _night_rounds(facts: SessionFacts, name: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """What the night's rounds came to for the player (RULES.md §6c), in the currency."""
    if not facts.rounds:
        return {}
    currency = night_currency(options)
    paid, owed = facts.rounds.get(name, (0, 0))
    return {
        "rounds_paid": cents_amount(paid, currency),
        "rounds_owed": cents_amount(owed, currency),
        "rounds_currency": currency,
    }


def night_ranks(facts: SessionFacts, options: Mapping[str, Any], money: bool) -> dict[str, int]:
    """The stats' ranking of a night (a player's night's ``place``, their best and worst
    night): by what each won in a money game, by the game's own measure of who leads (highest
    or lowest) in a points game, equal results sharing the number (1, 1, 3). Not the
    scoreboard's place (Any game, RULES.md §12: ``Game.places``), nor the league's night
    places (§13: ``rules.league.night_places``, which put a points game's winners first)."""
    scores = {p: facts.money_of(p) or 0 for p in facts.scores} if money else dict(facts.scores)
    game = GAMES.get(facts.game)
    if money or game is None or not game.has_leaders():
        return {p: 1 + sum(v > s for v in scores.values()) for p, s in scores.items()}
    places: dict[str, int] = {}
    left = list(scores)
    while left:
        state = State(seats=tuple(left), dealer=left[0], scores=scores)
        leaders = game.leaders(state, options) or tuple(left)
        place = len(places) + 1  # shared places share the number: 1, 1, 3
        for name in leaders:
            places[name] = place
        left = [p for p in left if p not in leaders]
    return places


class RunningTotals:
    """A player's totals added up a night at a time (``add``), as the group workbook counts a
    long history's nights while they stream by without keeping them; ``totals`` is what
    ``add_up`` gives for the nights added."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.sessions = self.hands = self.hands_won = 0
        self.games_won: dict[str, int] = defaultdict(int)
        self.points: dict[str, int] = defaultdict(int)
        self.money: dict[str, Decimal] = defaultdict(Decimal)
        self.unit_values: dict[str, set[Decimal]] = defaultdict(set)
        self.rounds: dict[str, tuple[Decimal, Decimal]] = {}

    def add(self, night: Night) -> None:
        if night.rounds_currency is not None:
            paid, owed = self.rounds.get(night.rounds_currency, (Decimal(0), Decimal(0)))
            assert night.rounds_paid is not None and night.rounds_owed is not None
            self.rounds[night.rounds_currency] = (
                paid + night.rounds_paid,
                owed + night.rounds_owed,
            )
        self.sessions += 1
        self.hands += night.hands
        self.hands_won += night.hands_won
        if night.won:
            self.games_won[night.kind or night.game] += 1
        if night.points_key is not None:
            self.points[night.points_key] += night.score
        if night.money is not None and night.currency is not None:
            self.money[night.currency] += night.money
            if night.unit_value is not None:
                self.unit_values[night.currency].add(night.unit_value)

    def totals(self) -> Totals:
        return Totals(
            self.name,
            self.sessions,
            self.hands,
            self.hands_won,
            dict(self.games_won),
            {k: self.points[k] for k in points_order(self.points)},
            dict(sorted(self.money.items())),
            {c: _common_unit(values) for c, values in self.unit_values.items()},
            dict(sorted(self.rounds.items())),
        )


def add_up(name: str, nights: Iterable[Night]) -> Totals:
    """A player's totals over these nights."""
    running = RunningTotals(name)
    for night in nights:
        running.add(night)
    return running.totals()


def board(nights: Iterable[tuple[str, Night]], period: Period = ALL_TIME) -> StatsView:
    """Every player's totals, best first: by net money (all currencies), games won, hands won."""
    by_player: dict[str, list[Night]] = defaultdict(list)
    for name, night in nights:
        by_player[name].append(night)
    return ranked_board((add_up(name, ns) for name, ns in by_player.items()), period)


def ranked_board(totals: Iterable[Totals], period: Period = ALL_TIME) -> StatsView:
    """The players' ``totals`` best first, as ``board`` ranks them (equal ones in the order
    given)."""
    rows = sorted(
        totals,
        key=lambda t: (
            -sum(t.money.values(), Decimal(0)),
            -t.all_games_won,
            -t.hands_won,
            t.name.casefold(),
        ),
    )
    return StatsView(tuple(rows), period)


def _ranked(nights: Sequence[Night]) -> list[Night]:
    """The nights best first: the money nights by the money if there are any, else the
    points nights by place (a win first); the later night first among equals."""
    money = [n for n in nights if n.money is not None]
    if money:
        return sorted(money, key=lambda n: (-(n.money or 0), -n.session))
    return sorted(
        nights,
        key=lambda n: ((n.place - 1) / max(1, n.players - 1), -n.session),
    )


def hand_counts(outcome: Mapping[str, Any] | None) -> tuple[list[str], list[str]]:
    """Who was dealt in, and who won or shared, in a hand's stored outcome."""
    outcome = outcome or {}
    dealt = [
        str(r["player"]) for r in outcome.get("results") or () if not r.get("sitting_out", False)
    ]
    return dealt, [str(w) for w in outcome.get("winners") or ()]


# --- The reads ------------------------------------------------------------------------------


def _facts(group: GroupRef, period: Period) -> list[SessionFacts]:
    """The group's sessions started in the period, oldest first: two queries."""
    where = [GameSession.group_id == group.id]
    if period.start is not None:
        where.append(GameSession.started_at >= period.start)
    if period.end is not None:
        where.append(GameSession.started_at < period.end)
    rows = db.session.execute(
        select(
            GameSession.id,
            GameSession.game,
            GameSession.options,
            GameSession.status,
            GameSession.started_at,
            GameSession.state,
            GameSession.start_state,
            GameSession.number,
            # What the night's winnings are worked out from (services/night.py).
            GameSession.hands_played,
            GameSession.leftover_pot,
            Player.name.label("brought_by"),
        )
        .outerjoin(Player, Player.id == GameSession.carried_in_keeper_id)
        .where(*where)
        .order_by(GameSession.started_at, GameSession.id)
    ).all()
    hands: dict[int, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    won: dict[int, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    if rows:
        # Joined on the sessions rather than a list of their ids: one statement of one size
        # however many sessions the period holds.
        outcomes = db.session.execute(
            select(Hand.session_id, Hand.outcome)
            .join(GameSession, GameSession.id == Hand.session_id)
            .where(*where)
        )
        for session_id, outcome in outcomes:
            dealt, winners = hand_counts(outcome)
            for name in dealt:
                hands[session_id][name] += 1
            for name in winners:
                won[session_id][name] += 1
    rounds = rounds_by_session(group, where) if rows else {}
    return [
        SessionFacts(
            id=row.id,
            game=row.game,
            options=row.options or {},
            status=row.status,
            started_at=row.started_at,
            scores=_scores(row),
            winners=(row.state or {}).get("winners", ()),
            hands=hands.get(row.id, {}),
            hands_won=won.get(row.id, {}),
            winnings=_winnings(row),
            rounds=rounds.get(row.id, {}),
            number=row.number,
        )
        for row in rows
    ]


def _scores(row: Any) -> Mapping[str, int]:
    """The night's scores as its pages show them (services/building.py ``night_scores``); a
    night of a game this server does not know, as stored."""
    if row.game not in GAMES or not row.state:
        return (row.state or {}).get("scores", {})
    return night_scores(row, session_game(row), table_state(row))


def _winnings(row: Any) -> dict[str, int] | None:
    """The night's winnings as its read model has them (services/night.py), from its row; a
    night of a game this server does not know has none."""
    if row.game not in GAMES or not row.state:
        return None
    return night_winnings(row, row.brought_by)


def session_facts(group: GroupRef, period: Period = ALL_TIME) -> list[SessionFacts]:
    """The facts of the group's sessions started in the period, oldest first: two queries
    (what seasons, ratings and rivals read a night's result from)."""
    return _facts(group, period)


def group_stats(group: GroupRef, period: Period = ALL_TIME) -> StatsView:
    """Every player's totals over the sessions started in the period: two queries."""
    return board((n for f in _facts(group, period) for n in night_facts(f)), period)


def player_history(group: GroupRef, name: str, period: Period = ALL_TIME) -> PlayerHistory:
    """The nights and totals of the group's player ``name`` (any case): three queries.

    A name the group does not know is not found, whatever another group has.
    """
    player = db.session.scalar(
        select(Player).where(Player.group_id == group.id, Player.name_key == name_key(name))
    )
    if player is None:
        raise NotFound("{player} is not a player of this group.", player=name)
    nights = tuple(n for f in _facts(group, period) for p, n in night_facts(f) if p == player.name)
    return PlayerHistory(player.name, nights, add_up(player.name, nights))


class HandTally:
    """Each player's hands dealt in and won, counted a hand at a time: all a session's facts
    need of its hands, so a night of any length can be counted as it streams by."""

    def __init__(self) -> None:
        self.dealt_in: dict[str, int] = defaultdict(int)
        self.won: dict[str, int] = defaultdict(int)

    def add(self, hand: Mapping[str, Any]) -> None:
        """Count one hand (the API's answer, or a stored outcome: the same keys)."""
        dealt, winners = hand_counts(hand)
        for name in dealt:
            self.dealt_in[name] += 1
        for name in winners:
            self.won[name] += 1


def facts_from_json(
    session: Mapping[str, Any],
    hands: Iterable[Mapping[str, Any]] | HandTally,
    started_at: Any = None,
) -> SessionFacts:
    """A session's facts from the API's answers (a session and its hands, or its hands
    counted already): how the group workbook adds up the sessions it streams with the same
    arithmetic as the pages."""
    if isinstance(hands, HandTally):
        tally = hands
    else:
        tally = HandTally()
        for hand in hands:
            tally.add(hand)
    started = session.get("started_at") or started_at
    if isinstance(started, str):
        started = datetime.fromisoformat(started.replace("Z", "+00:00"))
    if isinstance(started, datetime) and started.tzinfo is not None:
        started = started.astimezone(UTC).replace(tzinfo=None)  # naive UTC, as stored
    return SessionFacts(
        id=int(session.get("id") or 0),
        game=str(session.get("game", "")),
        options=session.get("options") or {},
        status=str(session.get("status", "")),
        started_at=started if isinstance(started, datetime) else datetime.min,
        scores=session.get("scores") or {},
        winners=session.get("winners") or (),
        hands=dict(tally.dealt_in),
        hands_won=dict(tally.won),
        # The night's own answer (API.md "Session": its read model's), never its scores.
        winnings=session.get("winnings"),
        rounds=rounds_from_json(session),
        number=int(session.get("number") or 0),
    )
