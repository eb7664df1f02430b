"""Issue 46.6: names (a player's, a group's, the name on a bank account) and what a round was
may not hold a character that shows nothing or turns the text around it (the bidi marks,
overrides and isolates, zero-width spaces and joiners, tag characters, a variation selector
that selects nothing, the Hangul filler…): with one, "Ann" could pass for "An⁠n" on a page or
a PDF. Emoji sequences stay whole: a zero-width joiner between emoji, variation selectors
and skin tones, flags, and the tags of a subdivision flag. Both ways, through the API, the
pages and (tests/export/test_restore_derived.py) a restore."""

from __future__ import annotations

import pytest

from tests.api.helpers import SEED_PLAYERS, error
from tests.web.pages import Phone, html

HIDDEN = {
    "\u202eennA": "U+202E",  # right-to-left override: shown as "Anne"
    "An\u200bn": "U+200B",  # zero-width space
    "\u2066Ann\u2069": "U+2066",  # an isolate
    "Ann\u200e": "U+200E",  # left-to-right mark
    "A\u200dnn": "U+200D",  # a joiner between letters, not emoji
    "An\u200cn": "U+200C",
    "Ann\U000e0041": "U+E0041",  # a tag letter outside a flag
    "\U0001f3f4\U000e0041\U000e007f": "U+E0041",  # a capital tag: no subdivision flag
    "Ann\ufe0f": "U+FE0F",  # a variation selector after a letter selects nothing
    "Ann\u3164": "U+3164",  # the Hangul filler, drawn as nothing
    "\ufeffAnn": "U+FEFF",
    "A\u00adnn": "U+00AD",  # a soft hyphen
    "Ann\u061c": "U+061C",  # the Arabic letter mark
}
EMOJI = [
    "👩\u200d💻 Ann",  # woman technologist: a joiner between emoji
    "🏳\ufe0f\u200d🌈",  # rainbow flag: a variation selector, then a joiner
    "Ann 👍🏽",  # a skin tone
    "❤\ufe0f\u200d🔥",
    "🏃\u200d♀\ufe0f",
    "1\ufe0f\u20e3 Ann",  # a keycap
    "🇮🇪 Ann",  # a flag of regional indicators
    "🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f Ann",  # Scotland's flag
    "葛\U000e0100飾",  # an ideographic variation selector after an ideograph
    "محمد",
    "Zoë",
]


@pytest.mark.parametrize("name", list(HIDDEN))
def test_a_hidden_character_in_a_players_or_groups_name_is_refused_naming_it(table, name):
    said = error(table.post(f"/groups/{table.slug}/players", {"name": name}), 422, "name")
    assert said == (
        f"A name cannot hold {HIDDEN[name]}, a character that shows nothing or turns the text "
        "around it: one name could pass for another."
    )
    group = table.client.post("/api/v1/groups", json={"name": name, "passphrase": "x" * 12})
    assert error(group, 422, "name").startswith(f"A name cannot hold {HIDDEN[name]}")
    players = table.ok("GET", f"/groups/{table.slug}")["players"]
    assert name not in [p["name"] for p in players]


@pytest.mark.parametrize("name", EMOJI)
def test_an_emoji_sequence_in_a_name_is_kept_as_typed(table, name):
    made = table.ok("POST", f"/groups/{table.slug}/players", {"name": name}, 201)
    assert made["name"] == name
    group = table.client.post("/api/v1/groups", json={"name": name, "passphrase": "x" * 12})
    assert group.status_code == 201 and group.get_json()["name"] == name


def test_a_round_and_an_account_name_refuse_them_and_keep_emoji(table):
    for name in SEED_PLAYERS:
        table.ok("POST", f"/groups/{table.slug}/players", {"name": name}, 201)
    sid = table.session(SEED_PLAYERS, dealer="Finn")["id"]
    pints = {"amount": "18.40", "paid_by": "John", "for": SEED_PLAYERS}
    for what, code in (("\u202estnip", "U+202E"), ("pints\u200b", "U+200B")):
        said = error(table.post(f"/sessions/{sid}/rounds", {**pints, "what": what}), 422, "what")
        assert said == (
            f"What the round was holds {code}, a character that shows nothing or turns the text "
            "around it: say it in plain words."
        )
    assert table.ok("GET", f"/sessions/{sid}/rounds") == []
    kept = table.ok("POST", f"/sessions/{sid}/rounds", {**pints, "what": "🍺🍻 pints"}, 201)
    assert kept["what"] == "🍺🍻 pints"
    account = {"iban": "NL91ABNA0417164300", "name": "E\u202eNDA"}
    said = error(table.put(f"/groups/{table.slug}/players/Enda/account", account), 422, "name")
    assert said.startswith("The name on the account cannot hold U+202E")
    account["name"] = "Enda 🍀"
    assert table.ok("PUT", f"/groups/{table.slug}/players/Enda/account", account)


def test_the_page_says_it_in_dutch_and_adds_nobody(client):
    phone = Phone(client)
    phone.create_group()
    client.set_cookie("lang", "nl")
    refused = client.post(
        f"/g/{phone.slug}/players", data={"name": "\u202eennA"}, follow_redirects=True
    )
    page = html(refused)
    assert "Een naam kan geen U+202E bevatten, een teken dat niets laat zien" in page
    assert "\u202e" not in html(client.get(f"/g/{phone.slug}/players"))  # nobody added
