"""Exports: what the workbooks and the CSV files are made of, read for them.

- ``session_export``: a session, its hands and its settlement, all of one version of it,
  with the refunds paid from the pot at the finish and the game's winners.
- ``group_export``: the group's listing and each of its sessions in turn, read only when
  it is written.
- ``group_book``: the group workbook's reads: its nights stream a page at a time, each
  page's rows, rounds and hands read with a handful of queries in one snapshot.

The files are laid out by ledger/export/ (workbooks, CSV); a backup's rows are read by
ledger/services/backups.py. The JSON API, the web downloads and the command line all read
through these, so a download never disagrees with what the API and the pages show.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Row, func, select

from ledger.extensions import db
from ledger.models import GameSession
from ledger.services.building import hand_view, night_rows
from ledger.services.evenings import group_evenings
from ledger.services.groups import group_players, group_view
from ledger.services.hands import hands_of_sessions, iter_hands
from ledger.services.loading import read_sessions
from ledger.services.night import NightSummary, NightView, night_summary, night_view
from ledger.services.season_views import SeasonView
from ledger.services.seasons import group_seasons
from ledger.services.sessions import session_view
from ledger.services.tab import group_tabs
from ledger.services.views.evenings import EveningView
from ledger.services.views.groups import GroupRef, GroupView, PlayerView
from ledger.services.views.hands import HandView, MovementView
from ledger.services.views.money import SettlementView
from ledger.services.views.sessions import SessionView
from ledger.services.views.tab import TabView

# Reads that happen between two writes of someone at the table could mix two versions of a
# session; the session's version before and after tells, and the reads are simply repeated.
SNAPSHOT_ATTEMPTS = 5
# The most hands read (and held) at once while the nights stream into the group workbook: a
# night of 20,000 hands is read in chunks of this many, by hand number, as are a page's short
# nights' hands together.
HAND_CHUNK = 500
# The nights read at once for the group workbook (their rows and what their views need).
NIGHT_PAGE = 200


# What the group workbook costs, as bench/workbook.py measured it (RESULTS.md, issue 46.5): its
# file's bytes and the seconds of a core it takes to write, per night and per hand. A night's
# row is on three sheets (Sessions, its players' sheets and its first hand's); each further
# hand is one row more (with lxml: 0.7 ms a night of one hand, 0.2 ms a further hand). The
# page that offers the workbook says so when it is large.
BOOK_BYTES_PER_NIGHT, BOOK_BYTES_PER_HAND = 300, 120
BOOK_SECONDS_PER_NIGHT, BOOK_SECONDS_PER_HAND = 0.0005, 0.0002
LARGE_BOOK_BYTES, LARGE_BOOK_SECONDS = 5_000_000, 20.0


@dataclass(frozen=True)
class BookSize:
    """About how large the group workbook is, and how long it takes to make."""

    megabytes: int
    seconds: int


def group_workbook_size(group: GroupView) -> BookSize | None:
    """About how large the group's workbook will be and how long it will take to make, from
    the group's counts of nights and hands; None while it is small and quick."""
    nights = len(group.sessions)
    hands = sum(s.hands_played for s in group.sessions)
    size = BOOK_BYTES_PER_NIGHT * nights + BOOK_BYTES_PER_HAND * hands
    seconds = BOOK_SECONDS_PER_NIGHT * nights + BOOK_SECONDS_PER_HAND * hands
    if size < LARGE_BOOK_BYTES and seconds < LARGE_BOOK_SECONDS:
        return None
    return BookSize(max(1, round(size / 1_000_000)), max(1, round(seconds)))


@dataclass(frozen=True)
class SessionExport:
    """One session as its files show it, all of one version of the session."""

    session: SessionView
    hands: tuple[HandView, ...]
    settlement: SettlementView | None  # None in a points game
    refunds: tuple[MovementView, ...]  # paid back from the pot when finished with ``refund``
    winners: tuple[str, ...]
    night: NightView  # the night's figures, as every page shows them
    group_name: str = ""  # the group's name, as the pages show it (the view has its slug)


