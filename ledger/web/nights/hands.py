"""Entering a hand, looking at one, and correcting one."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from werkzeug.datastructures import MultiDict

from ledger import services
from ledger.ids import form_number
from ledger.rules import GAMES, Game
from ledger.rules.gameparts import Preview, Typed
from ledger.services.request_ids import new_request_id
from ledger.services.views.groups import GroupRef
from ledger.services.views.hands import HandView
from ledger.services.views.sessions import SessionView
from ledger.web import access, unsaved_hand
from ledger.web.forms import HandForm
from ledger.web.nights import entry
from ledger.words import games as game_words
from ledger.words.display import typed_cards
from ledger.words.hands import hand_summary
from ledger.words.language import error_text, page_cards_language, said

bp = Blueprint("hands", __name__, url_prefix="/g/<slug>/s/<int:session_id>/hands")


def _session(slug: str, session_id: int) -> tuple[GroupRef, SessionView]:
    group = access.group_for_page(slug)
    return group, services.session_view(group, session_id)


def _seated(view: SessionView) -> list[str]:
    """The players dealt the next hand: those seated, but for any out of the game (Kaluki)."""
    out = view.eliminated or {}
    return [p.name for p in view.players if p.active and p.name not in out]


@dataclass(frozen=True)
class Notice:
    """Why a save was refused though nothing typed was wrong (another phone changed the session
    meanwhile), and the page to check before saving again. ``theirs``: the hand the other phone
    entered meanwhile, to show beside this one's (then ``rows`` are each player's line in both)."""

    message: str
    href: str
    link: str
    theirs: int | None = None
    rows: Sequence[tuple[str, str, str]] = ()


def _lines(typed: Mapping[str, Any], stored: bool) -> dict[str, str]:
    """Each player's line of a hand as typed (the stored one's cards in the page's letters)."""
    lines = {}
    for r in typed.get("results") or []:
        cards = typed_cards(r.get("cards")) if stored else r.get("cards") or ""
        melds = " | ".join(m for m in r.get("melds") or [] if m)
        spots = r.get("spots")
        line = _("sat out") if r.get("sitting_out") else str(spots) if spots else melds or cards
        if r.get("player") == typed.get("out"):
            line = f"{line} ({_('went out')})" if line else _("went out")
        lines[r.get("player", "")] = line or "–"
    return lines


def _side_by_side(theirs: HandView, mine: Mapping[str, Any]) -> list[tuple[str, str, str]]:
    """Each player, their line in the hand saved meanwhile and in this phone's, side by side."""
    saved, typed = _lines(theirs.entry, True), _lines(mine, False)
    return [(p, saved.get(p, "–"), typed.get(p, "–")) for p in dict.fromkeys([*saved, *typed])]


def _whole(text: str | None) -> int | None:
    # A Unicode digit is no number; one of thousands of digits is past every row's.
    return form_number(text)


def _closed_text(view: SessionView) -> str:
    if view.money:
        return _("The night is finished: no more hands can be added.")
    return game_words.hand_text(view.game, "no_more")


def _render_form(
    group: GroupRef,
    view: SessionView,
    form: HandForm,
    players: Sequence[str],
    dealer: str | None,
    leader: str | None,
    errors: entry.RowErrors,
    hand: HandView | None = None,
    notice: Notice | None = None,
    preview: Mapping[str, Any] | None = None,
):
    shape = entry.layout(view.game, view.options, len(players))
    html = render_template(
        "hands/form.html",
        group=group,
        session=view,
        game=GAMES[view.game],
        form=form,
        shape=shape,
        dealer=dealer,
        leader=leader,
        errors=errors,
        hand=hand,
        notice=notice,
        # What the hand comes to before it is saved (Game.preview), in the page's words.
        preview=preview or _shown(Preview()),
    )
    if notice is not None:
        return html, 409
    return (html, 422) if errors or form.errors else html


