"""Issue 45: an open night's scoreboard shows the pots waiting from the group's other nights,
and a phone following it shows a new one without a reload: night B, played and finished
with its pot carried on another phone (here over the API), moves the group's nights version
that night A's page follows (static/live.js, its ``data-page``), though A itself is
unchanged."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.live.api import hand_entry, new_group, new_spot_session

PASSPHRASE = "pints of plain"
# The scoreboard asks for its page's stamp every 3 s, then for the page.
FOLLOW_TIMEOUT = 10_000


def test_a_pot_that_starts_to_wait_shows_on_an_open_nights_phone_without_a_reload(
    new_phone, live_server
):
    api = new_group(live_server, passphrase=PASSPHRASE)
    new_spot_session(api, ["Enda", "John", "Rex", "Finn"], dealer="Finn")
    phone = new_phone("waiting-pot")
    phone.sign_in(api.slug or "", PASSPHRASE)
    phone.link(re.compile(r"^Spot #1")).tap()
    waits = phone.page.get_by_text(re.compile(r"waits for a Spot night"))
    expect(waits).to_have_count(0)
    phone.page.evaluate("window.notReloaded = true")

    night_b = new_spot_session(api, ["Ann", "Bob", "Cas"], dealer="Cas")["id"]
    api.ok("POST", f"/sessions/{night_b}/hands",
           hand_entry({"Ann": "J-10", "Bob": "A-3", "Cas": "2-9"}), 201)  # fmt: skip
    api.ok("POST", f"/sessions/{night_b}/finish", {"leftover_pot": "carry", "pot_keeper": "Bob"})

    phone.next_look()
    expect(waits).to_have_text(
        "Bob's €0.15 waits for a Spot night at €0.01 a unit with Bob at the table.",
        timeout=FOLLOW_TIMEOUT,
    )
    assert phone.page.evaluate("window.notReloaded === true"), "the page was reloaded"
    phone.shot("waiting")
