"""Skat on a phone at 390×844 (RULES.md §18): the worked example deal by deal as a table enters
it in one screen — declarer, bid, game, with/without, hand and the announcements offered with
what they need, card points with the opponents' as 120 minus, tricks — each deal's value and
verdict shown before saving, the list with its running totals and games won and lost, and the
money each pair settles at the end."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.e2e.test_new_games import _phone

SEATS = ("Ann", "Bob", "Cas")


def _deal(phone, number: int, declarer: str) -> None:
    page = phone.page
    phone.link("Enter hand").tap()
    expect(phone.heading(re.compile(rf"^Hand {number}\b"))).to_be_visible()
    page.get_by_role("group", name="Who declared?").get_by_role("radio", name=declarer).check()


def _game(phone, bid: str, game: str) -> None:
    page = phone.page
    page.get_by_label("Bid", exact=True).select_option(bid)
    page.get_by_role("group", name="Game").get_by_role("radio", name=game, exact=True).check()


def _says(phone, text: str) -> None:
    expect(phone.page.locator("#preview-says")).to_have_text(text)


def test_the_worked_example_on_a_phone(new_phone, live_server):
    phone = _phone(new_phone, live_server, "skat", SEATS)
    page = phone.page
    phone.start_session(
        "Skat", list(SEATS), dealer="Cas",
        options={"Deals in the night": "5", "Stake: units a point (0: not for money)": "1"},
    )  # fmt: skip
    expect(page.locator("#deals-played")).to_have_text("0 of 5 deals played")

    # (1) Ann: ♣ with 2, bid 36, 78 card points.
    _deal(phone, 1, "Ann")
    _game(phone, "36", "♣ clubs")
    page.get_by_label("How many matadors").select_option("2")
    page.get_by_label("The declarer's card points (the skat included)").fill("78")
    expect(page.locator("#others-points")).to_have_text("The opponents: 120 − 78 = 42")
    _says(phone, "With 2, game 3 × 12 = 36: won")
    phone.check_width("skat-deal")
    phone.shot("skat-deal")
    assert not phone.too_small(
        [page.locator("#game-choice label"), page.locator("#declarer-choice label")]
    )
    phone.save_hand(1)

    # (2) Bob: Grand hand without 1, bid 48, 92: schneider. The announcements open one by one.
    _deal(phone, 2, "Bob")
    _game(phone, "48", "Grand")
    page.get_by_text("without", exact=True).tap()
    page.get_by_label("How many matadors").select_option("1")
    schneider = page.get_by_label("Schneider announced")
    expect(schneider).to_be_hidden()
    page.get_by_label("Hand (the skat not taken up)").check()
    expect(schneider).to_be_visible()
    expect(page.get_by_label("Schwarz announced")).to_be_hidden()
    page.get_by_label("The declarer's card points (the skat included)").fill("92")
    _says(phone, "Without 1, game 2, hand 3, schneider 4 × 24 = 96: won")
    phone.save_hand(2)

    # (3) Cas: ♥ hand after 40, the twelve cards typed: with 1, overbid, lost at 40.
    _deal(phone, 3, "Cas")
    _game(phone, "40", "♥ hearts")
    page.get_by_text("Or type the declarer's twelve cards").tap()
    page.get_by_label(re.compile("^Hand and skat")).fill("JC JH AH 10H KH 9H 7H AS 10S KD 8C 7C")
    page.get_by_label("Hand (the skat not taken up)").check()
    page.get_by_label("The declarer's card points (the skat included)").fill("70")
    _says(phone, "With 1, game 2, hand 3 × 10 = 30: overbid at 40")
    phone.save_hand(3)

    # (4) Ann: Null after 23, takes a trick; matadors and card points are not asked.
    _deal(phone, 4, "Ann")
    _game(phone, "23", "Null")
    expect(page.locator("#matadors-field")).to_be_hidden()
    expect(page.locator("#points-field")).to_be_hidden()
    page.get_by_role("group", name="Tricks the declarer took").get_by_text("Some").tap()
    _says(phone, "Null = 23: lost")
    phone.save_hand(4)

    # (5) All pass: nothing else is asked.
    _deal(phone, 5, "All passed")
    expect(page.locator("#skat-played")).to_be_hidden()
    _says(phone, "All passed: the deal counts, nothing is scored.")
    phone.save_hand(5)

    phone.expect_scores({"Ann": 30, "Bob": 226, "Cas": -90}, money=False)
    listed = page.locator("#skat-list")
    expect(listed.locator("#deals-played")).to_have_text("5 of 5 deals played")
    expect(listed.locator("#list-3")).to_contain_text("Cas: ♥ hearts 40 overbid")
    expect(listed.locator("tfoot tr").first).to_have_text(re.compile(r"Games won\s*1\s*1\s*0"))
    expect(listed.locator("tfoot tr").last).to_have_text(re.compile(r"Games lost\s*1\s*0\s*1"))
    for name, amount in (("Ann", r"-€0\.76"), ("Bob", r"€5\.12"), ("Cas", r"-€4\.36")):
        expect(phone.scores().filter(has_text=name)).to_contain_text(re.compile(amount))
    phone.check_width("skat-list")
    phone.shot("skat-list")
    assert not phone.problems, phone.problems


def test_a_refused_deal_is_said_above_the_form(new_phone, live_server):
    phone = _phone(new_phone, live_server, "skat-refused", SEATS)
    page = phone.page
    phone.start_session("Skat", list(SEATS), dealer="Cas")
    _deal(phone, 1, "Ann")
    _game(phone, "24", "Null")
    page.get_by_role("group", name="Tricks the declarer took").get_by_text("None").tap()
    message = "A Null game is worth 23: after a bid of 24, declare a Null worth at least that."
    _says(phone, message)  # said as the boxes change, before any save
    phone.button("Save hand").tap()
    expect(page.locator("#form-errors")).to_contain_text(message)
    expect(page.get_by_label("Bid", exact=True)).to_have_value("24")


def test_a_list_of_four_long_names_fits_360_px_in_either_language(new_phone, live_server):
    """The list at four (the dealer sitting out) with long names, a few deals in, and the deal
    form: nothing runs over its card at 360 px, in English or Dutch; the table may scroll."""
    from tests.e2e.test_at_the_table import FOUR, NARROW, OVER_JS
    from tests.live.api import new_group

    api = new_group(live_server, passphrase="pints of plain")
    slug = api.slug or ""
    for name in FOUR:
        api.ok("POST", f"/groups/{slug}/players", {"name": name}, 201)
    body = {"game": "skat", "players": FOUR, "dealer": FOUR[-1], "options": {"stake": 1}}
    sid = api.ok("POST", f"/groups/{slug}/sessions", body, 201)["id"]
    deals = [
        {"declarer": FOUR[0], "bid": 18, "game": "diamonds", "matadors": 1, "card_points": 40},
        {"declarer": FOUR[1], "bid": 96, "game": "grand", "matadors": -1, "hand": True,
         "card_points": 92},
        {"declarer": None},
    ]  # fmt: skip
    for deal in deals:
        api.ok("POST", f"/sessions/{sid}/hands", deal, 201)
    phone = new_phone("skat-narrow", viewport=NARROW)
    page = phone.page
    phone.sign_in(slug, "pints of plain")
    problems = []
    for language in ("en", "nl"):
        page.context.add_cookies([{"name": "lang", "value": language, "url": live_server}])
        for address in (f"/g/{slug}/s/{sid}", f"/g/{slug}/s/{sid}/hands/new"):
            page.goto(address)
            problems += [f"{language} {address}: {e}" for e in page.evaluate(OVER_JS)]
            wider = page.evaluate("document.documentElement.scrollWidth") - NARROW["width"]
            if wider > 0:
                problems.append(f"{language} {address}: the page is {wider} px too wide")
    page.goto(f"/g/{slug}/s/{sid}")
    expect(page.locator("#sitting-out")).to_contain_text(FOUR[2])  # the fourth deal's dealer
    phone.shot("skat-four-narrow")
    assert not problems, "\n".join(problems)
