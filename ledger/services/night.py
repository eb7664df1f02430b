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

Rounds of drinks and food (RULES.md §6c) are the night's too: here, and only here, the game's
money and what the rounds give each player are netted into their totals and the totals
settled (``rules.rounds.settle_night``), so the scoreboard, the settle-up, the API, the
workbooks, the CSV, the PDF and the QR codes show the same game money, rounds, totals and
transfers. A points game with no stake that has rounds settles its rounds alone.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Any

from flask import current_app
from sqlalchemy import Row

from ledger.lru import Kept
from ledger.models import GameSession
from ledger.rules import rounds as rules
from ledger.rules.base import State
from ledger.rules.keeper import winnings
from ledger.rules.money import amount, minor_units
from ledger.rules.payout import for_money, game_payout
from ledger.rules.registry import get_game
from ledger.rules.settle import Party
from ledger.rules.tab import night_part
from ledger.services.building import (
    NightRows,
    build_session_view,
    cents_amount,
    night_currency,
    ordered_players,
    payment_views,
)
from ledger.services.errors import RuleError
from ledger.services.keepers import keeper_choices
from ledger.services.loading import read_session, session_game, table_state
from ledger.services.plans import planned_choice, pot_plan
from ledger.services.settlement import night_epc, settle_row, settlement
from ledger.services.views.groups import GroupRef
from ledger.services.views.hands import HandView
from ledger.services.views.money import BalanceView, SettlementView, TransferView
from ledger.services.views.sessions import SeatView, SessionView

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
    ``to_go``: the points still needed to reach the game's target while the game goes on,
    from its hands' points (0 once reached; None without a target, or once it is over: Gin
    Rummy's end adds bonuses). ``place``: the player's place where the game shows places
    (Any game, RULES.md §12: equal totals share one), once a hand is played; else None.
    ``rounds``: what the night's rounds give the player in the currency
    (what they paid less their parts, RULES.md §6c), and ``total``: the game's money to settle
    (``balance_amount``) plus ``rounds``, what the transfers settle; both None on a night
    without rounds.
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
    place: int | None = None
    rounds: Decimal | None = None
    total: Decimal | None = None

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
            "place": self.place,
            "rounds": _text(self.rounds),
            "total": _text(self.total),
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
class NightSummary:
    """A night as the group workbook shows it: its session and what each won or lost on it
    (``night_winnings``, as its standings show it), without the settle-up the workbook does
    not show. Built from a page of nights' rows read at once (``night_summary``)."""

    session: SessionView
    winnings: dict[str, int] | None

    def to_json(self) -> dict[str, Any]:
        """The session's answer (API.md "Session") with each player's winnings, as
        ``NightView.to_json`` has them."""
        return {**self.session.to_json(), "winnings": self.winnings}


def night_summary(group: GroupRef, row: Row[Any], known: NightRows) -> NightSummary:
    """The night of the session ``row`` as the group workbook shows it, with no query: what
    it reads besides the row is in ``known`` (``building.night_rows``). Its winnings are
    ``build_night``'s: each seated player's ``night_winnings`` (a night without money has
    none, nor has one without players)."""
    view = build_session_view(group, row, known)
    won = night_winnings(row, view.carried_in_keeper)
    if won is None or not view.players:
        return NightSummary(view, None)
    return NightSummary(view, {s.name: won.get(s.name, 0) for s in view.players})


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


def proposed_keeper(night: NightView) -> str | None:
    """The keeper the finish page proposes for a pot carried on (RULES.md §2): the player
    owed the most, by the night's ``score`` (each balance before the pot is paid to a keeper,
    started at minus a pot brought back); equal, the first in playing order from the dealer's
    left. Players still at the table first."""
    order = keeper_choices(night.session)
    standings = {s.player: s for s in night.standings}
    seated = [p for p in order if standings[p].active]
    candidates = seated or order
    if not candidates:
        return None
    return max(candidates, key=lambda p: (standings[p].score, -candidates.index(p)))


def night_settlement(group: GroupRef, session_id: int) -> SettlementView:
    """The night's settlement (API.md "Settlement"), or the refusal saying why it has none
    (a points game not for money, or not ended yet)."""
    settled = night_view(group, session_id).settlement
    return settled if settled is not None else settlement(group, session_id)


