"""The phone's rough edges (issue 29, item 8): adding players with the keyboard up, a refused
form landing at its mistake, the Dutch leaderboard on 390 px, the settle-up copied as text."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.e2e.phone import Phone
from tests.live.api import hand_entry, new_group, new_spot_session

PLAYERS = ["Enda", "John", "Rex", "Finn"]
PASSPHRASE = "pints of plain"
HAND_1 = {"Enda": "J-10", "John": "A-3", "Rex": "2-9", "Finn": "Q-K"}  # nobody out: pot 20
HAND_2 = {"John": "5-5-6", "Rex": "K", "Finn": "3-5"}  # Enda out


def not_reloaded(phone: Phone) -> None:
    """Mark the page: a reload would forget the mark."""
    phone.page.evaluate("window.stillHere = true")


def still_here(phone: Phone) -> bool:
    return bool(phone.page.evaluate("window.stillHere === true"))


def test_players_are_added_one_after_another_with_the_keyboard_up(new_phone, live_server):
    api = new_group(live_server, passphrase=PASSPHRASE)
    phone = new_phone("add-players")
    page = phone.page
    phone.sign_in(api.slug or "", PASSPHRASE)
    players = phone.region("Players")
    name = page.get_by_label("Name", exact=True)
    not_reloaded(phone)

    name.fill("Aoife")
    name.press("Enter")  # the keyboard's Go
    expect(players.get_by_text("Aoife", exact=True)).to_be_visible()
    expect(phone.status()).to_have_text("Aoife joins the group.")
    expect(name).to_be_focused()
    expect(name).to_have_value("")

    name.type("Bríd")  # typed straight on: the focus never left the box
    phone.button("Add player").tap()
    expect(players.get_by_text("Bríd", exact=True)).to_be_visible()
    expect(phone.status()).to_have_text("Bríd joins the group.")
    expect(name).to_be_focused()

    name.type("aoife")
    name.press("Enter")
    expect(players.locator(".field-error")).to_contain_text("Aoife")
    expect(name).to_have_attribute("aria-invalid", "true")
    expect(name).to_have_value("aoife")  # what was typed stays, to be fixed
    expect(name).to_be_focused()
    phone.shot("group-player-refused")
    assert still_here(phone), "the group page was loaded again"

    page.reload()  # and the server has them, once each
    expect(players.get_by_role("listitem")).to_have_count(2)

    phone.link("New session").tap()
    expect(phone.heading("New session")).to_be_visible()
    seats = page.get_by_role("group", name="Players, clockwise")
    newcomer = page.get_by_label("Someone new at the table")
    not_reloaded(phone)
    newcomer.fill("Cathal")
    phone.button("Add").tap()
    expect(seats.get_by_role("checkbox", name="Cathal")).to_be_checked()
    expect(newcomer).to_be_focused()
    newcomer.type("Dara")
    newcomer.press("Enter")
    expect(seats.get_by_role("checkbox", name="Dara")).to_be_checked()
    expect(newcomer).to_be_focused()
    assert still_here(phone), "the new-session page was loaded again"
    # The moves still work on the list the server sent, and the night starts with them all.
    seats.get_by_role("button", name="Move Dara up").tap()
    expect(seats.locator(".seat").nth(2)).to_have_attribute("data-name", "Dara")
    page.get_by_role("radio", name=re.compile(r"^Spot\s")).check()
    seats.get_by_role("radio", name="deals – Aoife").check()
    phone.shot("new-session-added")
    phone.button("Start the session").tap()
    expect(phone.scores()).to_have_count(4)
    expect(phone.scores().nth(2)).to_contain_text("Dara")


def test_without_script_adding_a_player_still_works(new_phone, live_server):
    api = new_group(live_server, passphrase=PASSPHRASE)
    phone = new_phone("add-players-no-js", java_script_enabled=False)
    phone.sign_in(api.slug or "", PASSPHRASE)
    phone.add_players("Aoife")
    expect(phone.region("Players").get_by_text("Aoife", exact=True)).to_be_visible()


def test_a_refused_new_group_lands_at_its_mistake(new_phone):
    phone = new_phone("create-refused")
    page = phone.page
    page.goto("/")
    page.get_by_label("Name of the group").fill("Thursday crowd")
    page.get_by_label("Passphrase everyone at the table will share").fill("short")
    phone.button("Create the group").tap()

    passphrase = page.get_by_label("Passphrase everyone at the table will share")
    expect(passphrase).to_be_focused()
    expect(passphrase).to_be_in_viewport()
    expect(page.get_by_text(re.compile("at least 8 characters")).first).to_be_in_viewport()
    phone.shot("create-refused")


def a_table(live_server):
    """A Spot night of two hands and a finished Spots game: every column of the leaderboard."""
    api = new_group(live_server, name="Thursday at Hennessy's", passphrase=PASSPHRASE)
    night = new_spot_session(api, PLAYERS, dealer="Finn")["id"]
    api.ok("POST", f"/sessions/{night}/hands", hand_entry(HAND_1), 201)
    api.ok("POST", f"/sessions/{night}/hands", hand_entry(HAND_2, out="Enda"), 201)
    body = {"game": "spots", "players": PLAYERS, "dealer": "Finn", "options": {}}
    spots = api.ok("POST", f"/groups/{api.slug}/sessions", body, 201)["id"]
    api.ok("POST", f"/sessions/{spots}/hands", hand_entry(HAND_2, out="Enda"), 201)
    api.ok("POST", f"/sessions/{spots}/finish", {}, 200)
    return api, night


def test_the_dutch_leaderboard_fits_the_phone(new_phone, live_server):
    api, _night = a_table(live_server)
    phone = new_phone("leaderboard-nl")
    phone.sign_in(api.slug or "", PASSPHRASE)
    phone.button("Nederlands").tap()
    board = phone.region("Ranglijst")
    expect(board.get_by_role("row", name=re.compile("^Enda"))).to_have_count(2)
    board.scroll_into_view_if_needed()
    phone.shot("leaderboard-nl")  # fails the test if the page is wider than 390 px
    for table in board.locator(".table-scroll").all():
        inner, outer = table.evaluate("e => [e.scrollWidth, e.clientWidth]")
        assert inner <= outer, f"a leaderboard table scrolls sideways: {inner} > {outer}"
