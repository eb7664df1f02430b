"""A night's scoreboard: the page every phone at the table reloads, its list of hands, the
version it polls, a hand undone, a night started by mistake deleted, its workbook."""

from __future__ import annotations

from typing import Any

from flask import current_app, flash, jsonify, redirect, render_template, request, url_for
from flask import session as browser_session
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from ledger import services
from ledger.downloads import download, session_filename
from ledger.export import XLSX_MIMETYPE, export_workbook, session_data
from ledger.ids import form_number, query_number
from ledger.pictures.chart import score_chart
from ledger.rules import GAMES
from ledger.services import evenings, exports
from ledger.services.pages import page_stamp
from ledger.services.views.groups import GroupRef
from ledger.services.views.sessions import SessionView
from ledger.web import access, i18n
from ledger.web.forms import ConfirmForm, PlayerForm
from ledger.web.nights import bp
from ledger.web.nights.pagecache import scoreboards, with_form_token, without_form_token
from ledger.web.nights.start import waiting_texts
from ledger.words import games as game_words
from ledger.words.display import night_game
from ledger.words.hands import hand_summary
from ledger.words.language import error_text

# The scoreboard lists this many of the latest hands; the rest are a tap away.
RECENT_HANDS = 8
# The all-hands page shows this many at a time, with links to the newer and the older ones.
HANDS_PAGE = 100


def session_page(slug: str, session_id: int) -> tuple[GroupRef, SessionView]:
    """The group the page is for (signed in) and its session now (the settle-up's too)."""
    group = access.group_for_page(slug)
    return group, services.session_view(group, session_id)


@bp.get("/<int:session_id>")
def show(slug: str, session_id: int) -> str:
    # Every phone at the table reloads this page; it changes only when the session does.
    # Checked every time (a new passphrase signs out), with the session's version: one query.
    group, stamp = access.session_for_page(slug, session_id)
    query_number("saved")  # a hand number no row can have is not found, before any work
    # A message waiting for this browser (a refused join, leave or undo, "the game is over")
    # belongs on this very page: a kept copy would leave it out, and it would turn up later
    # on another page. Such a page is rendered anew and never kept.
    # A template that is read again when it changes (flask --debug) shows its change at once.
    if browser_session.get("_flashes") or current_app.jinja_env.auto_reload:
        return _scoreboard(group, session_id, stamp.nights_version)[0]
    # What the page depends on beyond the session: the group's other nights (a pot waiting
    # from one: the group's nights version moves with any change to any night), the prefix
    # the app is served under and the address (?saved=N, the hand just saved), the language
    # and the group's name. Not the browser: every phone signed in sees the same page, but
    # for each form's token, put in per response: one build of a version serves the table.
    # Session ids are never used twice (ledger/models.py), and the night's start is in the
    # key besides: a page kept for a deleted night never answers for a new one given its id.
    # The players' names, rounds and payments move the night's version; a bank account, a
    # season or the tab's payments are not on this page.
    key = (
        session_id,
        stamp.started_at,
        stamp.version,
        stamp.nights_version,
        request.root_path,
        request.full_path,
        i18n.select_locale(),
        group.name,
    )

    def build() -> tuple[str, bool]:
        # A build that changes this browser's session writes something of this browser's:
        # the page is for this response only. The flag is cleared for the build so that its
        # own change shows even after an earlier one this request (the daily renewal), and
        # set again after it, so the cookie still goes out.
        was_modified, browser_session.modified = browser_session.modified, False
        try:
            page, version = without_form_token(
                lambda: _scoreboard(group, session_id, stamp.nights_version)
            )
            # Kept under the version checked above only if it is the version drawn: a hand
            # saved in between is for the next look to draw.
            return page, version == stamp.version and not browser_session.modified
        finally:
            browser_session.modified = browser_session.modified or was_modified

    return with_form_token(scoreboards().get_or_build(key, build))


