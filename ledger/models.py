"""The database tables: SQLAlchemy 2.0 typed models (``Mapped`` / ``mapped_column``) on db.Model.

create_app imports this module, so every model defined here is known to ``db.create_all()``
and to Alembic's autogenerate. Money and points are whole units (integers); the engine's
State after every hand is kept beside the hand, so reading a session never re-scores it.
Only ledger/services.py reads and writes these rows.
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import (
    JSON,
    Boolean,
    Date,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import Mapped, mapped_column

from ledger.extensions import db
from ledger.rules.nights import SERIES_LENGTH

if TYPE_CHECKING:
    # db.Model is Flask-SQLAlchemy's subclass of Base, made at run time: a type checker
    # cannot follow it as a base class, so it is shown Base, what every model really is.
    from ledger.extensions import Base as Model
else:
    Model = db.Model

# Lengths the API and the pages enforce before a row is written.
NAME_LENGTH = 40
GROUP_NAME_LENGTH = 80
SLUG_LENGTH = 100
REQUEST_ID_LENGTH = 64
SEASON_NAME_LENGTH = 60
ROUND_WHAT_LENGTH = 60  # ledger/rules/rounds.py WHAT_LENGTH


def utcnow() -> datetime:
    """Now in UTC without a zone: SQLite keeps no zone, so every timestamp is naive UTC."""
    return datetime.now(UTC).replace(tzinfo=None)


class Group(Model):
    """The people who play together, with one passphrase for all of them."""

    __tablename__ = "groups"
    # Ids are never used twice (SQLite reuses the highest one after a delete otherwise): an
    # address or a kept page of something deleted never opens something new.
    __table_args__ = {"sqlite_autoincrement": True}

    id: Mapped[int] = mapped_column(primary_key=True)
    slug: Mapped[str] = mapped_column(String(SLUG_LENGTH), unique=True)
    name: Mapped[str] = mapped_column(String(GROUP_NAME_LENGTH))
    passphrase_hash: Mapped[str] = mapped_column(String(255))
    # Bumped when the passphrase changes: every remembered credential of the old one stops
    # matching at once.
    auth_epoch: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    # Wrong passphrases in the current window, kept here so the limit holds for every worker.
    failed_logins: Mapped[int] = mapped_column(Integer, default=0)
    failed_since: Mapped[datetime | None] = mapped_column(DateTime)
    # Bumped by "sign out every phone": every invite link made before it stops working.
    invite_epoch: Mapped[int] = mapped_column(Integer, default=0)
    # Rises with every change to any of the group's nights (each line of a night's history,
    # ledger/services/unit_of_work.py): a page that shows another night's news (a pot waiting
    # from it) is kept under it as well as under its own night's version (ledger/web/).
    nights_version: Mapped[int] = mapped_column(Integer, default=0, server_default="0")


class Credential(Model):
    """A passphrase that passed the slow check, remembered as an HMAC digest until it expires.

    The digest is keyed with the app's secret and covers the slug, the passphrase and the
    group's auth epoch, so it never reveals the passphrase and dies with a passphrase change.
    """

    __tablename__ = "credentials"

    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[int] = mapped_column(ForeignKey("groups.id", ondelete="CASCADE"), index=True)
    digest: Mapped[str] = mapped_column(String(64), unique=True)
    expires_at: Mapped[datetime] = mapped_column(DateTime)


class AccessGrant(Model):
    """A way into a group without the passphrase: a browser's sign-in or an API access token.

    Only the SHA-256 of the random token is kept (the browser's cookie or the API client holds
    the token itself), so a copy of the database opens nothing. ``kind`` is ``web`` or ``api``.
    A grant counts only while ``auth_epoch`` is the group's: a passphrase change ends them
    all. Signing out deletes one web grant; "sign out every phone" deletes all of a group's.
    ``seen_at`` is moved on once a day while the browser is used, so unused ones can go.
    """

    __tablename__ = "access_grants"

    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[int] = mapped_column(ForeignKey("groups.id", ondelete="CASCADE"), index=True)
    kind: Mapped[str] = mapped_column(String(10))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    auth_epoch: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    seen_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)


class AddressFailure(Model):
    """Wrong guesses from one client address lately (``key`` is the address, or the address and
    a group), in the database like a group's count so the limit holds across worker processes."""

    __tablename__ = "address_failures"

    id: Mapped[int] = mapped_column(primary_key=True)
    key: Mapped[str] = mapped_column(String(120), unique=True)
    failures: Mapped[int] = mapped_column(Integer, default=0)
    since: Mapped[datetime] = mapped_column(DateTime)


