"""Looking back on a phone: a session's history in words, a player's page, the periods."""

from __future__ import annotations

import re
from datetime import datetime
from zoneinfo import ZoneInfo

from playwright.sync_api import expect

from tests.live.api import hand_entry, new_group, new_spot_session

PLAYERS = ["Enda", "John", "Rex", "Finn"]
HAND_1 = {"Enda": "J-10", "John": "A-3", "Rex": "2-9", "Finn": "Q-K"}  # nobody out: pot 20
HAND_2 = {"John": "5-5-6", "Rex": "K", "Finn": "3-5"}  # Enda out


def a_night(live_server):
    """A Spot night with a correction, a player leaving and a finish that carries the pot, and
    a Spots game that Enda wins."""
    api = new_group(live_server, passphrase="pints of plain")
    night = new_spot_session(api, PLAYERS, dealer="Finn")["id"]
    api.ok("POST", f"/sessions/{night}/hands", hand_entry(HAND_1), 201)
    api.ok("PUT", f"/sessions/{night}/hands/1", hand_entry({**HAND_1, "Rex": "K-9"}), 200)
    api.ok("DELETE", f"/sessions/{night}/players/Finn", None, 200)
    api.ok("POST", f"/sessions/{night}/finish", {"leftover_pot": "carry"}, 200)
    body = {"game": "spots", "players": PLAYERS, "dealer": "Finn", "options": {}}
    spots = api.ok("POST", f"/groups/{api.slug}/sessions", body, 201)["id"]
    api.ok("POST", f"/sessions/{spots}/hands", hand_entry(HAND_2, out="Enda"), 201)
    api.ok("POST", f"/sessions/{spots}/finish", {}, 200)
    return api, night


def test_the_history_the_player_page_and_the_periods_on_a_phone(new_phone, live_server):
    api, night = a_night(live_server)
    phone = new_phone("history")
    page = phone.page
    phone.sign_in(api.slug or "", "pints of plain")

    page.goto(f"/g/{api.slug}/s/{night}")
    phone.link("History").click()
    expect(phone.heading(re.compile("History"))).to_be_visible()
    lines = page.locator("ol.history li")
    expect(lines.first).to_contain_text("Spot started with Enda, John, Rex and Finn")
    expect(page.get_by_text("A phone corrected hand 1: Rex 2-9 → K-9.")).to_be_visible()
    expect(page.get_by_text("Finn left the table.")).to_be_visible()
    expect(lines.last).to_contain_text("The night was finished; the pot of €0.20 is carried on.")
    # Issue 29: the times were UTC; the phone (in India, +5:30) shows its own clock.
    stamp = lines.first.locator("time")
    utc = datetime.fromisoformat(stamp.get_attribute("datetime") or "")
    expect(stamp).to_contain_text(utc.astimezone(ZoneInfo("Asia/Kolkata")).strftime("%H:%M"))
    expect(stamp).not_to_contain_text("UTC")
    phone.shot("session-history")

    page.goto(f"/g/{api.slug}")
    board = phone.region("Leaderboard")
    expect(board.get_by_role("link", name="Tonight")).to_be_visible()
    board.get_by_role("link", name="Tonight").click()
    expect(board.get_by_role("link", name="Tonight")).to_have_attribute("aria-current", "page")
    expect(board.get_by_role("row", name=re.compile("^Enda"))).to_have_count(2)  # both tables
    phone.shot("leaderboard-tonight")

    page.get_by_label("From").fill("2020-01-01")
    page.get_by_label("To").fill("2020-12-31")
    board.get_by_role("button", name="Show").click()
    expect(board.get_by_text("Nobody played in this period.")).to_be_visible()
    phone.shot("leaderboard-2020")

    board.get_by_role("link", name="All time").click()
    board.get_by_role("link", name="Enda").first.click()
    expect(phone.heading("Enda")).to_be_visible()
    expect(page.get_by_text("2 sessions")).to_be_visible()
    games = phone.region("Points games")
    expect(games.get_by_role("row", name=re.compile("Spots"))).to_contain_text("1")
    nights = phone.region("Night by night")
    expect(nights.locator("svg.chart")).to_have_count(2)  # money in EUR, points in Spots
    expect(page.locator("svg.chart")).to_have_count(4)  # and a rating line for Spot and Spots
    expect(phone.region("Best and worst night")).to_contain_text("Spot #")
    phone.shot("player-page")
