"""What a value in a backup may be, and the sentences that refuse one (every check's words)."""

from __future__ import annotations

import json
import unicodedata
from typing import Any

from ledger.models import (
    NAME_LENGTH,
)
from ledger.rules.errors import RuleError
from ledger.services.auth import check_group_name
from ledger.services.backups import BackupError
from ledger.services.groups import check_player_name


def _shown(value: Any) -> str:
    """A value for a sentence: as JSON writes it, cut short when long."""
    try:
        text = json.dumps(value, ensure_ascii=False)
        text.encode("utf-8")  # half a surrogate pair is shown escaped, as \ud800
    except (TypeError, ValueError):
        text = json.dumps(value) if isinstance(value, str) else repr(value)
    return text if len(text) <= 40 else text[:37] + "…"


def _cut(where: str) -> str:
    """A place in the file for a sentence: a key may be long (up to LONGEST_TEXT)."""
    return where if len(where) <= 80 else where[:77] + "…"


def _bad(where: str, value: Any) -> BackupError:
    return BackupError(
        "The backup is damaged: {where} cannot be {value}.", where=_cut(where), value=_shown(value)
    )


def _missing(where: str, column: str) -> BackupError:
    return BackupError(
        "The backup is damaged: a row of {where} has no {column}.", where=where, column=column
    )


def _unknown(where: str) -> BackupError:
    return BackupError(
        "The backup is damaged: Pub Ledger keeps nothing called {where}.", where=_cut(where)
    )


def _unlike_replay(what: str, session: int, hand: int | None = None) -> BackupError:
    if hand is None:
        return BackupError(
            "Session {id} of the backup cannot be read back: its {what} is not what the rules "
            "make of it.",
            id=session,
            what=what,
        )
    return BackupError(
        "The backup does not add up: in session {id}, the {what} of hand {number} is not what "
        "the rules make of the cards entered.",
        id=session,
        what=what,
        number=hand,
    )


def _refused(session: int, e: RuleError) -> BackupError:
    return BackupError(
        "Session {id} of the backup is refused: {reason}", id=session, reason=e.phrase
    )


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _clean_name(value: Any, longest: int = NAME_LENGTH) -> bool:
    """A name as the API keeps one: text, spaces tidied, 1 to ``longest`` characters, no
    control character nor unpaired surrogate (API.md "Bounds"); and as the API's own check
    (a player's or the group's) leaves it, so a rule added there holds here too."""
    if not (
        isinstance(value, str)
        and 0 < len(value) <= longest
        and " ".join(value.split()) == value
        and not any(unicodedata.category(c) in ("Cc", "Cs") for c in value)
    ):
        return False
    check = check_player_name if longest == NAME_LENGTH else check_group_name
    try:
        return bool(check(value) == value)
    except RuleError:
        return False


def _not_a_name(where: str, value: Any) -> BackupError:
    return BackupError(
        "The backup is refused: {value} in {where} is not a name Pub Ledger allows.",
        where=where,
        value=_shown(value),
    )
