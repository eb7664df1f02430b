"""Issue 45, "At the table": what a table trips over, driven through the pages as a phone
posts them (tests/e2e/test_at_the_table.py plays the ones a player's eyes need in Chromium).
"""

from __future__ import annotations

import copy
import re
from html import unescape

import pytest

from ledger.backup import BackupError, backup_group, restore_group
from ledger.extensions import db
from tests.api.helpers import basic
from tests.rules.test_boerenbridge import SEATS, WORKED
from tests.web.pages import PASSPHRASE, Phone, html
from tests.web.test_new_games_pages import board, words
from tests.web.test_night_figures import pdf_text
from tests.web.test_season_pages import api_night, new_season
from tests.web.test_trick_games_pages import klaver, post


@pytest.fixture
def phone(client) -> Phone:
    phone = Phone(client)
    phone.create_group()
    return phone


# --- 9. Small words -----------------------------------------------------------------------


def _three_rounds_played(phone: Phone) -> None:
    phone.start("boerenbridge", SEATS, "Ann", max_cards="4")
    for bids, tricks, _ in WORKED[:3]:
        post(phone, "call/bids", {p: {"bid": n} for p, n in bids.items()})
        post(phone, "new", {p: {"tricks": tricks.get(p, 0)} for p in SEATS})


def test_the_dealers_refused_bid_is_said_once_in_the_engines_words(phone):
    _three_rounds_played(phone)
    refused = {"Ann": {"bid": 1}, "Bob": {"bid": 2}, "Cas": {"bid": 0}, "Dee": {"bid": 1}}
    page = unescape(html(post(phone, "call/bids", refused, status=422)))
    sentence = "Dee deals and may not bid 1: the bids would add up to 4, the round's cards."
    assert page.count(sentence) == 1
    # Nothing left for the script to say it again, in other words or with another apostrophe.
    assert "data-says" not in page.split('id="row-3"')[1].split("</fieldset>")[0]
    assert "round’s" not in page
    # On a fresh bids screen the script's sentence is the refusal's, word for word.
    fresh = unescape(html(phone.client.get(f"{phone.board}/hands/new")))
    says = re.search(r'id="hook-note"[^>]*data-says="([^"]+)"', fresh)
    assert says and says.group(1).replace("{bid}", "1") == sentence


def test_a_team_scores_in_the_plural(phone):
    phone.start("klaverjassen", SEATS, "Dee")
    post(phone, "new", {}, **klaver("1", "70", roem1="20"))
    seen = board(phone)
    assert "Nat: Bob & Dee score 182." in seen and "Dee scores" not in seen


def test_partners_sitting_opposite_is_said_beside_the_seats(phone):
    phone.add_players(*SEATS)
    page = html(phone.client.get(f"/g/{phone.slug}/s/new"))
    seats = page.split("Players, clockwise")[1].split("</fieldset>")[0]
    assert "Partners sit opposite: seats 1 and 3 play together against seats 2 and 4." in seats
    assert 'class="game-seats" data-game="klaverjassen"' in seats


def test_the_klaverjassen_chart_draws_one_line_per_team(phone):
    phone.start("klaverjassen", SEATS, "Dee")
    post(phone, "new", {}, **klaver("1", "100", roem1="20"))
    post(phone, "new", {}, **klaver("2", "70", roem1="20", roem2="50"))
    page = html(phone.client.get(phone.board))
    chart = page.split('<svg class="chart"')[1].split("</svg>")[0]
    assert chart.count("<polyline") == 2
    assert re.findall(r"<title>([^<]+)</title></polyline>", unescape(chart)) == [
        "Ann & Cas",
        "Bob & Dee",
    ]
    legend = words(page.split('class="legend"')[1].split("</ul>")[0])
    assert legend.endswith("Ann & Cas Bob & Dee")
    # Partners' dots beside their scores are their team's colour.
    dots = re.findall(r'id="score-\d".*?legend-dot (series-\d)', page, re.S)
    assert dots == ["series-0", "series-1", "series-0", "series-1"]


