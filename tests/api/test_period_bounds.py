"""Every ``from``/``to`` of a period within the years the app counts, on the API and the group
page: past them a sentence (422, or the form's error), never a 500 (issue 32: ``?to=9999-12-31``
was an OverflowError in the period's arithmetic)."""

from __future__ import annotations

import random
from datetime import date, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ledger.services import stats
from tests.api.helpers import SEED_HAND_1, error
from tests.web.pages import HAND_1, Phone, html

IN_YEARS = "must be a date in the years 1900 to 9999."


@pytest.fixture
def played(table):
    sid = table.session()["id"]
    table.hand(sid, SEED_HAND_1)
    return table


def sessions(table, query: str) -> int:
    players = table.ok("GET", f"/groups/{table.slug}/stats{query}")["players"]
    return max((p["sessions"] for p in players), default=0)


@pytest.mark.parametrize(
    "query",
    [
        "?to=9999-12-31",
        "?from=9999-12-31",
        "?from=9999-12-31&to=9999-12-31",
        "?from=1900-01-01&to=9999-12-31",
        "?to=9999-12-30",
        "?from=1900-01-01",
    ],
)
def test_the_calendars_ends_are_periods_like_any_other(played, query):
    expected = 0 if query.startswith("?from=9999") else 1
    assert sessions(played, query) == expected


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("?from=0001-01-01", "from"),
        ("?to=1899-12-31", "to"),
        ("?from=1899-12-31&to=2026-01-01", "from"),
    ],
)
def test_a_year_before_1900_is_refused_with_a_sentence(played, query, field):
    assert error(played.get(f"/groups/{played.slug}/stats{query}"), 422, field) == (
        f"{field} {IN_YEARS}"
    )


@pytest.mark.parametrize(
    "text", ["10000-01-01", "+9999-12-31", "0000-01-01", "9999-12-32", "-001-01-01"]
)
def test_past_the_calendar_is_a_date_typed_wrong(played, text):
    message = error(played.get(f"/groups/{played.slug}/stats?to={text}"), 422, "to")
    assert message.startswith("to must be a date")


@pytest.fixture
def phone(client) -> Phone:
    phone = Phone(client)
    phone.create_group()
    phone.start()
    phone.enter(HAND_1)
    return phone


def test_the_group_page_at_the_calendars_end_shows_the_period(client, phone):
    response = client.get(f"/g/{phone.slug}?to=9999-12-31")
    assert response.status_code == 200
    assert 'value="9999-12-31"' in html(response)
    assert "Nobody played in this period." not in html(response)
    response = client.get(f"/g/{phone.slug}?from=9999-12-31&to=9999-12-31")
    assert response.status_code == 200
    assert "Nobody played in this period." in html(response)


def test_the_group_page_says_beside_the_dates_what_is_wrong(client, phone):
    response = client.get(f"/g/{phone.slug}?from=1000-01-01")
    assert response.status_code == 200
    page = html(response)
    assert f"from {IN_YEARS}" in page
    assert "Showing all time." in page


def test_the_group_page_says_it_in_dutch(client, phone):
    client.post("/language", data={"lang": "nl"})
    page = html(client.get(f"/g/{phone.slug}?to=0999-01-01"))
    assert "to moet een datum zijn in de jaren 1900 tot en met 9999." in page


@settings(max_examples=200, deadline=None, database=None)
@given(
    st.one_of(
        st.dates().map(date.isoformat),
        st.integers(0, 99_999).map(lambda y: f"{y:04d}-12-31"),
        st.text(max_size=12),
    ),
    st.one_of(st.none(), st.dates().map(date.isoformat), st.text(max_size=12)),
)
def test_any_from_and_to_make_a_period_or_a_sentence_never_another_error(first, last):
    try:
        period = stats.period_of(first, last)
    except stats.RuleError as e:
        assert e.field in ("from", "to") and e.message
        return
    assert period.start is None or period.start.year >= stats.FIRST_YEAR
    assert period.holds(datetime(2026, 11, 23)) in (True, False)


def test_a_random_period_on_the_api_answers_200_or_422(played):
    rng = random.Random(32)
    for _ in range(30):
        year = rng.choice([1, 999, 1899, 1900, 2026, 9998, 9999])
        day = date(year, rng.randint(1, 12), rng.randint(1, 28)).isoformat()
        status = played.get(f"/groups/{played.slug}/stats?to={day}").status_code
        assert status == (422 if year < 1900 else 200)
