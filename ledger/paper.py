"""Paper for when phones die and for the wall: a night's sheet, a blank score sheet, a season's
table, as A4 PDFs that print well in black and white, in the page's language.

fpdf2 draws them (pure Python, maintained, small: it needs no system library, unlike the HTML
to PDF tools) on ledger/pdf.py's sheet; the bank QR codes are segno's, as on the pages, placed
as images. Texts are the catalogue's (Flask-Babel): a caller renders inside the language it
wants.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal
from typing import Any

import segno
from flask_babel import gettext as _
from flask_babel import ngettext

from ledger import services
from ledger.downloads import group_filename, session_filename
from ledger.pdf import Sheet
from ledger.rules.registry import GAMES
from ledger.rules.table import PaperRows
from ledger.services import exports, seasons
from ledger.services.night import NightView, night_view
from ledger.services.season_views import SeasonView
from ledger.services.views.groups import GroupRef
from ledger.services.views.hands import HandView
from ledger.services.views.money import PaymentView, TransferView
from ledger.services.views.sessions import SessionView
from ledger.words.display import format_money, night_game, night_name
from ledger.words.games import hand_text, hand_words
from ledger.words.hands import hand_summary
from ledger.words.money import paid_text, round_text, transfer_text

BLANK_ROWS = 24  # a blank sheet's hands, one page
QR_MM = 36  # a bank transfer's QR code, wide and high: a phone scans it from a wall


def night_sheet(night: NightView, hands: Sequence[HandView], group_name: str, title: str) -> bytes:
    """A night as it stands, in the figures its scoreboard shows (its read model,
    ledger/services/night.py): its players, every hand (what each player's figure moved by),
    the totals, the pots brought back and kept, and the settle-up with its QR codes
    (``title``: "Spot #1")."""
    view = night.session
    players = [p.name for p in view.players]
    subtitle = " · ".join(
        [
            group_name or view.group,
            _day(view),
            _("finished") if view.status == "finished" else "",
        ]
    ).strip(" ·")
    sheet = Sheet(title, subtitle)
    sheet.heading(_("Players"))
    sheet.line_of(", ".join(players))
    sheet.heading(_("Hands") if not _rounds(view) else _("Rounds"))
    size = 10 if len(players) <= 6 else 8
    # A column per side (each player, or a team game's team: its players share a score).
    sides = _sides(view, players)
    scored = [side[0] for side in sides]
    rows = [_hand_row(h, scored) for h in _with_before(hands, night)]
    totals = [_("Total"), *(_signed(_figure(night, p)) for p in scored)]
    sheet.grid(["#", *(" & ".join(side) for side in sides)], [*rows, totals], size=size)
    money = _money_row(night, players)
    if money is not None:
        sheet.grid(["", *players], [[_("Money"), *money]], size=size)
    _pot_lines(sheet, night)
    _in_words(sheet, view, hands)
    if night.session.rounds:
        _drinks(sheet, night, players, size)
    settled = night.settlement
    if settled is not None:
        sheet.heading(_("Who pays whom"))
        if settled.on_tab:  # RULES.md §6a: the tab pays it; the night has no transfers
            sheet.line_of(
                _("This night is on the tab: it is paid when the group settles the tab."), 11
            )
        else:
            _transfers(sheet, settled.transfers, settled.currency, settled.payments)
    return sheet.done()


def _in_words(sheet: Sheet, view: SessionView, hands: Sequence[HandView]) -> None:
    """Every hand in the scoreboard's words (its list of hands, ledger/words/hands.py): the
    game's own where it has them (Klaverjassen's nat and pit, Boerenbridge's bids and
    tricks), else who won, who pays or scores what, and the pot."""
    if not hands:
        return
    words = hand_words(view.game, view.options)
    sheet.heading(hand_text(view.game, "all"))
    for hand in hands:
        said = hand_summary(hand.to_json(), money=view.money, **words)
        sheet.line_of(f"#{hand.number} {said}", 9)


def _drinks(sheet: Sheet, night: NightView, players: Sequence[str], size: int) -> None:
    """The night's rounds of drinks and food (RULES.md §6c): each in words with its parts,
    then the night's figures (services/night.py): each player's game money, what the rounds
    give them and the total the transfers settle."""
    sheet.heading(_("Drinks and food"))
    for made in night.session.rounds:
        sheet.line_of(round_text(made.to_json(), made.currency))
    by = {s.player: s for s in night.standings}
    cash = night.settlement.currency if night.settlement is not None else ""
    game = [_("Game"), *(_money(by[p].balance_amount if p in by else None, cash) for p in players)]
    drinks = [
        _("Drinks and food"),
        *(_money(by[p].rounds if p in by else None, cash) for p in players),
    ]
    total = [_("Total"), *(_money(by[p].total if p in by else None, cash) for p in players)]
    sheet.grid(["", *players], [game, drinks, total], size=size)


def _figure(night: NightView, player: str) -> int:
    """A player's total as the scoreboard shows it: a money night's winnings (RULES.md §2,
    the pot brought back left out), a points game's score."""
    standing = night.standing(player)
    return (standing.winnings or 0) if night.session.money else standing.score


