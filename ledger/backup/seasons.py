"""A backup's seasons (RULES.md §13), checked as making one checks it: the fields and options
through ``season_fields`` (kept exactly as it keeps them), open or closed as the app leaves
them, and a closed season's table whole, its balances adding up to zero, its nights among the
backup's sessions."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from ledger.backup.values import _shown
from ledger.rules.errors import Phrase, RuleError
from ledger.rules.league import table_from_dict
from ledger.rules.registry import GAMES
from ledger.rules.season_options import OPTION_NAMES, season_fields
from ledger.services.backups import BackupError


def _check_seasons(rows: Mapping[str, list[dict[str, Any]]]) -> None:
    requests = Counter(s["request_id"] for s in rows["seasons"] if s["request_id"] is not None)
    for request_id, count in requests.items():
        if count > 1:
            raise BackupError(
                "The backup is refused: two seasons have the request_id {request_id}.",
                request_id=_shown(request_id),
            )
    sessions = {s["id"] for s in rows["sessions"]}
    for season in rows["seasons"]:
        _check_season(season, sessions)


def _check_season(season: Mapping[str, Any], sessions: set[int]) -> None:
    options = season["options"] if isinstance(season["options"], dict) else {}
    body = {
        "name": season["name"],
        "game": season["game"],
        "game_name": season["game_name"],
        "from": season["first_day"].isoformat(),
        "to": season["last_day"].isoformat(),
        **{k: options[k] for k in OPTION_NAMES if k in options},
    }
    try:
        fields = season_fields(body, GAMES)
    except RuleError as e:
        raise _refused(season, e.phrase.continued()) from None
    if fields.name != season["name"] or fields.options() != season["options"]:
        raise _refused(season, Phrase("its options are not as the app keeps them."))
    closed = season["status"] == "closed"
    if season["status"] not in ("open", "closed") or closed != (season["closed"] is not None):
        raise _refused(season, Phrase("it is neither open nor closed as the app leaves a season."))
    if closed != (season["closed_at"] is not None) or (season["on_tab"] and not closed):
        raise _refused(season, Phrase("its close is incomplete."))
    if closed:
        _check_table(season, sessions)


def _check_table(season: Mapping[str, Any], sessions: set[int]) -> None:
    try:
        table = table_from_dict(season["closed"])
        balances = table.balances()
    except (KeyError, TypeError, ValueError, AttributeError):
        raise _refused(season, Phrase("its table is damaged.")) from None
    if sum(balances.values()) != 0 or any(p.units < 0 for p in table.prizes):
        raise _refused(season, Phrase("its prizes do not add up."))
    if any(n.session not in sessions for n in table.nights):
        raise _refused(season, Phrase("its table counts a night the backup does not hold."))
    ticks = season["closed"].get("paid", [])
    if not isinstance(ticks, list) or not all(_tick(t, balances) for t in ticks):
        raise _refused(season, Phrase("its ticks are not payments of its settle-up."))
    if ticks and season["on_tab"]:
        raise _refused(season, Phrase("its ticks are not payments of its settle-up."))


def _tick(tick: Any, balances: Mapping[str, int]) -> bool:
    """A tick as the season's page keeps one: from a player who pays, to one who is paid."""
    return (
        isinstance(tick, dict)
        and set(tick) == {"from", "to", "amount", "at"}
        and balances.get(tick["from"], 0) < 0 < balances.get(tick["to"], 0)
        and all(isinstance(tick[k], str) for k in ("amount", "at"))
    )


def _refused(season: Mapping[str, Any], reason: Phrase) -> BackupError:
    return BackupError(
        "Season {id} of the backup is refused: {reason}", id=season["id"], reason=reason
    )