@dataclass(frozen=True)
class StreamedSession:
    """A session as the group workbook takes it: the night (what the workbook shows of its
    read model: its session and what each won, as every page shows it), then its hands, read
    a chunk at a time as they are taken, all of one snapshot. The group workbook shows no
    settlement and no refunds, so none are built."""

    night: NightSummary
    hands: Iterator[HandView]
    group_name: str = ""

    @property
    def session(self) -> SessionView:
        return self.night.session


@dataclass(frozen=True)
class GroupExport:
    """The group's listing, and its sessions oldest first, each read as it is taken: whole
    (``sessions``), or streamed (``streamed``, for the group workbook). Either is read,
    not both."""

    group: GroupView
    sessions: Iterator[SessionExport]
    tabs: tuple[TabView, ...] = ()  # RULES.md §6a: the group workbook's Tab sheet
    seasons: tuple[SeasonView, ...] = ()  # RULES.md §13: its Seasons sheet
    evenings: tuple[EveningView, ...] = ()  # RULES.md §19: its Evenings sheet


@dataclass(frozen=True)
class GroupBook:
    """What the group workbook is made of, read as it is written: the group's players, the
    games its nights play (oldest first: the Hands sheet's columns), its nights oldest first,
    streamed a page at a time (``nights``), and what it keeps beside them. No list of its
    nights is held: a long history costs the memory of a page of it."""

    slug: str
    name: str
    players: tuple[PlayerView, ...]
    games: tuple[str, ...]
    nights: Iterator[StreamedSession]
    tabs: tuple[TabView, ...] = ()  # RULES.md §6a: the Tab sheet
    seasons: tuple[SeasonView, ...] = ()  # RULES.md §13: the Seasons sheet
    evenings: tuple[EveningView, ...] = ()  # RULES.md §19: the Evenings sheet


def session_export(group: GroupRef, session_id: int) -> SessionExport:
    """The session, its hands and its settlement as the API answers them, of one version."""
    for _ in range(SNAPSHOT_ATTEMPTS):
        # The night as every page shows it (ledger/services/night.py), its settlement
        # included: a points game played for a stake settles its payout once it has ended.
        night = night_view(group, session_id)
        hands = tuple(iter_hands(group, session_id))
        if session_view(group, session_id).version == night.session.version:
            break
    view, settled = night.session, night.settlement
    # The winners are the game's own, as the pages show them: a money night has none (being
    # up the most is money, not a game won: ledger/services/stats.py).
    return SessionExport(
        view, hands, settled, _refunds(view, hands, settled), view.winners, night, group.name
    )


def group_export(group: GroupRef) -> GroupExport:
    """The group's listing first, then each session as it is taken (oldest first)."""
    listing = group_view(group)
    ids = [s.id for s in listing.sessions]
    tabs = tuple(group_tabs(group))
    leagues = tuple(group_seasons(group))
    drives = tuple(reversed(group_evenings(group)))  # oldest first, as the nights
    return GroupExport(listing, _each_session(group, ids), tabs, leagues, drives)


def group_book(group: GroupRef) -> GroupBook:
    """The group workbook's reads: its players and the games of its nights first, then its
    nights as they are taken (oldest first; those started by now), then the rest."""
    players = group_players(group)
    found = db.session.execute(
        select(GameSession.game, func.min(GameSession.id), func.max(GameSession.id))
        .where(GameSession.group_id == group.id)
        .group_by(GameSession.game)
        .order_by(func.min(GameSession.id))
    ).all()
    games = tuple(game for game, _first, _last in found)
    last = max((newest for _game, _first, newest in found), default=0)
    return GroupBook(
        group.slug,
        group.name,
        players,
        games,
        _each_streamed(group, last),
        tuple(group_tabs(group)),
        tuple(group_seasons(group)),
        tuple(reversed(group_evenings(group))),  # oldest first, as the nights
    )


def _each_session(group: GroupRef, ids: list[int]) -> Iterator[SessionExport]:
    # The rows read for one session are let go before the next is read, so a long history
    # is never all in memory at once (the workbook streams its rows to disk).
    for session_id in ids:
        yield session_export(group, session_id)
        db.session.expunge_all()