def settled_now(group: GroupRef, row: GameSession) -> SettlementView:
    """The settlement of the session ``row`` as the night settles it (its rounds netted in),
    built anew from the row as a write holds it under its lock (the payments' checks), or the
    refusal saying why it has none. Without the QR codes' texts."""
    settled = build_night(group, row).settlement
    return settled if settled is not None else settle_row(group, row, epc=False)


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
    row: GameSession | Row[Any],
    leftover_pot: str | None = None,
    pot_keeper: str | None = None,
) -> NightView:
    """The night of the session ``row``, its settlement under the table's plan for the pot,
    or under ``leftover_pot`` and ``pot_keeper`` where they are given (the settle-up's
    proposal of a keeper while the table has named none)."""
    view = build_session_view(group, row)
    settled = _settled(group, row, view, leftover_pot, pot_keeper)
    won = night_winnings(row, view.carried_in_keeper, leftover_pot)
    game = get_game(view.game)
    target = game.target(view.options)
    # What each needs is counted while a points game goes on (Gin Rummy's end adds bonuses);
    # a money game's scores are balances (Kaluki's target is where a player is out).
    reach = target if view.status == "open" and not view.money else None
    places = _places(row) if view.hands_played else {}
    # Each balance's winnings are the night's (``night_winnings``), as its standings': a
    # points game with no stake has no game money, only its rounds' (RULES.md §6c), and no
    # winnings in either.
    priced = view.money or view.payout is not None
    if settled is not None:
        mine = tuple(
            replace(b, winnings=won.get(b.player, 0) if priced and won is not None else None)
            for b in settled.balances
        )
        settled = replace(settled, balances=mine)
    balances = {b.player: b for b in settled.balances} if settled is not None else {}
    brought = _brought(view)
    standings = tuple(
        _standing(view, seat, balances.get(seat.name), brought, reach, priced, places, won)
        for seat in view.players
    )
    kept = next((s for s in standings if s.kept), None)
    return NightView(
        session=view,
        standings=standings,
        settlement=settled,
        target=target,
        brought=brought,
        kept=PotLine(kept.player, kept.kept, _amount(view, kept.kept)) if kept else None,
        ahead=_ahead(row, view),
    )


def _standing(
    view: SessionView,
    seat: SeatView,
    owed: BalanceView | None,
    brought: PotLine | None,
    target: int | None,
    priced: bool,
    places: Mapping[str, int] | None,
    won: Mapping[str, int] | None,
) -> Standing:
    """One player's figures: their score, what they won (``won``: ``night_winnings``), and
    from their balance in the settlement (``owed``) the game's money to settle (where the
    night has any) and the rounds' (where it has rounds)."""
    player = seat.name
    score = view.scores.get(player, 0)
    back = brought.units if brought is not None and brought.keeper == player else 0
    game = owed if priced else None
    mine = won.get(player, 0) if won is not None else None
    return Standing(
        player=player,
        seat=seat.seat,
        active=seat.active,
        score=score,
        winnings=mine,
        brought_back=back,
        kept=game.pot_kept if game is not None else 0,
        balance=game.units if game is not None else None,
        winnings_amount=_amount(view, mine),
        balance_amount=game.amount if game is not None else None,
        to_go=max(target - score, 0) if target is not None else None,
        rounds=owed.rounds if owed is not None else None,
        total=owed.total if owed is not None else None,
        place=(places or {}).get(player),
    )


def night_winnings(
    row: GameSession | Row[Any], brought_by: str | None, choice: str | None = None
) -> dict[str, int] | None:
    """What each player won or lost on the night, in units: the one definition of a night's
    result in money, which its standings show and the stats, the player pages and the group
    workbook read (RULES.md §2 "A night's winnings leave the kept pot out", §7).

    A money night: each player's balance as the night ends, an open one under the table's
    plan for its pot (or ``choice``: the settle-up's "refund" pays the antes back now), less
    the pot ``brought_by`` brought back at its start; the pot kept is never in a balance. A
    points game for a stake: its payout once it has ended. Else None: no money was won.
    From the row alone (no query), so the stats can read every night of a period at once.
    """
    game = session_game(row)
    state = table_state(row)
    names = ordered_players(state)
    if not game.money:
        payout = game_payout(game, state, row.options, State.from_dict(row.start_state))
        return None if payout is None else {p: payout.get(p, 0) for p in names}
    if row.status == "open":
        plan = choice or planned_choice(row, game)
        if plan is not None:
            state = game.finish(state, row.options, plan).state
    back = state.carried_in
    return {p: winnings(state.scores.get(p, 0), back if p == brought_by else 0) for p in names}


