"""Starting a night: the new-session page (the game, its options, who sits where, who deals),
and the pots waiting to be taken up (the scoreboard says them too)."""

from __future__ import annotations

from flask import flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from wtforms import SelectChoice

from ledger import services
from ledger.ids import row_number
from ledger.rules import GAMES, has_name, tidy_name
from ledger.services.request_ids import minted_request_id, new_request_id
from ledger.services.views.groups import GroupRef, GroupView
from ledger.web import access
from ledger.web.forms import NewSessionForm
from ledger.web.nights import bp
from ledger.words import games as game_words
from ledger.words.language import error_text
from ledger.words.money import waiting_text

# The new-session form's field for its request id (templates/sessions/new.html).
REQUEST_ID_FIELD = "once"


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


def waiting_texts(group: GroupRef, game: str | None = None) -> dict[str, list[str]]:
    """Each game's pots waiting to be taken up, and what for, in words (RULES.md §2)."""
    found: dict[str, list[str]] = {}
    for pot in services.waiting_pots(group, game):
        found.setdefault(pot.game, []).append(waiting_text(pot))
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
    options = {k: game_words.typed_choice(k, v, game) for k, v in typed.items()}
    # The form's request id: a resend opens the session the first send started, whichever
    # server process it reaches.
    token = minted_request_id(request.form.get(REQUEST_ID_FIELD))
    # The dealer's seat unticked: the first player ticked, in seat order, deals instead.
    asked = form.dealer.data
    dealer = asked if asked in players or not players else players[0]
    try:
        added = services.create_session(group, game, players, dealer, options, request_id=token)
    except (services.RuleError, services.Conflict) as e:
        return None, {_error_place(game, e.field): [error_text(e, game)]}
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
        waiting=waiting_texts(group),
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
