"""Issue 45, "At the table": what a table trips over, driven through the pages as a phone
posts them (tests/e2e/test_at_the_table.py plays the ones a player's eyes need in Chromium).
"""

from __future__ import annotations

import re
from html import unescape

import pytest

from tests.rules.test_boerenbridge import SEATS, WORKED
from tests.web.pages import Phone, html
from tests.web.test_new_games_pages import board, words
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
