"""A session's workbook: its summary (options, the pot, the players' scores), hands,
payments and settlement.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from decimal import Decimal
from typing import IO, Any

from openpyxl import Workbook

from ledger.export.cells import DATE_FORMAT, REFUND_NOTE, Row, _number, _when, money_format
from ledger.export.rounds import (
    night_currency,
    rounds_of,
    rounds_sheet,
    totals_cells,
    totals_columns,
)
from ledger.export.sheets import _new_workbook, _save, _Sheet, _width, _write_table
from ledger.export.tables import (
    FINISHED,
    STARTED,
    SessionData,
    _currency,
    _game_name,
    _hands_played_and_won,
    _scores,
    hands_table,
    is_money,
    night_figures,
    night_title,
    payments_table,
    seated_names,
    settlement_table,
)
from ledger.rules import labels
from ledger.rules.nights import night_name


def session_workbook(
    session: Mapping[str, Any],
    hands: Iterable[Mapping[str, Any]],
    settlement: Mapping[str, Any] | None = None,
    *,
    group: Mapping[str, Any] | None = None,
    stream: IO[bytes] | None = None,
) -> bytes:
    """The session's workbook (API.md "Workbooks"): Summary, Hands, Payments, Settlement, then
    Scores with a chart of every player's running score.

    Takes the API's answers for the session, its hands (oldest first) and its settlement
    (None in a points game). ``group`` (the group's answer) supplies the start date when the
    session's answer has none. Writes to ``stream`` if given, else returns the file's bytes.
    """
    hands = list(hands)
    money = is_money(session)
    currency = _currency(session, settlement)
    cash = money_format(currency)
    names = seated_names(session, hands)
    name_width = _width("Player", *names)
    wb = _new_workbook()

    _summary(wb, session, hands, settlement, group, names, money, currency, cash)

    header, rows = hands_table(session, hands)
    widths = [6, name_width, name_width, name_width + 4]
    widths += [14, 8] * len(names) + ([11, 10] if money else [])
    _write_table(_Sheet(wb, "Hands", widths, freeze="B2"), header, rows)

    header, rows = payments_table(session, hands, settlement)
    widths = [6, name_width, name_width, 8, 14, _width(REFUND_NOTE)]
    sheet = _Sheet(wb, "Payments", widths, formats={4: cash})
    _write_table(sheet, header, rows)

    header, rows = settlement_table(settlement)
    widths = [name_width, name_width, 14, 8, 8, len(DATE_FORMAT) + 2]
    sheet = _Sheet(wb, "Settlement", widths, formats={2: cash})
    _write_table(sheet, header, rows)

    _scores(wb, hands, names, money)
    if rounds_of(session):
        rounds_sheet(wb, session, names, name_width)
    return _save(wb, stream)


def _option_label(option: str, game: str | None) -> str:
    """An option's name as the new-session page labels it (the workbook is in English)."""
    return str(labels.option_label(option, game) or option.replace("_", " ").capitalize())


def _option_cell(session: Mapping[str, Any], option: str, value: Any) -> Any:
    """An option as the Summary writes it, in the words of the new-session page's choices.
    ``leftover_pot`` is what happened to the pot once the session is finished (finishing may
    choose otherwise than the option); before that it is the option, marked as not decided
    yet."""
    if option == "leftover_pot":
        if session.get("status") != "finished":
            return f"{_choice(option, value)} (not decided yet)"
        if session.get("leftover_pot"):
            return _choice(option, session["leftover_pot"])
    label = labels.choice_label(option, value, session.get("game"))
    return str(label) if label else _number(value)


def _choice(option: str, value: Any) -> str:
    return str(labels.choice_label(option, value) or value)


def _pot_info(session: Mapping[str, Any]) -> tuple[Row, Row]:
    """The pot, beside the options: the one the session opened with and who brought it, the
    one it left and who keeps it, and in words how the final scores (what each won or lost on
    the night, the pot brought back left out: RULES.md §2) and the pot add up, so the
    players' scores need no other explanation."""
    if session.get("pot") is None:
        return [], []
    game = _game_name(session)
    carried_in = int(session.get("carried_in") or 0)
    pot = int(session.get("pot") or 0)
    brought = session.get("carried_in_keeper")
    kept = session.get("pot_keeper")
    total = sum(figure for figure, _money in night_figures(session).values())
    words = [f"The final scores add up to {total} and the pot holds {pot}."]
    if carried_in:
        source = session.get("carried_from")
        number = int(session.get("carried_from_number") or 0)
        origin = f" from {night_name(game, '', number)}" if source and number else ""
        if brought:
            words.append(
                f"{brought} brought the pot of {carried_in}{origin} back: it is the pot's, not "
                f"{brought}'s loss, so the final scores and the pot add up to {carried_in}."
            )
        else:
            words.append(
                f"The pot of {carried_in}{origin} belonged to nobody: the final scores and the "
                "pot add up to it."
            )
    if session.get("status") == "finished" and pot:
        if kept:
            words.append(f"{kept} keeps the pot for the next {game} night and is paid it.")
        else:
            words.append(f"The pot goes to the next {game} session and belongs to nobody yet.")
    header: Row = ["Pot carried in", "Brought by", "Pot at the end", "Kept by", "Pot"]
    return header, [carried_in, brought, pot, kept, " ".join(words)]


def _summary(
    wb: Workbook,
    session: Mapping[str, Any],
    hands: Sequence[Mapping[str, Any]],
    settlement: Mapping[str, Any] | None,
    group: Mapping[str, Any] | None,
    names: Sequence[str],
    money: bool,
    currency: str,
    cash: str,
) -> None:
    """Summary: the session in one row under its header, then the players' table."""
    info_header, info, widths = _summary_info(session, hands, group)
    players_header: Row = [
        "Player",
        "Hands played",
        "Hands won",
        f"Final score ({'units' if money else 'points'})",
    ]
    # A points game played for a stake has money once it has ended (RULES.md §7).
    priced = money or session.get("payout") is not None
    if priced:
        players_header.append(f"Amount ({currency})" if currency else "Amount")
    game_header, game_cells = _game_columns(session)
    players_header += game_header
    # RULES.md §6c: a night with rounds adds what they give each player, and the total.
    totals = totals_columns(session, currency or night_currency(session))
    players_header += totals
    widths = [max(_width(*names, "Player"), 12), *widths]
    sheet = _Sheet(wb, "Summary", widths, freeze="A5", formats={4: cash})
    sheet.header(info_header)
    sheet.row(info)
    sheet.blank()
    sheet.header(players_header)

    played, won = _hands_played_and_won(hands)
    # The night's figures as every page shows them (ledger/services/night.py).
    figures = night_figures(session)
    first = len(players_header) - len(totals)
    total_cash = money_format(currency or night_currency(session))
    sheet.formats.update({first + i: total_cash for i in range(len(totals))})
    for name in names:
        figure, money_of = figures.get(name, (0, None))
        row: Row = [name, played[name], won[name], figure]
        if priced:
            row.append(money_of if money_of is not None else Decimal(0))
        sheet.row(row + game_cells(name) + totals_cells(session, name))
    sheet.filter()


def _game_columns(session: Mapping[str, Any]) -> tuple[Row, Callable[[str], Row]]:
    """The Summary's columns of a game of RULES.md §8–§12, from what the session answers:
    Gin Rummy's end (hand points, game bonus, boxes), Kaluki's points, who is eliminated and
    the buy-ins; none for the other games."""
    bonuses = session.get("bonuses") or {}
    totals = session.get("totals")
    header: Row = []
    if bonuses:
        header += ["Hand points", "Game bonus", "Boxes won", "Box points"]
    if totals is not None:
        header += ["Points", "Eliminated", "Buy-ins"]
    out = set(session.get("eliminated") or ())
    buy_ins = session.get("buy_ins") or {}

    def cells(name: str) -> Row:
        row: Row = []
        if bonuses:
            b = bonuses.get(name) or {}
            row += [b.get("hands"), b.get("game"), b.get("hands_won"), b.get("boxes")]
        if totals is not None:
            row += [totals.get(name, 0), "yes" if name in out else "no", buy_ins.get(name, 0)]
        return row

    return header, cells


def _summary_info(
    session: Mapping[str, Any],
    hands: Sequence[Mapping[str, Any]],
    group: Mapping[str, Any] | None,
) -> tuple[Row, Row, list[float]]:
    """The Summary's first rows: the session, its options and its pot; and the widths of
    its columns after the first."""
    options = dict(session.get("options") or {})
    started = session.get("started_at")
    if started is None and group is not None:
        listed = [s for s in group.get("sessions") or [] if s.get("id") == session.get("id")]
        started = listed[0].get("started_at") if listed else None
    info_header: Row = ["Game", "Session", "Id", "Group", STARTED, FINISHED, "Status", "Hands"]
    info_header += [_option_label(k, session.get("game")) for k in options]
    info: Row = [
        _game_name(session),
        # The night as the pages name it ("Spot #2"), its id beside it (API.md, fourth edition).
        night_title(session),
        session.get("id"),
        # The group's name as the pages show it; the slug only where no name is known.
        session.get("group_name") or (group or {}).get("name") or session.get("group"),
        _when(started),
        _when(session.get("finished_at")),
        session.get("status"),
        session.get("hands_played", len(hands)),
    ]
    settings = {k: _option_cell(session, k, v) for k, v in options.items()}
    info += list(settings.values())
    pot_header, pot_info = _pot_info(session)
    info_header += pot_header
    info += pot_info
    widths: list[float] = [14, 8, 16, 18, 16, 10, 8]
    widths += [_width(_option_label(k, session.get("game")), v) for k, v in settings.items()]
    widths += [_width(h, v) for h, v in zip(pot_header, pot_info, strict=True)][:-1]
    widths += [60] if pot_info else []
    return info_header, info, widths


def export_workbook(data: SessionData) -> bytes:
    """A session's workbook from what session_data() made of the export service's answer."""
    return session_workbook(data.session, data.hands, data.settlement)
