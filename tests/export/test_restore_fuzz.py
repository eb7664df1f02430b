"""A real backup changed at random, as a fuzzer would: the restore refuses it with a sentence
and stores nothing, or takes it and the group answers its API as the original did.

The group has every kind (issue 46.4): seasons open and closed (one onto the tab), rounds of
drinks recorded, changed and taken back, a Kaluki night with buy-ins made, taken back and
waiting, Boerenbridge's bids, Klaverjassen's teams, a player renamed after all of it, and
club evenings (issue 50: one closed and settled, one mid-round, one closed onto the tab,
tests/export/history.py). Half the changes land in those kinds' rows and lines.

One change a file: a number, a text, a key dropped, or a value of another type, anywhere in
the file. Bounded in time: 50 files, a few seconds (LEDGER_FUZZ_EXAMPLES=2000 for a longer
run; 1,500 passed when it was written, about one in twenty of them restored).
"""

from __future__ import annotations

import itertools
import json
import os
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from ledger.backup import TABLES, BackupError, backup_group, restore_group
from ledger.backup.check import ADDED_LATER
from ledger.extensions import db
from ledger.services.backups import SESSION_IDS_IN_CHANGES
from tests.export.history import (
    PASSPHRASE,
    Table,
    play_a_history,
    play_club_evenings,
    play_the_newer_kinds,
)
from tests.export.test_restore_refusals import REFERENCES, every_row

# Its examples are drawn inside the test: marked so that `-m hypothesis` (CI's exploring run)
# picks it up with the tests Hypothesis marks itself.
pytestmark = pytest.mark.hypothesis

Path = tuple[Any, ...]
# What a restore may take from the file as it is: the times and what was typed (an entry as
# typed, a request id). Everything else the API answers is made by the rules.
# A payment's id and time (``at``) sit inside the settlement: left out wherever they are.
AS_GIVEN = {
    "id",
    "group",
    "session",
    "carried_from",  # a session's id (issue 14: the session whose pot this one opened with)
    "started_at",
    "finished_at",
    "created_at",
    "updated_at",
    "at",
}
AS_TYPED = {"entry", "request_id"}
# The one refusal that means a check tripped over its input instead of naming what is wrong.
TRIPPED = "it cannot be read"


