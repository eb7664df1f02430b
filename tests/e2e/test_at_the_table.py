"""Issue 45, "At the table", on a phone at 390×844: what a player sees and taps (the page
tests, tests/web/test_at_the_table.py, hold the rest)."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.e2e.test_new_games import _phone
from tests.live.api import new_group
from tests.rules.test_boerenbridge import SEATS, WORKED

KEPT = "You typed here before on this phone"
DRAFTS = "Object.keys(localStorage).filter(k => k.startsWith('ledger-draft:'))"


def test_saved_bids_are_never_offered_back_on_the_tricks_screen(new_phone, live_server):
    """Issue 45 §3: the bids typed and saved; the tricks screen (the same round, another form)
    offers nothing. Tricks typed and left are offered back there, and put back for real."""
    phone = _phone(new_phone, live_server, "kept-bids", SEATS)
    page = phone.page
    phone.start_session(
        "Boerenbridge", list(SEATS), dealer="Ann",
        options={"Cards in the longest round (off: as many as the pack allows)": "4"},
    )  # fmt: skip
    bids, tricks, _points = WORKED[0]
    phone.link("Enter round").tap()
    for name, bid in bids.items():
        page.get_by_label(f"Bid – {name}", exact=True).fill(str(bid))
    # The bids are kept while they are not saved (a moment after the last key).
    page.wait_for_function(f"() => {DRAFTS}.length > 0")  # a function: the CSP allows no eval
    phone.button("Save the bids").tap()
    expect(page.get_by_label("Tricks – Ann", exact=True)).to_be_visible()
    page.wait_for_load_state("load")  # the offer, were there one, comes once the page is whole
    expect(page.get_by_text(KEPT)).to_have_count(0)

    # Tricks typed, then the page left without saving: offered back on the tricks screen.
    page.get_by_label("Tricks – Ann", exact=True).fill(str(tricks.get("Ann", 0)))
    page.get_by_label("Tricks – Bob", exact=True).fill(str(tricks.get("Bob", 0)))
    phone.wait_for_draft(str(tricks.get("Bob", 0)))
    phone.link("Back to the scoreboard").tap()
    phone.link("Enter round").tap()
    offer = page.get_by_role("status").filter(has_text=KEPT)
    expect(offer).to_be_visible()
    phone.shot("tricks-offered")
    phone.button("Put it back").tap()
    expect(offer).to_have_count(0)
    expect(page.get_by_label("Tricks – Ann", exact=True)).to_have_value(str(tricks.get("Ann", 0)))
    expect(page.get_by_label("Tricks – Bob", exact=True)).to_have_value(str(tricks.get("Bob", 0)))
    for name in ("Cas", "Dee"):
        page.get_by_label(f"Tricks – {name}", exact=True).fill(str(tricks.get(name, 0)))
    phone.save_hand(1, word="Round")

    # Saved: nothing of the round is kept, the bids' draft included.
    assert page.evaluate(DRAFTS) == []
    phone.link("Enter round").tap()
    expect(phone.heading(re.compile(r"^Round 2\b"))).to_be_visible()
    expect(page.get_by_text(KEPT)).to_have_count(0)


# --- 8. Every page at 360 px, in every language, light and dark -----------------------------

NARROW = {"width": 360, "height": 780}
PASSPHRASE = "pints of plain"
FOUR = ["Annemarie", "Bartholomeus", "Cas", "Dee"]

# Every card, section, table, form and list of the page whose content is wider than its box
# (scrollWidth > clientWidth): what runs over its card. A .table-scroll scrolls sideways on
# purpose (a season of many nights), what is only for screen readers is drawn 1 px wide, and
# a closed <details> still lays out what it hides.
OVER_JS = """
() => Array.from(document.querySelectorAll(
  "main .card, main section, main table, main form, main fieldset, main ul, main figure, main"
)).filter((e) => !e.closest(".table-scroll, .visually-hidden, [hidden]"))
  .filter((e) => !e.closest("details:not([open])"))
  .filter((e) => e.scrollWidth > e.clientWidth + 1)
  .map((e) => `<${e.tagName.toLowerCase()}${e.id ? "#" + e.id : ""}` +
       `${e.className ? "." + String(e.className).split(" ").join(".") : ""}> ` +
       `${e.scrollWidth} > ${e.clientWidth}`)