class Player(Model):
    """A person in a group. Names are unique in the group whatever their case."""

    __tablename__ = "players"
    __table_args__ = (UniqueConstraint("group_id", "name_key"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[int] = mapped_column(ForeignKey("groups.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(NAME_LENGTH))
    name_key: Mapped[str] = mapped_column(String(NAME_LENGTH * 3))  # casefold can grow a name
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)


class GameSession(Model):
    """One night's game: its options, seats and the engine's state after the last hand.

    ``state`` is the engine State now (after the last hand and any seat changes since),
    ``start_state`` the one before hand 1; ``seating`` lists the joins and leaves since the
    last hand, which the next hand takes over (so a correction or an undo can replay them).
    ``version`` rises by one with every change and guards concurrent writes.
    """

    __tablename__ = "sessions"
    # A double tap on "Start" or a retry sends the same request_id: one session only.
    # Its id is never used twice, as a group's (its address, the page kept for it). A
    # migration that rebuilds this table on SQLite passes sqlite_autoincrement again
    # (tests/api/test_migrations.py checks every such table after every upgrade).
    # Two nights started at the same moment cannot take the same number: one starts over.
    __table_args__ = (
        UniqueConstraint("group_id", "request_id"),
        UniqueConstraint("group_id", "series", "number"),
        {"sqlite_autoincrement": True},
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[int] = mapped_column(ForeignKey("groups.id", ondelete="CASCADE"), index=True)
    request_id: Mapped[str | None] = mapped_column(String(REQUEST_ID_LENGTH))
    game: Mapped[str] = mapped_column(String(20))
    # The night's number among the group's nights of its series (ledger/rules/nights.py: its
    # game, or Any game's name), given when it starts and kept for life: "Spot #2".
    series: Mapped[str] = mapped_column(String(SERIES_LENGTH))
    number: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(10), default="open")
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    start_state: Mapped[dict[str, Any]] = mapped_column(JSON)
    state: Mapped[dict[str, Any]] = mapped_column(JSON)
    seating: Mapped[list[Any]] = mapped_column(JSON, default=list)
    version: Mapped[int] = mapped_column(Integer, default=1)
    hands_played: Mapped[int] = mapped_column(Integer, default=0)
    started_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime)
    # Money games at the end: 'carry' or 'refund', the refunds, and the pot carried on.
    leftover_pot: Mapped[str | None] = mapped_column(String(10))
    finish: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    carried_pot: Mapped[int] = mapped_column(Integer, default=0)
    # The session that opened with this one's carried pot: a pot is taken up once only.
    carried_into_id: Mapped[int | None] = mapped_column(
        ForeignKey("sessions.id", ondelete="SET NULL"), unique=True
    )
    # RULES.md §2 "The pot keeper": who takes this session's carried-on pot home, and who
    # brought the pot it opened with (their balance here starts at minus that pot). NULL: the
    # pot belongs to nobody (an API finish that named no keeper, or a session from before).
    pot_keeper_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"))
    carried_in_keeper_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"))
    # RULES.md §6a: finished onto the group's tab in its currency instead of paid that night.
    on_tab: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())

    # Every UPDATE of a session says WHERE version = <the version read>: a write based on
    # something another request changed meanwhile updates nothing and is started over. The
    # services raise the version themselves (+1 per change), so it is the API's `version`.
    __mapper_args__ = {"version_id_col": version, "version_id_generator": False}


class SessionPlayer(Model):
    """Who played in a session, where they sit now, and whether they are still at the table.

    The engine's state is the authority on seats; this mirrors it for questions across
    sessions (a player's history, the group's workbook).
    """

    __tablename__ = "session_players"
    __table_args__ = (UniqueConstraint("session_id", "player_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    session_id: Mapped[int] = mapped_column(
        ForeignKey("sessions.id", ondelete="CASCADE"), index=True
    )
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    seat: Mapped[int | None] = mapped_column(Integer)  # 1-based clockwise; None once left
    active: Mapped[bool] = mapped_column(Boolean, default=True)


class Hand(Model):
    """One hand: the entry as typed, what the engine made of it, and the state after it."""

    __tablename__ = "hands"
    __table_args__ = (
        UniqueConstraint("session_id", "number"),
        UniqueConstraint("session_id", "request_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    session_id: Mapped[int] = mapped_column(ForeignKey("sessions.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)
    request_id: Mapped[str | None] = mapped_column(String(REQUEST_ID_LENGTH))
    entry: Mapped[dict[str, Any]] = mapped_column(JSON)
    # Joins and leaves made between the previous hand and this one, replayed before it.
    seating: Mapped[list[Any]] = mapped_column(JSON, default=list)
    outcome: Mapped[dict[str, Any]] = mapped_column(JSON)
    state_after: Mapped[dict[str, Any]] = mapped_column(JSON)
    revision: Mapped[int] = mapped_column(Integer, default=1)  # 2 after one correction
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)


class Change(Model):
    """The history: every change to a session, with its time and what was there before.

    ``kind`` is one of session.created, hand.created, hand.corrected, hand.deleted,
    player.joined, player.left, player.renamed, session.finished, pot.carried (this
    session's carried pot opened another), pot.returned (the session it opened was deleted
    before its first hand: the pot waits again), payment.recorded, payment.deleted. A
    correction or an undo keeps the old entry and outcome in ``before``, so nothing typed at
    the table is ever lost.
    """

    __tablename__ = "changes"
    # A hand's page reads that hand's changes, one of thousands in a long night; the index
    # serves reading a whole session's history as well.
    __table_args__ = (
        Index("ix_changes_session_id_hand_number", "session_id", "hand_number"),
        # Every hand entered with a request id asks whether that id's hand was undone: the
        # session's hand.deleted lines, not all its thousands of lines (migration b7d41c2e9a63).
        Index("ix_changes_session_id_kind", "session_id", "kind"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    session_id: Mapped[int] = mapped_column(ForeignKey("sessions.id", ondelete="CASCADE"))
    hand_number: Mapped[int | None] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(30))
    at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    version: Mapped[int] = mapped_column(Integer)  # the session's version this change made
    before: Mapped[Any | None] = mapped_column(JSON)
    after: Mapped[Any | None] = mapped_column(JSON)
    # Who made it (RULES.md §20): the player named for it, and the player whose phone it was
    # made on; NULL where nobody was named ("a phone"), and for every change made before.
    # By id, so a rename keeps them; a player gone from the group leaves NULL.
    by_id: Mapped[int | None] = mapped_column(ForeignKey("players.id", ondelete="SET NULL"))
    phone_id: Mapped[int | None] = mapped_column(ForeignKey("players.id", ondelete="SET NULL"))


class SessionChart(Model):
    """The scoreboard chart's points of a session, kept up to date by every hand written, so a
    scoreboard reads one row for its chart however long the night has been.

    ``points`` holds ``[number, scores]`` for every hand whose number is a multiple of
    ``step`` (a power of two, doubled whenever there would be more than the chart's points),
    and ``last`` the last hand's, so earlier points stay put as hands are added. Derived from
    the hands: never backed up (ledger/services/backups.py NOT_BACKED_UP); a session without one (a
    restored group's, one from before it existed) is charted from its hands and gets its row
    with its next hand.
    """

    __tablename__ = "session_charts"

    session_id: Mapped[int] = mapped_column(
        ForeignKey("sessions.id", ondelete="CASCADE"), primary_key=True
    )
    step: Mapped[int] = mapped_column(Integer, default=1)
    points: Mapped[list[Any]] = mapped_column(JSON, default=list)
    last: Mapped[list[Any] | None] = mapped_column(JSON)


class Payment(Model):
    """Money handed over at the table to settle up (RULES.md §2 "Paying up"): ``payer`` paid
    ``payee`` ``units``. It changes no score; it lowers what is still owed.

    The players are kept by id, not by name, so renaming one leaves their payments theirs.
    Taking a payment back deletes its row; the history keeps it (``payment.deleted``).
    """

    __tablename__ = "payments"
    # A tick taken back on one phone and made again must not take the old one's id: another
    # phone's "take back" of the old tick would remove the new one.
    __table_args__ = {"sqlite_autoincrement": True}

    id: Mapped[int] = mapped_column(primary_key=True)
    session_id: Mapped[int] = mapped_column(
        ForeignKey("sessions.id", ondelete="CASCADE"), index=True
    )
    payer_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    payee_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    units: Mapped[int] = mapped_column(Integer)
    at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    # RULES.md §6c: on a night with rounds a payment may be given in the currency, in its
    # cents (the smallest amounts on paper); ``units`` is then 0.
    cents: Mapped[int | None] = mapped_column(Integer)


class Round(Model):
    """A round of drinks or food (RULES.md §6c): ``payer`` paid ``cents`` of the night's
    currency for the people in ``shares``, a list of ``[player id, share]`` in the night's
    seating order; ``what`` it was, or NULL when nobody said. Kept by player id, so renaming
    a player leaves their rounds theirs. Taking a round back deletes its row; the history
    keeps it (``round.deleted``, with its request id: a resend never brings it back).
    """

    __tablename__ = "rounds"
    # A double tap or a retry sends the same request_id: one round only. An id is used once,
    # so another phone's "take back" of an old round never removes a new one.
    __table_args__ = (
        UniqueConstraint("session_id", "request_id"),
        {"sqlite_autoincrement": True},
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    session_id: Mapped[int] = mapped_column(
        ForeignKey("sessions.id", ondelete="CASCADE"), index=True
    )
    request_id: Mapped[str | None] = mapped_column(String(REQUEST_ID_LENGTH))
    what: Mapped[str | None] = mapped_column(String(ROUND_WHAT_LENGTH))
    cents: Mapped[int] = mapped_column(Integer)
    payer_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    shares: Mapped[list[Any]] = mapped_column(JSON)
    at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)


class TabPayment(Model):
    """A payment against the group's tab in ``currency`` (RULES.md §6a): ``payer`` paid
    ``payee`` ``cents``, the currency's smallest amounts on paper (cents, or yen). The tab
    itself is never stored: it is worked out from the nights on it and these payments.
    """

    __tablename__ = "tab_payments"
    # As a session's payments: a tick taken back and made again never reuses an id.
    __table_args__ = {"sqlite_autoincrement": True}

    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[int] = mapped_column(ForeignKey("groups.id", ondelete="CASCADE"), index=True)
    currency: Mapped[str] = mapped_column(String(10))
    payer_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    payee_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    cents: Mapped[int] = mapped_column(Integer)
    at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)


class BankAccount(Model):
    """The bank account a player keeps with the group (RULES.md §6b): the IBAN as checked (no
    spaces, upper case) and the name on the account. Never in a workbook or a CSV."""

    __tablename__ = "bank_accounts"

    id: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[int] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), unique=True
    )
    iban: Mapped[str] = mapped_column(String(34))
    name: Mapped[str] = mapped_column(String(70))