def _money_row(night: NightView, players: Sequence[str]) -> list[str] | None:
    """Each player's money as the scoreboard shows it (a money night's winnings, a points
    game's payout once it has ended), or None where the night has none."""
    view = night.session
    if view.currency is None:
        return None
    if view.money:
        amounts = {s.player: s.winnings_amount for s in night.standings}
    elif view.payout is not None and view.amounts is not None:
        amounts = dict(view.amounts)
    else:
        return None
    return [_money(amounts.get(p), view.currency) for p in players]


def _pot_lines(sheet: Sheet, night: NightView) -> None:
    """The pot brought back at the start and the pot kept at the end, on lines of their own
    in the scoreboard's words."""
    view = night.session
    if night.brought is not None:
        sheet.line_of(
            _(
                "%(name)s brought the pot of %(units)d from %(game)s #%(id)d",
                name=night.brought.keeper,
                units=night.brought.units,
                game=night_game(view),
                id=night.brought.number or 0,
            )
        )
    if night.kept is not None and view.currency:
        sheet.line_of(
            _(
                "%(name)s keeps the pot of %(amount)s for the next %(game)s night",
                name=night.kept.keeper,
                amount=_money(night.kept.amount, view.currency),
                game=night_game(view),
            )
        )


def blank_sheet(view: SessionView, title: str) -> bytes:
    """A score sheet to fill in by hand: a row per hand (or per round where the game fixes
    them: Boerenbridge's, each with its cards and dealer), for each player (or team) the
    game's columns ("Spots", "Points", or "Melded" and "In hand"), and a row for the totals."""
    players = [p.name for p in view.players if p.active]
    columns = _columns(view, len(players))
    given = _paper_rows(view, players)
    fixed = ["#", *(_upper(_(word)) for word in given.headings)] if given else ["#"]
    rows = given.rows if given else tuple(() for _n in range(BLANK_ROWS))
    sides = _sides(view, players)  # a team game's teams write one score each
    # Each player's (or team's) name over their columns, the columns' words under it.
    head = [*fixed, *(" & ".join(side) for side in sides)]
    sub = [*([""] * len(fixed)), *(c for _p in sides for c in columns)]
    # Many columns (Boerenbridge's seven players: 24) turn the page and take smaller type; a
    # word still too wide for its column is set smaller again (ledger/pdf.py), never split.
    wide = len(sub) > 15
    size = 10 if len(sub) <= 9 else 7
    blank = [""] * (len(sub) - len(fixed))
    body = [[str(n), *cells, *blank] for n, cells in enumerate(rows, start=1)]
    total = [_("Total"), *([""] * (len(sub) - 1))]
    sheet = Sheet(title, _("A score sheet for when the phones die."), wide=wide)
    # "#" a narrow column beside a few wide ones, as wide as the others beside many ("Total").
    number = 0.6 if len(sub) <= 9 else 1.2
    weights = (number, *([1.0, 1.6][: len(fixed) - 1]), *([1.0] * (len(sub) - len(fixed))))
    sheet.grid(
        head,
        [sub, *body, total],
        weights=weights,
        size=size,
        height=7 if wide else 8.5,
        left=len(fixed),
        boxes=True,
        span=len(columns),
        fixed=len(fixed),
    )
    return sheet.done()


