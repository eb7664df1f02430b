"""The backup file: a group's rows in an envelope (format, version, the time it was made), as
JSON text, and a file read and restored.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from ledger.backup.check import FORMAT, VERSION, check_backup
from ledger.rules.errors import RuleError
from ledger.services import room
from ledger.services.auth import client_of
from ledger.services.backups import (
    BackupError,
    group_rows,
    insert_group,
)
from ledger.services.errors import Conflict
from ledger.services.throttle import claim_new_group
from ledger.services.views.groups import GroupRef

log = logging.getLogger(__name__)


def backup_group(slug: str) -> dict[str, Any]:
    """The group's every row as a JSON-ready dict (see the package's docstring), all of one
    moment: a hand saved while the backup is read is in it entirely or not at all."""
    rows = group_rows(slug)
    return {
        "format": FORMAT,
        "version": VERSION,
        "made_at": datetime.now(UTC).isoformat(timespec="seconds"),
        **rows,
    }


def dumps(data: Mapping[str, Any]) -> str:
    """The backup as JSON text, names in UTF-8 as they were typed."""
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


def loads(raw: str | bytes) -> dict[str, Any]:
    """A backup file's text as a dict, or a BackupError that says what is wrong with it.

    The text is UTF-8 and holds no half of a surrogate pair, written as bytes or as a JSON
    escape (``\\ud800``): no database keeps one, and a page quoting it in its refusal could
    not be written (it answered 500). Python's JSON reader lets both through."""
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")  # strict: the bytes of a surrogate are not UTF-8
        except UnicodeDecodeError as e:
            raise BackupError("This file is not a Pub Ledger backup: it is not UTF-8 text.") from e
    try:
        data = json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise BackupError("This file is not a Pub Ledger backup: it is not JSON.") from e
    except RecursionError as e:
        raise BackupError("The backup is damaged: it is nested too deep.") from e
    except ValueError as e:  # an integer of more digits than Python reads (4,300)
        raise BackupError("The backup is damaged: it holds a number too long to read.") from e
    if not isinstance(data, dict):
        raise BackupError("This file is not a Pub Ledger backup.")
    try:
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError as e:
        raise BackupError(
            "The backup is damaged: it holds text that is not valid UTF-8 (half of a pair of "
            "surrogates)."
        ) from e
    return data


def restore_sent(raw: bytes, address: str | None) -> GroupRef:
    """A backup file sent to the restore page by anyone, from ``address``: counted like a new
    group first (LEDGER_GROUP_LIMIT an hour per address, TooManyNewGroups), refused too when
    larger than a group may grow here (LEDGER_GROUP_HANDS). A file refused after it was read
    keeps its place in the count: it cost the server the same work."""
    claim_new_group(client_of(address))
    return restore_group(loads(raw), most_hands=room.most_hands())


def restore_group(
    data: Mapping[str, Any], *, slug: str | None = None, most_hands: int = 0
) -> GroupRef:
    """Put a backed-up group back, in one transaction: all of it or, on any error, nothing.

    ``slug`` gives the restored group another slug (when the backup's own is taken, say);
    ``most_hands`` (when above 0) refuses a group larger than that, counted in hands as
    ledger/services/room.py counts them (`ledger restore` on the command line takes any).
    Raises Conflict (409) when the slug is taken, BackupError (422) for a file that is not a
    backup Pub Ledger could have made (ledger/backup/check.py says what is checked).
    """
    try:
        checked = check_backup(data, slug)
    except (BackupError, Conflict):
        raise
    except RuleError as e:
        raise BackupError("The backup is refused: {reason}", reason=e.phrase) from None
    except Exception as e:  # a check that tripped over what it was given: still a refusal
        log.exception("a backup file could not be checked")
        raise BackupError("The backup is damaged: it cannot be read.") from e
    return insert_group(checked.group, checked.rows, most_hands=most_hands)