def _scoreboard(group: GroupRef, session_id: int, nights_version: int) -> tuple[str, int]:
    """The scoreboard page, and the session version it shows; ``nights_version``: the group's
    (read before the page: what the page shows of other nights is at least that new)."""
    board = services.scoreboard(group, session_id, RECENT_HANDS, saved=query_number("saved"))
    view = board.session
    hand_json = [h.to_json() for h in board.recent]
    saved_hand = board.saved.to_json() if board.saved is not None else None
    names = [p.name for p in view.players]
    words = game_words.hand_words(view.game, view.options)

    def summary(hand: dict[str, Any]) -> str:
        return hand_summary(hand, money=view.money, **words)

    recent = [(h, summary(h)) for h in reversed(hand_json)]
    game = GAMES[view.game]
    return render_template(
        "sessions/show.html",
        group=group,
        session=view,
        page_stamp=page_stamp(view.version, nights_version),
        night=board.night,
        evening=evenings.evening_of_session(group, session_id),  # RULES.md §19: "table 2"
        ahead=board.night.ahead,
        game=game,
        recent=recent,
        more_hands=max(0, view.hands_played - len(hand_json)),
        saved=saved_hand,
        saved_summary=summary(saved_hand) if saved_hand else None,
        chart=score_chart(
            names, list(board.history), label=game_words.hand_text(view.game, "chart"), game=game
        ),
        sides=game.sides(names),  # who scores together: the chart's lines, legend and dots
        # A money game's scores are balances: a points target is the game's own to show.
        target=None if view.money else board.night.target,
        limit=board.night.target,
        # A closed night's "Open the night again" only where it can be (else the reason).
        reopen=services.reopen_refusal(group, view.id) if view.closed else "",
        waiting=waiting_texts(group, view.game).get(view.game, [])
        if view.money and view.status == "open"
        else [],
        # The one form the page draws, and only where it does: a form costs as much to
        # build as a query (the other forms' fields are plain tags with csrf_field()).
        join_form=(
            PlayerForm(formdata=None, prefix="join")
            if view.status == "open" and GAMES[view.game].open_seating
            else None
        ),
    ), view.version


@bp.get("/<int:session_id>/hands")
def hands(slug: str, session_id: int) -> str:
    """The session's hands, newest first, ``HANDS_PAGE`` to a page: ``?to=<number>`` is the
    newest on the page (the last hand without it), with links to the newer and older ones.
    A page of a 5,000-hand night reads and draws what a page of a short one does."""
    group, view = session_page(slug, session_id)
    played = view.hands_played
    asked = query_number("to")
    top = played if asked is None or not 1 <= asked <= played else asked
    low = max(0, top - HANDS_PAGE)
    page = services.iter_hands(group, session_id, after=low, limit=top - low)
    hand_json = [h.to_json() for h in page]
    words = game_words.hand_words(view.game, view.options)

    def summary(hand: dict[str, Any]) -> str:
        return hand_summary(hand, money=view.money, **words)

    return render_template(
        "sessions/hands.html",
        group=group,
        session=view,
        hands=[(h, summary(h)) for h in reversed(hand_json)],
        # The page's neighbours as the ``to`` of their address; None: there is none.
        newer=min(top + HANDS_PAGE, played) if top < played else None,
        older=low if low > 0 else None,
    )


@bp.get("/<int:session_id>/version.json")
def version(slug: str, session_id: int) -> Response:
    """What the scoreboard polls: one small answer that changes with every change."""
    _group, stamp = access.session_for_page(slug, session_id)  # one query, however often
    response = jsonify(
        version=stamp.version,
        page=stamp.page,  # the scoreboard's: it shows the pots waiting from other nights too
        hands_played=stamp.hands_played,
        status=stamp.status,
    )
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/<int:session_id>/undo")
def undo(slug: str, session_id: int) -> Response:
    """Take back the last hand: the one this phone showed as last, never one entered since (the
    page sends its version: after any change on another phone, the tap is refused)."""
    group = access.group_for_page(slug)
    form = ConfirmForm()
    number = form_number(request.form.get("number"))
    shown = form_number(request.form.get("version"))
    if form.validate_on_submit() and number:
        try:
            view = services.undo_hand(group, session_id, number, shown)
        except services.Conflict as e:
            stale = _(
                "Nothing is undone: the session changed on another phone since this page was "
                "loaded. Look at the scoreboard, then undo again if you mean to."
            )
            flash(stale if e.field == "version" else error_text(e), "error")
        else:
            flash(game_words.hand_text(view.game, "undone", number=number), "success")
    return redirect(url_for(".show", slug=slug, session_id=session_id))


@bp.post("/<int:session_id>/delete")
def delete(slug: str, session_id: int) -> Response:
    """Remove a session started by mistake (no hands yet), after the page's confirm step."""
    group = access.group_for_page(slug)
    if not ConfirmForm().validate_on_submit():
        return redirect(url_for(".show", slug=slug, session_id=session_id))
    gone = services.session_view(group, session_id)  # its name, before it goes
    try:
        services.delete_session(group, session_id)
    except services.Conflict as e:
        flash(error_text(e), "error")
        return redirect(url_for(".show", slug=slug, session_id=session_id))
    flash(_("%(game)s #%(id)d is deleted.", game=night_game(gone), id=gone.number), "success")
    return redirect(url_for("groups.show", slug=slug))


@bp.get("/<int:session_id>/export.xlsx")
def export(slug: str, session_id: int) -> Response:
    group = access.group_for_page(slug)
    data = session_data(exports.session_export(group, session_id))
    return download(export_workbook(data), XLSX_MIMETYPE, session_filename(data.session, "xlsx"))
