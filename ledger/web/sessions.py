"""A session's pages: starting one, the scoreboard, undo, settling up and the end of the night."""

from __future__ import annotations

from typing import Any

from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)
from flask import session as browser_session
from flask_babel import gettext as _
from werkzeug.wrappers import Response
from wtforms import SelectChoice

from ledger import services
from ledger.downloads import download, session_filename
from ledger.export import XLSX_MIMETYPE, export_workbook, session_data
from ledger.ids import form_number, query_number, row_number
from ledger.pictures.chart import score_chart
from ledger.rules import GAMES, has_name, tidy_name
from ledger.rules.money import smallest_coin
from ledger.services import exports
from ledger.services.keepers import keeper_choices, proposed_keeper
from ledger.services.request_ids import minted_request_id, new_request_id
from ledger.services.tab import off_tab_refusal as tab_refusal
from ledger.services.views.groups import GroupRef, GroupView
from ledger.services.views.sessions import SessionView
from ledger.web import access, i18n, texts
from ledger.web.display import format_money, night_game
from ledger.web.forms import ConfirmForm, FinishForm, NewSessionForm, PlayerForm
from ledger.web.pagecache import scoreboards, with_form_token, without_form_token
from ledger.web.summary import (
    hand_summary,
    kept_text,
    odd_units_text,
    paid_text,
    settle_copy_text,
)
from ledger.web.tab import transfer_rows

bp = Blueprint("sessions", __name__, url_prefix="/g/<slug>/s")

# The new-session form's field for its request id (templates/sessions/new.html).
REQUEST_ID_FIELD = "once"

# The scoreboard lists this many of the latest hands; the rest are a tap away.
RECENT_HANDS = 8
# The all-hands page shows this many at a time, with links to the newer and the older ones.
HANDS_PAGE = 100


# --- Starting a session ---------------------------------------------------------------------


def _option_field(game: str, option: str) -> str:
    return f"opt-{game}-{option}"


def _seating_from_request(known: list[str]) -> tuple[list[str], set[str]]:
    """The order the form put the players in and who is ticked to play (all, at first)."""
    if request.method != "POST":
        return known, set(known)
    order = [n for n in request.form.getlist("order") if n]
    order += [n for n in known if n not in order]
    return order, set(request.form.getlist("seated"))


@bp.route("/new", methods=["GET", "POST"])
def new(slug: str):
    """Pick the game, its options, the players in seat order and the first dealer.

    The up and down buttons and "add" send the form back here to redraw it (so it works
    without JavaScript; static/seats.js moves the rows in place instead).
    """
    group = access.group_for_page(slug)
    view = services.group_view(group)
    form = NewSessionForm()
    form.game.choices = [SelectChoice(g.key, g.name) for g in GAMES.values()]
    order, seated = _seating_from_request([p.name for p in view.players])
    form.dealer.choices = [SelectChoice(n) for n in order]
    if request.method == "GET":
        form.game.data = next(iter(GAMES))
        order, seated = _remembered(group, order, form)
    errors: dict[str, list[str]] = {}
    if request.method == "POST":
        move = request.form.get("move", "")
        if move:
            order = _moved(order, move)
        elif request.form.get("add") or request.form.get("new_player", "").strip():
            # A name typed in "someone new" joins the list first, even when Enter sent the form.
            _add_new_player(order, seated)
            form.dealer.choices = [SelectChoice(n) for n in order]
        elif form.validate_on_submit():
            session_id, errors = _start(group, form, [n for n in order if n in seated])
            if session_id is not None:
                return redirect(url_for(".show", slug=slug, session_id=session_id))
        else:
            errors = _form_errors(form)
    return _new_session_page(group, view, form, (order, seated), errors)


def _remembered(
    group: GroupRef, known: list[str], form: NewSessionForm
) -> tuple[list[str], set[str]]:
    """The table as the group's last session left it: its players ticked in their seats, the
    deal passed on from where it ended; the group's other players after them, not ticked."""
    seats, dealer = services.remembered_table(group)
    seats = [n for n in seats if n in known]  # a player renamed since is in ``known`` anew
    if not seats:
        return known, set(known)
    form.dealer.data = dealer if dealer in seats else seats[0]
    return seats + [n for n in known if n not in seats], set(seats)


def _options_typed() -> dict[str, str]:
    """Every game's options as the form sent them (``opt-<game>-<option>``)."""
    return {k: v for k, v in request.form.items() if k.startswith("opt-")}


