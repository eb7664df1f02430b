"""The links between a backup's rows, as the database would keep them: references, unique
keys, hand numbers, payments and the tab.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from ledger.backup.replay import _money
from ledger.backup.values import _is_int, _shown
from ledger.models import (
    Group,
)
from ledger.rules import nights
from ledger.rules.errors import RuleError
from ledger.rules.iban import check_account_name, check_iban
from ledger.rules.money import minor_units
from ledger.rules.rounds import MOST, MOST_SHARE, read_what
from ledger.services.backups import TABLES, BackupError, references


def _check_references(group: Mapping[str, Any], rows: Mapping[str, list[dict[str, Any]]]) -> None:
    """Every row belongs to the backup's group and refers only to rows of the backup, so a
    restore can never attach anything to another group's rows."""
    known: dict[str, set[int]] = {Group.__tablename__: {group["id"]}}
    for key, model in TABLES:
        ids = [r["id"] for r in rows[key]]
        if len(set(ids)) != len(ids):
            raise BackupError("The backup is damaged: two rows of {rows} have one id.", rows=key)
        known[model.__tablename__] = set(ids)
    for key, model in TABLES:
        for column, target in references(model):
            for row in rows[key]:
                if row.get(column) is not None and row[column] not in known[target]:
                    raise BackupError(
                        "The backup is damaged: a row of {rows} refers to {target} {id}, "
                        "which it does not hold.",
                        rows=key,
                        target=target,
                        id=str(row[column]),
                    )


def _check_uniques(rows: Mapping[str, list[dict[str, Any]]]) -> None:
    """What the database's unique keys would refuse with an error, refused with a sentence."""
    requests = Counter(s["request_id"] for s in rows["sessions"] if s["request_id"] is not None)
    for request_id, count in requests.items():
        if count > 1:
            raise BackupError(
                "The backup is refused: two sessions have the request_id {request_id}.",
                request_id=_shown(request_id),
            )
    hand_requests = Counter(
        (h["session_id"], h["request_id"]) for h in rows["hands"] if h["request_id"] is not None
    )
    for (session, request_id), count in hand_requests.items():
        if count > 1:
            raise BackupError(
                "The backup is refused: two hands of session {id} have the request_id "
                "{request_id}.",
                id=session,
                request_id=_shown(request_id),
            )
    seated = Counter((sp["session_id"], sp["player_id"]) for sp in rows["session_players"])
    for (session, player), count in seated.items():
        if count > 1:
            raise BackupError(
                "The backup is refused: player {player} is listed twice in session {id}.",
                player=player,
                id=session,
            )
    taken = Counter(s["carried_into_id"] for s in rows["sessions"] if s["carried_into_id"])
    for into, count in taken.items():
        if count > 1:
            raise BackupError(
                "The backup does not add up: session {id} takes up the pots of {count} "
                "sessions; a pot is taken up by one session, and a session takes up one pot.",
                id=into,
                count=count,
            )


def _check_hand_numbers(rows: Mapping[str, list[dict[str, Any]]]) -> None:
    """Each session holds exactly its hands 1 to ``hands_played``: the number the next hand
    gets is ``hands_played + 1``, so a hand row beyond the count (a backup read while a hand
    was saved, by a version before backups were one snapshot) would make the restored
    session refuse every next hand."""
    numbers: dict[int, list[int]] = {s["id"]: [] for s in rows["sessions"]}
    for hand in rows["hands"]:
        numbers[hand["session_id"]].append(hand["number"])
    for session in rows["sessions"]:
        played = session["hands_played"]
        held = sorted(numbers[session["id"]])
        if len(held) != played:
            raise BackupError(
                "The backup is damaged: the count of hands played in session {id} ({played}) "
                "does not match the hands it holds ({held}).",
                id=session["id"],
                played=played,
                held=len(held),
            )
        if held != list(range(1, played + 1)):
            raise BackupError(
                "The backup is damaged: the hands of session {id} are not numbered 1 to {played}.",
                id=session["id"],
                played=played,
            )


def _check_payments(rows: Mapping[str, list[dict[str, Any]]]) -> None:
    """Each payment as recording one checks it: in a session played for money (or with
    rounds), from one of its players to another, of a whole number of units above 0 (or of
    cents, with no units, on a night with rounds: RULES.md §6c)."""
    sessions = {s["id"]: s for s in rows["sessions"]}
    seated: dict[int, set[int]] = defaultdict(set)
    for sp in rows["session_players"]:
        seated[sp["session_id"]].add(sp["player_id"])
    with_rounds = {r["session_id"] for r in rows["rounds"]}
    for p in rows["payments"]:
        players = seated[p["session_id"]]
        money = _money(sessions[p["session_id"]]["options"])[1] is not None
        money = money or p["session_id"] in with_rounds
        if not money or p["payer_id"] not in players or p["payee_id"] not in players:
            raise BackupError(
                "The backup is refused: payment {id} is not between two players of a session "
                "played for money.",
                id=str(p["id"]),
            )
        paid = p["units"] if p["cents"] is None else p["cents"] * (p["units"] == 0)
        if p["payer_id"] == p["payee_id"] or paid < 1:
            raise BackupError(
                "The backup is refused: payment {id} pays nobody anything.", id=str(p["id"])
            )


