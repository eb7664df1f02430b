"""Small helpers the page modules share."""

from __future__ import annotations

from flask_wtf import FlaskForm


def add_error(form: FlaskForm, field: str | None, message: str) -> None:
    """Show ``message`` beside the form's field named ``field``, or above the form."""
    name = (field or "").split(".")[-1]
    target = form._fields.get(name) if name else None
    if target is None:
        form.form_errors.append(message)
    else:
        target.errors = [*target.errors, message]
