"""A session's history page: a long night is paged, and its times are on the phone's clock."""

from __future__ import annotations

import re
from html import unescape

import pytest

from ledger.web.group import history
from tests.web.pages import HAND_1, Phone, html, table_of_four


@pytest.fixture
def night(client) -> Phone:
    """Started, then four hands: five lines of history."""
    phone = table_of_four(client)
    phone.start()
    for _ in range(4):
        assert phone.enter(HAND_1).status_code == 302
    return phone


def lines(page: str) -> list[str]:
    items = re.findall(r"<li><time[^>]*>[^<]*</time><span>([^<]*)</span></li>", page)
    return [unescape(i) for i in items]


def test_a_long_history_is_paged_oldest_first_with_earlier_and_later_links(night, monkeypatch):
    """Issue 29: the history of a 2,000-hand night was one page of every change."""
    monkeypatch.setattr(history, "HISTORY_PAGE", 2)
    address = f"{night.board}/history"

    first = html(night.client.get(address))
    assert [line.split(":")[0] for line in lines(first)] == [
        "Spot started with Enda, John, Rex and Finn; Finn deals first. By a phone.",
        "A phone entered hand 1",
    ]
    assert "Page 1 of 3" in first
    assert 'rel="prev"' not in first
    later = re.search(r'rel="next" href="([^"]+)"', first).group(1)
    assert unescape(later) == f"{address}?page=2"

    second = html(night.client.get(unescape(later)))
    assert [line.split(":")[0] for line in lines(second)] == [
        "A phone entered hand 2",
        "A phone entered hand 3",
    ]
    assert "Page 2 of 3" in second and 'rel="prev"' in second and 'rel="next"' in second

    last = html(night.client.get(f"{address}?page=3"))
    assert [line.split(":")[0] for line in lines(last)] == ["A phone entered hand 4"]
    assert 'rel="next"' not in last


@pytest.mark.parametrize("asked", ["99", "0", "-4", "many"])
def test_a_page_that_is_not_there_shows_the_nearest(night, monkeypatch, asked):
    monkeypatch.setattr(history, "HISTORY_PAGE", 2)
    response = night.client.get(f"{night.board}/history?page={asked}")
    assert response.status_code == 200
    expected = "Page 3 of 3" if asked == "99" else "Page 1 of 3"
    assert expected in html(response)


def test_a_short_history_is_one_page_without_links(night):
    page = html(night.client.get(f"{night.board}/history"))
    assert len(lines(page)) == 5
    assert "Page 1 of" not in page and 'rel="next"' not in page


def test_each_time_is_given_in_utc_for_the_phone_to_show_on_its_own_clock(night):
    page = html(night.client.get(f"{night.board}/history"))
    stamps = re.findall(r'<time datetime="([^"]+)" data-local>([^<]+)</time>', page)
    assert len(stamps) == 5
    for moment, text in stamps:
        assert moment.endswith("Z") and text.endswith(" UTC")  # without script: UTC, said so