# --- 4. Who paid for the round ------------------------------------------------------------


def _drinks_night(phone: Phone) -> None:
    phone.add_players("Enda", "John", "Rex", "Finn")
    phone.start(ante="0", entry="totals")
    assert phone.enter({"Enda": 1, "John": 30, "Rex": 50, "Finn": 40}).status_code == 302


def _drinks_form(phone: Phone) -> tuple[str, dict[str, str]]:
    page = html(phone.client.get(f"{phone.board}/rounds/new"))
    once = re.search(r'name="once" value="([0-9a-f]+)"', page)
    assert once, page
    return page, {"once": once.group(1)}


def test_nobody_is_ticked_as_the_payer_and_a_forgotten_payer_is_asked_for(phone):
    _drinks_night(phone)
    page, data = _drinks_form(phone)
    assert not re.search(r'name="paid_by"[^>]*checked', page)
    forgot = {**data, "for": ["Enda", "John"], "amount": "8.00", "what": "pints"}
    response = phone.client.post(f"{phone.board}/rounds/new", data=forgot)
    assert response.status_code == 422
    said = words(html(response))
    assert "Say who paid for the round." in said
    assert "pints" not in words(board(phone).split("Drinks and food", 1)[1])  # nothing stored
    assert "No drinks or food yet" in board(phone)

    # Once someone paid, the next form lists them first and says so, still unticked.
    paid = {**forgot, "paid_by": "Rex"}
    assert phone.client.post(f"{phone.board}/rounds/new", data=paid).status_code == 302
    page, _ = _drinks_form(phone)
    assert not re.search(r'name="paid_by"[^>]*checked', page)
    found = re.findall(r'<label class="check" for="paid-\d+">(.*?)</label>', page, re.S)
    labels = [words(label) for label in found]
    assert labels == ["Rex · paid last time", "Enda", "John", "Finn"]


# --- 5. One word, one meaning -------------------------------------------------------------


def test_a_boerenbridge_night_says_rounds_of_cards_and_drinks_and_food_apart(phone):
    phone.start("boerenbridge", SEATS, "Ann", max_cards="4")
    seen = board(phone)
    assert seen.count("No rounds yet") == 1 and "Enter round" in seen
    assert "Add drinks or food" in seen and "Add a round" not in seen
    assert "No drinks or food yet" in seen

    phone.client.post("/language", data={"lang": "nl"})
    seen = board(phone)
    assert "Drankjes of eten toevoegen" in seen and "Ronde invoeren" in seen
    assert seen.count("Nog geen rondes") == 1 and "Nog geen drankjes of eten" in seen
    form = words(html(phone.client.get(f"{phone.board}/rounds/new")))
    assert form.startswith("Drankjes of eten toevoegen") or "Drankjes of eten toevoegen" in form


def test_the_settle_up_and_the_night_sheet_name_drinks_and_food_in_both_languages(phone):
    _drinks_night(phone)
    _page, data = _drinks_form(phone)
    bought = {**data, "for": ["Enda", "John"], "amount": "8.00", "paid_by": "Rex"}
    assert phone.client.post(f"{phone.board}/rounds/new", data=bought).status_code == 302
    settle = words(html(phone.client.get(f"{phone.board}/settle")))
    assert "Player Game Drinks and food Total" in settle and "Rounds" not in settle
    sheet = pdf_text(phone.client.get(f"/g/{phone.slug}/s/{phone.session_id}/sheet.pdf"))
    assert "Drinks and food" in sheet and "Rounds" not in sheet

    phone.client.post("/language", data={"lang": "nl"})
    settle = words(html(phone.client.get(f"{phone.board}/settle")))
    assert "Speler Spel Drankjes en eten Totaal" in settle and "Rondes" not in settle
    sheet = pdf_text(phone.client.get(f"/g/{phone.slug}/s/{phone.session_id}/sheet.pdf"))
    assert "Drankjes en eten" in sheet and "Rondes" not in sheet
    history = words(html(phone.client.get(f"{phone.board}/history")))
    assert "Drankjes of eten toegevoegd: Rex betaalde" in history


