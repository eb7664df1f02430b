"""The start page: open a group this browser knows, open another with its passphrase, make one."""

from __future__ import annotations

import threading

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from ledger import backup, services
from ledger.security import same_site_path
from ledger.services import auth, pages
from ledger.web import access, unsaved_hand
from ledger.web.forms import CreateGroupForm, OpenGroupForm, RestoreForm, add_error
from ledger.words.language import error_text

bp = Blueprint("home", __name__)


# Both forms are on one page: the prefixes keep their fields' names and ids apart.
def _create_form(**kwargs: object) -> CreateGroupForm:
    return CreateGroupForm(prefix="create", **kwargs)


def _open_form(**kwargs: object) -> OpenGroupForm:
    return OpenGroupForm(prefix="open", **kwargs)


@bp.get("/")
def index() -> str:
    return _start_page(_create_form(), _open_form())


def _restore_form(**kwargs: object) -> RestoreForm:
    return RestoreForm(prefix="restore", **kwargs)


def _start_page(
    create_form: CreateGroupForm,
    open_form: OpenGroupForm,
    status: int = 200,
    restore_form: RestoreForm | None = None,
    refused: services.TooManyAttempts | None = None,
):
    """The start page; ``refused``: a form was refused for now, to send again later (429)."""
    html = render_template(
        "index.html",
        create_form=create_form,
        open_form=open_form,
        restore_form=restore_form or _restore_form(formdata=None),
        my_groups=access.groups_of_this_browser(),
    )
    if refused is not None:
        return html, refused.status, {"Retry-After": str(refused.retry_after)}
    return html if status == 200 else (html, status)


# Held while a restore runs (see restore).
RESTORING = threading.Lock()


@bp.post("/restore")
def restore() -> Response | tuple[str, int] | tuple[str, int, dict[str, str]]:
    """Bring back a whole group from its backup file, e.g. on a new server.

    The browser is not signed in to it: the file holds the passphrase only as a hash, and
    whoever restores opens the group with its passphrase like everyone else. The file may be
    larger than other forms (ledger/web/limits.py raises the limit before the form is read).
    """
    form = _restore_form()
    if form.validate_on_submit():
        # One restore at a time in this process: anyone may send a file, and each holds a
        # thread for seconds; a second one waits for nothing and is asked to come back.
        if not RESTORING.acquire(blocking=False):
            add_error(form, "backup", _("Another backup is being restored; try again in a minute."))
            return _start_page(_create_form(formdata=None), _open_form(formdata=None), 503, form)
        try:
            group = backup.restore_sent(form.backup.data.read(), request.remote_addr)
        except services.TooManyNewGroups as e:
            add_error(form, "backup", error_text(e))
            blank = _create_form(formdata=None), _open_form(formdata=None)
            return _start_page(*blank, restore_form=form, refused=e)
        except services.Conflict:
            add_error(form, "backup", _("This group is here already: open it with its passphrase."))
        except services.ServiceError as e:  # not a backup, or a damaged one
            add_error(form, "backup", error_text(e))
        else:
            flash(
                _(
                    "%(name)s is back with all its sessions. Open it with its passphrase.",
                    name=group.name,
                )
            )
            return redirect(url_for("home.index"))
        finally:
            RESTORING.release()
    return _start_page(_create_form(formdata=None), _open_form(formdata=None), 422, form)


@bp.post("/groups")
def create_group() -> Response | tuple[str, int] | tuple[str, int, dict[str, str]]:
    form = _create_form()
    if form.validate_on_submit():
        try:
            name, passphrase = form.name.data or "", form.passphrase.data or ""
            group = services.create_group(name, passphrase, request.remote_addr)
        except services.RuleError as e:
            add_error(form, e.field, error_text(e))
        except services.TooManyNewGroups as e:
            add_error(form, "name", error_text(e))
            return _start_page(form, _open_form(formdata=None), refused=e)
        except services.Busy as e:
            add_error(form, "passphrase", error_text(e))
        else:
            access.sign_in(group)
            return redirect(url_for("groups.show", slug=group.slug, new=1))
    return _start_page(form, _open_form(formdata=None), 422)


@bp.post("/open")
def open_group() -> Response | tuple[str, int, dict[str, str]]:
    """Open a group by its slug (the end of its address) or its name, with the passphrase.

    While the group is locked (or this address has guessed too often) a right passphrase is
    answered exactly as a wrong one: 429, the same sentence (ledger/services/auth.py).
    """
    form = _open_form()
    status, headers = 401, {}
    if form.validate_on_submit():
        typed = (form.group.data or "").strip()
        if "/g/" in typed:  # a pasted address: the slug follows /g/
            typed = typed.split("/g/", 1)[1].split("/", 1)[0].split("?", 1)[0]
        candidates = [typed] if pages.group_by_slug(typed) else pages.slugs_named(typed)
        # A name no group has is asked for too: counted as a group's name (services/auth).
        candidates = candidates or [typed]
        try:
            group = auth.authenticate_any(
                candidates[: pages.NAMED_CHECKS], form.passphrase.data or "", request.remote_addr
            )
        except services.Unauthorized:
            add_error(form, "passphrase", _("The group's name or passphrase is wrong."))
            if len(candidates) > pages.NAMED_CHECKS:
                add_error(form, "group", _many_named(pages.NAMED_CHECKS))
        except (services.TooManyAttempts, services.Busy) as e:
            add_error(form, "passphrase", error_text(e))
            status, headers = e.status, {"Retry-After": str(e.retry_after)}
        else:
            access.sign_in(group)
            target = same_site_path(request.form.get("next"))
            if target:
                unsaved_hand.keep(request.form, target)  # a hand typed before the 401 page
            return redirect(target or url_for("groups.show", slug=group.slug))
    html = render_template(
        "index.html",
        create_form=_create_form(formdata=None),
        open_form=form,
        restore_form=_restore_form(formdata=None),
        my_groups=access.groups_of_this_browser(),
    )
    return html, status, headers


def _many_named(checked: int) -> str:
    return _(
        "More than %(count)d groups have this name, and only the %(count)d oldest are tried: "
        "type the last part of your group's web address (after /g/) instead, or use an "
        "invite link.",
        count=checked,
    )


@bp.get("/join/<token>")
def join(token: str) -> Response | str | tuple[str, int]:
    """An invite link: this browser opens the group without typing the passphrase (a club
    evening's check-in code: and lands on the evening's check-in)."""
    try:
        joined = access.join_with_invite(token)
    except auth.InviteExpired as e:
        days = auth.invite_lifetime().days
        page = render_template("start/invite_expired.html", days=days, evening=e.evening)
        return page, 410
    if joined is None:
        return render_template("start/invite_void.html"), 404
    group, evening = joined
    if evening is not None:  # a club evening's check-in code: straight to its check-in
        return redirect(url_for("evenings.check_in", slug=group.slug, evening_id=evening))
    # The link is shared at the table: with one game going on, it is the game being played.
    playing = services.only_open_session(group)
    if playing is not None:
        return redirect(url_for("sessions.show", slug=group.slug, session_id=playing))
    return redirect(url_for("groups.show", slug=group.slug))
