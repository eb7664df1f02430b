"""Settling up and the end of the night: who pays whom under the table's plan for the pot,
the payments ticked and taken back, the night finished (or put on the tab) and opened again."""

from __future__ import annotations

from flask import abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from ledger import services
from ledger.ids import form_number
from ledger.rules import GAMES
from ledger.rules.money import smallest_coin
from ledger.services.keepers import keeper_choices
from ledger.services.night import proposed_keeper
from ledger.services.tab import off_tab_refusal as tab_refusal
from ledger.services.views.groups import GroupRef
from ledger.services.views.sessions import SessionView
from ledger.web import access
from ledger.web.display import transfer_rows
from ledger.web.forms import ConfirmForm, FinishForm
from ledger.web.nights import bp
from ledger.web.nights.scoreboard import session_page
from ledger.words import games as game_words
from ledger.words.display import format_money, night_game
from ledger.words.language import error_text
from ledger.words.money import kept_text, odd_units_text, paid_text, settle_copy_text


@bp.get("/<int:session_id>/settle")
def settle(slug: str, session_id: int):
    """Who pays whom, under the table's plan for the pot while the night is open: the same
    plan and transfers on every phone (RULES.md §2)."""
    group, view = session_page(slug, session_id)
    return _settle_page(group, view, FinishForm(formdata=None))


def _pot_choices(view: SessionView) -> tuple[str, ...]:
    """What may happen to the pot left at the end of the night (RULES.md §2)."""
    return GAMES[view.game].pot_choices()


def _plan(group: GroupRef, view: SessionView) -> tuple[str, str | None]:
    """The plan the page shows: the pot's choice, and who keeps a carried pot (the one the
    table chose, else the one the rules propose)."""
    choice = view.leftover_pot or GAMES[view.game].pot_choice(view.options) or ""
    keeper = view.pot_keeper or _proposed(group, view) if choice == "carry" and view.pot else None
    return choice, keeper


def _proposed(group: GroupRef, view: SessionView) -> str | None:
    """The keeper the rules propose for the night's pot, by the night's figures."""
    return proposed_keeper(services.night_view(group, view.id))


def _settle_page(group: GroupRef, view: SessionView, form: FinishForm, status: int = 200):
    """The settle-up page. While the session is open the transfers are those it will end with
    under the table's plan for the pot, and the finish form finishes with that same plan:
    what the table pays from this page is what finishing stores."""
    choice, keeper = _plan(group, view)
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
    group, view = session_page(slug, session_id)
    choice = request.form.get("pot")
    if ConfirmForm().validate_on_submit() and choice is not None:
        keeper = (
            (request.form.get("keeper") or _proposed(group, view)) if choice == "carry" else None
        )
        try:
            services.set_pot_plan(group, session_id, choice, keeper if view.pot else None)
        except (services.RuleError, services.Conflict) as e:
            flash(error_text(e), "error")
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
    group, view = session_page(slug, session_id)  # another group's session: not found
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
            flash(error_text(e), "error")
        else:
            what = paid_text(paid.to_json(), view.paid_in)
            flash(_("Ticked: %(what)s.", what=what), "success")
    return _back_to_settle(slug, session_id)


@bp.post("/<int:session_id>/payments/<int:payment_id>/delete")
def unpay(slug: str, session_id: int, payment_id: int) -> Response:
    """A tick taken back: the payment is deleted and what it paid is owed again."""
    group, view = session_page(slug, session_id)  # another group's session: not found
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
            flash(error_text(e), "error")
        else:
            flash(_("The night is open again."), "success")
    return redirect(url_for(".show", slug=slug, session_id=session_id))


@bp.post("/<int:session_id>/finish")
def finish(slug: str, session_id: int):
    """End the night (money: carry or refund the pot) or end a points game where it stands."""
    group, view = session_page(slug, session_id)
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
            keeper = form.pot_keeper.data or _proposed(group, view)
        # A payment ticked on another phone changes no score: the page is still right.
        plan = (leftover, keeper if leftover == "carry" else None)
        version = services.past_payments(group, session_id, form_number(shown), plan)
        try:
            services.finish_session(
                group, session_id, leftover, version=version, pot_keeper=keeper, settle=settle
            )
        except services.RuleError as e:
            flash(error_text(e), "error")
        except services.Conflict as e:
            if e.field != "version":
                flash(error_text(e), "error")
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
                flash(game_words.session_text(view.game, "changed"), "error")
        else:
            flash(_("It is on the tab.") if settle else _("The session is finished."), "success")
        if view.money or settle:
            return _back_to_settle(slug, session_id)
        return redirect(url_for(".show", slug=slug, session_id=session_id))
    if view.money:
        return _settle_page(group, view, form, status=422)
    return redirect(url_for(".show", slug=slug, session_id=session_id))
