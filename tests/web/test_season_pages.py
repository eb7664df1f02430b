"""Seasons on the pages (RULES.md §13): a new season from the form, its table like the one on
the wall, the group page's line for the season under way, a player's place, the close."""

from __future__ import annotations

import io
import re
from html import unescape

import pytest
from openpyxl import load_workbook
from pypdf import PdfReader

from tests.api.helpers import Table, basic
from tests.api.test_seasons import ORDERS, WORKED, spot_night
from tests.web.pages import PASSPHRASE, Phone, html


@pytest.fixture
def phone(client) -> Phone:
    phone = Phone(client)
    phone.create_group()
    return phone


def api_night(phone: Phone, order) -> None:
    """A finished Spot night in ``order`` through the API (tests/api/test_seasons.py)."""
    table = Table.__new__(Table)
    table.client, table.slug = phone.client, phone.slug
    table.headers = basic(phone.slug, PASSPHRASE)
    spot_night(table, order)


def text(page: str) -> str:
    """What a player reads: the page without its tags, spaces tidied."""
    return " ".join(re.sub(r"<[^>]+>", " ", page).split())


def new_season(phone: Phone, **change: str) -> tuple[int, str]:
    form = {k: str(v) for k, v in WORKED.items() if k != "prizes"}
    form.update({"prizes": "60, 30, 10", "request_id": "r1", **change})
    response = phone.client.post(f"/g/{phone.slug}/seasons", data=form)
    return response.status_code, response.headers.get("Location", "") or html(response)


def test_the_worked_example_on_the_pages(phone):
    for order in ORDERS:
        api_night(phone, order)
    status, where = new_season(phone)
    assert status == 303
    page = text(html(phone.client.get(where)))
    assert "Winter" in page
    assert "1 Ann 11 3 of 5 4 3.0" in page
    assert "4 Dee 7 3 of 5 3 1.8" in page
    assert "€20.00" in page and "Ann €11.40" in page and "Dee · booby prize €1.00 €1.00" in page
    group = text(html(phone.client.get(f"/g/{phone.slug}")))
    assert "Winter: Ann leads by 1" in group
    player = text(html(phone.client.get(f"/g/{phone.slug}/p/Bob")))
    assert "Winter" in player and "2 of 4 · 10 points" in player
    ann = phone.client.get(f"/g/{phone.slug}/p/Ann")
    page = text(html(ann))
    assert "Nemesis: Cas, who placed above Ann most often." in page
    assert "Favourite opponent: Dee, whom Ann placed above most often." in page
    assert "Bob 4 2 1 1" in page and "Dee 5 4 1 0" in page
    assert "Ann&#39;s rating at Spot, night by night" in html(ann)
    board = text(html(phone.client.get(f"/g/{phone.slug}/seasons")))
    assert "Ratings Skill" in board and "# Player Rating Nights 1 Ann" in board
    closed = phone.client.post(where, data={"settle": "now"})
    assert closed.status_code == 303
    page = text(html(phone.client.get(where)))
    assert "Who pays whom" in page and "closed" in page
    assert "Close the season" not in page
    assert "Winter" not in text(html(phone.client.get(f"/g/{phone.slug}")))


def test_a_refused_season_names_the_mistake_and_keeps_what_was_typed(phone):
    status, page = new_season(phone, prizes="60, 30")
    assert status == 422
    assert "Prizes must add up to 100 %: these add up to 90 %." in text(page)
    assert 'value="60, 30"' in page and 'value="Winter"' in page
    assert "The group&#39;s seasons" not in page


def test_a_retried_form_makes_one_season(phone):
    assert new_season(phone)[0] == 303
    assert new_season(phone)[0] == 303
    page = html(phone.client.get(f"/g/{phone.slug}/seasons"))
    assert page.count(f"/g/{phone.slug}/seasons/") == 1


