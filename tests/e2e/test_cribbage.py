"""Cribbage on a phone at 390×844: the worked example of docs/rules.md §17 as a table enters
it after each show (the card buttons with the cards typed already greyed, each show's count
appearing in parts as it is typed, the pegging buttons), a refused deal marked all at once,
and the board, the games of the night and the money."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.e2e.test_new_games import _phone

WORKED = (
    ("5H", {"Bob": ("5S 5D JH 10C", 4), "Ann": ("4C 6C 7C 8C", 3)}, "2D 3D KS QC"),
    ("JS", {"Ann": ("5H 5D 5C QD", 5), "Bob": ("7H 8H 9H 10H", 2)}, "AC 4S KD 2C"),
    ("6D", {"Bob": ("9C 9S 3H KC", 3), "Ann": ("4H 4D 5C 6H", 6)}, "2S 3S 7D 8D"),
)


def _deal(phone, number: int, starter: str, shows, crib: str) -> None:
    page = phone.page
    phone.link("Enter hand").tap()
    expect(phone.heading(re.compile(rf"^Hand {number}\b"))).to_be_visible()
    page.get_by_label("Starter (the card turned up)").fill(starter)
    for name, (show, pegged) in shows.items():
        page.get_by_label(f"Show – {name}", exact=True).fill(show)
        page.get_by_label(f"Pegged in the play – {name}", exact=True).fill(str(pegged))
    page.get_by_label(re.compile(r"^The crib – ")).fill(crib)


def test_the_worked_example_on_a_phone(new_phone, live_server):
    phone = _phone(new_phone, live_server, "cribbage", ("Ann", "Bob"))
    page = phone.page
    phone.start_session(
        "Cribbage", ["Ann", "Bob"], dealer="Ann",
        options={"Play to": "61", "Stake: units a game (0: not for money)": "1",
                 "Worth of one unit": "0.50"},
    )  # fmt: skip
    phone.link("Enter hand").tap()
    expect(phone.heading(re.compile(r"^Hand 1\b"))).to_be_visible()
    page.get_by_label("Starter (the card turned up)").fill("5H")
    # Bob's show tapped on the card buttons: the 5♥ is the starter, greyed once a 5 is tapped.
    phone.tap_cards("Bob", "5S 5D")
    buttons = page.get_by_role("group", name="Card buttons for Bob")
    buttons.get_by_role("button", name="Add J", exact=True).tap()
    buttons.get_by_role("button", name="Suit: hearts").tap()
    buttons.get_by_role("button", name="Add 5", exact=True).tap()
    expect(buttons.get_by_role("button", name="Suit: hearts")).to_be_disabled()
    expect(buttons.get_by_role("button", name="Suit: spades")).to_be_disabled()
    expect(buttons.get_by_role("button", name="Suit: clubs")).to_be_enabled()
    buttons.get_by_role("button", name="Remove the last card").tap()
    phone.tap_cards("Bob", "10C")
    count = page.locator("#row-1 .crib-count")
    expect(count).to_have_text(
        "21 — 15-2, 15-4, 15-6, 15-8, 15-10, 15-12, 15-14, three of a kind is 20, nobs is 21"
    )
    for _ in range(2):
        phone.button("Bob pegs 2").tap()
    expect(page.get_by_label("Pegged in the play – Bob", exact=True)).to_have_value("4")
    page.get_by_label("Show – Ann", exact=True).fill("4C 6C 7C 8C")
    expect(page.locator("#row-0 .crib-count")).to_have_text(
        "13 — 15-2, 15-4, a run of 5 is 9, a flush is 13"
    )
    page.get_by_label("Pegged in the play – Ann", exact=True).fill("3")
    page.get_by_label(re.compile(r"^The crib – ")).fill("2D 3D KS QC")
    expect(page.locator("#count-crib")).to_have_text("8 — 15-2, 15-4, 15-6, 15-8")
    phone.check_width("cribbage-deal")
    phone.shot("cribbage-deal")
    phone.save_hand(1)
    expect(page.locator("#board")).to_contain_text("25 / 61")
    expect(page.locator("#last-deal")).to_contain_text("Bob's show: 15-2, 15-4")

    # A deal with mistakes: every one marked at once, the card twice naming both places.
    _deal(phone, 2, "JS", {"Ann": ("5H 5D 5C", 5), "Bob": ("7H 8H 9H JS", 2)}, "AC 4S KD 2C")
    phone.button("Save hand").tap()
    expect(page.locator("#form-errors")).to_contain_text("2 things in this hand do not add up")
    expect(page.locator("#row-1-error")).to_contain_text(
        "The J♠ is typed in the starter and Bob's show: one pack has one."
    )
    expect(page.locator("#row-0-error")).to_contain_text(
        "Ann's show has 3 cards: a show is four cards."
    )
    phone.shot("cribbage-refused")
    page.get_by_label("Show – Ann", exact=True).fill("5H 5D 5C QD")
    page.get_by_label("Show – Bob", exact=True).fill("7H 8H 9H 10H")
    phone.save_hand(2)
    _deal(phone, 3, *WORKED[2])
    phone.save_hand(3)
    board = page.locator("#board")
    expect(board).to_contain_text("The board · game 2")
    expect(page.locator("#side-1")).to_contain_text("0 / 61")
    expect(page.locator("#games")).to_contain_text("Ann 1 game · Bob 0 games")
    expect(page.locator("#game-1")).to_contain_text("61 – 53")
    expect(page.locator("#stake")).to_have_text("Played for 1 unit a game (€0.50).")
    expect(page.locator("#scores")).to_contain_text("€0.50")
    phone.shot("cribbage-board")
    assert phone.problems == []
