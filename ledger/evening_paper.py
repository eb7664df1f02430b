"""A club evening on paper (RULES.md §19): a card per table of the round now (its players in
seat order, seat 1 deals first) and the evening's list, in the page's language."""

from __future__ import annotations

from flask_babel import gettext as _

from ledger.downloads import group_filename
from ledger.pdf import Sheet
from ledger.rules.registry import GAMES
from ledger.services import evenings
from ledger.services.views.evenings import EveningView
from ledger.services.views.groups import GroupRef
from ledger.words.display import format_money
from ledger.words.evenings import table_title


def evening_sheet(evening: EveningView, group_name: str) -> bytes:
    """The round's table cards, then the list and the prize pot."""
    game = _(GAMES[evening.game].name) if evening.game in GAMES else evening.game
    sheet = Sheet(evening.name, " · ".join((group_name, game)))
    now = evening.round_now
    if now is not None:
        sheet.heading(_("Round %(round)d", round=now.round))
        for table in now.tables:
            rows = [[str(seat), player] for seat, player in enumerate(table.players, start=1)]
            sheet.keep_together(12 + 7 * len(rows))
            sheet.line_of(table_title(game, table.number, table.table), 12)
            sheet.grid([_("Seat"), _("Player")], rows, weights=(0.5, 4), size=12, left=2)
    lines = evening.standings.lines
    if lines:
        sheet.heading(_("The list"))
        head = ["#", _("Player")]
        head += [_("R%(round)d", round=r + 1) for r in range(evening.rounds)] + [_("Total")]
        rows = [
            [str(s.rank), s.player]
            + ["·" if v is None else str(v) for v in s.rounds]
            + [str(s.total)]
            for s in lines
        ]
        weights = (0.4, 3, *([1.0] * (evening.rounds + 1)))
        sheet.grid(head, rows, weights=weights, size=11, left=2)
    if evening.standings.pot:
        sheet.heading(_("The prize pot"))
        sheet.line_of(format_money(evening.amount(evening.standings.pot), evening.currency))
        for p in evening.standings.prizes:
            sheet.line_of(f"{p.player}: {format_money(evening.amount(p.units), evening.currency)}")
    return sheet.done()


def evening_file(group: GroupRef, evening_id: int) -> tuple[bytes, str]:
    """The evening's paper and its file name."""
    evening = evenings.evening_view(group, evening_id)
    return evening_sheet(evening, group.name), group_filename(group.slug, "pdf", evening.name)
