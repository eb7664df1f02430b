"""The group workbook read a page of nights at a time is the one read a night at a time.

The group workbook (issue 46.5) reads its nights in pages, each page's rows, rounds, names,
pots and hands with a handful of queries, and builds of each night only what it shows; each
player's sheet and totals are written as the nights go by. Every cell must be the one the
workbook made of each night read whole (its read model, its hands all at once) shows: a group
of several games, a corrected hand, an undone one, a pot carried into the next night, rounds
paid and renamed players, with pages and chunks far smaller than the nights so that each
crosses nights.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import event

from ledger.backup import find_group
from ledger.export import group_export_workbook, group_workbook, session_data
from ledger.extensions import db
from ledger.services import exports
from tests.export.history import Table, play_a_history, play_the_newer_kinds
from tests.export.test_group_stream import cells


def whole_nights_workbook(slug: str) -> bytes:
    """The group workbook of each night read whole: its read model and all its hands, the
    players' sheets and totals worked out from every night at the end."""
    listing = exports.group_export(find_group(slug))
    return group_workbook(
        listing.group.to_json(),
        [session_data(s) for s in listing.sessions],
        tabs=listing.tabs,
        seasons=listing.seasons,
        evenings=listing.evenings,
    )


@pytest.fixture
def history(client) -> Iterator[Table]:
    table = Table.new_group(client)
    ids = play_the_newer_kinds(table, play_a_history(table))
    # Players named as the workbook's sheets are, who played after the Rounds sheet's night.
    night = table.new_session("spot", ["Rounds", "hands", "Enda"], "Enda")
    table.hand(night, {"Rounds": "K", "hands": "5", "Enda": "2 2"})  # nobody out: a pot
    kept = {"leftover_pot": "carry", "pot_keeper": "Rounds"}
    table.ok("POST", f"/sessions/{night}/finish", kept)
    # The pot carried on, kept by a player, into further nights a page or two later: one
    # finished, its pot kept again, the last still open.
    later = table.new_session("spot", ["Enda", "John", "Rounds"], "John")
    table.hand(later, {"Enda": "9", "John": "6", "Rounds": "3"})
    kept = {"leftover_pot": "carry", "pot_keeper": "John"}
    table.ok("POST", f"/sessions/{later}/finish", kept)
    last = table.new_session("spot", ["Enda", "John", "Finn"], "John")
    table.hand(last, {"Enda": "", "John": "8", "Finn": "3"}, out="Enda")
    assert len(ids) >= 7
    brought = [table.get(f"/sessions/{n}")["carried_in_keeper"] for n in (later, last)]
    assert brought == ["Rounds", "John"]
    yield table


@pytest.mark.parametrize("page, chunk", [(2, 1), (3, 4), (200, 500)])
def test_the_nights_read_a_page_at_a_time_make_the_same_workbook(
    app, history, monkeypatch, page, chunk
):
    monkeypatch.setattr(exports, "NIGHT_PAGE", page)
    monkeypatch.setattr(exports, "HAND_CHUNK", chunk)
    streamed = history.ok("GET", f"/groups/{history.slug}/export.xlsx")
    with app.app_context():
        whole = whole_nights_workbook(history.slug)
    made, expected = cells(streamed), cells(whole)
    assert list(made) == list(expected)  # the same sheets, in the same order
    assert {"Rounds", "Rounds (2)", "hands (2)", "Fionn"} <= set(made)
    for title, sheet in expected.items():
        assert made[title] == sheet, title


def test_a_page_of_nights_costs_a_handful_of_queries_however_many_nights(app, history):
    """The queries of the workbook do not grow with its nights: a page's nights are read
    together (before: six or more a night)."""

    def queries() -> int:
        count = [0]

        def counted(*_args) -> None:
            count[0] += 1

        with app.app_context():
            event.listen(db.engine, "before_cursor_execute", counted)
            try:
                group_export_workbook(exports.group_book(find_group(history.slug)))
            finally:
                event.remove(db.engine, "before_cursor_execute", counted)
        return count[0]

    before = queries()
    for _ in range(12):
        night = history.new_session("spot", ["Enda", "John", "Finn"], "John")
        history.hand(night, {"Enda": "9", "John": "", "Finn": "3"}, out="John")
    assert queries() <= before + 1  # the nights' version, perhaps; never one per night