@bp.route("/new", methods=["GET", "POST"])
def new(slug: str, session_id: int):
    group, view = _session(slug, session_id)
    typed_before = unsaved_hand.take(request.path) if request.method == "GET" else None
    if view.status != "open":
        flash(_closed_text(view), "error")
        return redirect(url_for("sessions.show", slug=slug, session_id=session_id))
    players = _seated(view)
    if typed_before is not None:
        # Typed before the passphrase was asked for: shown again as it was sent, with its
        # request id and version, so saving it is the save that was refused.
        form = HandForm(formdata=typed_before)
        entry.fill(form, players, entry.as_typed(form))
        entry.set_out_choices(form, players)
        return _render_form(group, view, form, players, view.dealer, view.leader, entry.RowErrors())
    form = HandForm()
    entry.set_out_choices(form, players)
    if not form.is_submitted():
        entry.fill(form, players)
        # A resend of this very form (a double tap, a retry) names the same hand.
        form.request_id.data = new_request_id()
        _loaded_at(form, view)
        return _render_form(group, view, form, players, view.dealer, view.leader, entry.RowErrors())

    game = GAMES[view.game]
    typed, errors = entry.read(form, game, view.options, view.dealer, view.hands_played + 1)
    if "preview" in request.form:  # what the hand comes to, shown before it is saved
        errors, said = _previewed(group, session_id, typed, errors, game, None)
        return _render_form(group, view, form, players, view.dealer, None, errors, preview=said)
    if form.validate() and not errors:
        try:
            added = services.add_hand(
                group,
                session_id,
                typed,
                request_id=form.request_id.data or None,
                version=_whole(form.version.data),
            )
        except services.RuleError as e:
            errors = entry.place(e, [r.player.data for r in form.results], game)
        except services.Conflict as e:
            if e.field == "version":
                return _entered_meanwhile(group, session_id, form)
            if e.field == "request_id":
                # This form's hand was saved and then undone: saving it again after reading
                # that is a new hand, not a resend of the undone one.
                form.request_id.data = new_request_id()
            errors = entry.RowErrors(general=[error_text(e)])
        else:
            return redirect(
                url_for("sessions.show", slug=slug, session_id=session_id, saved=added.hand.number)
                + "#saved"
            )
    return _render_form(group, view, form, players, view.dealer, view.leader, errors)


def _previewed(
    group: GroupRef,
    session_id: int,
    typed: Any,
    errors: entry.RowErrors,
    game: Game,
    number: int | None,
) -> tuple[entry.RowErrors, dict[str, Any]]:
    """What the hand typed so far comes to, in the page's words (``Game.preview``: as the next
    hand, or as hand ``number`` corrected), or why it cannot be worked out yet; nothing is
    saved. The one path of every game's preview: the form posted with ``preview`` (a button,
    or the game's script as boxes change) and ``…/hands/count``. A form that did not read
    (``errors``) gives the game its boxes alone, and is shown with its mistakes."""
    boxes = {k: str(v)[:80] for k, v in list(request.values.items())[:80]}
    asked = Typed(boxes, page_cards_language(), None if errors else typed)
    try:
        found = services.preview_hand(group, session_id, asked, number)
    except services.RuleError as e:  # the game previews, and says why not yet
        return entry.place(e, [], game), _shown(Preview(), True)
    return errors, _shown(found or Preview(), found is not None)


def _shown(preview: Preview, previews: bool = False) -> dict[str, Any]:
    """A preview in the page's language: the whole hand's lines, and each box's points and
    words by the box's name (as the templates and ``…/hands/count`` show them)."""
    return {
        "previews": previews,
        "said": [said(p) for p in preview.said],
        "boxes": {b: {"points": n, "said": said(w)} for b, (n, w) in preview.boxes.items()},
    }


def _loaded_at(form: HandForm, view: SessionView) -> None:
    """The session as the new-hand form stands for it: its version, and the hand it enters."""
    form.version.data = str(view.version)
    form.number.data = str(view.hands_played + 1)


def _entered_meanwhile(group: GroupRef, session_id: int, form: HandForm):
    """The new-hand form again, 409, after another phone changed the session since it was
    loaded: what was typed, laid out for the players seated now, standing for the session
    as it is now, so that saving it again enters it as the next hand."""
    view = services.session_view(group, session_id)
    players = _seated(view)
    loaded = _whole(form.number.data)
    mine = entry.as_typed(form)
    entry.fill(form, players, mine)
    entry.set_out_choices(form, players)
    _loaded_at(form, view)
    board = url_for("sessions.show", slug=group.slug, session_id=session_id)
    if loaded is not None and 0 < loaded <= view.hands_played:
        # Most likely the same hand, typed on two phones: both shown, dropping this one first.
        message = game_words.hand_text(
            view.game, "entered_elsewhere", number=loaded, next=view.hands_played + 1
        )
        rows = _side_by_side(_hand(group, session_id, loaded), mine)
        notice = Notice(message, board, _("Drop mine"), theirs=loaded, rows=rows)
    else:
        message = game_words.hand_text(view.game, "changed_elsewhere")
        notice = Notice(message, board, _("Open the scoreboard"))
    errors = entry.RowErrors()
    if view.status != "open":
        errors.general.append(_closed_text(view))
    return _render_form(group, view, form, players, view.dealer, view.leader, errors, notice=notice)