"""


def _a_full_evening(live_server: str) -> tuple[str, list[str]]:
    """A group with every kind of page filled: a Spot night with drinks and food and a tick,
    one with a pot and a tick, Boerenbridge with its bids saved, Klaverjassen with its sheet,
    a closed season with its balances and a tick, the tab."""
    api = new_group(live_server, name="Donderdag in Café De Vergulde Zwaan", passphrase=PASSPHRASE)
    slug = api.slug or ""
    for name in FOUR:
        api.ok("POST", f"/groups/{slug}/players", {"name": name}, 201)

    def night(game: str, **options) -> int:
        body = {"game": game, "players": FOUR, "dealer": FOUR[-1], "options": options}
        return api.ok("POST", f"/groups/{slug}/sessions", body, 201)["id"]

    totals = {"results": [{"player": p, "spots": 9 + 11 * i} for i, p in enumerate(FOUR)]}
    drinks = night("spot", ante=0, entry="totals")
    api.ok("POST", f"/sessions/{drinks}/hands", totals, 201)
    rounds = f"/sessions/{drinks}/rounds"
    bought = {"what": "een rondje", "amount": "18.40", "paid_by": FOUR[1], "for": FOUR}
    api.ok("POST", rounds, bought, 201)
    api.ok("POST", f"/sessions/{drinks}/finish", {"leftover_pot": "refund"})
    settled = api.ok("GET", f"/sessions/{drinks}/settlement")["transfers"][0]
    tick = {"from": settled["from"], "to": settled["to"], "amount": settled["amount"]}
    api.ok("POST", f"/sessions/{drinks}/payments", tick, 201)
    pot = night("spot", entry="totals")
    api.ok("POST", f"/sessions/{pot}/hands", totals, 201)
    owed = api.ok("GET", f"/sessions/{pot}/settlement")["transfers"]
    paid = next(t for t in owed if t["from"] and t["to"])
    api.ok("POST", f"/sessions/{pot}/payments",
           {"from": paid["from"], "to": paid["to"], "units": paid["units"]}, 201)  # fmt: skip
    bridge = night("boerenbridge", max_cards=4)
    api.ok("PUT", f"/sessions/{bridge}/bids", {"bids": dict(zip(FOUR, (0, 1, 0, 1), strict=True))})
    klaver = night("klaverjassen")
    api.ok("POST", f"/sessions/{klaver}/hands",
           {"playing": 1, "teams": [{"team": 1, "points": 100, "roem": 20}]}, 201)  # fmt: skip
    season = {"name": "Winterkampioenschap", "game": "spot", "from": "2020-01-01",
              "to": "2099-12-31", "entry_fee": 500, "booby": 100}  # fmt: skip
    ours = api.ok("POST", f"/groups/{slug}/seasons", season, 201)["id"]
    closed = api.ok("POST", f"/groups/{slug}/seasons/{ours}/close", {"settle": "now"})
    first = closed["settlement"]["transfers"][0]
    # Every other game's scoreboard and hand form too, as many players as it takes (up to 4).
    games = api.ok("GET", "/games")
    more = []
    for g in games:
        if g["key"] in ("spot", "boerenbridge", "klaverjassen"):
            continue
        seated = FOUR[: max(g["min_players"], min(4, g["max_players"]))]
        body = {"game": g["key"], "players": seated, "dealer": seated[-1], "options": {}}
        started = api.ok("POST", f"/groups/{slug}/sessions", body, 201)["id"]
        more += [f"/g/{slug}/s/{started}", f"/g/{slug}/s/{started}/hands/new"]
    s, b, k, p = (f"/g/{slug}/s/{n}" for n in (drinks, bridge, klaver, pot))
    pages = [
        "/", f"/g/{slug}", f"/g/{slug}/invite", f"/g/{slug}/s/new", f"/g/{slug}/tab",
        f"/g/{slug}/seasons", f"/g/{slug}/seasons/{ours}", f"/g/{slug}/p/{FOUR[1]}",
        s, f"{s}/settle", f"{s}/history", f"{s}/hands", f"{s}/hands/1", f"{s}/hands/1/edit",
        p, f"{p}/settle", f"{p}/hands/new", f"{p}/rounds/new",
        b, f"{b}/hands/new", f"{b}/hands/new?both=1", k, f"{k}/hands/new", f"{k}/hands/1",
        f"{s}/hands/99",
    ]  # fmt: skip
    return slug, pages + more + [f"/g/{slug}/seasons/{ours}#{first['from']}"]


def test_no_card_or_table_runs_over_at_360_px_in_any_language_light_or_dark(new_phone, live_server):
    """Issue 45 §8: the Dutch settle-up's table ran over its card at 390 px.

    Each page is loaded once a language and looked at in both colour schemes: the phone's
    scheme switched on the page as it is, as a player's phone does at dusk (the stylesheet
    follows it at once, with no reload)."""
    slug, pages = _a_full_evening(live_server)
    problems = []
    phone = new_phone("narrow", viewport=NARROW)
    page = phone.page
    phone.sign_in(slug, PASSPHRASE)
    for language, code in (("English", "en"), ("Nederlands", "nl"), ("Deutsch", "de")):
        if language != "English":  # what the language switch sets
            page.context.add_cookies([{"name": "lang", "value": code, "url": live_server}])
        for address in pages:
            page.goto(address)
            for scheme in ("light", "dark"):
                page.emulate_media(color_scheme=scheme)
                where = f"{scheme} {language} {address}"
                problems.extend(f"{where}: {e}" for e in page.evaluate(OVER_JS))
                wider = page.evaluate("document.documentElement.scrollWidth") - NARROW["width"]
                if wider > 0:
                    problems.append(f"{where}: the page is {wider} px too wide")
        if language != "English":
            page.goto(pages[9])
            for scheme in ("light", "dark"):
                page.emulate_media(color_scheme=scheme)
                phone.shot(f"settle-{scheme}-{code}")
    assert not problems, "\n".join(problems)


def test_a_name_on_the_group_page_opens_the_players_page_for_a_bank_account(new_phone, live_server):
    """Issue 45 §7: a tap on a player's name only renamed; now it opens their page."""
    phone = _phone(new_phone, live_server, "player-list", ("Enda", "John"))
    page = phone.page
    players = phone.region("Players")
    players.get_by_role("link", name="John", exact=True).tap()
    expect(phone.heading("John")).to_be_visible()
    expect(phone.region("Bank account").get_by_label("IBAN")).to_be_visible()
    page.go_back()
    players.get_by_text("Rename – Enda").tap()
    expect(page.get_by_label("New name for Enda")).to_be_visible()
    phone.shot("player-list")