# --- 7. The group's players open their pages ----------------------------------------------


def test_the_group_page_opens_each_players_page_where_an_account_is_set_before_a_night(phone):
    phone.add_players("Enda", "John")
    page = html(phone.client.get(f"/g/{phone.slug}"))
    players = page.split('id="player-list"')[1].split("</ul>")[0]
    links = re.findall(r'<a class="name" href="([^"]+)">([^<]+)</a>', players)
    assert [name for _, name in links] == ["Enda", "John"]
    john = phone.client.get(links[1][0])
    assert john.status_code == 200
    assert "Bank account" in words(html(john)) and 'name="iban"' in html(john)
    # Renaming is still there, a step of its own beside the name.
    assert words(players).count("Rename – ") == 2


# --- 6. Seasons ---------------------------------------------------------------------------


def _tied_season(phone: Phone) -> str:
    """Ann, Bob, Cas on 4 points each after two nights: Ann and Cas won one each and share
    first place, Bob won none and is third, so the prizes are unequal on equal points."""
    for order in (["Ann", "Bob", "Cas"], ["Cas", "Bob", "Ann"]):
        api_night(phone, order)
    status, where = new_season(phone, booby="0", best_of="")
    assert status == 303, where
    return where


def test_the_season_page_says_why_equal_points_get_unequal_places(phone):
    where = _tied_season(phone)
    page = words(html(phone.client.get(where)))
    assert "1 Ann 4" in page and "1 Cas 4" in page and "3 Bob 4" in page
    assert (
        "Cas and Bob have equal points: Cas is placed higher for more nights won (1 against 0)."
        in page
    )
    assert "Equal points: more nights won places higher, then the best night" in page
    phone.client.post("/language", data={"lang": "nl"})
    page = words(html(phone.client.get(where)))
    assert "Cas en Bob hebben evenveel punten" in page


def test_the_group_page_counts_a_season_in_nights_played_and_days_left(phone):
    _tied_season(phone)
    line = words(html(phone.client.get(f"/g/{phone.slug}")).split('class="season-line"')[1])
    assert line.startswith("> Winter: Ann, Cas share the lead · 2 nights played · 30 days left")
    assert "nights left" not in line


def test_closing_a_season_asks_first_and_its_settle_up_has_balances_and_ticks(phone):
    where = _tied_season(phone)
    page = html(phone.client.get(where))
    for button in ("close-now", "close-tab"):
        assert re.search(rf'id="{button}" data-confirm="Close the season\? ', page), button
    assert phone.client.post(where, data={"settle": "now"}).status_code == 303
    page = words(html(phone.client.get(where)))
    balances = page.split("Balances", 1)[1].split("Who pays whom")[0]
    assert "Player Prize Entry fee Balance" in balances
    assert "Ann €6.75 -€5.00 €1.75" in balances and "Bob €1.50 -€5.00 -€3.50" in balances
    assert "Bob pays Ann €1.75" in page and "Bob pays Cas €1.75" in page

    tick = {"from": "Bob", "to": "Ann", "paid": "yes"}
    for _ in range(2):  # a double tap is one tick
        assert phone.client.post(where, data=tick).status_code == 303
    page = html(phone.client.get(where))
    assert "Ticked: Bob paid Ann €1.75." in words(page)
    pressed = re.findall(r'aria-pressed="(\w+)"[^>]*>.*?<span class="what">([^<]+)<', page, re.S)
    assert pressed == [("true", "Bob pays Ann €1.75"), ("false", "Bob pays Cas €1.75")]

    # A tick of a payment the settle-up does not make is refused and changes nothing.
    wrong = phone.client.post(where, data={"from": "Ann", "to": "Bob", "paid": "yes"})
    page = html(phone.client.get(wrong.headers["Location"]))
    assert "settle-up has no payment from Ann to Bob." in words(page)
    assert page.count('aria-pressed="true"') == 1

    phone.client.post(where, data={"from": "Bob", "to": "Cas", "paid": "yes"})
    assert "Everything is paid." in words(html(phone.client.get(where)))
    phone.client.post(where, data={**tick, "paid": "no"})
    page = html(phone.client.get(where))
    assert "Taken back: Bob paid Ann €1.75." in words(page)
    assert page.count('aria-pressed="true"') == 1 and "Everything is paid." not in page