def _check_rounds(rows: Mapping[str, list[dict[str, Any]]]) -> None:
    """Each round as recording one checks it (RULES.md §6c): paid by and for players of its
    night, each once with a whole share of 1 to 100, an amount of 1 cent to 10,000.00, what it
    was tidy and at most 60 characters, a request id once in its night."""
    seated: dict[int, set[int]] = defaultdict(set)
    for sp in rows["session_players"]:
        seated[sp["session_id"]].add(sp["player_id"])
    options = {s["id"]: s["options"] for s in rows["sessions"]}
    requests = Counter(
        (r["session_id"], r["request_id"]) for r in rows["rounds"] if r["request_id"] is not None
    )
    for r in rows["rounds"]:
        players = seated[r["session_id"]]
        shares = r["shares"]
        sound = isinstance(shares, list) and bool(shares) and r["payer_id"] in players
        people = []
        for item in shares if sound else ():
            ok = isinstance(item, list) and len(item) == 2 and all(_is_int(v) for v in item)
            sound = sound and ok and item[0] in players and 1 <= item[1] <= MOST_SHARE
            people.append(item[0] if ok else None)
        what = r["what"]
        currency = str(options[r["session_id"]].get("currency") or "EUR")
        most = MOST * 10 ** minor_units(currency)
        sound = sound and len(set(people)) == len(people) and 0 < r["cents"] <= most
        sound = sound and _what_as_kept(what)
        if not sound or requests[(r["session_id"], r["request_id"])] > 1:
            raise BackupError(
                "The backup is refused: round {id} is not one the app could have recorded.",
                id=str(r["id"]),
            )


def _what_as_kept(what: Any) -> bool:
    """What a round was, as recording one keeps it (tidy, at most 60 characters, nothing a
    round's ``what`` may not hold: ledger/rules/rounds.py ``read_what``); or not said."""
    try:
        return what is None or (what != "" and read_what(what) == what)
    except RuleError:
        return False


def _check_tab(rows: Mapping[str, list[dict[str, Any]]]) -> None:
    """The tab (RULES.md §6a) and bank accounts (§6b) as the app keeps them: a night on the
    tab is a finished night played for money, a payment against it is between two players
    and of a whole number of cents above 0, and an account's IBAN and name pass the checks
    keeping one makes, as kept (no spaces, upper case), one per player."""
    paid = {p["session_id"] for p in rows["payments"]}
    on_tab = _on_tab_by_history(rows["changes"])
    for s in rows["sessions"]:
        if s["on_tab"] and (s["status"] != "finished" or _money(s["options"])[1] is None):
            raise BackupError(
                "The backup is refused: session {id} is on the tab but is not a finished "
                "night played for money.",
                id=s["id"],
            )
        if s["on_tab"] != (s["id"] in on_tab) or (s["on_tab"] and s["id"] in paid):
            raise BackupError(
                "The backup does not add up: whether session {id} is on the tab is not as its "
                "history and its payments say.",
                id=s["id"],
            )
    for p in rows["tab_payments"]:
        code = p["currency"]
        if p["payer_id"] == p["payee_id"] or p["cents"] < 1 or code != code.strip().upper():
            raise BackupError(
                "The backup is refused: payment {id} on the tab pays nobody anything.",
                id=str(p["id"]),
            )
    owners = Counter(a["player_id"] for a in rows["bank_accounts"])
    for a in rows["bank_accounts"]:
        if owners[a["player_id"]] > 1:
            raise BackupError("The backup is refused: a player has two bank accounts.")
        try:
            sound = check_iban(a["iban"]) == a["iban"]
            sound = sound and check_account_name(a["name"]) == a["name"]
        except RuleError:
            sound = False
        if not sound:
            raise BackupError(
                "The backup is refused: bank account {id} is not a sound IBAN and name.",
                id=str(a["id"]),
            )


def _check_night_numbers(sessions: list[dict[str, Any]]) -> None:
    """Each night's number, as the pages name it ("Spot #2": ledger/rules/nights.py): kept as
    the backup has it, of the series its game and options make, one night a number; a backup
    made before nights had numbers gets them in the order the nights were started."""
    taken: dict[tuple[str, int], Any] = {}
    for s in sessions:
        series = nights.series(s["game"], s["options"])
        if s["series"] is None and s["number"] is None:
            continue
        if s["series"] != series or not s["number"]:
            raise BackupError(
                "The backup is refused: the number of session {id} is not one the app gives.",
                id=s["id"],
            )
        if (series, s["number"]) in taken:
            raise BackupError(
                "The backup is refused: sessions {id} and {other} have the same number.",
                id=s["id"],
                other=taken[(series, s["number"])],
            )
        taken[(series, s["number"])] = s["id"]
    highest: dict[str, int] = {}
    for series, number in taken:
        highest[series] = max(highest.get(series, 0), number)
    for s in sorted(sessions, key=lambda s: (s["started_at"], s["id"])):
        if s["number"] is None:
            series = nights.series(s["game"], s["options"])
            highest[series] = s["number"] = highest.get(series, 0) + 1
            s["series"] = series


def _on_tab_by_history(changes: Sequence[Mapping[str, Any]]) -> set[int]:
    """The sessions the history leaves on the tab (RULES.md §6a): finished onto it or put on
    it later, and not taken off since. A night goes on the tab only that way, and no payment
    is made for a night while it is on it."""
    on: set[int] = set()
    for c in sorted(changes, key=lambda c: (c["session_id"], c["version"])):
        sid = c["session_id"]
        if c["kind"] == "session.finished" and c["after"].get("settle") == "tab":
            on.add(sid)
        elif c["kind"] == "tab.added":
            on.add(sid)
        elif c["kind"] in ("session.finished", "tab.removed", "session.reopened"):
            on.discard(sid)
    return on