def _each_streamed(group: GroupRef, last: int) -> Iterator[StreamedSession]:
    # The nights are read a page at a time, each page with a handful of queries however many
    # nights it holds (their rows, their rounds, the names and pots they refer to, their
    # hands a chunk at a time), all in one snapshot. A streamed session cannot be read again
    # once its rows are written (as session_export reads until two versions agree): the
    # snapshot, which a hand corrected or added meanwhile does not reach, is what keeps each
    # night whole. The taker writes a night's hands before asking for the next night; the
    # page's rows are let go before the next page is read.
    after = 0
    while after < last:
        with _snapshot():
            rows = read_sessions(group, after, last, NIGHT_PAGE)
            known = night_rows(rows)
            hands = _PageHands([r.id for r in rows])
            for row in rows:
                # Only what the workbook shows is built, from the page's rows, and not kept:
                # a long history would push the nights being played out of the process's
                # kept ones (services/night.py).
                night = night_summary(group, row, known)
                yield StreamedSession(night, hands.of(row.id), group.name)
        db.session.expunge_all()
        after = rows[-1].id if len(rows) == NIGHT_PAGE else last


class _PageHands:
    """The hands of a page's sessions, read ``HAND_CHUNK`` at a time by session id and hand
    number, and handed out a session at a time, its sessions taken in the order of their
    ids: never more than a chunk held, whether it is one long night's or many short ones'."""

    def __init__(self, session_ids: list[int]) -> None:
        self.ids = session_ids
        self.chunk: deque[Row[Any]] = deque()
        self.after = (0, 0)  # the last hand read: its session's id and its number
        self.read_all = False

    def of(self, session_id: int) -> Iterator[HandView]:
        """The session's hands, oldest first (those of an earlier session not taken are
        passed over)."""
        while self.chunk or self._read():
            row = self.chunk[0]
            if row.session_id > session_id:
                return
            self.chunk.popleft()
            if row.session_id == session_id:
                yield hand_view(row)

    def _read(self) -> bool:
        if self.read_all:
            return False
        rows = hands_of_sessions(self.ids, self.after, HAND_CHUNK)
        self.read_all = len(rows) < HAND_CHUNK
        if rows:
            self.after = (rows[-1].session_id, rows[-1].number)
            self.chunk.extend(rows)
        return bool(rows)


@contextmanager
def _snapshot() -> Iterator[None]:
    """The reads of ``db.session`` inside see the database as it was at the first of them,
    whatever is committed meanwhile (as ledger/services/backups.py's snapshot, on the app's session,
    since the services read through it).

    The transaction the request may have begun with is ended first (an export writes
    nothing): an isolation level is set as a transaction begins. PostgreSQL: REPEATABLE
    READ, read only, which never waits for writers nor makes them wait. SQLite: an explicit
    BEGIN, since its driver sends none before a SELECT; with WAL (ledger/extensions.py) the
    read transaction keeps the snapshot of its first SELECT while writers commit beside it.
    """
    db.session.rollback()
    dialect = db.session.get_bind().dialect.name
    if dialect == "postgresql":
        db.session.connection(
            execution_options={"isolation_level": "REPEATABLE READ", "postgresql_readonly": True}
        )
    elif dialect == "sqlite":
        db.session.connection().exec_driver_sql("BEGIN")
    try:
        yield
    finally:
        db.session.rollback()  # a read: nothing to keep; ends SQLite's read transaction


def _refunds(
    view: SessionView, hands: tuple[HandView, ...], settled: SettlementView | None
) -> tuple[MovementView, ...]:
    """Money paid back from the pot at the finish: each balance now less the last hand's (the
    session's own balances: a keeper's settlement counts the pot kept, which is no refund)."""
    if settled is None or view.status != "finished" or not view.money:
        return ()
    last = hands[-1].scores_after if hands else {}
    paid = ((p, units - int(last.get(p, 0))) for p, units in view.scores.items())
    return tuple(MovementView(None, player, units) for player, units in paid if units > 0)
