"""What the pages show alike: the templates' filters and globals (the words of
ledger/words/display.py and games.py under the names the templates use, a moment as a <time>
element, the CSRF field), a transfer's row with its QR code (a night's, the tab's, a season's
settle-up) and what a closed settle-up's tick says."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any

from flask import Blueprint
from flask_babel import format_datetime
from flask_babel import gettext as _
from flask_wtf.csrf import generate_csrf
from markupsafe import Markup

from ledger.pictures.chart import series_class, side_class
from ledger.pictures.qr import qr_svg
from ledger.services.views.money import TransferView
from ledger.words import display, evenings, games
from ledger.words.language import error_text, page_language
from ledger.words.money import owed_text, paid_text, transfer_text

bp = Blueprint("display", __name__)

# A date and time nobody at the table misreads: the day, the month's name in the page's
# language, the 24-hour clock: "22 Nov 2026, 00:18", in Dutch "22 nov 2026, 00:18". (Babel's
# "short" for plain "en" is American, "11/22/26, 12:18 AM", whatever the browser's region.)
# German writes the day with a point: "22. Nov. 2026, 00:18".
DATETIME_PATTERN = "d MMM y, HH:mm"
DATETIME_PATTERNS = {"de": "d. MMM y, HH:mm"}


@bp.app_template_filter("when")
def when(moment: datetime | None) -> Markup:
    """A moment as a <time> element: the page's language on the server's clock (UTC), which
    static/app.js turns into the phone's own clock; without script the text says "UTC"."""
    if moment is None:
        return Markup("")
    utc = moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)
    return Markup('<time datetime="{}" data-local>{} UTC</time>').format(
        utc.isoformat(timespec="seconds").replace("+00:00", "Z"),
        format_datetime(utc, DATETIME_PATTERNS.get(page_language(), DATETIME_PATTERN)),
    )


@bp.app_template_global("csrf_field")
def csrf_field() -> Markup:
    """The hidden CSRF input every form carries (CSRFProtect reads it, whatever the form).

    One helper instead of each form's own field: a page with several forms then has no
    duplicate ids, and forms with a prefix need no prefixed token.
    """
    return Markup('<input type="hidden" name="csrf_token" value="{}">').format(generate_csrf())


bp.add_app_template_global(series_class)
bp.add_app_template_global(side_class)


def transfer_rows(
    transfers: Sequence[TransferView], currency: str
) -> list[tuple[TransferView, str, Markup | None, str]]:
    """Each transfer with its words, its QR code (euros to a player with an account) and its
    line for "Copy as text", which gives the IBAN to pay."""
    rows: list[tuple[TransferView, str, Markup | None, str]] = []
    for t in transfers:
        words = transfer_text(t.to_json(), currency)
        if t.epc is None:
            rows.append((t, words, None, words))
            continue
        name, iban = t.epc.split("\n")[5:7]
        title = _("QR code for a banking app: %(what)s", what=words)
        line = _("%(what)s (IBAN %(iban)s, %(name)s)", what=words, iban=iban, name=name)
        rows.append((t, words, qr_svg(t.epc, title=title), line))
    return rows


def tick_words(done: TransferView, currency: str, paid: bool) -> str:
    """What a closed settle-up's tick says once made or taken back (a season's, an
    evening's): "Ticked: Ann pays Bob €3.20."."""
    what = paid_text(done.to_json(), currency)
    return _("Ticked: %(what)s.", what=what) if paid else _("Taken back: %(what)s.", what=what)


# The templates' names for the words' functions (ledger/words/).
FILTERS: dict[str, Callable[..., Any]] = {
    "money": display.money,
    "units_money": display.units_money,
    "signed": display.signed,
    "sign_class": display.sign_class,
    "card": display.card,
    "cards": display.cards,
    "typed_cards": display.typed_cards,
    "meld_points": display.meld_points,
    "rank_letter": display.rank_shown,
    "unmelded": display.unmelded,
}
GLOBALS: dict[str, Callable[..., Any]] = {
    "game_name": display.game_name,
    "night_game": display.night_game,
    "night_name": display.night_name,
    "suit_letter": display.suit_letter,
    "card_letters": display.card_letters,
    "engine_text": games.text,
    "hand_text": games.hand_text,
    "session_text": games.session_text,
    "played_text": games.played_text,
    "is_round_game": games.is_round_game,
    "option_label": games.option_label,
    "choice_label": games.choice_label,
    "refusal_text": error_text,
    "seat_words": evenings.seat_words,
    "table_title": evenings.table_title,
    "owed_text": owed_text,
}
for name, shown in FILTERS.items():
    bp.add_app_template_filter(shown, name)
for name, shown in GLOBALS.items():
    bp.add_app_template_global(shown, name)
