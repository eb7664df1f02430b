"""A group's page: its sessions, players and leaderboard; the invite link; the passphrase."""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

from flask import Blueprint, current_app, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import ngettext
from werkzeug.wrappers import Response

from ledger import network, services
from ledger.backup import backup_group, dumps
from ledger.downloads import download, download_written, group_filename
from ledger.export import XLSX_MIMETYPE, group_export_workbook
from ledger.ids import form_number
from ledger.pictures.qr import qr_svg
from ledger.services import actors, auth, exports, seasons, stats, tab
from ledger.services.views.groups import GroupRef
from ledger.web import access, phone
from ledger.web.forms import ConfirmForm, PassphraseForm, PlayerForm, add_error
from ledger.web.group import history
from ledger.words.language import error_text

bp = Blueprint("groups", __name__, url_prefix="/g/<slug>")


def _group_page(slug: str, player_form: PlayerForm | None = None, status: int = 200):
    group = access.group_for_page(slug)
    view = services.group_view(group)
    sessions = sorted(view.sessions, key=lambda s: (s.status != "open", -s.id))
    chosen = history.chosen_period(request.args)
    board = stats.group_stats(group, chosen.period)
    html = render_template(
        "groups/show.html",
        group=view,
        sessions=sessions,
        leaderboard=board.players,
        # The points columns: one per game (and scoring) played in the period, in game order.
        points_kinds=board.points_keys,
        points_label=history.points_label,
        chosen=chosen,
        player_form=player_form or PlayerForm(formdata=None),
        rename_form=PlayerForm(formdata=None, prefix="rename"),
        confirm_form=ConfirmForm(),
        just_made=request.args.get("new") == "1",
        tabs=tab.group_tabs(group),  # RULES.md §6a
        seasons=seasons.seasons_under_way(group),  # RULES.md §13
        workbook=workbook_note(exports.group_workbook_size(view)),  # issue 46.5
    )
    return html if status == 200 else (html, status)


def workbook_note(size: exports.BookSize | None) -> str | None:
    """What the page says before a large workbook is downloaded: its size and its wait."""
    if size is None:
        return None
    minutes = round(size.seconds / 60)
    if minutes < 2:
        wait = _("about a minute") if size.seconds >= 45 else _("under a minute")
    else:
        wait = ngettext("about %(num)d minute", "about %(num)d minutes", minutes)
    return _(
        "A large file: about %(megabytes)d MB, %(wait)s to make.",
        megabytes=size.megabytes,
        wait=wait,
    )


@bp.get("")
def show(slug: str):
    return _group_page(slug)


@bp.post("/players")
def add_player(slug: str) -> Response | tuple[str, int]:
    group = access.group_for_page(slug)
    form = PlayerForm()
    if form.validate_on_submit():
        try:
            player = services.add_player(group, form.name.data or "")
        except (services.RuleError, services.Conflict) as e:
            add_error(form, "name", error_text(e))
        else:
            flash(_("%(name)s joins the group.", name=player.name), "success")
            return redirect(url_for(".show", slug=slug) + "#players")
    return _group_page(slug, player_form=form, status=422)


@bp.post("/phone")
def this_phone(slug: str) -> Response:
    """RULES.md §20: this phone says whose it is (or nobody's); kept on the phone."""
    group = access.group_for_page(slug)
    chosen = request.form.get("player", "")
    player = actors.player_of(group.id, form_number(chosen)) if chosen else None
    if chosen and player is None:
        flash(_("That player is no longer in the group: choose again."), "error")
        return redirect(url_for(".show", slug=slug) + "#this-phone")
    if player is None:
        flash(_("This phone is nobody's now."), "success")
    else:
        flash(_("This phone is %(player)s's.", player=player.name), "success")
    response = redirect(url_for(".show", slug=slug) + "#this-phone")
    phone.claim(response, group.id, player.id if player else None)
    return response


@bp.post("/players/<int:player_id>")
def rename_player(slug: str, player_id: int) -> Response:
    group = access.group_for_page(slug)
    form = PlayerForm(prefix="rename")
    if not form.validate_on_submit():
        for message in form.name.errors:
            flash(message, "error")
        return redirect(url_for(".show", slug=slug) + "#players")
    try:
        player = services.rename_player(group, player_id, form.name.data or "")
    except (services.RuleError, services.Conflict) as e:
        flash(error_text(e), "error")
    else:
        flash(_("Renamed to %(name)s.", name=player.name), "success")
    return redirect(url_for(".show", slug=slug) + "#players")