def _options_shown(group: GroupRef) -> dict[str, str]:
    """The options the form shows: as sent, or at first each game's stakes as the group's
    last session of it had them (issue 29: a carried pot waits for the same stakes)."""
    if request.method == "POST":
        return _options_typed()
    return {
        _option_field(game, name): "" if value is None else str(value)
        for game, options in services.remembered_options(group).items()
        for name, value in options.items()
    }


def _waiting_texts(group: GroupRef, game: str | None = None) -> dict[str, list[str]]:
    """Each game's pots waiting to be taken up, and what for (RULES.md §2): "Mick's €1.60
    waits for a Spot night at €0.10 a unit with Mick at the table"."""
    found: dict[str, list[str]] = {}
    for pot in services.waiting_pots(group, game):
        words = {
            "amount": format_money(pot.amount, pot.currency),
            "game": texts.text(GAMES[pot.game].name),
            "unit": format_money(pot.unit_value, pot.currency),
        }
        line = (
            _(
                "%(name)s's %(amount)s waits for a %(game)s night at %(unit)s a unit with "
                "%(name)s at the table.",
                name=pot.keeper,
                **words,
            )
            if pot.keeper
            else _("A pot of %(amount)s waits for a %(game)s night at %(unit)s a unit.", **words)
        )
        found.setdefault(pot.game, []).append(line)
    return found


def _add_new_player(order: list[str], seated: set[str]) -> None:
    """The name typed in "someone new" at the end of the list, ticked to play (once)."""
    name = tidy_name(request.form.get("new_player", ""))
    if name and not has_name(order, name):
        order.append(name)
        seated.add(name)


def _start(
    group: GroupRef, form: NewSessionForm, players: list[str]
) -> tuple[int | None, dict[str, list[str]]]:
    """Start the session the form describes: its id, or the engine's refusal by field."""
    game = form.game.data or ""
    prefix = _option_field(game, "")
    typed = {k[len(prefix) :]: v for k, v in _options_typed().items() if k.startswith(prefix)}
    options = {k: texts.typed_choice(k, v, game) for k, v in typed.items()}
    # The form's request id: a resend opens the session the first send started, whichever
    # server process it reaches.
    token = minted_request_id(request.form.get(REQUEST_ID_FIELD))
    # The dealer's seat unticked: the first player ticked, in seat order, deals instead.
    asked = form.dealer.data
    dealer = asked if asked in players or not players else players[0]
    try:
        added = services.create_session(group, game, players, dealer, options, request_id=token)
    except (services.RuleError, services.Conflict) as e:
        return None, {_error_place(game, e.field): [i18n.error_text(e, game)]}
    if asked and dealer != asked:
        flash(_("%(name)s is not playing, so %(dealer)s deals first.", name=asked, dealer=dealer))
    return added.session.id, {}


def _form_errors(form: NewSessionForm) -> dict[str, list[str]]:
    """The form's own refusals: beside the game or the dealer, else above the form."""
    errors: dict[str, list[str]] = {}
    for name, messages in form.errors.items():
        place = name if name in ("game", "dealer") else "form"
        errors.setdefault(place, []).extend(str(m) for m in messages)
    return errors


def _new_session_page(
    group: GroupRef,
    view: GroupView,
    form: NewSessionForm,
    seating: tuple[list[str], set[str]],
    errors: dict[str, list[str]],
):
    order, seated = seating
    if not form.dealer.data and order:
        form.dealer.data = order[0]  # someone deals unless the table picks another
    html = render_template(
        "sessions/new.html",
        group=view,
        form=form,
        games=list(GAMES.values()),
        order=order,
        seated=seated,
        options_typed=_options_shown(group),
        option_field=_option_field,
        waiting=_waiting_texts(group),
        errors=errors,
        # The same form, redrawn after a move or a refusal, keeps its token.
        once_token=minted_request_id(request.form.get(REQUEST_ID_FIELD)) or new_request_id(),
    )
    return (html, 422) if errors else html


def _error_place(game: str, field: str | None) -> str:
    """Where the new-session page shows an error about ``field`` (the engine's notation)."""
    key = (field or "").split("[")[0]
    if key.startswith("options."):
        return _option_field(game, key.split(".", 1)[1])
    return key if key in ("game", "players", "dealer") else "form"


