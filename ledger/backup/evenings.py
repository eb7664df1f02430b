"""A backup's club evenings (RULES.md §19), checked as making, drawing and closing one checks
them, and a closed evening's list derived again from its facts (issue 46.4).

An evening's name, game, options, rounds and money go through ``evening_fields`` and are
kept exactly as it keeps them; it is open or closed as the app leaves one. Its check-ins are
players of the backup, each once. Its tables are each round's draw: rounds 1, 2… up to its
rounds, each with tables 1, 2… of the sizes the game seats that many players at
(``game_tables``), and each table a night of the backup of the evening's game and options,
started with the players drawn to it (every player checked in drawn once a round, no one else),
the first of them dealing; no night is two tables, and no player sits at two tables of one
round. A table's night is the evening's own, found by its table's row: the restore keeps no
request id on it (a file from before holds the one the draw once gave it), and a client's
night may hold any request id, one shaped like those too (ledger/services/backups.py).

A closed evening keeps the list it closed with. Its facts are each player's points per round
and games won and lost (as the tables' nights stood at the close); the ranks, totals, best
rounds, fees, prize pot and prizes are worked out again from them and the evening's money
(ledger/rules/evening.py ``evening_list``), and a file whose list says otherwise is refused
naming the part. Once the rows are in, a list whose nights have not changed since the close
is held to what the nights give now (ledger/services/backups.py ``_check_evening_lists``).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from ledger.backup.replay import _as_json, _same
from ledger.backup.seasons import _tick
from ledger.backup.values import _shown
from ledger.rules import nights
from ledger.rules.draw import game_tables
from ledger.rules.errors import Phrase, RuleError
from ledger.rules.evening import EveningList, TableResult, evening_list, list_to_dict
from ledger.rules.evening_options import evening_fields, money_of
from ledger.rules.registry import GAMES
from ledger.services.backups import BackupError

Rows = Mapping[str, list[dict[str, Any]]]


def _check_evenings(rows: Rows, players: Mapping[int, str]) -> None:
    """Every evening of the backup, its check-ins and its tables (see the module)."""
    requests = Counter(e["request_id"] for e in rows["evenings"] if e["request_id"] is not None)
    for request_id, count in requests.items():
        if count > 1:
            raise BackupError(
                "The backup is refused: two club evenings have the request_id {request_id}.",
                request_id=_shown(request_id),
            )
    checked_in: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for c in rows["evening_players"]:
        checked_in[c["evening_id"]].append(c)
    tables: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for t in rows["evening_tables"]:
        tables[t["evening_id"]].append(t)
    _check_nights_once(rows)
    sessions = {s["id"]: s for s in rows["sessions"]}
    seated: dict[int, set[str]] = defaultdict(set)
    for sp in rows["session_players"]:
        seated[sp["session_id"]].add(players[sp["player_id"]])
    for e in rows["evenings"]:
        game = _check_fields(e)
        names = _check_ins(e, checked_in[e["id"]], players)
        drawn = _check_tables(e, game, names, tables[e["id"]], sessions, seated)
        _check_state(e)
        if e["closed"] is not None:
            e["closed"] = _derived_list(e, names, drawn)


def _refused(evening: Mapping[str, Any], reason: Phrase) -> BackupError:
    return BackupError(
        "Club evening {id} of the backup is refused: {reason}", id=evening["id"], reason=reason
    )


def _check_fields(e: Mapping[str, Any]) -> str:
    """The evening's fields as ``evening_fields`` keeps them; answers its game's key."""
    money = e["money"] if isinstance(e["money"], dict) else {}
    body = {**money, "name": e["name"], "game": e["game"], "options": e["options"]}
    body["rounds"] = e["rounds"]
    if not isinstance(e["options"], dict):
        raise _refused(e, _OPTIONS)
    try:
        fields = evening_fields(body, GAMES)
    except RuleError as err:
        raise _refused(e, err.phrase.continued()) from None
    kept = (fields.name, fields.game, fields.rounds)
    if kept != (e["name"], e["game"], e["rounds"]) or not (
        _same(_as_json(dict(fields.options)), e["options"]) and _same(fields.money(), e["money"])
    ):
        raise _refused(e, _OPTIONS)
    return fields.game


_OPTIONS = Phrase("its options are not kept as making an evening keeps them.")


def _check_ins(e: Mapping[str, Any], rows: Sequence[Mapping[str, Any]], players: Any) -> list[str]:
    """The players checked in, in the order they came (as the evening lists them), each once."""
    ordered = sorted(rows, key=lambda c: (c["checked_in_at"], c["id"]))
    names = [players[c["player_id"]] for c in ordered]
    twice = next((n for n, count in Counter(names).items() if count > 1), None)
    if twice is not None:
        raise _refused(e, Phrase("{player} is checked in twice.", player=twice))
    return names


def _check_state(e: Mapping[str, Any]) -> None:
    """Open, or closed with its close's time and list; on the tab only once closed."""
    closed = e["status"] == "closed"
    if e["status"] not in ("open", "closed") or closed != (e["closed"] is not None):
        raise _refused(e, Phrase("it is neither open nor closed as the app leaves an evening."))
    if closed != (e["closed_at"] is not None) or (e["on_tab"] and not closed):
        raise _refused(
            e, Phrase("it was closed without its close's time, or put on the tab while open.")
        )


