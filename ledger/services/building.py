"""Results built from rows: a hand's and a session's, from their rows alone (nothing is
read again, nothing re-scored)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from decimal import Decimal
from typing import Any

from sqlalchemy import Row, select
from sqlalchemy.orm import aliased

from ledger.extensions import db
from ledger.models import GameSession, Hand, Payment, Player, Round, SessionPlayer
from ledger.rules import nights
from ledger.rules import rounds as rules
from ledger.rules.base import State
from ledger.rules.errors import Phrase
from ledger.rules.game import Game
from ledger.rules.money import amount, minor_units
from ledger.rules.payout import for_money, game_payout
from ledger.services.loading import session_game, table_state
from ledger.services.views.base import night_currency
from ledger.services.views.groups import GroupRef
from ledger.services.views.hands import HandView, MovementView, ResultView
from ledger.services.views.money import PaymentView
from ledger.services.views.rounds import RoundView
from ledger.services.views.sessions import ProgressView, SeatView, SessionView

# What every hand's outcome, and each of its results, holds: the rest is its game's own.
_OUTCOME_KEYS = frozenset(
    ("number", "dealer", "leader", "results", "out", "winners", "movements", "pot_before")
) | {"pot_after", "ending"}
_RESULT_KEYS = frozenset(
    ("player", "cards", "spots", "points", "sitting_out", "melds", "melded", "melded_cards")
)


def hand_view(hand: Hand | Row[Any]) -> HandView:
    """A hand's view, from its row or from a result row with the same columns."""
    o = hand.outcome
    return HandView(
        number=hand.number,
        dealer=o["dealer"],
        leader=o["leader"],
        results=tuple(
            ResultView(
                player=r["player"],
                cards=tuple(r["cards"]),
                spots=r["spots"],
                points=r["points"],
                sitting_out=r["sitting_out"],
                melds=tuple(tuple(m) for m in r.get("melds", ())),
                melded=r.get("melded"),
                melded_cards=tuple(r.get("melded_cards", ())),
                more={k: v for k, v in r.items() if k not in _RESULT_KEYS},
            )
            for r in o["results"]
        ),
        out=o["out"],
        winners=tuple(o["winners"]),
        movements=tuple(MovementView(m["from"], m["to"], m["units"]) for m in o["movements"]),
        pot_before=o["pot_before"],
        pot_after=o["pot_after"],
        scores_after=dict(hand.state_after["scores"]),
        entry=hand.entry,
        request_id=hand.request_id,
        revision=hand.revision,
        created_at=hand.created_at,
        updated_at=hand.updated_at,
        more={k: v for k, v in o.items() if k not in _OUTCOME_KEYS},
        ending=o.get("ending"),
    )


def next_leader(game: Game, state: State) -> str | None:
    """Who plays first in the next hand (the game decides: the dealer's left, or the dealer)."""
    return game.next_leader(state)


def ordered_players(state: State) -> list[str]:
    """The seated players clockwise, then those who left (in the order they first sat)."""
    return list(state.seats) + [p for p in state.scores if p not in state.seats]


def night_scores(row: GameSession | Row[Any], game: Game, state: State) -> dict[str, int]:
    """Each player's score as the night shows it (``state``: the row's ``table_state``), its
    players in order: a finished game's final totals (Gin Rummy's bonuses included: what its
    money pays on), else the scores as they stand. The stats read the same."""
    finals = game.final_totals(state, row.options) if row.status == "finished" else state.scores
    return {p: finals.get(p, 0) for p in ordered_players(state)}


@dataclass(frozen=True)
class NightRows:
    """What a page of sessions' views read besides their rows, read for all of them at once
    (``night_rows``): the names of the players keeping or bringing a pot, by id; the session
    each pot carried in came from, with its number; each night's rounds. A view built with
    it reads nothing more (the group workbook's pages of nights: services/exports.py)."""

    names: Mapping[int, str]
    carried_from: Mapping[int, tuple[int, int]]
    rounds: Mapping[int, tuple[RoundView, ...]]


