"""The pages' forms (Flask-WTF: every one carries a CSRF token)."""

from __future__ import annotations

from typing import Any

from flask import current_app, g, session
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from wtforms import (
    BooleanField,
    FieldList,
    Form,
    FormField,
    HiddenField,
    PasswordField,
    RadioField,
    SelectChoice,
    StringField,
)
from wtforms.validators import DataRequired, EqualTo, Length, Optional, Regexp

from ledger.models import GROUP_NAME_LENGTH, NAME_LENGTH, REQUEST_ID_LENGTH

PASSPHRASE_MIN = 8
PASSPHRASE_MAX = 200


def renew_form_secret() -> None:
    """A new secret for this browser's form tokens at sign-in and sign-out: a token copied
    before (from a shared phone, a page left open) no longer passes. Flask-WTF makes the new
    one, and the cookie carries it, with the next form."""
    name = current_app.config.get("WTF_CSRF_FIELD_NAME", "csrf_token")
    session.pop(name, None)
    g.pop(name, None)


def _passphrase(label: str) -> PasswordField:
    return PasswordField(
        label,
        validators=[
            DataRequired(_l("Give a passphrase.")),
            Length(
                min=PASSPHRASE_MIN,
                max=PASSPHRASE_MAX,
                message=_l("A passphrase has at least %(min)d characters.", min=PASSPHRASE_MIN),
            ),
        ],
        render_kw={"autocomplete": "new-password"},
    )


class CreateGroupForm(FlaskForm):
    name = StringField(
        _l("Name of the group"),
        validators=[
            DataRequired(_l("Give the group a name.")),
            Length(max=GROUP_NAME_LENGTH),
        ],
        render_kw={"autocomplete": "off", "maxlength": GROUP_NAME_LENGTH},
    )
    passphrase = _passphrase(_l("Passphrase everyone at the table will share"))


class OpenGroupForm(FlaskForm):
    group = StringField(
        _l("Group"),
        validators=[DataRequired(_l("Give the group's name or its web address."))],
        render_kw={"autocomplete": "username", "autocapitalize": "none"},
    )
    passphrase = PasswordField(
        _l("Passphrase"),
        validators=[DataRequired(_l("Give the group's passphrase."))],
        render_kw={"autocomplete": "current-password"},
    )


class PlayerForm(FlaskForm):
    name = StringField(
        _l("Name"),
        validators=[DataRequired(_l("Give the player a name.")), Length(max=NAME_LENGTH)],
        render_kw={"autocomplete": "off", "maxlength": NAME_LENGTH},
    )


class AccountForm(FlaskForm):
    """A player's bank account (RULES.md §6b): checked by the service, kept as typed if not."""

    _off = {"autocomplete": "off", "spellcheck": "false"}
    iban = StringField(_l("IBAN"), render_kw=_off | {"maxlength": 50})
    account_name = StringField(_l("Name on the account"), render_kw=_off | {"maxlength": 70})


class RestoreForm(FlaskForm):
    backup = FileField(
        _l("Backup file"),
        validators=[FileRequired(_l("Choose the backup file the group page gave you."))],
        render_kw={"accept": ".json,application/json"},
    )


class PassphraseForm(FlaskForm):
    """The current passphrase too: a phone that joined by an invite link never typed it, and
    must not be able to lock the rest of the table out. The view checks it (and counts it)."""

    current_passphrase = PasswordField(
        _l("Current passphrase"),
        validators=[DataRequired(_l("Give the current passphrase."))],
        render_kw={"autocomplete": "current-password"},
    )
    new_passphrase = _passphrase(_l("New passphrase"))
    new_passphrase_again = PasswordField(
        _l("New passphrase again"),
        validators=[
            DataRequired(_l("Type the new passphrase again.")),
            EqualTo("new_passphrase", _l("The two new passphrases are not the same.")),
        ],
        render_kw={"autocomplete": "new-password"},
    )


class ResultForm(Form):
    """One player's row in a hand. The field names become results-<i>-cards and so on."""

    player = HiddenField()
    cards = StringField(
        _l("Cards left"),
        # Letters and digits: the phone's full keyboard (static/keys.js sets its Enter key).
        render_kw={
            "autocomplete": "off",
            "autocapitalize": "characters",
            "spellcheck": "false",
            "inputmode": "text",
        },
    )
    spots = StringField(
        _l("Spot total"),
        validators=[Optional(), Regexp(r"^\s*\d{1,4}\s*$", message=_l("Give a whole number."))],
        render_kw={"inputmode": "numeric", "pattern": "[0-9]*", "autocomplete": "off"},
    )
    sitting_out = BooleanField(_l("Sitting out"))
    # A game's own boxes (Spin Rummy's melds, Rummy 500's melded points…) are in its own
    # template, named results-<i>-<name>: HandForm.posted keeps them as typed.


class HandForm(FlaskForm):
    """A hand's form: a row of cards per player, who went out, and what the game's own
    template adds (kept as typed in ``posted``, with ``more_rows`` and ``more`` the values its
    boxes show: ledger/web/nights/entry.py fills them)."""

    results = FieldList(FormField(ResultForm))
    out = RadioField(_l("Who went out?"), validate_choice=False, default="")
    rummy = BooleanField(_l("Went rummy (out in one turn, nothing laid down before)"))
    request_id = HiddenField(validators=[Length(max=REQUEST_ID_LENGTH)])
    # The session's version the form was loaded at, and (entering) the hand it was loaded for:
    # a save after another phone changed the session is refused and says what changed.
    version = HiddenField()
    number = HiddenField()

    posted: Any = None
    more_rows: list[dict[str, Any]]
    more: dict[str, Any]

    def process(
        self, formdata: Any = None, obj: Any = None, data: Any = None, **kwargs: Any
    ) -> None:
        super().process(formdata, obj, data=data, **kwargs)
        self.posted = self.meta.wrap_formdata(self, formdata)
        self.more_rows, self.more = [], {}


class ConfirmForm(FlaskForm):
    """A button that changes something (undo, leave): the form is only its CSRF token."""


class FinishForm(FlaskForm):
    leftover_pot = RadioField(
        _l("The pot that is left"),
        choices=[
            SelectChoice("carry", _l("Carry it to the next Spot session")),
            SelectChoice("refund", _l("Give the antes back to those who paid them")),
        ],
        validate_choice=True,
    )
    # The session's version the page showed: finishing after another phone changed the
    # session would end the night with payments nobody has seen.
    version = HiddenField()
    # Who takes a carried pot home (RULES.md §2): the one the page proposed or picked.
    pot_keeper = HiddenField()


class NewSessionForm(FlaskForm):
    """The game and the first dealer; players and options are read from the posted form too.

    The seats and each game's options change with the group and the game, so the view reads
    those from the request and lets the engine judge them.
    """

    game = RadioField(_l("Game"), validators=[DataRequired(_l("Pick a game."))])
    dealer = RadioField(_l("First dealer"), validate_choice=False)


def add_error(form: FlaskForm, field: str | None, message: str) -> None:
    """Show ``message`` beside the form's field named ``field``, or above the form."""
    name = (field or "").split(".")[-1]
    target = form._fields.get(name) if name else None
    if target is None:
        form.form_errors.append(message)
    else:
        target.errors = [*target.errors, message]