def _hand(group: GroupRef, session_id: int, number: int) -> HandView:
    try:
        return services.get_hand(group, session_id, number)
    except services.NotFound:
        abort(404)


@bp.get("/<int:number>")
def show(slug: str, session_id: int, number: int) -> str:
    group = access.group_for_page(slug)
    night = services.night_view(group, session_id)
    view = night.session
    hand = _hand(group, session_id, number)
    history = services.hand_history(group, session_id, number)
    earlier = [c for c in history if c.kind == "hand.corrected" and c.before]
    words = game_words.hand_words(view.game, view.options)
    return render_template(
        "hands/show.html",
        group=group,
        session=view,
        hand=hand,
        # The running figures after the hand as the scoreboard shows them (services/night.py).
        running=night.running(hand.scores_after),
        shape=entry.layout(view.game, view.options, len(hand.results)),
        summary=hand_summary(hand.to_json(), money=view.money, **words),
        earlier=[(c, _summary_before(c.before, view)) for c in earlier],
        editable=_editable(view),
    )


def _editable(view: SessionView) -> bool:
    """Whether the hands of the session can still be corrected: not once the players have
    finished it (a night's payments are settled; a points game was ended at the table)."""
    return not view.closed


# The service's own refusal (ledger/services/hands.py), said before a form is filled in vain.
FINISHED_HANDS = "This session is finished: its hands can no longer be changed."


def _summary_before(before: Mapping[str, Any], view: SessionView) -> str:
    """What the hand said before a correction: the history keeps the old outcome and entry."""
    outcome = before.get("outcome")
    if not isinstance(outcome, Mapping):
        return ""
    moves = outcome.get("movements") or []
    payments = [m for m in moves if m.get("from") is not None and m.get("to") is not None]
    return hand_summary(
        {**outcome, "payments": payments, "entry": before.get("entry") or {}},
        money=view.money,
        **game_words.hand_words(view.game, view.options),
    )


@bp.route("/<int:number>/edit", methods=["GET", "POST"])
def edit(slug: str, session_id: int, number: int):
    group, view = _session(slug, session_id)
    hand = _hand(group, session_id, number)
    players = [r.player for r in hand.results]
    typed_before = unsaved_hand.take(request.path) if request.method == "GET" else None
    if request.method == "GET" and not _editable(view):
        flash(_(FINISHED_HANDS), "error")
        return redirect(url_for("hands.show", slug=slug, session_id=session_id, number=number))
    if typed_before is not None:
        # The correction typed before the passphrase was asked for, with the version it was
        # loaded at: saving it is the save that was refused.
        form = HandForm(formdata=typed_before)
        entry.fill(form, players, entry.as_typed(form))
        entry.set_out_choices(form, players)
        return _render_form(
            group, view, form, players, hand.dealer, hand.leader, entry.RowErrors(), hand
        )
    form = HandForm()
    entry.set_out_choices(form, players)
    if not form.is_submitted():
        entry.fill(form, players, hand.entry, stored=True, game=GAMES[view.game])
        form.version.data = str(view.version)
        # A resend of this very correction is answered by the service as the first send.
        form.request_id.data = new_request_id()
        return _render_form(
            group, view, form, players, hand.dealer, hand.leader, entry.RowErrors(), hand
        )

    game = GAMES[view.game]
    typed, errors = entry.read(form, game, view.options, hand.dealer, number)
    if "preview" in request.form:
        errors, said = _previewed(group, session_id, typed, errors, game, number)
        return _render_form(
            group, view, form, players, hand.dealer, None, errors, hand, preview=said
        )
    if form.validate() and not errors:
        version = _whole(form.version.data)
        try:
            services.correct_hand(
                group, session_id, number, typed, version, form.request_id.data or None
            )
        except services.RuleError as e:
            errors = entry.place(e, players, game)
        except services.Conflict as e:
            if e.field == "version" and version is not None:
                return _corrected_meanwhile(group, session_id, number, form, version)
            errors = entry.RowErrors(general=[error_text(e)])
        else:
            return _corrected(view, number)
    return _render_form(group, view, form, players, hand.dealer, hand.leader, errors, hand)