def night_rows(rows: Sequence[Row[Any]]) -> NightRows:
    """What the views of the sessions ``rows`` read besides them (``NightRows``): at most
    four queries however many rows, as ``_keepers`` and ``round_views`` read one by one."""
    keepers = {k for r in rows for k in (r.pot_keeper_id, r.carried_in_keeper_id) if k}
    names: dict[int, str] = {}
    if keepers:
        found = db.session.execute(select(Player.id, Player.name).where(Player.id.in_(keepers)))
        names = {player_id: name for player_id, name in found}
    carried = [r.id for r in rows if table_state(r).carried_in]
    sources: dict[int, tuple[int, int]] = {}
    if carried:
        found = db.session.execute(
            select(GameSession.carried_into_id, GameSession.id, GameSession.number)
            .where(GameSession.carried_into_id.in_(carried))
            .order_by(GameSession.id)
        )
        for row in found:
            sources.setdefault(row.carried_into_id, (row.id, row.number))
    return NightRows(names, sources, _page_rounds(rows))


def _page_rounds(rows: Sequence[Row[Any]]) -> dict[int, tuple[RoundView, ...]]:
    """The rounds of each of the sessions ``rows``, as ``round_views``: two queries (one
    where none has a round)."""
    by_id = {r.id: r for r in rows}
    kept = db.session.scalars(
        select(Round).where(Round.session_id.in_(list(by_id))).order_by(Round.id)
    ).all()
    if not kept:
        return {}
    found = db.session.execute(
        select(SessionPlayer.session_id, Player.id, Player.name)
        .join(Player, SessionPlayer.player_id == Player.id)
        .where(SessionPlayer.session_id.in_({r.session_id for r in kept}))
    )
    names: dict[int, dict[int, str]] = defaultdict(dict)
    for session_id, player_id, name in found:
        names[session_id][player_id] = name
    views: dict[int, list[RoundView]] = defaultdict(list)
    for r in kept:
        currency = night_currency(by_id[r.session_id].options)
        views[r.session_id].append(round_view(r, names[r.session_id], currency))
    return {session_id: tuple(found) for session_id, found in views.items()}


def build_session_view(
    group: GroupRef, row: GameSession | Row[Any], known: NightRows | None = None
) -> SessionView:
    """A session row as its view, from the row alone (with ``known``: no query): no hand."""
    game = session_game(row)
    state = table_state(row)
    names = ordered_players(state)
    seats = tuple(
        SeatView(name=p, seat=state.seats.index(p) + 1 if p in state.seats else None,
                 active=p in state.seats)
        for p in names
    )  # fmt: skip
    options = row.options
    scores = night_scores(row, game, state)
    money = game.money
    # A points game played for a stake has money once it has ended (RULES.md §7).
    payout = game_payout(game, state, options, State.from_dict(row.start_state))
    priced = money or for_money(game, options)
    unit_value = Decimal(options["unit_value"]) if priced else None
    currency = options.get("currency") if priced else None
    owed = scores if payout is None else {p: payout.get(p, 0) for p in names}
    return SessionView(
        id=row.id,
        group=group.slug,
        game=row.game,
        game_name=game.name,
        money=money,
        status=row.status,
        version=row.version,
        options=options,
        players=seats,
        hands_played=row.hands_played,
        dealer=state.dealer if state.seats else None,
        leader=next_leader(game, state),
        pot=state.pot if money else None,
        carried_in=state.carried_in if money else None,
        scores=scores,
        amounts=(
            {p: amount(u, unit_value, currency) for p, u in owed.items()}
            if unit_value is not None and currency is not None and (money or payout is not None)
            else None
        ),
        winners=tuple(state.winners) if row.status == "finished" else (),
        progress=_progress(game, state, options, row.status),
        currency=currency,
        unit_value=unit_value,
        # An open night answers the table's plan for its pot (services/plans.py).
        leftover_pot=row.leftover_pot
        or (game.pot_choice(options) if money and row.status == "open" else None),
        started_at=row.started_at,
        finished_at=row.finished_at,
        closed=row.finish is not None,
        **_keepers(row, state, known),
        payout=payout,
        number=row.number,
        own_name=nights.own_name(options),
        on_tab=bool(row.on_tab),
        rounds=round_views(row) if known is None else known.rounds.get(row.id, ()),
        **_parts(_game_parts(game, state, row, names)),
    )