def test_the_pages_speak_dutch(phone):
    api_night(phone, ["Ann", "Bob"])
    _, where = new_season(phone)
    phone.client.set_cookie("lang", "nl")
    page = text(html(phone.client.get(where)))
    assert "De stand" in page and "Seizoen afsluiten" in page
    group = text(html(phone.client.get(f"/g/{phone.slug}")))
    assert "Winter: Ann staat 1 voor" in group


def test_a_close_the_page_does_not_offer_gets_the_page_back_with_its_message(phone):
    """Issue 46.3: a `settle` the close does not know answered 500; now the season's page
    comes back saying what to choose, the season still open, and a second close of a closed
    season says it is closed, on its page."""
    api_night(phone, ["Ann", "Bob"])
    _, where = new_season(phone)
    for settle in ("later", "", "TAB", "now\n"):
        refused = phone.client.post(where, data={"settle": settle})
        assert refused.status_code == 422, settle
        page = unescape(text(html(refused)))
        assert 'Settle a season "now" or put it on the "tab".' in page
        assert "Close the season" in page and "Who pays whom" not in page
    phone.client.set_cookie("lang", "nl")
    dutch = unescape(text(html(phone.client.post(where, data={"settle": "x"}))))
    assert 'Reken een seizoen "now" af of zet het op de lat ("tab").' in dutch
    assert phone.client.post(where, data={"settle": "now"}).status_code == 303
    again = phone.client.post(where, data={"settle": "tab"})
    assert again.status_code == 409
    assert "Het seizoen is afgesloten: de stand verandert niet meer." in text(html(again))
    assert "Wie betaalt wie" in text(html(again))


def test_another_groups_season_is_not_found(phone, client):
    _, where = new_season(phone)
    other = Phone(client)
    other.create_group("Other table", "another passphrase")
    season_id = where.rsplit("/", 1)[1]
    assert client.get(f"/g/{other.slug}/seasons/{season_id}").status_code == 404
    assert client.post(f"/g/{other.slug}/seasons/{season_id}").status_code == 404


def test_paper_from_the_pages_in_the_pages_language(phone):
    api_night(phone, ["Ann", "Bob"])
    _, where = new_season(phone)
    season_id = where.rsplit("/", 1)[1]
    phone.client.set_cookie("lang", "nl")
    table = phone.client.get(f"/g/{phone.slug}/seasons/{season_id}/table.pdf")
    assert table.status_code == 200 and table.mimetype == "application/pdf"
    text = " ".join(PdfReader(io.BytesIO(table.get_data())).pages[0].extract_text().split())
    assert "De stand" in text and "Ann" in text
    night = phone.client.get(f"/g/{phone.slug}/s/1/sheet.pdf")
    assert night.status_code == 200 and b"%PDF" in night.get_data()[:8]
    assert phone.client.get(f"/g/{phone.slug}/s/1/table.pdf").status_code == 404
    assert phone.client.get(f"/g/{phone.slug}/seasons/{season_id}/sheet.pdf").status_code == 404


def test_the_group_workbook_has_a_seasons_sheet(phone):
    for order in ORDERS:
        api_night(phone, order)
    _, where = new_season(phone)
    phone.client.post(where, data={"settle": "tab"})
    book = load_workbook(io.BytesIO(phone.client.get(f"/g/{phone.slug}/export.xlsx").data))
    rows = list(book["Seasons"].iter_rows(values_only=True))
    assert rows[0][:8] == ("Season", "Game", "From", "To", "Status", "Rank", "Player", "Points")
    assert [(r[0], r[4], r[5], r[6], r[7], r[12]) for r in rows[1:]] == [
        ("Winter", "closed", 1, "Ann", 11, 11.4),
        ("Winter", "closed", 2, "Bob", 10, 5.7),
        ("Winter", "closed", 3, "Cas", 9, 1.9),
        ("Winter", "closed", 4, "Dee", 7, 1.0),
    ]
    tab = list(book["Tab"].iter_rows(values_only=True))
    # A season on the tab: no night's name nor id (Session, Id), its name as the game.
    assert tab[1][1:6] == ("night", tab[1][2], None, None, "Winter")
