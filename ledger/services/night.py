"""One read model of a night (issue 36): every figure of one night, worked out in one place.

The scoreboard, a hand's page, the settle-up, the tab, the JSON API, the workbooks, the CSV
files and the bank QR codes all read a night through ``night_view``: each player's score,
what they won or lost on the night (RULES.md §2: without the pot brought back at its start or
kept at its end), those pots on lines of their own, what the settle-up settles, the pot, who
deals and leads, the target and what each still needs. So the same figure has the same name
and value on every page: a hand's page and the scoreboard cannot disagree, because they read
the same object.

A night is built once per version: the model is kept per process under the night's id, its
start (never the same for two nights, even one given a deleted night's id) and its version,
which rises with every change to it. A bank account is the player's, not the night's: the QR
codes' texts are put on the transfers each time a night is answered, not kept with it.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Any

from flask import current_app
from sqlalchemy import Row

from ledger.lru import Kept
from ledger.rules.base import State
from ledger.rules.keeper import winnings
from ledger.rules.money import amount
from ledger.rules.registry import get_game
from ledger.services.building import build_session_view
from ledger.services.errors import RuleError
from ledger.services.loading import read_session, session_game
from ledger.services.plans import pot_plan
from ledger.services.results import GroupRef, HandView, SessionView, SettlementView
from ledger.services.sessions import night_epc, settle_row, settlement

# The nights kept built per process: the tables being played and a few more.
KEPT_NIGHTS = 256


@dataclass(frozen=True)
class Standing:
    """One player's figures of the night.

    ``score``: the points (a points game) or the balance in units (a money game: it started
    at minus a pot brought back, as every hand's running ``scores_after``). ``winnings``:
    what was won or lost on the night, in units (a money night: the score without the pot
    brought back; a points game for a stake: its payout once ended; else None).
    ``brought_back`` and ``kept``: the units of the pot the player brought back at the start
    and keeps at the end. ``balance``: what the settle-up settles for them, in units
    (winnings, less the pot brought back, plus the pot kept; None where nothing is settled).
    ``to_go``: the points still needed to reach the game's target (0 once reached; None
    without a target).
    """

    player: str
    seat: int | None
    active: bool
    score: int
    winnings: int | None = None
    brought_back: int = 0
    kept: int = 0
    balance: int | None = None
    winnings_amount: Decimal | None = None
    balance_amount: Decimal | None = None
    to_go: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "score": self.score,
            "winnings": self.winnings,
            "winnings_amount": _text(self.winnings_amount),
            "brought_back": self.brought_back,
            "pot_kept": self.kept,
            "balance": self.balance,
            "balance_amount": _text(self.balance_amount),
            "to_go": self.to_go,
        }


@dataclass(frozen=True)
class PotLine:
    """A pot on a line of its own: the one brought back at the start (``number``: the night
    it came from) or the one kept at the end, its keeper and its units."""

    keeper: str
    units: int
    amount: Decimal | None
    number: int | None = None


@dataclass(frozen=True)
class NightView:
    """A night as everything shows it (see the module's docstring)."""

    session: SessionView
    standings: tuple[Standing, ...]  # in the session's order of players
    # The settle-up under the table's plan for the pot (services/plans.py): a money night,
    # or a points game for a stake once ended; None where there is no money to settle.
    settlement: SettlementView | None
    target: int | None  # the score that ends the game (Rummy's 100), or None
    brought: PotLine | None  # the pot brought back at the start, and by whom
    kept: PotLine | None  # the pot kept at the end (under the plan), and by whom
    ahead: tuple[str, ...] = ()  # an open points game's leaders (equal best), none in money

    @property
    def title(self) -> str:
        """The night for people, in English: "Spot #2" (ledger/rules/nights.py)."""
        return self.session.title

    def standing(self, player: str) -> Standing:
        return next(s for s in self.standings if s.player == player)

    @property
    def winnings(self) -> dict[str, int] | None:
        """Each player's winnings (a night for money), else None."""
        if all(s.winnings is None for s in self.standings):
            return None
        return {s.player: s.winnings or 0 for s in self.standings}

    def running(self, scores: Mapping[str, int]) -> dict[str, int]:
        """A hand's running scores (``scores_after``) as the night shows them: in a money game
        what each had won or lost on the night by then, the pot brought back left out."""
        if not self.session.money:
            return dict(scores)
        back = self.brought
        return {
            p: winnings(u, back.units if back is not None and back.keeper == p else 0)
            for p, u in scores.items()
        }

    def to_json(self) -> dict[str, Any]:
        """The session's answer (API.md "Session"), with each player's figures."""
        return {
            **self.session.to_json(),
            "winnings": self.winnings,
            "standings": [s.to_json() for s in self.standings],
            "target": self.target,
            "ahead": list(self.ahead),
        }


@dataclass(frozen=True)
class ScoreboardView:
    """The scoreboard page's reads: the night, its last hands (oldest first), the hand just
    saved if asked for, and the chart's ``(hand number, running scores)`` points, each as the
    night shows them (``NightView.running``)."""

    night: NightView
    recent: tuple[HandView, ...]
    saved: HandView | None
    history: tuple[tuple[int, dict[str, int]], ...]

    @property
    def session(self) -> SessionView:
        return self.night.session


def night_view(group: GroupRef, session_id: int) -> NightView:
    """The night now: its row read (one query), the rest built once for its version."""
    return with_codes(group, night_of(group, read_session(group, session_id)))


def night_of(group: GroupRef, row: Row[Any]) -> NightView:
    """The night of the session ``row`` (its columns, as ``read_session`` reads them), built
    unless it was for this version already; without the QR codes' texts (``with_codes``)."""
    key: Hashable = (group.id, group.slug, row.id, row.started_at, row.version)
    night = _kept().get(key)
    if night is None:
        night = build_night(group, row)
        _kept().put(key, night)
    return night


def night_settlement(group: GroupRef, session_id: int) -> SettlementView:
    """The night's settlement (API.md "Settlement"), or the refusal saying why it has none
    (a points game not for money, or not ended yet)."""
    settled = night_view(group, session_id).settlement
    return settled if settled is not None else settlement(group, session_id)


def with_codes(group: GroupRef, night: NightView) -> NightView:
    """The night with the QR codes' texts on its transfers (RULES.md §6b): read each time,
    since a player's bank account may change without the night changing."""
    settled = night.settlement
    if settled is None or not settled.transfers:
        return night
    coded = night_epc(group, night.title, settled.currency, settled.transfers)
    return replace(night, settlement=replace(settled, transfers=coded))


def build_night(
    group: GroupRef,
    row: Row[Any],
    leftover_pot: str | None = None,
    pot_keeper: str | None = None,
) -> NightView:
    """The night of the session ``row``, its settlement under the table's plan for the pot,
    or under ``leftover_pot`` and ``pot_keeper`` where they are given (the settle-up's
    proposal of a keeper while the table has named none)."""
    view = build_session_view(group, row)
    settled = _settled(group, row, view, leftover_pot, pot_keeper)
    game = get_game(view.game)
    target = game.target(view.options)
    balances = {b.player: b for b in settled.balances} if settled is not None else {}
    brought = _brought(view)
    back = {brought.keeper: brought.units} if brought is not None else {}
    standings = []
    for seat in view.players:
        score = view.scores.get(seat.name, 0)
        owed = balances.get(seat.name)
        won = (
            owed.winnings
            if owed is not None
            else winnings(score, back.get(seat.name, 0))
            if view.money
            else None
        )
        standings.append(
            Standing(
                player=seat.name,
                seat=seat.seat,
                active=seat.active,
                score=score,
                winnings=won,
                brought_back=back.get(seat.name, 0),
                kept=owed.pot_kept if owed is not None else 0,
                balance=owed.units if owed is not None else None,
                winnings_amount=_amount(view, won),
                balance_amount=owed.amount if owed is not None else None,
                to_go=max(target - score, 0) if target is not None else None,
            )
        )
    kept = next((s for s in standings if s.kept), None)
    return NightView(
        session=view,
        standings=tuple(standings),
        settlement=settled,
        target=target,
        brought=brought,
        kept=PotLine(kept.player, kept.kept, _amount(view, kept.kept)) if kept else None,
        ahead=_ahead(row, view),
    )


def _settled(
    group: GroupRef,
    row: Row[Any],
    view: SessionView,
    leftover_pot: str | None,
    pot_keeper: str | None,
) -> SettlementView | None:
    """The settlement, where the night has money to settle (a points game for a stake has
    once it has ended); without the QR codes' texts (``with_codes``)."""
    if not view.money and view.payout is None:
        return None
    try:
        return settle_row(group, row, leftover_pot, pot_keeper, epc=False)
    except RuleError:
        return None


def _ahead(row: Row[Any], view: SessionView) -> tuple[str, ...]:
    """Who is ahead in an open points game, by the game's own measure (Spots and penalty
    points: the fewest); nobody in a money game, before a score differs, or once it is over."""
    if view.money or view.status != "open":
        return ()
    ahead = session_game(row).standing_winners(State.from_dict(row.state), row.options)
    return () if set(ahead) >= set(view.scores) else tuple(ahead)


def _brought(view: SessionView) -> PotLine | None:
    if not view.money or not view.carried_in or view.carried_in_keeper is None:
        return None
    units = view.carried_in
    return PotLine(view.carried_in_keeper, units, _amount(view, units), view.carried_from_number)


def _amount(view: SessionView, units: int | None) -> Decimal | None:
    if units is None or view.unit_value is None or view.currency is None:
        return None
    return amount(units, view.unit_value, view.currency)


def _text(value: Decimal | None) -> str | None:
    return None if value is None else str(value)


def _kept() -> Kept[NightView]:
    """This app's nights built lately (each app its own, as its database is its own)."""
    found: Kept[NightView] = current_app.extensions.setdefault(
        "ledger_nights", Kept[NightView](KEPT_NIGHTS)
    )
    return found


def night_under(
    group: GroupRef, session_id: int, leftover_pot: str | None, pot_keeper: str | None
) -> NightView:
    """The night as the settle-up shows it: under the table's plan for the pot (the night
    itself, ``night_view``), or while the night is open under ``leftover_pot`` and
    ``pot_keeper`` where they are not the plan (the keeper the page proposes while the table
    has named none): then built for this answer, through the same steps."""
    row = read_session(group, session_id)
    plan = pot_plan(row, get_game(row.game))
    if row.status != "open" or (leftover_pot, pot_keeper) == (plan.choice, plan.keeper):
        return with_codes(group, night_of(group, row))
    return with_codes(group, build_night(group, row, leftover_pot, pot_keeper))