class Season(Model):
    """A group's league of one game over a period of dates (RULES.md §13): its name, game (and
    Any game's name), first and last day, and its options (scoring, best_of, min_nights,
    entry_fee, unit_value, currency, prizes, booby).

    While open its table is never stored: it is worked out from the nights (kept per process
    until one of them or the season's options change: ledger/services/season_tables.py), so a
    corrected night changes it at once. Closing it keeps in ``closed`` the table and the
    settle-up it closed with, so no later night changes it, and under ``"paid"`` the transfers
    of that settle-up ticked as paid on its page (from, to, amount, at); ``on_tab``: its
    balances went onto the group's tab in its currency (RULES.md §6a) at ``closed_at``.
    """

    __tablename__ = "seasons"
    # A double tap on "Start the season" sends the same request_id: one season only. Its id is
    # never used twice (its address, a page kept for it).
    __table_args__ = (
        UniqueConstraint("group_id", "request_id"),
        {"sqlite_autoincrement": True},
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[int] = mapped_column(ForeignKey("groups.id", ondelete="CASCADE"), index=True)
    request_id: Mapped[str | None] = mapped_column(String(REQUEST_ID_LENGTH))
    name: Mapped[str] = mapped_column(String(SEASON_NAME_LENGTH))
    game: Mapped[str] = mapped_column(String(20))
    game_name: Mapped[str | None] = mapped_column(String(NAME_LENGTH))
    first_day: Mapped[date] = mapped_column(Date)
    last_day: Mapped[date] = mapped_column(Date)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(10), default="open")
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    closed_at: Mapped[datetime | None] = mapped_column(DateTime)
    closed: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    on_tab: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class Evening(Model):
    """A club evening (RULES.md §19): several tables of one game at once, rounds drawn, one
    list. ``options``: the game's options (the same at every table); ``money``: entry_fee,
    prizes, booby, unit_value, currency, lost_game_fee. Closing keeps in ``closed`` the list
    and settle-up it closed with (as a season's); ``on_tab``: its balances went on the tab."""

    __tablename__ = "evenings"
    __table_args__ = (
        UniqueConstraint("group_id", "request_id"),
        {"sqlite_autoincrement": True},
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[int] = mapped_column(ForeignKey("groups.id", ondelete="CASCADE"), index=True)
    request_id: Mapped[str | None] = mapped_column(String(REQUEST_ID_LENGTH))
    name: Mapped[str] = mapped_column(String(SEASON_NAME_LENGTH))
    game: Mapped[str] = mapped_column(String(20))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    money: Mapped[dict[str, Any]] = mapped_column(JSON)
    rounds: Mapped[int] = mapped_column(Integer, default=2)
    status: Mapped[str] = mapped_column(String(10), default="open")
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    closed_at: Mapped[datetime | None] = mapped_column(DateTime)
    closed: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    on_tab: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class EveningPlayer(Model):
    """A player checked in to an evening (RULES.md §19): once each."""

    __tablename__ = "evening_players"
    __table_args__ = (UniqueConstraint("evening_id", "player_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    evening_id: Mapped[int] = mapped_column(
        ForeignKey("evenings.id", ondelete="CASCADE"), index=True
    )
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    checked_in_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)


class EveningTable(Model):
    """One table of one round of an evening: its night (a session of its own). The unique
    (evening, round, table) key is what makes two draws of the same round at the same moment
    end as one: the second one's insert fails, and it starts over and finds the first."""

    __tablename__ = "evening_tables"
    __table_args__ = (UniqueConstraint("evening_id", "round", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    evening_id: Mapped[int] = mapped_column(
        ForeignKey("evenings.id", ondelete="CASCADE"), index=True
    )
    round: Mapped[int] = mapped_column(Integer)
    number: Mapped[int] = mapped_column(Integer)
    session_id: Mapped[int] = mapped_column(ForeignKey("sessions.id", ondelete="CASCADE"))
    seed: Mapped[int] = mapped_column(Integer, default=0)  # the round's draw, to replay it