def paths(value: Any, path: Path = ()) -> list[Path]:
    """Every place in the file: each key's value and each item of each list."""
    found = [path] if path else []
    if isinstance(value, dict):
        for key, item in value.items():
            found += paths(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            found += paths(item, (*path, i))
    return found


def at(data: Any, path: Path) -> Any:
    for step in path:
        data = data[step]
    return data


OTHER_TYPES = [None, 0, 1.5, "x", "", [], {}, True, -1]


class Mutation:
    """One change to the backup at ``path``: its new value, or the key dropped. Its repr is
    short, so a failure's report names the change rather than printing the whole file."""

    def __init__(self, path: Path, new: Any = None, drop: bool = False) -> None:
        self.path, self.new, self.drop = path, new, drop

    def applied(self, backup: dict[str, Any]) -> dict[str, Any]:
        data = json.loads(json.dumps(backup))
        parent, key = at(data, self.path[:-1]), self.path[-1]
        if self.drop:
            del parent[key]
        else:
            parent[key] = self.new
        return data

    def __repr__(self) -> str:
        shown = "dropped" if self.drop else f"→ {self.new!r}"[:80]
        return f"Mutation({self.path} {shown})"


# The rows of the newer kinds, all of them: seasons, rounds and club evenings (RULES.md §19).
NEWER_TABLES = ("seasons", "rounds", "evenings", "evening_players", "evening_tables")


def newer(backup: dict[str, Any], sessions: set[int]) -> list[Path]:
    """The places in the file that belong to the newer kinds: the seasons, the rounds, the
    club evenings, and the rows and lines of the nights of the newer games and of the
    evenings' tables (and every round's, buy-in's and payment's line)."""
    kinds = ("round.", "player.bought_in", "player.buy_in_taken_back", "payment.")
    found = []
    for path in paths(backup):
        if len(path) < 2 or path[0] == "group":
            continue
        row = backup[path[0]][path[1]] if isinstance(backup[path[0]], list) else None
        if not isinstance(row, dict):
            continue
        if path[0] in NEWER_TABLES or row.get("session_id") in sessions:
            found.append(path)
        elif path[0] == "sessions" and row["id"] in sessions:
            found.append(path)
        elif path[0] == "changes" and str(row["kind"]).startswith(kinds):
            found.append(path)
    return found


@st.composite
def mutations(draw, backup: dict[str, Any], focus: list[Path]) -> Mutation:
    path = draw(st.sampled_from(focus) if draw(st.booleans()) else st.sampled_from(paths(backup)))
    value = at(backup, path)
    kind = draw(st.sampled_from(["number", "text", "drop", "type"]))
    if kind == "number" and isinstance(value, int) and not isinstance(value, bool):
        choices = [value + 1, value - 1, value + 1000, -value, 0, 2**31, 2**63, 10**30]
        return Mutation(path, draw(st.sampled_from(choices)))
    if kind == "text" and isinstance(value, str):
        if value and draw(st.booleans()):
            i = draw(st.integers(0, len(value) - 1))
            return Mutation(path, value[:i] + draw(st.characters()) + value[i + 1 :])
        return Mutation(path, draw(st.text(max_size=12)))
    if kind == "drop":
        return Mutation(path, drop=True)
    return Mutation(path, draw(st.sampled_from([*OTHER_TYPES, [value], {"v": value}])))


def with_added_later(data: dict[str, Any]) -> dict[str, Any]:
    """The file as the restore reads it: a table or a column added later, when left out, as
    it was before it existed (an empty table, the column's value then)."""
    data = json.loads(json.dumps(data))
    for key, value in ADDED_LATER.items():
        table, _, column = key.partition(".")
        if not column:
            data.setdefault(table, value)
        else:
            for row in data[table]:
                row.setdefault(column, value)
    return data


def canonical(data: dict[str, Any]) -> dict[str, Any]:
    """A backup with its ids replaced by their rank in their table (and the links with the
    rank of the row they link to): two backups of one group restored twice compare equal.
    What a file made before a table or column existed leaves out is read as ADDED_LATER says."""
    data = with_added_later(data)
    rank = {}
    out = {}
    for key, model in TABLES:
        rows = sorted(data[key], key=lambda r: r["id"])
        rank[model.__tablename__] = {r["id"]: n for n, r in enumerate(rows)}
    targets = {
        "group_id": None,
        "session_id": "sessions",
        "player_id": "players",
        "carried_into_id": "sessions",
        "payer_id": "players",
        "payee_id": "players",
        "pot_keeper_id": "players",
        "carried_in_keeper_id": "players",
        "by_id": "players",
        "phone_id": "players",
        "evening_id": "evenings",
    }
    assert set(targets) == set(REFERENCES)
    # A table's night is known by its evening's id, which the restore gives it anew.
    tables = {t.get("session_id") for t in data["evening_tables"]}
    for key, _ in TABLES:
        rows = []
        for row in sorted(data[key], key=lambda r: r["id"]):
            if key == "sessions" and row["id"] in tables:
                row = {**row, "request_id": "a table's"}
            row = {k: v for k, v in row.items() if k not in ("id", "group_id")}
            for column, target in targets.items():
                if target and row.get(column) is not None:
                    row[column] = rank[target][row[column]]
            for part in ("before", "after"):
                record = row.get(part)
                if isinstance(record, dict):
                    row[part] = {
                        k: rank["sessions"][v] if k in SESSION_IDS_IN_CHANGES and v else v
                        for k, v in record.items()
                    }
            if key == "rounds":  # each share names its player by the player's id
                row["shares"] = [[rank["players"][p], n] for p, n in row["shares"]]
            closed = row.get("closed") if key == "seasons" else None
            if isinstance(closed, dict):  # a closed season's nights, by their sessions
                nights = [
                    {**n, "session": rank["sessions"][n["session"]]} for n in closed["nights"]
                ]
                row["closed"] = {**closed, "nights": nights}
            rows.append(row)
        out[key] = rows
    out["group"] = {k: v for k, v in data["group"].items() if k not in ("id", "slug")}
    return out


def answers(table: Table, evenings: bool = True) -> list[tuple[int, Any]]:
    """What the API answers of each session (in order), its hands and its settlement, the
    seasons and (with ``evenings``) the club evenings, with what a restore takes as given
    left out; no answer may be a 5xx (the evenings' are asked for either way)."""
    out: list[tuple[int, Any]] = []
    group = table.get(f"/groups/{table.slug}")
    for s in group["sessions"]:
        for what in ("", "/hands", "/settlement", "/history"):
            response = table.call("GET", f"/sessions/{s['id']}{what}")
            assert response.status_code < 500, (what, response.get_data(as_text=True))
            if what != "/history":
                body = derived(response.get_json())
                if what == "" and isinstance(body, dict):
                    # A night's number is restored as the backup gives it (any the app
                    # could have given: numbers deleted nights left free are not reused).
                    body.pop("number", None)
                out.append((response.status_code, body))
    seasons = table.call("GET", f"/groups/{table.slug}/seasons")  # their tables, as derived
    assert seasons.status_code < 500, seasons.get_data(as_text=True)
    # Their order among equal last days is the file's ids' (any a file may give).
    listed = sorted(derived(seasons.get_json())["seasons"], key=lambda s: s["name"])
    out.append((seasons.status_code, listed))
    found = table.call("GET", f"/groups/{table.slug}/evenings")  # their lists, as derived
    assert found.status_code < 500, found.get_data(as_text=True)
    each = []
    for e in found.get_json()["evenings"]:
        one = table.call("GET", f"/groups/{table.slug}/evenings/{e['id']}")
        assert one.status_code < 500, one.get_data(as_text=True)
        # The players' order is their check-ins' times, as given.
        each.append((one.status_code, {**derived(one.get_json()), "players": sorted(e["players"])}))
    if evenings:
        out += sorted(each, key=repr)  # in the order of the file's ids: any a file may give
    return out


def pages_answer(client, table: Table) -> None:
    """The group's pages, signed in as a phone at the table: none may be a 5xx."""
    opened = client.post("/open", data={"open-group": table.slug, "open-passphrase": PASSPHRASE})
    assert opened.status_code == 302
    group = table.get(f"/groups/{table.slug}")
    paths = [f"/g/{table.slug}", f"/g/{table.slug}/seasons", f"/g/{table.slug}/tab"]
    seasons = table.get(f"/groups/{table.slug}/seasons")["seasons"]
    paths += [f"/g/{table.slug}/seasons/{s['id']}" for s in seasons]
    evenings = table.get(f"/groups/{table.slug}/evenings")["evenings"]
    paths += [f"/g/{table.slug}/evenings"]
    paths += [f"/g/{table.slug}/evenings/{e['id']}" for e in evenings]
    for s in group["sessions"]:
        board = f"/g/{table.slug}/s/{s['id']}"
        paths += [board, f"{board}/hands/new"]
        hands = table.get(f"/sessions/{s['id']}/hands")
        paths += [f"{board}/hands/{h['number']}" for h in hands]
    for path in paths:
        response = client.get(path)
        assert response.status_code < 500, path


def derived(answer: Any) -> Any:
    if isinstance(answer, list):
        return [derived(item) for item in answer]
    if isinstance(answer, dict):
        return {k: derived(v) for k, v in answer.items() if k not in AS_GIVEN | AS_TYPED}
    return answer


def test_a_backup_changed_at_random_is_refused_with_a_sentence_or_restored_faithfully(app, client):
    made = Table.new_group(client)
    ids = play_the_newer_kinds(made, play_a_history(made))
    play_club_evenings(made)
    with app.app_context():
        backup = backup_group(made.slug)
        db.session.rollback()
    backup = json.loads(json.dumps(backup))
    tables = {t["session_id"] for t in backup["evening_tables"]}
    kinds = {ids[k] for k in ("spots", "kaluki", "boerenbridge", "klaverjassen")}
    focus = newer(backup, kinds | tables)
    assert {p[0] for p in focus} >= {"seasons", "rounds", "changes", "sessions", "hands"}
    assert {p[0] for p in focus} >= {"evenings", "evening_players", "evening_tables"}
    original = answers(made)
    # An evening's own fields (its name, options, money, rounds) are the file's to give, as a
    # night's entries are: one changed to another the app allows answers otherwise.
    beside = answers(made, evenings=False)
    pages_answer(client, made)
    slugs = (f"fuzzed-{n}" for n in itertools.count())
    seen = {"refused": 0, "restored": 0}

    @settings(
        max_examples=int(os.environ.get("LEDGER_FUZZ_EXAMPLES", "50")),
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(mutations(backup, focus))
    # What long runs found (issue 37), tried on every run: a refunded Spot night put on the
    # tab, a stake given to the open Spots night, the tab flag of a file from before the tab.
    @example(Mutation(("sessions", 2, "on_tab"), True))
    @example(Mutation(("sessions", 3, "options", "stake"), 1))
    @example(Mutation(("sessions", 0, "on_tab"), drop=True))
    # Issue 46.4's run: Boerenbridge's bids kept with no body tripped the replay.
    @example(Mutation(("sessions", 6, "seating", 0, "body"), None))
    @example(Mutation(("sessions", 1, "game"), "\n"))  # said on one line
    @example(Mutation(("seasons", 1, "id"), 1002))  # another order among equal last days
    def restore_one(change: Mutation) -> None:
        data, what = change.applied(backup), repr(change)
        slug = next(slugs)
        before = every_row(app)
        try:
            with app.app_context():
                copy = restore_group(data, slug=slug)
                restored = backup_group(copy.slug)
                db.session.rollback()
        except BackupError as e:
            seen["refused"] += 1
            assert TRIPPED not in e.message, what
            assert e.message.endswith(".") and "\n" not in e.message, (what, e.message)
            assert every_row(app) == before, what
            return
        seen["restored"] += 1
        table = Table(client, copy.slug)
        # A restored file answers as the original: an option the hands never tested (two
        # packs where one sufficed) is refused too, as the history says what was chosen.
        typed = change.path[0] == "evenings" and change.path[2:3] != ("closed",)
        assert answers(table, evenings=not typed) == (beside if typed else original), what
        pages_answer(client, table)
        assert canonical(json.loads(json.dumps(restored))) == canonical(data), what

    restore_one()
    assert seen["refused"], seen  # most changes break something the checks see
