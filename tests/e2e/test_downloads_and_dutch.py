"""From a phone: the night's spreadsheet and the group's backup downloaded and opened, and the
scoreboard read in Dutch after the language switch."""

from __future__ import annotations

import json
import re

from openpyxl import load_workbook
from playwright.sync_api import expect

from tests.e2e.phone import Phone
from tests.live.api import hand_entry, new_group, new_spot_session

PLAYERS = ["Enda", "John", "Rex", "Finn"]
HAND_1 = {"Enda": "J-10", "John": "A-3", "Rex": "2-9", "Finn": "Q-K"}
HAND_2 = {"John": "5-5-6", "Rex": "K", "Finn": "3-5"}  # Enda goes out
PASSPHRASE = "pints of plain"
NBSP = "\u00a0"


def _seed_table(live_server, phone: Phone, hands: int) -> str:
    """RULES.md's Spot session with its first ``hands`` hands, made over the API; the phone
    opens the group with its passphrase and goes to the scoreboard. The group's name."""
    api = new_group(live_server, passphrase=PASSPHRASE)
    session = new_spot_session(api, PLAYERS, dealer="Finn")
    entries = [hand_entry(HAND_1), hand_entry(HAND_2, out="Enda")]
    for entry in entries[:hands]:
        api.ok("POST", f"/sessions/{session['id']}/hands", entry, 201)
    phone.sign_in(api.slug or "", PASSPHRASE)
    name = phone.page.get_by_role("heading", level=1).inner_text()
    phone.link(re.compile(r"^Spot #\d+")).tap()
    expect(phone.heading(re.compile(r"^Spot #\d+$"))).to_be_visible()
    return name


def _final_scores(path) -> dict[str, int]:
    """The Summary sheet's players' table: each player's final score in units."""
    book = load_workbook(path, read_only=True)
    try:  # a read-only workbook keeps its file open until closed
        rows = [list(r) for r in book["Summary"].iter_rows(values_only=True)]
    finally:
        book.close()
    header_at = next(i for i, r in enumerate(rows) if r and r[0] == "Player")
    column = rows[header_at].index("Final score (units)")
    return {r[0]: r[column] for r in rows[header_at + 1 :] if r and r[0]}


def test_the_spreadsheet_and_the_backup_download_on_a_phone(new_phone, live_server, tmp_path):
    phone = new_phone("downloads")
    page = phone.page
    group_name = _seed_table(live_server, phone, hands=2)
    phone.expect_scores({"Enda": 44, "John": 25, "Rex": -31, "Finn": -38})
    # What the scoreboard shows, as the player reads it: the big number beside each name.
    shown = {
        name: int(text.replace("−", "-"))
        for name, text in (
            (
                name,
                phone.scores().filter(has_text=name).locator(".total").inner_text().split()[0],
            )
            for name in PLAYERS
        )
    }
    phone.shot("scoreboard")

    with page.expect_download() as spreadsheet:
        phone.link("Export spreadsheet").tap()
    download = spreadsheet.value
    assert download.failure() is None
    assert download.suggested_filename.endswith(".xlsx")
    saved = tmp_path / download.suggested_filename
    download.save_as(saved)
    assert _final_scores(saved) == shown == {"Enda": 44, "John": 25, "Rex": -31, "Finn": -38}

    phone.nav().tap()
    expect(phone.heading(group_name)).to_be_visible()
    phone.shot("group-downloads")
    with page.expect_download() as backup:
        phone.link("Download a backup").tap()
    download = backup.value
    assert download.failure() is None
    assert download.suggested_filename.endswith(".json")
    saved = tmp_path / download.suggested_filename
    download.save_as(saved)
    data = json.loads(saved.read_text(encoding="utf-8"))
    text = json.dumps(data, ensure_ascii=False)
    assert group_name in text
    for name in PLAYERS:
        assert name in text
    assert PASSPHRASE not in text  # the passphrase is kept as a hash only


def test_the_scoreboard_in_dutch_after_the_language_switch(new_phone, live_server):
    phone = new_phone("dutch")
    page = phone.page
    _seed_table(live_server, phone, hands=1)
    phone.expect_scores({"Enda": -25, "John": 46, "Rex": -16, "Finn": -25})
    expect(phone.link("Enter hand")).to_be_visible()

    page.get_by_role("button", name="Nederlands").tap()
    expect(page.locator("html")).to_have_attribute("lang", "nl")
    expect(phone.heading(re.compile(r"^Spot #\d+$"))).to_be_visible()  # the same page
    expect(phone.link("Spel invoeren")).to_be_visible()
    expect(phone.link("Enter hand")).to_have_count(0)
    status = phone.region("Dit spel")
    expect(status).to_contain_text("Geeft:")
    expect(status).to_contain_text(f"(€{NBSP}0,20)")  # the pot of 20 units at €0.01
    balances = phone.region("Saldi").get_by_role("listitem")
    expect(balances.filter(has_text="Enda")).to_contain_text(f"€{NBSP}-0,25")
    expect(balances.filter(has_text="John")).to_contain_text(f"€{NBSP}0,46")
    expect(page.get_by_text("-€")).to_have_count(0)
    phone.shot("scoreboard-in-dutch")

    phone.link("Afrekenen").tap()
    payments = phone.region("Wie betaalt wie").get_by_role("listitem")
    expect(payments.first).to_contain_text(re.compile(rf"betaalt John €{NBSP}0,\d\d"))
    phone.shot("settle-up-in-dutch")
