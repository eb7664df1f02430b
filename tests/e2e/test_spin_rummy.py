"""A round of Spin Rummy (RULES.md §5) on a phone: cards with suits, the best melds score."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.live.api import new_group


def test_a_round_of_spin_rummy_scores_the_best_melds(new_phone, live_server):
    api = new_group(live_server, passphrase="spin-the-deck")
    for name in ("Aoife", "Cian", "Dara"):
        api.ok("POST", f"/groups/{api.slug}/players", {"name": name}, 201)
    phone = new_phone("spin")
    page = phone.page
    phone.sign_in(api.slug or "", "spin-the-deck")
    phone.start_session("Spin Rummy", ["Aoife", "Cian"], dealer="Aoife", shot="new-session")

    expect(phone.heading("Spin Rummy #1")).to_be_visible()
    status = phone.region("This round")  # Spin Rummy's hands are its rounds
    expect(status).to_contain_text("Round 1 of 4")
    expect(status).to_contain_text("Contract: two melds")
    expect(status).to_contain_text("Deals: Aoife")
    phone.expect_scores({"Aoife": 0, "Cian": 0}, money=False)
    phone.shot("scoreboard-new-game")

    # Aoife's 7-8-9 of hearts would leave three useless cards; the set of sevens and the
    # 8-9-10 run score 7 + 8. Cian: Q-K-A of clubs (12) and the fours (4).
    phone.link("Enter round").tap()
    expect(phone.heading(re.compile(r"^Round 1\b"))).to_be_visible()
    expect(page.get_by_text("Contract: two melds")).to_be_visible()
    phone.tap_cards("Aoife", "7S 7H 7D 8H 9H 10H")
    expect(phone.cards_box("Aoife")).to_have_value("7S 7H 7D 8H 9H 10H")
    expect(page.get_by_text("7♠ 7♥ 7♦ 8♥ 9♥ 10♥", exact=True)).to_be_visible()
    phone.fill_hand({"Cian": "Q♣ K♣ A♣ 4♠ 4♥ 4♦"})
    phone.shot("round-1-form")
    phone.save_hand(1, word="Round")
    expect(phone.status()).to_have_text(
        "Round 1 saved. Aoife scores 15, Cian 16. Cian wins the round."
    )
    expect(phone.region("Last rounds").get_by_role("link")).to_have_count(1)
    expect(phone.button("Undo round 1")).to_be_visible()
    phone.expect_scores({"Aoife": 15, "Cian": 16}, money=False)
    expect(status).to_contain_text("Round 2 of 4")
    expect(status).to_contain_text("Contract: two runs")
    expect(status).to_contain_text("Deals: Cian")
    phone.shot("scoreboard-after-round-1")

    phone.link(re.compile(r"^#1 ")).tap()
    expect(phone.heading(re.compile(r"^Round 1\b"))).to_be_visible()
    # Each meld with what it scores (issue 29): a set its rank, a run its lowest card.
    results = phone.region("Results").get_by_role("row")
    expect(results.filter(has_text="Aoife")).to_contain_text("[7♠ 7♥ 7♦] = 7 [8♥ 9♥ 10♥] = 8")
    expect(results.filter(has_text="Cian")).to_contain_text("[Q♣ K♣ A♣] = 12 [4♠ 4♥ 4♦] = 4")
    # One column for the melds' points (not "Value" and "Points" with the same number), and
    # the whole table on the screen: each meld on one line, nothing to scroll sideways to.
    expect(phone.region("Results").get_by_role("columnheader")).to_have_text(
        ["Player", "Cards", "Points", "Total"]
    )
    for meld in ("[7♠ 7♥ 7♦] = 7", "[8♥ 9♥ 10♥] = 8"):
        box = page.get_by_text(meld, exact=True).bounding_box()
        assert box and box["height"] < 40, f"{meld} wraps: {box}"
    scroller = phone.region("Results").locator(".table-scroll")
    assert scroller.evaluate("e => e.scrollWidth <= e.clientWidth"), "the table scrolls sideways"
    phone.shot("round-1")

    # A card without its suit is refused beside its player; what was typed stays.
    phone.link("Back to the scoreboard").tap()
    phone.link("Enter round").tap()
    phone.fill_hand({"Aoife": "5H 6H 7H", "Cian": "9S 9H 9"})
    phone.button("Save round").tap()
    cian = page.get_by_role("group", name=re.compile(r"^Cian\b"))
    expect(cian.get_by_role("alert")).to_have_text("Cian: give the suit of the 9, e.g. 9H or 9♥.")
    expect(
        page.get_by_role("group", name=re.compile(r"^Aoife\b")).get_by_role("alert")
    ).to_have_count(0)
    expect(phone.cards_box("Cian")).to_have_value("9S 9H 9")
    phone.shot("round-2-card-without-suit")