def _moved(order: list[str], move: str) -> list[str]:
    """``up:2`` or ``down:0``: the player at that place swaps with the neighbour."""
    direction, _sep, index = move.partition(":")
    i = row_number(index)
    if i is None:
        return order
    j = i - 1 if direction == "up" else i + 1
    if 0 <= i < len(order) and 0 <= j < len(order):
        order = list(order)
        order[i], order[j] = order[j], order[i]
    return order


# --- The scoreboard -------------------------------------------------------------------------


def _session(slug: str, session_id: int) -> tuple[GroupRef, SessionView]:
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
        return _scoreboard(group, session_id)[0]
    # What the page depends on beyond the session: the prefix the app is served under and
    # the address (with ?saved=N, the hand just saved), the language and the group's name in
    # the header. Not the browser: every phone signed in to the group sees the same page, but
    # for each form's token, which goes in per response. So one build of a version serves
    # the whole table. Session ids are never used twice (ledger/models.py), and the night's
    # start is in the key besides: a page kept for a deleted night is never served for a new
    # one, even on a database that gave the new one the deleted one's id.
    key = (
        session_id,
        stamp.started_at,
        stamp.version,
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
            page, version = without_form_token(lambda: _scoreboard(group, session_id))
            # Kept under the version checked above only if it is the version drawn: a hand
            # saved in between is for the next look to draw.
            return page, version == stamp.version and not browser_session.modified
        finally:
            browser_session.modified = browser_session.modified or was_modified

    return with_form_token(scoreboards().get_or_build(key, build))


def _scoreboard(group: GroupRef, session_id: int) -> tuple[str, int]:
    """The scoreboard page, and the session version it shows."""
    board = services.scoreboard(group, session_id, RECENT_HANDS, saved=query_number("saved"))
    view = board.session
    hand_json = [h.to_json() for h in board.recent]
    saved_hand = board.saved.to_json() if board.saved is not None else None
    names = [p.name for p in view.players]
    words = texts.hand_words(view.game, view.options)

    def summary(hand: dict[str, Any]) -> str:
        return hand_summary(hand, money=view.money, **words)

    recent = [(h, summary(h)) for h in reversed(hand_json)]
    return render_template(
        "sessions/show.html",
        group=group,
        session=view,
        night=board.night,
        ahead=board.night.ahead,
        game=GAMES[view.game],
        recent=recent,
        more_hands=max(0, view.hands_played - len(hand_json)),
        saved=saved_hand,
        saved_summary=summary(saved_hand) if saved_hand else None,
        chart=score_chart(names, list(board.history), label=texts.hand_text(view.game, "chart")),
        # A money game's scores are balances: a points target is the game's own to show.
        target=None if view.money else board.night.target,
        limit=board.night.target,
        # A closed night's "Open the night again" only where it can be (else the reason).
        reopen=services.reopen_refusal(group, view.id) if view.closed else "",
        waiting=_waiting_texts(group, view.game).get(view.game, [])
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
    group, view = _session(slug, session_id)
    played = view.hands_played
    asked = query_number("to")
    top = played if asked is None or not 1 <= asked <= played else asked
    low = max(0, top - HANDS_PAGE)
    page = services.iter_hands(group, session_id, after=low, limit=top - low)
    hand_json = [h.to_json() for h in page]
    words = texts.hand_words(view.game, view.options)

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
    response = jsonify(version=stamp.version, hands_played=stamp.hands_played, status=stamp.status)
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
            flash(stale if e.field == "version" else i18n.error_text(e), "error")
        else:
            flash(texts.hand_text(view.game, "undone", number=number), "success")
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
        flash(i18n.error_text(e), "error")
        return redirect(url_for(".show", slug=slug, session_id=session_id))
    flash(_("%(game)s #%(id)d is deleted.", game=night_game(gone), id=gone.number), "success")
    return redirect(url_for("groups.show", slug=slug))


# --- Settling up and finishing ----------------------------------------------------------------


@bp.get("/<int:session_id>/settle")
def settle(slug: str, session_id: int):
    """Who pays whom, under the table's plan for the pot while the night is open: the same
    plan and transfers on every phone (RULES.md §2)."""
    group, view = _session(slug, session_id)
    return _settle_page(group, view, FinishForm(formdata=None))


def _pot_choices(view: SessionView) -> tuple[str, ...]:
    """What may happen to the pot left at the end of the night (RULES.md §2)."""
    return GAMES[view.game].pot_choices()


def _plan(view: SessionView) -> tuple[str, str | None]:
    """The plan the page shows: the pot's choice, and who keeps a carried pot (the one the
    table chose, else the one the rules propose)."""
    choice = view.leftover_pot or GAMES[view.game].pot_choice(view.options) or ""
    keeper = view.pot_keeper or proposed_keeper(view) if choice == "carry" and view.pot else None
    return choice, keeper


def _settle_page(group: GroupRef, view: SessionView, form: FinishForm, status: int = 200):
    """The settle-up page. While the session is open the transfers are those it will end with
    under the table's plan for the pot, and the finish form finishes with that same plan:
    what the table pays from this page is what finishing stores."""
    choice, keeper = _plan(view)
    keepers = keeper_choices(view)
    # The night's figures (services/night.py), under the plan this page shows.
    night = services.night_under(group, view.id, choice or None, keeper)
    view, result = night.session, night.settlement
    if result is None:  # no money to settle, the game's or the rounds' (RULES.md §6c)
        abort(404)
    rows = transfer_rows(result.transfers, result.currency)
    # A refund that cannot share the pot evenly leaves the odd units in it: say where they go.
    odd = result.pot if choice == "refund" and view.money else 0
    kept = kept_text(view, result.pot_keeper, result.pot, result.currency, result.pot_amount)
    title = _("%(game)s #%(id)d: settling up", game=night_game(view), id=view.number)
    labels = {c.value: c.label for c in form.leftover_pot.choices}
    paid = [(p, paid_text(p.to_json(), result.currency)) for p in result.payments]
    html = render_template(
        "sessions/settle.html",
        group=group,
        session=view,
        night=night,
        settlement=result,
        # RULES.md §2: the pots kept or brought back, beside the night's winnings.
        pot_column=any(s.kept or s.brought_back for s in night.standings),
        transfers=[(t, words, qr) for t, words, qr, _line in rows],
        payments=paid,
        coins_differ=any(b.settled != b.exact for b in result.balances),
        smallest_coin=format_money(smallest_coin(result.currency), result.currency),
        copy_text=settle_copy_text(
            title, group.name, view.started_at, [r[3] for r in rows], kept, [w for _p, w in paid]
        ),
        # RULES.md §6a: a money night may go on the tab, at its finish or once it has ended.
        may_tab=not view.on_tab and not result.payments and not view.closed,
        finish_form=form,
        choosing_pot=view.status == "open" and bool(view.pot),
        pot_choice=choice,
        pot_choices=[(value, labels[value]) for value in _pot_choices(view)],
        # Who keeps the pot is asked only where a pot is carried on.
        keepers=keepers if view.status == "open" and choice == "carry" and view.pot else [],
        keeper=keeper,
        kept_text=kept,
        odd_text=odd_units_text(view, odd) if odd else None,
        # No button that can only refuse (issue 37): why it cannot be used, where it helps.
        reopen=services.reopen_refusal(group, view.id) if view.closed else "",
        off_tab=tab_refusal(group, view.id) if view.on_tab else "",
    )  # fmt: skip
    return html if status == 200 else (html, status)


def _back_to_settle(slug: str, session_id: int) -> Response:
    return redirect(url_for(".settle", slug=slug, session_id=session_id))


@bp.post("/<int:session_id>/pot")
def pot(slug: str, session_id: int) -> Response:
    """The table's plan for the pot, chosen on this phone: every phone's page follows."""
    group, view = _session(slug, session_id)
    choice = request.form.get("pot")
    if ConfirmForm().validate_on_submit() and choice is not None:
        keeper = (
            (request.form.get("keeper") or proposed_keeper(view)) if choice == "carry" else None
        )
        try:
            services.set_pot_plan(group, session_id, choice, keeper if view.pot else None)
        except (services.RuleError, services.Conflict) as e:
            flash(i18n.error_text(e), "error")
        else:
            flash(_("Every phone now shows this plan for the pot."), "success")
    return _back_to_settle(slug, session_id)


def _pot_shown() -> str | None:
    """The pot's choice the settle-up page showed when a tick was sent (an open session's
    payments depend on it), or None."""
    choice = request.form.get("pot")
    return choice if choice in ("carry", "refund") else None


def _keeper_shown() -> str | None:
    """The pot's keeper the settle-up page showed when a tick was sent, or None (the
    settlement checks it is a player of the session)."""
    return request.form.get("keeper") or None


@bp.post("/<int:session_id>/payments")
def pay(slug: str, session_id: int) -> Response:
    """A transfer ticked as paid: recorded in the session, so every phone's settle-up shows it.
    The plan for the pot the page showed comes along: the transfer was one of its settlement."""
    group, view = _session(slug, session_id)  # another group's session: not found
    if ConfirmForm().validate_on_submit():
        try:
            paid = services.record_payment(
                group,
                session_id,
                request.form.get("from"),
                request.form.get("to"),
                form_number(request.form.get("units")),
                money=request.form.get("amount"),
                leftover_pot=_pot_shown(),
                pot_keeper=_keeper_shown(),
            )
        except (services.RuleError, services.Conflict) as e:
            flash(i18n.error_text(e), "error")
        else:
            what = paid_text(paid.to_json(), view.paid_in)
            flash(_("Ticked: %(what)s.", what=what), "success")
    return _back_to_settle(slug, session_id)


@bp.post("/<int:session_id>/payments/<int:payment_id>/delete")
def unpay(slug: str, session_id: int, payment_id: int) -> Response:
    """A tick taken back: the payment is deleted and what it paid is owed again."""
    group, view = _session(slug, session_id)  # another group's session: not found
    if ConfirmForm().validate_on_submit():
        try:
            paid = services.delete_payment(group, session_id, payment_id)
        except services.NotFound:
            # Another phone took it back a moment ago: what this one wanted is done.
            flash(_("That payment was taken back already."), "success")
        else:
            what = paid_text(paid.to_json(), view.paid_in)
            flash(_("Taken back: %(what)s.", what=what), "success")
    return _back_to_settle(slug, session_id)


@bp.post("/<int:session_id>/reopen")
def reopen(slug: str, session_id: int) -> Response:
    """A night finished by mistake, open again (after the page's confirm step)."""
    group = access.group_for_page(slug)
    if ConfirmForm().validate_on_submit():
        try:
            services.reopen_session(group, session_id)
        except services.Conflict as e:
            flash(i18n.error_text(e), "error")
        else:
            flash(_("The night is open again."), "success")
    return redirect(url_for(".show", slug=slug, session_id=session_id))


@bp.post("/<int:session_id>/finish")
def finish(slug: str, session_id: int):
    """End the night (money: carry or refund the pot) or end a points game where it stands."""
    group, view = _session(slug, session_id)
    form = FinishForm()
    if not view.money or not _pot_choices(view):  # nothing to choose (Kaluki shares its pot)
        form.leftover_pot.validators = []
        form.leftover_pot.validate_choice = False
    if form.validate_on_submit():
        leftover = form.leftover_pot.data if view.money else None
        settle = request.form.get("settle") if request.form.get("settle") == "tab" else None
        shown = form.version.data or ""
        keeper = None
        if leftover == "carry" and view.pot:
            # The page always names one; a form without it gets the one the page proposes.
            keeper = form.pot_keeper.data or proposed_keeper(view)
        # A payment ticked on another phone changes no score: the page is still right.
        plan = (leftover, keeper if leftover == "carry" else None)
        version = services.past_payments(group, session_id, form_number(shown), plan)
        try:
            services.finish_session(
                group, session_id, leftover, version=version, pot_keeper=keeper, settle=settle
            )
        except services.RuleError as e:
            flash(i18n.error_text(e), "error")
        except services.Conflict as e:
            if e.field != "version":
                flash(i18n.error_text(e), "error")
            elif view.money:
                flash(
                    _(
                        "The scores changed on another phone since this page was loaded, so "
                        "the night is not finished yet. These are the payments now: finish "
                        "the night again if they are right."
                    ),
                    "error",
                )
            else:
                flash(
                    _(
                        "The scores changed on another phone since this page was loaded, so "
                        "the game is not ended. Look at them, then end it again if you mean to."
                    ),
                    "error",
                )
        else:
            flash(_("It is on the tab.") if settle else _("The session is finished."), "success")
        if view.money or settle:
            return _back_to_settle(slug, session_id)
        return redirect(url_for(".show", slug=slug, session_id=session_id))
    if view.money:
        return _settle_page(group, view, form, status=422)
    return redirect(url_for(".show", slug=slug, session_id=session_id))


@bp.get("/<int:session_id>/export.xlsx")
def export(slug: str, session_id: int) -> Response:
    group = access.group_for_page(slug)
    data = session_data(exports.session_export(group, session_id))
    return download(export_workbook(data), XLSX_MIMETYPE, session_filename(data.session, "xlsx"))
