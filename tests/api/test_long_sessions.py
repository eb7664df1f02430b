"""A long night read page by page: GET …/hands?after=&limit= (API.md "Additions")."""

from __future__ import annotations

import pytest

from tests.api.helpers import SEED_HAND_1, SEED_HAND_2, error
from tests.api.test_hands import count_queries


@pytest.fixture
def night(table) -> int:
    sid = table.session()["id"]
    for i in range(9):
        table.hand(sid, SEED_HAND_2 if i % 3 == 2 else SEED_HAND_1)
    return sid


def numbers(answer: list[dict]) -> list[int]:
    return [h["number"] for h in answer]


def test_pages_of_hands_are_the_whole_list_cut_in_order(table, night):
    everything = table.ok("GET", f"/sessions/{night}/hands")
    assert numbers(everything) == list(range(1, 10))
    first = table.ok("GET", f"/sessions/{night}/hands?limit=4")
    second = table.ok("GET", f"/sessions/{night}/hands?after=4&limit=4")
    last = table.ok("GET", f"/sessions/{night}/hands?after=8&limit=4")
    assert numbers(first) == [1, 2, 3, 4]
    assert numbers(second) == [5, 6, 7, 8]
    assert last == everything[8:]  # the same hands, whole, as the list without paging
    assert first + second + last == everything
    assert table.ok("GET", f"/sessions/{night}/hands?after=9") == []
    assert numbers(table.ok("GET", f"/sessions/{night}/hands?after=6")) == [7, 8, 9]
    assert numbers(table.ok("GET", f"/sessions/{night}/hands?limit=500")) == list(range(1, 10))


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("limit=0", "limit"),
        ("limit=501", "limit"),
        ("limit=-3", "limit"),
        ("limit=ten", "limit"),
        ("limit=", "limit"),
        ("limit=99999999999999999999", "limit"),
        ("after=-1", "after"),
        ("after=1.5", "after"),
        ("after=%EF%BC%91", "after"),  # a full-width digit one is not ASCII
        ("after=2147483648", "after"),
    ],
)
def test_a_bad_after_or_limit_answers_422_naming_it(table, night, query, field):
    message = error(table.get(f"/sessions/{night}/hands?{query}"), 422, field)
    assert field in message


def test_a_stranger_pages_nothing(other, night):
    error(other.get(f"/sessions/{night}/hands?after=1&limit=2"), 404)


def test_a_page_costs_the_same_queries_late_in_the_night_as_early(table, night, app):
    early = count_queries(app, lambda: table.ok("GET", f"/sessions/{night}/hands?limit=3"))
    for _ in range(6):
        table.hand(night, SEED_HAND_1)
    late = count_queries(app, lambda: table.ok("GET", f"/sessions/{night}/hands?after=12&limit=3"))
    assert late == early