def _game_parts(
    game: Game, state: State, row: GameSession | Row[Any], names: Sequence[str]
) -> dict[str, Any]:
    """The game's own parts of the session (``Game.session_parts``) and, before the next hand
    of an open game, who sits it out (``sitting_out``: ``Game.sits_out``, the dealer in Spots
    at five, Skat at four) and whose buy-in may be taken back (``may_take_back``: the players
    who bought back in since the last hand, Kaluki, kept in the seat changes the next hand
    takes over, services/buy_ins.py)."""
    parts = game.session_parts(state, row.status, row.options, names)
    if row.status != "open":
        return parts
    taken_back = tuple(op["buy_in"]["player"] for op in row.seating if "buy_in" in op)
    return {**parts, "sitting_out": game.sits_out(state), "may_take_back": taken_back}


def _parts(parts: Mapping[str, Any]) -> dict[str, Any]:
    """A game's parts of the session (``Game.session_parts``): those the view names (Gin
    Rummy's bonuses, Kaluki's totals) by name, the others in ``parts``."""
    named = {f.name for f in fields(SessionView)}
    found = {k: v for k, v in parts.items() if k in named}
    rest = {k: v for k, v in parts.items() if k not in named}
    return {**found, "parts": rest} if rest else found


def _progress(game: Game, state: State, options: Any, status: str) -> ProgressView | None:
    """Where an open game of contracts stands (Spin Rummy's round and hand); else None."""
    p = game.progress(state, options) if status == "open" else None
    return ProgressView(p.round, p.hand, p.hands_in_round, p.rounds, p.contract) if p else None


def session_numbers(group_id: int) -> dict[int, int]:
    """Every session's number in the group (its number among the nights of its game, as
    stored when it started: ledger/rules/nights.py), by id: one query."""
    found = db.session.execute(
        select(GameSession.id, GameSession.number).where(GameSession.group_id == group_id)
    ).all()
    return {s.id: s.number for s in found}


def payment_views(
    row: GameSession | Row[Any], unit_value: Decimal, currency: str
) -> tuple[PaymentView, ...]:
    """The payments made at the table in the session, oldest first, by the players' names now
    (a player renamed since keeps their payments): one query."""
    payer, payee = aliased(Player), aliased(Player)
    found = db.session.execute(
        select(Payment, payer.name, payee.name)
        .join(payer, payer.id == Payment.payer_id)
        .join(payee, payee.id == Payment.payee_id)
        .where(Payment.session_id == row.id)
        .order_by(Payment.at, Payment.id)
    ).all()
    return tuple(
        PaymentView(p.id, source, target, p.units, amount(p.units, unit_value, currency), p.at)
        if p.cents is None
        else PaymentView(p.id, source, target, None, cents_amount(p.cents, currency), p.at)
        for p, source, target in found
    )


def cents_amount(cents: int, currency: str) -> Decimal:
    """``cents`` (the currency's smallest amounts on paper) as an amount: 340 is 3.40."""
    places = minor_units(currency)
    return Decimal(cents).scaleb(-places).quantize(Decimal(1).scaleb(-places))