def _check_nights_once(rows: Rows) -> None:
    """No night is two tables."""
    tables = Counter(t["session_id"] for t in rows["evening_tables"])
    for session, count in tables.items():
        if count > 1:
            raise BackupError(
                "The backup is refused: session {id} is a table of a club evening twice.",
                id=session,
            )


def _check_tables(
    e: Mapping[str, Any],
    game: str,
    names: Sequence[str],
    tables: Sequence[Mapping[str, Any]],
    sessions: Mapping[int, Mapping[str, Any]],
    seated: Mapping[int, set[str]],
) -> int:
    """Each round drawn as the draw seats it; answers how many rounds are drawn."""
    by_round: dict[int, list[Mapping[str, Any]]] = defaultdict(list)
    for t in tables:
        by_round[t["round"]].append(t)
    if sorted(by_round) != list(range(1, len(by_round) + 1)) or len(by_round) > e["rounds"]:
        raise _refused(e, Phrase("its rounds are not numbered 1 to its rounds drawn."))
    sizes: tuple[int, ...] = ()
    if by_round:
        try:
            sizes = game_tables(GAMES[game], len(names))
        except RuleError:
            unseated = Phrase("its players cannot be seated at its game's tables.")
            raise _refused(e, unseated) from None
    for number, drawn in sorted(by_round.items()):
        drawn = sorted(drawn, key=lambda t: t["number"])
        if [t["number"] for t in drawn] != list(range(1, len(drawn) + 1)):
            raise _refused(
                e, Phrase("the tables of round {round} are not numbered from 1 up.", round=number)
            )
        seats = [_table_seats(e, game, t, sessions.get(t["session_id"])) for t in drawn]
        _check_round(e, number, names, seats, [seated[t["session_id"]] for t in drawn])
        if tuple(len(s) for s in seats) != sizes:
            raise _refused(
                e, Phrase("round {round} has tables of sizes its game cannot have.", round=number)
            )
    return len(by_round)


def _table_seats(
    e: Mapping[str, Any], game: str, t: Mapping[str, Any], night: Mapping[str, Any] | None
) -> list[str]:
    """The players a table's night was started with, checked against the draw's start."""
    where = Phrase("table {table} of round {round}", table=t["number"], round=t["round"])
    if night is None:
        raise _refused(e, Phrase("{table} is no night of the backup.", table=where))
    if night["game"] != game:
        raise _refused(e, Phrase("{table} is a night of another game.", table=where))
    if not _same_options(e["options"], night["options"]):
        raise _refused(e, Phrase("{table} is played with other options.", table=where))
    start = night["start_state"]
    seats = start.get("seats") if isinstance(start, dict) else None
    if not isinstance(seats, list) or not seats or start.get("dealer") != seats[0]:
        raise _refused(e, Phrase("{table} was not started as a draw starts it.", table=where))
    return [str(p) for p in seats]


def _same_options(evening: Mapping[str, Any], night: Any) -> bool:
    """A table's night is started with its evening's options (an Any game's name spelled as
    the group's first night of that name had it: services/sessions.py)."""
    if not isinstance(night, dict):
        return False
    name = nights.NAME_OPTION
    ours, theirs = evening.get(name), night.get(name)
    same_name = ours == theirs or (
        isinstance(ours, str) and isinstance(theirs, str) and ours.casefold() == theirs.casefold()
    )
    rest = {k: v for k, v in night.items() if k != name}
    return same_name and _same({k: v for k, v in evening.items() if k != name}, rest)


