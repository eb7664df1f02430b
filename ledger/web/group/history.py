"""Looking back: a session's history page, a player's page, the leaderboard's periods.

The history page says each of the session's changes in a sentence (ledger/words/history.py).
The numbers of the player page and the leaderboard are the stats service's
(ledger/services/stats.py), the same as the API's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from functools import partial
from typing import Any

from flask import Blueprint, g, render_template, request
from flask_babel import format_decimal
from flask_babel import gettext as _

from ledger import services
from ledger.models import utcnow
from ledger.pictures.chart import score_chart
from ledger.rules import N_
from ledger.services import accounts, evenings, lines, pages, seasons, stats, tab
from ledger.services.errors import RuleError
from ledger.web import access
from ledger.web.forms import AccountForm, ConfirmForm
from ledger.words.display import game_name
from ledger.words.history import change_text, tab_followed
from ledger.words.language import error_text

bp = Blueprint("history", __name__, url_prefix="/g/<slug>")


# --- The leaderboard's periods ----------------------------------------------------------------


@dataclass(frozen=True)
class ChosenPeriod:
    """The period the group page shows, as chosen by its address (``?period=`` or
    ``?from=…&to=…``), and a sentence if the dates typed were refused."""

    key: str  # tonight, month, year, all (stats.named_period), or "range"
    period: stats.Period
    first: str = ""
    last: str = ""
    error: str | None = None


def chosen_period(args: Mapping[str, str], now: datetime | None = None) -> ChosenPeriod:
    """The period of the group page's address; all time when none (or a refused one) is given."""
    now = now or utcnow()
    first, last = args.get("from", "").strip(), args.get("to", "").strip()
    if first or last:
        try:
            return ChosenPeriod("range", stats.period_of(first, last), first, last)
        except RuleError as e:
            return ChosenPeriod("all", stats.ALL_TIME, first, last, error_text(e))
    key = args.get("period", "all")
    period = stats.named_period(key, now)
    return ChosenPeriod(key, period) if period else ChosenPeriod("all", stats.ALL_TIME)


def points_label(key: str) -> str:
    """A points column's heading: the game, and "(penalty)" where points count against; a
    game the table names itself by its name ("Hearts")."""
    game, _sep, scoring = key.partition(":")
    if scoring and stats.named_by_table(game):
        return scoring
    if scoring == "penalty":
        return game_name(game) + " " + _("(penalty)")
    return game_name(game)


# --- A player's page ------------------------------------------------------------------------


@bp.get("/p/<path:name>")
def player(slug: str, name: str, account_form: AccountForm | None = None) -> str:
    """The player's page; ``account_form`` as typed, with its errors, when it was refused."""
    group = access.group_for_page(slug)
    history = stats.player_history(group, name)
    league = seasons.player_league(group, history.name)
    return render_template(
        "groups/player.html",
        group=group,
        player=history,
        # RULES.md §6b: whether an account is kept; its number only when asked for.
        account=accounts.account_of(group, history.name),
        reveal=request.args.get("account") == "show",
        account_form=account_form or AccountForm(formdata=None),
        on_tab=tab.player_on_tab(group, history.name),
        confirm_form=ConfirmForm(),
        nights=list(reversed(history.nights)),
        charts=player_charts(history, league.ratings),
        game_rows=game_rows(history.totals),
        league=league,  # RULES.md §13, §14
        evenings=evenings.player_evenings(group, history.name),  # RULES.md §19
    )


def game_rows(totals: stats.Totals) -> list[tuple[str, int | None, int]]:
    """The player's points games: a row per points column with its points; the games won
    on the game's first row (a game won is won whatever its scoring)."""
    rows: list[tuple[str, int | None, int]] = []
    seen: set[str] = set()
    for key, points in totals.points.items():
        game = stats.won_key(key)
        won = None if game in seen else totals.games_won.get(game, 0)
        rows.append((points_label(key), won, points))
        seen.add(game)
    return rows


# The label of each kind of line on a player's page (ledger/services/lines.py).
LINE_LABELS = {
    "money": N_("%(name)s's money in %(what)s, night by night"),
    "points": N_("%(name)s's points in %(what)s, game by game"),
    "rating": N_("%(name)s's rating at %(what)s, night by night"),
}


def player_charts(history: stats.PlayerHistory, ratings: Sequence[Any]) -> list[Any]:
    """A chart per line of the player's: ``(kind, label, chart)``, the axis without a sign."""
    charts = []
    for line in lines.player_lines(history, ratings):
        what = {"money": line.key, "points": points_label(line.key)}.get(line.kind)
        what = what or line.name or game_name(line.key)
        label = _(LINE_LABELS[line.kind], name=history.name, what=what)
        tick = partial(lambda v, scale: format_decimal(Decimal(v) / scale), scale=line.scale)
        chart = score_chart([history.name], line.points, label=label, tick=tick)
        charts.append((line.kind, label, chart))
    return charts


# --- A session's history ------------------------------------------------------------------


# Lines of a session's history a page shows: a night of 2,000 hands is twenty-odd pages.
HISTORY_PAGE = 100


@bp.get("/s/<int:session_id>/history")
def session_history(slug: str, session_id: int) -> str:
    group = access.group_for_page(slug)
    view = services.session_view(group, session_id)
    g.session_numbers = services.session_numbers(group)  # "#2" for another session
    page = pages.history_page(group, session_id, request.args.get("page", 1, int), HISTORY_PAGE)
    return render_template(
        "sessions/history.html",
        group=group,
        session=view,
        page=page,
        lines=[
            (c, change_text(c, view) + tab_followed(c, page.changes, view)) for c in page.changes
        ],
    )