def _keepers(
    row: GameSession | Row[Any], state: State, known: NightRows | None = None
) -> dict[str, Any]:
    """Who keeps the pot carried on, who brought the pot the session opened with and from
    which session (RULES.md §2): read only where there is such a pot (or taken from
    ``known``, read for a page of sessions)."""

    def name(player_id: int) -> str | None:
        return player_name(player_id) if known is None else known.names.get(player_id)

    found: dict[str, Any] = {}
    if row.pot_keeper_id is not None:
        found["pot_keeper"] = name(row.pot_keeper_id)
    if state.carried_in:
        source: tuple[int, int] | None
        if known is None:
            first = db.session.execute(
                select(GameSession.id, GameSession.number).where(
                    GameSession.carried_into_id == row.id
                )
            ).first()
            source = None if first is None else (first.id, first.number)
        else:
            source = known.carried_from.get(row.id)
        if source is not None:
            found["carried_from"], found["carried_from_number"] = source
        if row.carried_in_keeper_id is not None:
            found["carried_in_keeper"] = name(row.carried_in_keeper_id)
    return found


def night_named(row: GameSession | Row[Any]) -> Phrase:
    """The night of the session ``row`` for a message: "Spot #2" (ledger/rules/nights.py)."""
    return nights.night_phrase(session_game(row).name, nights.own_name(row.options), row.number)


def night_named_by_id(session_id: int) -> Phrase | str:
    """The night of the session ``session_id`` for a message ("?" if it is gone)."""
    row = db.session.execute(
        select(GameSession.game, GameSession.options, GameSession.number).where(
            GameSession.id == session_id
        )
    ).first()
    return night_named(row) if row is not None else "?"


def player_name(player_id: int) -> str | None:
    player = db.session.get(Player, player_id)
    return player.name if player is not None else None


# ---- rounds (RULES.md §6c) --------------------------------------------------------------------


def round_views(row: Any) -> tuple[RoundView, ...]:
    """The night's rounds, oldest first, by the players' names now: two queries (none more
    for a night without rounds)."""
    kept = _round_rows(row.id)
    if not kept:
        return ()
    names = round_player_names(row.id)
    currency = night_currency(row.options)
    return tuple(round_view(r, names, currency) for r in kept)


def night_rounds(row: Any) -> tuple[rules.Round, ...]:
    """The night's rounds as the engine takes them, for its settle-up."""
    kept = _round_rows(row.id)
    if not kept:
        return ()
    names = round_player_names(row.id)
    return tuple(round_as_rule(r, names) for r in kept)


def has_rounds(session_id: int) -> bool:
    """Whether the night has a round: one query."""
    found = db.session.scalar(select(Round.id).where(Round.session_id == session_id).limit(1))
    return found is not None


def _round_rows(session_id: int) -> Sequence[Round]:
    return db.session.scalars(
        select(Round).where(Round.session_id == session_id).order_by(Round.id)
    ).all()


def round_player_names(session_id: int) -> dict[int, str]:
    """The night's players' names by id: one query."""
    found = db.session.execute(
        select(Player.id, Player.name)
        .join(SessionPlayer, SessionPlayer.player_id == Player.id)
        .where(SessionPlayer.session_id == session_id)
    ).all()
    return {player_id: name for player_id, name in found}


def round_as_rule(kept: Round, names: Mapping[int, str]) -> rules.Round:
    shares = {names[int(player_id)]: int(share) for player_id, share in kept.shares}
    return rules.Round(names[kept.payer_id], kept.cents, shares, kept.what)


def round_view(kept: Round, names: Mapping[int, str], currency: str) -> RoundView:
    one = round_as_rule(kept, names)
    return RoundView(
        id=kept.id,
        what=kept.what,
        cents=kept.cents,
        amount=cents_amount(kept.cents, currency),
        currency=currency,
        paid_by=one.paid_by,
        shares=dict(one.shares),
        parts={p: cents_amount(c, currency) for p, c in rules.parts(one).items()},
        at=kept.at,
    )