def _check_round(
    e: Mapping[str, Any],
    number: int,
    names: Sequence[str],
    seats: Sequence[Sequence[str]],
    played: Sequence[set[str]],
) -> None:
    """A round seats every player checked in once, and no one else; nobody has a seat at
    two of its tables (joining one by hand since included)."""
    drawn = Counter(p for table in seats for p in table)
    stranger = next((p for p in drawn if p not in names), None)
    if stranger is not None:
        raise _refused(
            e,
            Phrase(
                "round {round} seats {player}, who is not checked in.",
                round=number,
                player=stranger,
            ),
        )
    sat = Counter(p for table in played for p in table)  # everyone who played at each
    at_two = next((p for p in [*drawn, *sat] if drawn[p] > 1 or sat[p] > 1), None)
    missing = next((p for p in names if p not in drawn), None)
    if at_two is not None:
        raise _refused(
            e,
            Phrase("round {round} seats {player} at two tables.", round=number, player=at_two),
        )
    if missing is not None:
        raise _refused(
            e,
            Phrase(
                "round {round} seats {player} at no table, who is checked in.",
                round=number,
                player=missing,
            ),
        )


def _derived_list(e: Mapping[str, Any], names: Sequence[str], drawn: int) -> dict[str, Any]:
    """The closed evening's list worked out again from each player's points per round and
    games won and lost, or a refusal naming what the file's list says otherwise."""
    kept = e["closed"]
    if not isinstance(kept, dict):
        raise _refused(e, Phrase("its list is damaged."))
    found = _from_facts(e, kept, names, drawn)
    made = list_to_dict(found)
    if set(made) != set(kept) - {"paid"}:  # the ticks of its settle-up: facts of their own
        raise _refused(e, Phrase("its list is damaged."))
    for part in ("lines", "fees", "pot", "prizes", "by_games"):
        if not _same(made[part], kept[part]):
            raise _refused(e, _UNLIKE[part])
    ticks = kept.get("paid", [])
    balances = found.balances()
    if e["on_tab"] and not balances:
        raise _refused(e, Phrase("it is on the tab with nothing to settle."))
    if not isinstance(ticks, list) or not all(_tick(t, balances) for t in ticks):
        raise _refused(e, Phrase("its ticks are not payments of the evening's settle-up."))
    if ticks and e["on_tab"]:
        raise _refused(e, Phrase("its ticks are not payments of the evening's settle-up."))
    return {**made, "paid": ticks} if "paid" in kept else made


# What a closed evening's list holds that its facts and money do not make, in words.
_UNLIKE = {
    "lines": Phrase("its list's ranks, totals or best rounds are not what its points make."),
    "fees": Phrase("its fees are not what its entry fee and lost games make."),
    "pot": Phrase("its prize pot is not what its fees make."),
    "prizes": Phrase("its prizes are not what its prize pot and money options make."),
    "by_games": Phrase("its list is damaged."),
}


def _from_facts(
    e: Mapping[str, Any], kept: Mapping[str, Any], names: Sequence[str], drawn: int
) -> EveningList:
    """The list ``evening_list`` makes of the kept lines' facts: each player's points in the
    rounds they played, and their games won and lost where the list counts games."""
    lines = kept.get("lines")
    if not isinstance(lines, list) or not all(isinstance(x, dict) for x in lines):
        raise _refused(e, Phrase("its list is damaged."))
    listed = [x.get("player") for x in lines]
    if sorted(map(str, listed)) != sorted(names) or len(set(listed)) != len(listed):
        raise _refused(e, Phrase("its list does not name each player checked in once."))
    by_games = kept.get("by_games") is True
    results = []
    for x in lines:
        rounds, won, lost = x.get("rounds"), x.get("won_games"), x.get("lost_games")
        if not (isinstance(rounds, list) and len(rounds) == e["rounds"]):
            raise _refused(e, Phrase("its list is damaged."))
        if any(v is not None for v in rounds[drawn:]):
            raise _refused(e, Phrase("its list counts a round it never drew."))
        if not all(isinstance(v, int) for v in (won, lost, *(v for v in rounds if v is not None))):
            raise _refused(e, Phrase("its list is damaged."))
        first = True
        for i, points in enumerate(rounds):
            if points is None:
                continue
            games = {"won": {x["player"]: won if first else 0}, "lost": {}} if by_games else {}
            if by_games:
                games["lost"] = {x["player"]: lost if first else 0}
            results.append(TableResult(i + 1, {x["player"]: points}, **games))
            first = False
    return evening_list(names, results, e["rounds"], money_of(e["money"]))
