"""Options that may be off, and whole-number options read by a game's own ``parse``.

A game's ``target`` or its number of ``hands`` (RULES.md §11, §12) is a whole number or off
(None: JSON's null, an empty form field, "off" or "none"); ``hands`` may also be a word for a
length that depends on the seats (Jokeren's ``twice``: each player deals twice).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ledger.rules.errors import RuleError
from ledger.rules.game import whole_number

# What switches an option off, as typed (compared without case or spaces).
OFF_WORDS: tuple[str, ...] = ("", "off", "none", "null")


def is_off(value: Any) -> bool:
    """Whether ``value`` says the option is off."""
    return value is None or (isinstance(value, str) and value.strip().lower() in OFF_WORDS)


def checked_whole(option: str, value: Any, minimum: int, maximum: int) -> int:
    """``value`` as a whole number from ``minimum`` to ``maximum``, or a RuleError naming the
    option (the same sentences as the options the engine checks itself, base.check_options)."""
    where = f"options.{option}"
    number = whole_number(value)
    if number is None:
        raise RuleError("The option {option} must be a whole number.", field=where, option=option)
    if number < minimum:
        raise RuleError(
            "The option {option} must be at least {minimum}.",
            field=where,
            option=option,
            minimum=minimum,
        )
    if number > maximum:
        raise RuleError(
            "The option {option} must be at most {maximum}.",
            field=where,
            option=option,
            maximum=maximum,
        )
    return number


def optional_whole(
    option: str, minimum: int, maximum: int, *, words: tuple[str, ...] = ()
) -> Callable[[Any], int | str | None]:
    """A ``parse`` for an option that is a whole number, off (None) or one of ``words``."""

    def parse(value: Any) -> int | str | None:
        if is_off(value):
            return None
        if isinstance(value, str) and value.strip().lower() in words:
            return value.strip().lower()
        return checked_whole(option, value, minimum, maximum)

    return parse
