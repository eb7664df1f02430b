"""The group workbook streams a long night: its hands a chunk at a time, all of one snapshot.

The workbook must be the one the whole session read at once makes, cell for cell, while
never holding more than a chunk of a session's hands; and a hand corrected by another phone
while the export is between two chunks must not give a workbook mixing two versions.
"""

from __future__ import annotations

import io
import threading
from typing import Any

import openpyxl
import pytest

from ledger.backup import find_group
from ledger.export import group_export_workbook, group_workbook, session_data, tables
from ledger.services import exports
from tests.export.history import Table, entry, play_a_history

HANDS = 300
CHUNK = 25  # twelve chunks: the chunk size made small, as a long night's would be to 20,000


def cells(data: bytes) -> dict[str, Any]:
    """Everything a person sees of each sheet: values, formats, bold, panes, filter, widths."""
    wb = openpyxl.load_workbook(io.BytesIO(data))
    return {
        ws.title: (
            [[(c.value, c.number_format, c.font.b) for c in row] for row in ws.iter_rows()],
            ws.freeze_panes,
            ws.auto_filter.ref,
            {k: v.width for k, v in ws.column_dimensions.items()},
        )
        for ws in wb.worksheets
    }


def whole_sessions_workbook(slug: str) -> bytes:
    """The group workbook as it was made before it streamed: each session read whole (its
    hands all at once, as the session's own workbook reads them), then laid out."""
    listing = exports.group_export(find_group(slug))
    sessions = [session_data(s) for s in listing.sessions]
    return group_workbook(
        listing.group.to_json(), sessions, tabs=listing.tabs, seasons=listing.seasons
    )


@pytest.fixture
def long_night(client, monkeypatch) -> tuple[Table, int]:
    """The export tests' history, then a long night of Spot money with a player joining and
    another leaving halfway, and a hand corrected."""
    monkeypatch.setattr(exports, "HAND_CHUNK", CHUNK)
    table = Table.new_group(client)
    play_a_history(table)
    night = table.new_session("spot", ["Enda", "John", "Rex"], "Enda")
    seated = ["Enda", "John", "Rex"]
    for i in range(HANDS):
        out = seated[i % len(seated)]
        table.hand(night, {p: "" if p == out else ["J 10", "A 3", "K"][i % 3] for p in seated}, out)
        if i == 100:
            table.ok("POST", f"/sessions/{night}/players", {"name": "Zed", "after": "John"}, 201)
            seated = ["Enda", "John", "Zed", "Rex"]
        if i == 200:
            table.ok("DELETE", f"/sessions/{night}/players/Rex")
            seated = ["Enda", "John", "Zed"]
    corrected = entry({"Enda": "2", "John": "", "Rex": "Q Q"}, out="John")
    table.ok("PUT", f"/sessions/{night}/hands/7", corrected)
    return table, night


def test_a_long_night_streams_into_the_group_workbook_as_the_whole_session_would(
    app, long_night, monkeypatch
):
    table, night = long_night
    fetched: list[int] = []  # the hands read by each chunk
    written = [0]  # the hands written to the Hands sheet so far
    most_held = [0]
    read_chunk, write_row = exports.hands_of_sessions, tables.GroupHands.row

    def counted_chunk(session_ids, after, limit):
        assert limit == CHUNK, "the nights' hands are read a chunk at a time"
        chunk = read_chunk(session_ids, after, limit)
        fetched.append(len(chunk))
        # What is read and not written yet: never more than the chunk just read.
        most_held[0] = max(most_held[0], sum(fetched) - written[0])
        return chunk

    def counted_row(*args):
        written[0] += 1
        return write_row(*args)

    monkeypatch.setattr(exports, "hands_of_sessions", counted_chunk)
    monkeypatch.setattr(tables.GroupHands, "row", counted_row)
    streamed = table.ok("GET", f"/groups/{table.slug}/export.xlsx")
    monkeypatch.undo()

    with app.app_context():
        whole = whole_sessions_workbook(table.slug)
    assert cells(streamed) == cells(whole)
    hands_rows = cells(streamed)["Hands"][0][1:]
    assert len([r for r in hands_rows if r[1][0] == night]) == HANDS  # by the Id column
    assert sum(fetched) == written[0] == len(hands_rows)
    assert max(fetched) == CHUNK and most_held[0] <= CHUNK


def test_a_hand_corrected_while_the_export_is_between_chunks_is_not_half_in_it(
    app, long_night, monkeypatch
):
    table, night = long_night
    with app.app_context():
        before = whole_sessions_workbook(table.slug)
    corrections: list[dict] = []
    read_chunk = exports.hands_of_sessions

    def a_phone_corrects_hands(session_ids, after, limit):
        # Once the long night's first chunk is written and the next is about to be read, a
        # phone at the table corrects hand 2 (already in the workbook) and the last hand (not
        # yet), and enters a new one: on a connection of its own, committed at once.
        if not corrections and after[0] == night and after[1] > 0:
            phone = threading.Thread(target=a_phone_at_the_table)
            phone.start()
            phone.join()
        return read_chunk(session_ids, after, limit)

    def a_phone_at_the_table():
        # A thread of its own: its requests get an app context, and so a database session
        # and connection, of their own (a request made here would share the export's).
        changed = entry({"Enda": "K K", "John": "", "Zed": "5"}, out="John")
        corrections.append(table.ok("PUT", f"/sessions/{night}/hands/{HANDS}", changed))
        changed = entry({"Enda": "", "John": "7 7", "Rex": "Q"}, out="Enda")
        corrections.append(table.ok("PUT", f"/sessions/{night}/hands/2", changed))
        corrections.append(table.hand(night, {"Enda": "", "John": "4", "Zed": "9"}, "Enda"))

    with app.app_context():
        monkeypatch.setattr(exports, "hands_of_sessions", a_phone_corrects_hands)
        streamed = group_export_workbook(exports.group_book(find_group(table.slug)))
        monkeypatch.undo()
        after = whole_sessions_workbook(table.slug)

    assert len(corrections) == 3
    assert cells(after) != cells(before)  # the corrections show in a later workbook
    assert cells(streamed) == cells(before)  # the one made meanwhile is all of one version
