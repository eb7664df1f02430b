"""The group page says when its spreadsheet will be large (issue 46.5): about how many MB and
how long it takes to make, from the group's nights and hands, in English, Dutch and German;
nothing while it is small."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from ledger import downloads
from ledger.services import exports
from ledger.services.views.groups import GroupView, SessionSummary
from tests.export import sheets
from tests.web.pages import Phone, html


def _group(nights: int, hands_each: int) -> GroupView:
    started = datetime(2026, 1, 1, tzinfo=UTC)
    listing = tuple(
        SessionSummary(n, "spot", "finished", started, started, hands_each, n)
        for n in range(1, nights + 1)
    )
    return GroupView("big", "Big", (), listing)


def test_a_small_history_has_no_note_and_a_long_one_says_its_size():
    assert exports.group_workbook_size(_group(200, 20)) is None
    # A group at the size limit: 33,000 nights of one hand (three history lines each).
    size = exports.group_workbook_size(_group(33_000, 1))
    assert size is not None
    assert 10 <= size.megabytes <= 20 and 15 <= size.seconds <= 60  # bench/workbook.py
    # Twice the nights, twice the size and the wait.
    double = exports.group_workbook_size(_group(66_000, 1))
    assert double is not None
    assert double.megabytes in range(2 * size.megabytes - 1, 2 * size.megabytes + 2)
    assert abs(double.seconds - 2 * size.seconds) <= 1


@pytest.fixture
def phone(client) -> Phone:
    phone = Phone(client)
    phone.create_group()
    return phone


def test_the_group_page_says_the_size_and_the_wait_in_every_language(phone, monkeypatch):
    page = html(phone.client.get(f"/g/{phone.slug}"))
    assert 'id="workbook-size"' not in page
    phone.start()
    phone.start()
    # Two nights made to weigh as a long history does: 3 MB and 90 s each.
    monkeypatch.setattr(exports, "BOOK_BYTES_PER_NIGHT", 3_000_000)
    monkeypatch.setattr(exports, "BOOK_SECONDS_PER_NIGHT", 90.0)
    page = html(phone.client.get(f"/g/{phone.slug}"))
    assert "A large file: about 6 MB, about 3 minutes to make." in page
    phone.client.post("/language", data={"lang": "nl"})
    page = html(phone.client.get(f"/g/{phone.slug}"))
    assert "Een groot bestand: ongeveer 6 MB, ongeveer 3 minuten om te maken." in page
    monkeypatch.setattr(exports, "BOOK_SECONDS_PER_NIGHT", 25.0)
    page = html(phone.client.get(f"/g/{phone.slug}"))
    assert "ongeveer 6 MB, ongeveer een minuut om te maken." in page
    phone.client.post("/language", data={"lang": "de"})
    page = html(phone.client.get(f"/g/{phone.slug}"))
    assert "Eine große Datei: etwa 6 MB, etwa eine Minute zum Erstellen." in page
    phone.client.post("/language", data={"lang": "en"})
    monkeypatch.setattr(exports, "BOOK_SECONDS_PER_NIGHT", 1.0)
    page = html(phone.client.get(f"/g/{phone.slug}"))
    assert "A large file: about 6 MB, under a minute to make." in page


def test_a_large_workbook_is_sent_from_a_file_on_disk_whole(phone, monkeypatch):
    phone.start()
    small = phone.client.get(f"/g/{phone.slug}/export.xlsx")
    # Anything over 100 bytes goes to disk: the file sent is the same workbook, whole.
    monkeypatch.setattr(downloads, "SPOOL_BYTES", 100)
    large = phone.client.get(f"/g/{phone.slug}/export.xlsx")
    body = large.get_data()
    large.close()
    assert large.status_code == 200 and large.headers["Content-Length"] == str(len(body))
    assert large.headers["Content-Disposition"] == small.headers["Content-Disposition"]
    assert sheets.load(body).sheetnames == sheets.load(small.data).sheetnames
    assert sheets.rows(sheets.load(body)["Sessions"]) == sheets.rows(
        sheets.load(small.data)["Sessions"]
    )
