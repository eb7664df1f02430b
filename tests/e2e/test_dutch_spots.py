"""A game of Spots (RULES.md §3) on a phone: four players, two rounds of four hands, then over."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.live.api import new_group

PLAYERS = ["Anke", "Bram", "Cor", "Daan"]
# (who went out, the others' spot totals); the last hand is entered as cards instead.
HANDS = [
    ("Bram", {"Anke": 10, "Cor": 5, "Daan": 20}),
    ("Cor", {"Anke": 3, "Bram": 7, "Daan": 12}),
    ("Daan", {"Anke": 8, "Bram": 2, "Cor": 9}),
    ("Anke", {"Bram": 4, "Cor": 6, "Daan": 1}),
    ("Bram", {"Anke": 5, "Cor": 5, "Daan": 5}),
    ("Cor", {"Anke": 1, "Bram": 2, "Daan": 3}),
    ("Daan", {"Anke": 7, "Bram": 7, "Cor": 7}),
]
LAST_HAND = ("Anke", {"Bram": "K Q", "Cor": "2 3", "Daan": "A"})  # 20, 5 and 1 spots


def test_a_game_of_dutch_spots_to_its_end(new_phone, live_server):
    api = new_group(live_server, passphrase="stroopwafels")
    for name in PLAYERS:
        api.ok("POST", f"/groups/{api.slug}/players", {"name": name}, 201)
    phone = new_phone("spots")
    page = phone.page
    phone.sign_in(api.slug or "", "stroopwafels")
    phone.start_session(
        "Spots", PLAYERS, dealer="Anke", options={"Enter": "spot totals (or cards)"}
    )
    expect(phone.heading("Spots #1")).to_be_visible()
    status = phone.region("This hand")
    expect(status).to_contain_text("Round 1 · hand 1 of 4")
    expect(status).to_contain_text("Deals: Anke")
    phone.expect_scores(dict.fromkeys(PLAYERS, 0), money=False)
    phone.shot("scoreboard-new-game")

    totals = dict.fromkeys(PLAYERS, 0)
    dealers = PLAYERS * 2
    for number, (out, spots) in enumerate(HANDS, start=1):
        round_no, hand_no = divmod(number - 1, 4)
        progress = f"Round {round_no + 1} · hand {hand_no + 1} of 4"
        expect(status).to_contain_text(progress)
        expect(status).to_contain_text(f"Deals: {dealers[number - 1]}")
        phone.link("Enter hand").tap()
        expect(page.get_by_text(progress)).to_be_visible()
        phone.fill_hand(out=out, totals=spots)
        if number == 1:
            phone.shot("hand-1-totals")
        phone.save_hand(number)
        for name, spots_left in spots.items():
            totals[name] += spots_left
        phone.expect_scores(totals, money=False)
        if number == 6:
            expect(status).to_contain_text("Round 2 · hand 3 of 4")
            phone.shot("scoreboard-round-2-hand-3")

    # The last hand with the cards: each player's row switched from "Total" to "Cards".
    expect(status).to_contain_text("Round 2 · hand 4 of 4")
    out, cards = LAST_HAND
    phone.link("Enter hand").tap()
    phone.fill_hand(cards, out=out)
    expect(page.get_by_text("K Q = 20 spots")).to_be_visible()
    expect(page.get_by_text("A = 1 spot", exact=True)).to_be_visible()  # not "1 spots"
    phone.shot("hand-8-cards")
    phone.save_hand(8)
    expect(phone.status()).to_have_text(
        "Hand 8 saved. Anke goes out. Bram gets 20 penalty points, Cor 5, Daan 1."
    )

    final = {"Anke": 34, "Bram": 42, "Cor": 37, "Daan": 42}
    phone.expect_scores(final, money=False)
    expect(status).to_contain_text("The game is over.")
    expect(status).to_contain_text("Winner: Anke")
    expect(phone.scores().filter(has_text="Anke")).to_contain_text("winner")
    expect(phone.link("Enter hand")).to_have_count(0)
    phone.shot("scoreboard-game-over")

    # An old "Enter hand" page (another phone, the back button) cannot add a ninth hand.
    page.goto(page.url.split("?")[0].split("#")[0] + "/hands/new")
    expect(phone.status()).to_have_text("The game is over: no more hands can be added.")
    expect(phone.heading(re.compile(r"^Spots #\d+$"))).to_be_visible()
    phone.expect_scores(final, money=False)
    expect(phone.region("Last hands").get_by_role("link")).to_have_count(8)
    phone.shot("no-ninth-hand")