def _settled(
    group: GroupRef,
    row: GameSession | Row[Any],
    view: SessionView,
    leftover_pot: str | None,
    pot_keeper: str | None,
) -> SettlementView | None:
    """The settlement, where the night has money to settle (a points game for a stake has
    once it has ended; any night with rounds has its rounds'), the rounds netted in;
    without the QR codes' texts (``with_codes``)."""
    if not view.money and view.payout is None and not view.rounds:
        return None
    try:
        game = settle_row(group, row, leftover_pot, pot_keeper, epc=False)
    except RuleError:
        if not view.rounds or for_money(session_game(row), row.options):
            return None
        game = _rounds_alone(row)
    return _netted(view, game)


def _places(row: GameSession | Row[Any]) -> dict[str, int] | None:
    """Each seated player's place, where the game's scoreboard shows places (Any game)."""
    return session_game(row).places(State.from_dict(row.state), row.options)


def _rounds_alone(row: GameSession | Row[Any]) -> SettlementView:
    """A points game with no stake that has rounds (RULES.md §6c): no game money, every
    player at nothing, the payments made at the table in the night's currency."""
    currency = night_currency(row.options)
    unit_value = Decimal(row.options.get("unit_value") or "0.01")
    nothing = amount(0, unit_value, currency)
    return SettlementView(
        session=row.id,
        status=row.status,
        currency=currency,
        unit_value=unit_value,
        balances=tuple(
            BalanceView(p, 0, nothing) for p in ordered_players(State.from_dict(row.state))
        ),
        pot=0,
        pot_amount=nothing,
        transfers=(),
        payments=payment_views(row, unit_value, currency),
        on_tab=bool(row.on_tab),
    )


def _netted(view: SessionView, game: SettlementView) -> SettlementView:
    """The settlement ``game`` (the game's money as it settles: its balances, its pot as a
    party, its payments) with the night's rounds netted in (RULES.md §6c): each balance adds
    what the rounds give (``rounds``) and the ``total``; the totals, rounded to the coin and
    less the payments made (given in units or in the currency), are settled in the fewest
    transfers, each an amount. A night without rounds and paid in units is ``game`` itself."""
    if not view.rounds and all(p.units is not None for p in game.payments):
        return game
    currency = game.currency
    exact: dict[Party, int] = {
        b.player: night_part(b.units, game.unit_value) for b in game.balances
    }
    pot = -sum(b.units for b in game.balances)
    if pot:
        exact[None] = night_part(pot, game.unit_value)
    places = minor_units(currency)
    money = rules.settle_night(
        currency,
        exact,
        [rules.Round(r.paid_by, r.cents, r.shares, r.what) for r in view.rounds],
        [b.player for b in game.balances],
        [(p.source, p.target, int(p.amount.scaleb(places))) for p in game.payments],
    )
    balances = []
    for b in game.balances:
        given = cents_amount(money.rounds.get(b.player, 0), currency)
        balances.append(
            replace(
                b,
                rounds=given,
                total=b.amount + given,
                settled=money.settled[b.player],
                outstanding=None,
                outstanding_amount=money.outstanding[b.player],
            )
        )
    # A night on the tab has no transfers of its own (RULES.md §6a): the tab pays it.
    transfers = tuple(TransferView(t.source, t.target, None, m) for t, m in money.transfers)
    return replace(
        game,
        balances=tuple(balances),
        transfers=() if game.on_tab else transfers,
        rounds=view.rounds,
    )


def _ahead(row: GameSession | Row[Any], view: SessionView) -> tuple[str, ...]:
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