def season_table(season: SeasonView, group_name: str) -> bytes:
    """A season's table for the wall: the standings, night by night, the prize pot and, once
    closed, who pays whom."""
    game = season.game_name or (_(GAMES[season.game].name) if season.game in GAMES else "")
    dates = f"{season.first_day.isoformat()} – {season.last_day.isoformat()}"
    state = _("closed") if season.closed else _("open")
    sheet = Sheet(season.name, " · ".join((group_name, str(game), dates, state)))
    table = season.table
    sheet.heading(_("The table"))
    head = ["#", _("Player"), _("Points"), _("Nights"), _("Best"), _("Average")]
    rows = [
        [
            str(s.rank) if s.rank else "–",
            s.player,
            str(s.total),
            _counted(s.counted, s.nights),
            str(s.best),
            str(s.average),
        ]
        for s in table.standings
    ]
    sheet.grid(head, rows, weights=(0.4, 3, 1, 1, 1, 1), size=11, left=2)
    if any(s.below_line for s in table.standings):
        sheet.line_of(
            ngettext(
                "Below the line: fewer than %(num)d night.",
                "Below the line: fewer than %(num)d nights.",
                int(season.options.get("min_nights", 0)),
            ),
            9,
        )
    if table.nights:
        sheet.heading(_("Night by night"))
        players = [s.player for s in table.standings]
        nights = [(f"#{n.number}", [_points_of(n, p) for p in players]) for n in table.nights]
        sheet.carried_grid(_("Player"), players, nights, size=10 if len(nights) <= 12 else 9)
    if table.pot:
        sheet.heading(_("The prize pot"))
        sheet.line_of(_money(season.money(table.pot), season.currency))
        for p in table.prizes:
            sheet.line_of(f"{p.player}: {_money(season.money(p.units), season.currency)}")
    settled = season.settlement
    if settled is not None and not settled.on_tab:
        sheet.heading(_("Who pays whom"))
        owed = [t for t in settled.transfers if not settled.is_paid(t)]
        ticked = [t for t in settled.transfers if settled.is_paid(t)]
        _transfers(sheet, owed, season.currency, ticked)
    return sheet.done()


# --- Pieces -----------------------------------------------------------------------------------


def _transfers(
    sheet: Sheet,
    transfers: Sequence[TransferView],
    currency: str,
    payments: Sequence[PaymentView | TransferView] = (),
) -> None:
    """Every transfer: those still to pay in words, each with the QR code a banking app scans
    where it has one (on the same page: never a page break between them), then those ticked
    as paid (``payments``: a night's payments, a season's ticked transfers), marked paid (the
    settle-up page's "Paid")."""
    if not transfers:
        sheet.line_of(_("Everything is paid.") if payments else _("Nobody owes anybody anything."))
    for t in transfers:
        words = transfer_text(t.to_json(), currency)
        if t.epc is None:
            sheet.line_of(words, 11)
            continue
        caption = _("Scan with a banking app to pay")
        # The transfer, its code and the code's caption begin the next page if they do not
        # all fit on this one.
        sheet.keep_together(sheet.height_of(words, 11) + QR_MM + sheet.height_of(caption, 8))
        sheet.line_of(words, 11)
        png = io.BytesIO()
        segno.make(t.epc, error="m").save(png, kind="png", scale=8, border=4)
        sheet.image(png, w=QR_MM, h=QR_MM)
        sheet.line_of(caption, 8)
    if payments:
        sheet.heading(_("Paid"))
        for paid in payments:
            sheet.line_of(f"✓ {paid_text(paid.to_json(), currency)}", 11)


def _with_before(
    hands: Sequence[HandView], night: NightView
) -> Iterable[tuple[HandView, Mapping[str, int], Mapping[str, int]]]:
    """Each hand with the running figures before and after it, as the night shows them
    (``NightView.running``: a money night's winnings, the pot brought back left out)."""
    before: Mapping[str, int] = {}
    for hand in hands:
        after = night.running(hand.scores_after)
        yield hand, before, after
        before = after