@bp.post("/call/<name>")
def call(slug: str, session_id: int, name: str):
    """A game's own call from the hand form (Boerenbridge's bids), then the form again."""
    group, view = _session(slug, session_id)
    game, players, form = GAMES[view.game], _seated(view), HandForm()
    entry.set_out_choices(form, players)
    form.more_rows = entry.posted(form)[0]
    typed = [{"player": r.player.data, **form.more_rows[i]} for i, r in enumerate(form.results)]
    errors = entry.RowErrors()
    try:
        if form.validate():
            body, version = game.form_call(name, typed), _whole(form.version.data)
            services.game_call(group, session_id, name, body, version)
            return redirect(url_for("hands.new", slug=slug, session_id=session_id))
    except services.RuleError as e:
        errors = entry.place(e, [r.player.data for r in form.results], game)
    except (services.Conflict, services.NotFound) as e:
        errors = entry.RowErrors(general=[error_text(e)])
    return _render_form(group, view, form, players, view.dealer, view.leader, errors)


def _corrected(view: SessionView, number: int):
    flash(game_words.hand_text(view.game, "corrected", number=number), "success")
    return redirect(url_for("sessions.show", slug=view.group, session_id=view.id))


def _corrected_meanwhile(
    group: GroupRef, session_id: int, number: int, form: HandForm, loaded: int
):
    """The correction form again, 409, after another phone changed the session since it was
    loaded (at version ``loaded``): what was typed, and the version now, so that saving it
    again applies the correction to the hand as it is now. Says so if it was this very hand
    that another phone corrected, since saving again replaces that correction."""
    view = services.session_view(group, session_id)
    hand = _hand(group, session_id, number)
    players = [r.player for r in hand.results]
    entry.fill(form, players, entry.as_typed(form))
    entry.set_out_choices(form, players)
    form.version.data = str(view.version)
    history = services.hand_history(group, session_id, number)
    if any(c.kind == "hand.corrected" and c.version > loaded for c in history):
        notice = Notice(
            game_words.hand_text(view.game, "corrected_elsewhere", number=number),
            url_for("hands.show", slug=group.slug, session_id=session_id, number=number),
            game_words.hand_text(view.game, "see_now", number=number),
        )
    else:
        notice = Notice(
            game_words.hand_text(view.game, "changed_while_correcting", number=number),
            url_for("sessions.show", slug=group.slug, session_id=session_id),
            _("Open the scoreboard"),
        )
    return _render_form(
        group, view, form, players, hand.dealer, hand.leader, entry.RowErrors(), hand, notice
    )


@bp.get("/count")
def count(slug: str, session_id: int):
    """A hand's preview as JSON, the form's boxes in the query (``number``: the hand a
    correction is of): each box's points and words by its name, the whole hand's lines as
    ``said`` where it has some, and 422 with ``errors`` for one not yet worked out; the same
    path as the form's preview. 404 for a game that shows nothing before a hand is saved."""
    group, view = _session(slug, session_id)
    game = GAMES[view.game]
    form = HandForm(formdata=MultiDict(list(request.args.items(multi=True))[:80]))
    number = _whole(request.args.get("number"))
    if number is None or not 0 < number <= view.hands_played:
        number = None
    dealer = view.dealer if number is None else _hand(group, session_id, number).dealer
    typed, errors = entry.read(form, game, view.options, dealer, number or view.hands_played + 1)
    errors, shown = _previewed(group, session_id, typed, errors, game, number)
    if not shown["previews"]:
        abort(404)
    answer = {**shown["boxes"], **({"said": shown["said"]} if shown["said"] else {})}
    if not errors:
        return answer
    rows = (m for found in errors.rows.values() for m in found)
    return {**answer, "errors": [*errors.general, *errors.out, *rows]}, 422