def invite_link(group: GroupRef, *, evening: int | None = None, until: int | None = None) -> str:
    """The invite link, on an address the other phones can reach (with ``evening`` and
    ``until``: a club evening's check-in code, access.invite_for).

    Opened on the laptop that runs the app (localhost), the page's own address would send
    every phone to itself: when ``ledger serve`` listens on every interface, the link then
    uses this machine's address on the local network.
    """
    token = access.invite_for(group, evening=evening, until=until)
    link = url_for("home.join", token=token, _external=True)
    parts = urlsplit(link)
    listening = current_app.config.get("LEDGER_LISTEN_HOST")
    if (
        listening in network.WILDCARD_HOSTS
        and parts.hostname
        and network.is_loopback(parts.hostname)
    ):
        lan = network.lan_address()
        if not network.is_loopback(lan):
            host = f"[{lan}]" if ":" in lan else lan
            netloc = f"{host}:{parts.port}" if parts.port else host
            link = urlunsplit(parts._replace(netloc=netloc))
    return link


# A page that shows an invite link is kept by no cache: the link opens the group.
NO_STORE = {"Cache-Control": "private, no-store"}


@bp.get("/invite")
def invite(slug: str) -> tuple[str, int, dict[str, str]]:
    group = access.group_for_page(slug)
    link = invite_link(group)
    html = render_template(
        "groups/invite.html",
        group=group,
        link=link,
        qr=qr_svg(link, title=_("QR code of the invite link")),
        passphrase_form=PassphraseForm(formdata=None),
    )
    return html, 200, NO_STORE


@bp.post("/passphrase")
def change_passphrase(slug: str) -> Response | tuple[str, int, dict[str, str]]:
    """A new passphrase signs out every other phone and voids every invite link made so far.

    Only for whoever knows the current one, checked like any sign-in: wrong guesses count
    towards the group's limit, and once it is reached the change waits like an open would.
    """
    group = access.group_for_page(slug)
    form = PassphraseForm()
    if form.validate_on_submit() and _current_passphrase_is_right(form, group.slug):
        try:
            services.change_passphrase(group, form.new_passphrase.data or "")
        except (services.RuleError, services.Busy) as e:
            add_error(form, "new_passphrase", error_text(e))
        else:
            access.sign_in(group)  # this phone stays in, at the new epoch
            flash(
                _("The passphrase is changed. Other phones and old invite links need the new one."),
                "success",
            )
            return redirect(url_for(".invite", slug=slug))
    link = invite_link(group)
    html = render_template(
        "groups/invite.html",
        group=group,
        link=link,
        qr=qr_svg(link, title=_("QR code of the invite link")),
        passphrase_form=form,
    )
    return html, 422, NO_STORE


def _current_passphrase_is_right(form: PassphraseForm, slug: str) -> bool:
    try:
        services.authenticate(slug, form.current_passphrase.data or "", request.remote_addr)
    except services.Unauthorized:
        add_error(form, "current_passphrase", _("That is not the group's current passphrase."))
    except (services.TooManyAttempts, services.Busy) as e:
        add_error(form, "current_passphrase", error_text(e))
    else:
        return True
    return False


@bp.post("/sign-out")
def sign_out(slug: str) -> Response:
    """This phone signs out of the group (the others stay signed in): its sign-in is revoked
    on the server, so a copy of this browser's cookie no longer opens the group either."""
    group = access.group_for_page(slug)
    if ConfirmForm().validate_on_submit():
        access.sign_out(group.id)
        flash(_("This phone has closed %(name)s.", name=group.name), "success")
    return redirect(url_for("home.index"))


@bp.post("/sign-out-everywhere")
def sign_out_everywhere(slug: str) -> Response:
    """Every phone's sign-in ends and every invite link made so far stops working (a lost
    phone, a link shared too widely); this phone stays in with a new sign-in. API access
    tokens and the passphrase stay as they are."""
    group = access.group_for_page(slug)
    if ConfirmForm().validate_on_submit():
        auth.sign_out_everywhere(group)
        access.sign_in(group)
        flash(
            _(
                "Every other phone is signed out of %(name)s and old invite links stop working.",
                name=group.name,
            ),
            "success",
        )
    return redirect(url_for(".show", slug=slug))


@bp.get("/export.xlsx")
def export(slug: str) -> Response:
    group = access.group_for_page(slug)
    book = exports.group_book(group)
    return download_written(
        lambda stream: group_export_workbook(book, stream=stream),
        XLSX_MIMETYPE,
        group_filename(group.slug, "xlsx"),
    )


@bp.get("/backup.json")
def backup(slug: str) -> Response:
    group = access.group_for_page(slug)
    return download(
        dumps(backup_group(group.slug)),
        "application/json",
        group_filename(group.slug, "json"),
    )