def _hand_row(
    item: tuple[HandView, Mapping[str, int], Mapping[str, int]], players: Sequence[str]
) -> list[str]:
    """A hand's row: what each player's figure moved by ("–" for one sitting out, unless it
    moved all the same: Skat's dealer at four scores for the others' lost game)."""
    hand, before, after = item
    out = {r.player for r in hand.results if r.sitting_out}
    # A points game's hand says what it added to each score (API.md ``points``): read as
    # given, so a night of a run of games (Cribbage: the board back at 0) adds up.
    added = {r.player: r.points for r in hand.results if r.points is not None}
    cells = [str(hand.number)]
    for p in players:
        if p not in after or (p in out and after[p] == before.get(p, 0)):
            cells.append("–")
        else:
            cells.append(_signed(added.get(p, after[p] - before.get(p, 0))))
    return cells


def _points_of(night: Any, player: str) -> str:
    if player not in night.points:
        return "·"
    value = str(night.points[player])
    return f"({value})" if player in night.dropped else value


def _counted(counted: int, nights: int) -> str:
    if counted == nights:
        return str(nights)
    return _("%(counted)d of %(nights)d", counted=counted, nights=nights)


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else str(value)


def _money(value: Decimal | None, currency: str) -> str:
    return format_money(value or Decimal(0), currency)


def _day(view: SessionView) -> str:
    return view.started_at.date().isoformat()


def _columns(view: SessionView, seated: int) -> list[str]:
    """What a player's cell of a hand holds in this game, in the page's language: the game's
    own paper columns (``Game.paper_columns``: "Spots"; "Melded" and "In hand"; Boerenbridge's
    "Bid", "Tricks" and "Points"), one "Points" for a game not known."""
    game = GAMES.get(view.game)
    if game is None:
        return [_("Points")]
    return [_upper(_(word)) for word in game.paper_columns(view.options, seated)]


def _upper(text: str) -> str:
    """A column's heading with a capital letter: "spots" as "Spots"."""
    return text[:1].upper() + text[1:]


def _paper_rows(view: SessionView, players: Sequence[str]) -> PaperRows | None:
    """The rows the game fixes on its blank sheet (``Game.paper_rows``), or None."""
    game = GAMES.get(view.game)
    if game is None or not players:
        return None
    return game.paper_rows(view.options, players, view.dealer, view.hands_played)


def _sides(view: SessionView, players: Sequence[str]) -> tuple[tuple[str, ...], ...]:
    """Who scores together (``Game.sides``): each player alone, or a team game's teams."""
    game = GAMES.get(view.game)
    return game.sides(players) if game is not None else tuple((p,) for p in players)


def _rounds(view: SessionView) -> bool:
    game = GAMES.get(view.game)
    return game is not None and game.rounds


# --- The files, as the pages and the API serve them ---------------------------------------------


def night_file(group: GroupRef, session_id: int) -> tuple[bytes, str]:
    """The night's sheet and its file name (``…-spot-1-2026-11-02-sheet.pdf``)."""
    export = exports.session_export(group, session_id)
    night = export.night if export.night is not None else night_view(group, session_id)
    sheet = night_sheet(night, export.hands, export.group_name, night_title(night.session))
    return sheet, _filename(night.session, "sheet")


def blank_file(group: GroupRef, session_id: int) -> tuple[bytes, str]:
    """The night's blank score sheet, with its players and its game's columns."""
    view = services.session_view(group, session_id)
    return blank_sheet(view, night_title(view)), _filename(view, "blank")


def season_file(group: GroupRef, season_id: int) -> tuple[bytes, str]:
    """The season's table for the wall."""
    season = seasons.season_view(group, season_id)
    return season_table(season, group.name), group_filename(group.slug, "pdf", season.name)


def night_title(view: SessionView) -> str:
    """The night as its pages name it: "Spot #1", an Any game by its own name ("Hearts #2")."""
    return night_name(view)


def _filename(view: SessionView, what: str) -> str:
    """``…-spot-1-2026-11-02-sheet.pdf``: the night by its game and number, as the
    workbooks' file names (ledger/downloads.py)."""
    session = {
        "group": view.group,
        "game": view.game,
        "options": view.options,
        "number": view.number,
        "id": view.id,
        "started_at": view.started_at.isoformat(),
    }
    return session_filename(session, "pdf", what)
