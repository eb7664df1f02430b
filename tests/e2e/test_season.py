"""A winter league on a phone at 390 × 844 (RULES.md §13): the five nights of the worked
example, the season started from its form, the table on the wall, the group page's line, the
close with its transfers, and the PDF for the wall."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from playwright.sync_api import expect

from tests.api.test_seasons import ORDERS
from tests.live.api import new_group


def night_in_order(api, order) -> None:
    """A finished Spot night whose players finish in ``order`` (a tuple: an equal result)."""
    spots: dict[str, int] = {}
    for i, who in enumerate(order, start=1):
        for name in who if isinstance(who, tuple) else (who,):
            spots[name] = i
    players = list(spots)
    body = {"game": "spot", "players": players, "dealer": players[-1],
            "options": {"ante": 0, "entry": "totals"}}  # fmt: skip
    sid = api.ok("POST", f"/groups/{api.slug}/sessions", body, 201)["id"]
    entry = {"results": [{"player": p, "spots": s} for p, s in spots.items()]}
    api.ok("POST", f"/sessions/{sid}/hands", entry, 201)
    api.ok("POST", f"/sessions/{sid}/finish", {"leftover_pot": "refund"})


def test_the_worked_example_as_a_league_on_the_wall(new_phone, live_server):
    api = new_group(live_server, passphrase="pints of plain")
    for order in ORDERS:
        night_in_order(api, order)
    phone = new_phone("season")
    phone.sign_in(api.slug or "", "pints of plain")
    phone.page.goto(f"/g/{api.slug}")
    phone.link("Seasons and ratings").tap()

    today = datetime.now(UTC).date()
    form = phone.page.locator("#new-season")
    form.get_by_label("Name", exact=True).fill("Winter")
    form.get_by_label("Game", exact=True).select_option("spot")
    form.get_by_label("First day").fill((today - timedelta(days=20)).isoformat())
    form.get_by_label("Last day").fill((today + timedelta(days=20)).isoformat())
    form.get_by_label("Best nights that count").fill("3")
    form.get_by_label("Entry fee in units").fill("500")
    form.get_by_label("Booby prize in units").fill("100")
    phone.check_width("new season")
    phone.button("Start the season").tap()

    expect(phone.heading("Winter")).to_be_visible()
    rows = phone.page.locator("#standings tbody tr")
    expect(rows).to_have_count(4)
    expect(rows.nth(0)).to_contain_text("Ann")
    expect(rows.nth(0)).to_contain_text("11")
    expect(rows.nth(3)).to_contain_text("Dee")
    prizes = phone.region("The prize pot")
    expect(prizes).to_contain_text("€20.00")
    expect(prizes).to_contain_text("booby prize €1.00")
    # Night 3's tie: Ann and Bob both 3; Ann's 2s of nights 2 and 4 do not count.
    ann = phone.page.locator("#nights tbody tr").nth(0).locator("td")
    expect(ann).to_have_text(["4", "(2)", "3", "(2)", "4"])
    phone.check_width("season")
    phone.shot("season")

    phone.page.goto(f"/g/{api.slug}")
    expect(phone.page.locator(".season-line")).to_contain_text("Winter: Ann leads by 1")
    phone.page.locator(".season-line a").tap()

    # Issue 45 §6: closing asks first, as finishing a night does.
    asked = phone.confirm_next()
    phone.button("Close and settle up").tap()
    transfers = phone.page.locator("#season-settle .transfer .what")
    expect(transfers).to_have_count(3)
    assert asked and asked[0].startswith("Close the season? Its table is kept as it stands now")
    expect(phone.page.locator("#season-settle")).to_contain_text("pays Ann")
    expect(phone.page.locator("#close-season")).to_have_count(0)
    # Its balances as a night's (prize less fee), and a tick per payment, kept when made.
    expect(phone.page.locator("#season-balances tbody tr").first).to_have_text(
        re.compile(r"Ann\s*€11\.40\s*-€5\.00\s*€6\.40")
    )
    first = phone.page.locator("#season-settle button.tick").first
    expect(first).to_have_attribute("aria-pressed", "false")
    first.tap()
    expect(phone.status()).to_contain_text("Ticked: ")
    expect(phone.page.locator("#season-settle button.tick").first).to_have_attribute(
        "aria-pressed", "true"
    )
    phone.check_width("season closed")
    phone.shot("season-closed")

    with phone.page.expect_download() as download:
        phone.page.locator("#season-pdf").tap()
    assert download.value.suggested_filename.endswith(".pdf")