def test_a_seasons_ticks_follow_a_rename_and_a_backup_and_a_damaged_tick_is_refused(app, phone):
    where = _tied_season(phone)
    phone.client.post(where, data={"settle": "now"})
    phone.client.post(where, data={"from": "Bob", "to": "Ann", "paid": "yes"})
    bob = re.search(
        r'action="(/g/[^"]+/players/\d+)"[^>]*>\s*<input[^>]*>\s*<div class="field">\s*'
        r'<label for="rename-\d+">New name for Bob',
        html(phone.client.get(f"/g/{phone.slug}")),
    )
    assert bob, "Bob's rename form"
    assert phone.client.post(bob.group(1), data={"rename-name": "Bobby"}).status_code == 302
    page = html(phone.client.get(where))
    assert re.search(r'aria-pressed="true"[^>]*>.*?Bobby pays Ann €1\.75', page, re.S)

    with app.app_context():
        data = backup_group(phone.slug)
        db.session.rollback()
    (closed,) = [s["closed"] for s in data["seasons"]]
    assert [(t["from"], t["to"]) for t in closed["paid"]] == [("Bobby", "Ann")]
    damaged = copy.deepcopy(data)
    damaged["seasons"][0]["closed"]["paid"][0]["to"] = "Bobby"
    with app.app_context(), pytest.raises(BackupError, match="its ticks are not payments"):
        restore_group(damaged, slug="damaged-here")
    with app.app_context():
        restore_group(data, slug="restored-here")
    restored = Phone(phone.client, slug="restored-here")
    restored.client.post(
        "/open", data={"open-group": "restored-here", "open-passphrase": PASSPHRASE}
    )
    seasons = html(restored.client.get("/g/restored-here/seasons"))
    there = re.search(r'href="(/g/restored-here/seasons/\d+)"', seasons)
    assert there, seasons
    page = html(restored.client.get(there.group(1)))
    assert re.search(r'aria-pressed="true"[^>]*>.*?Bobby pays Ann €1\.75', page, re.S)


def test_a_season_with_a_tick_is_not_deleted(phone):
    where = _tied_season(phone)
    phone.client.post(where, data={"settle": "now"})
    phone.client.post(where, data={"from": "Bob", "to": "Ann", "paid": "yes"})
    season_id = where.rsplit("/", 1)[1]
    api = f"/api/v1/groups/{phone.slug}/seasons/{season_id}"
    refused = phone.client.delete(api, headers=basic(phone.slug, PASSPHRASE))
    assert refused.status_code == 409
    assert refused.get_json()["error"]["message"] == (
        "Payments are ticked in Winter's settle-up: the season stays."
    )
    phone.client.post(where, data={"from": "Bob", "to": "Ann", "paid": "no"})
    assert phone.client.delete(api, headers=basic(phone.slug, PASSPHRASE)).status_code == 204


def test_another_group_cannot_tick_a_seasons_payment(phone, client):
    where = _tied_season(phone)
    phone.client.post(where, data={"settle": "now"})
    other = Phone(client.application.test_client())
    other.create_group("Other table", "another passphrase")
    season_id = where.rsplit("/", 1)[1]
    tick = {"from": "Bob", "to": "Ann", "paid": "yes"}
    response = other.client.post(f"/g/{other.slug}/seasons/{season_id}", data=tick)
    assert response.status_code == 404
    assert 'aria-pressed="true"' not in html(phone.client.get(where))
