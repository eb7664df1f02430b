"""Bad input answers a clear 4xx and stores nothing (API.md "Additions": bodies and "Bounds").

Each test is an attacker's or a careless script's request that answered 500, stored what the
database or a page could not take, or was taken from a page of another site.
"""

from __future__ import annotations

import json

import pytest

from ledger.api import parse
from tests.api.dbstate import snapshot
from tests.api.helpers import SEED_HAND_1, basic, error

SPOT = {"game": "spot", "players": ["Enda", "John"], "dealer": "Enda"}


@pytest.fixture
def sid(table) -> int:
    return table.session()["id"]


# --- Content-Type: a form of another site cannot post to the API ----------------------------------


@pytest.mark.parametrize(
    "content_type", ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data"]
)
def test_a_body_not_sent_as_json_is_refused_with_415_and_changes_nothing(
    app, table, sid, content_type
):
    before = snapshot(app)
    # What a cross-site <form enctype="text/plain"> sends: the JSON as its "text".
    body = json.dumps(SEED_HAND_1)

    response = table.call("POST", f"/sessions/{sid}/hands", data=body, content_type=content_type)

    assert "JSON" in error(response, 415)
    assert snapshot(app) == before


def test_a_post_with_no_body_and_no_content_type_is_refused_too(app, table, sid):
    """A page of another site can send a bare POST (fetch, no-cors) with the browser's cached
    passphrase: finishing the night must not be one."""
    before = snapshot(app)

    error(table.call("POST", f"/sessions/{sid}/finish"), 415)

    assert snapshot(app) == before
    assert table.ok("GET", f"/sessions/{sid}")["status"] == "open"


@pytest.mark.parametrize("content_type", [None, "text/plain", "application/x-www-form-urlencoded"])
def test_a_new_access_token_must_be_asked_for_as_json_like_every_write(app, table, content_type):
    """Issue 29: POST …/tokens took any Content-Type, so a page of another site could make
    tokens with a browser's remembered passphrase (reading none, but filling the group's 100)."""
    before = snapshot(app)

    refused = table.call(
        "POST", f"/groups/{table.slug}/tokens", data="{}", content_type=content_type
    )

    assert "JSON" in error(refused, 415)
    assert snapshot(app) == before
    made = table.call("POST", f"/groups/{table.slug}/tokens", json={})
    assert made.status_code == 201 and made.get_json()["token"]


def test_json_with_a_charset_is_json(table):
    response = table.call(
        "POST",
        f"/groups/{table.slug}/players",
        data=json.dumps({"name": "Rex"}),
        content_type="application/json; charset=utf-8",
    )
    assert response.status_code == 201


def test_a_delete_without_a_body_needs_no_content_type(table, sid):
    table.hand(sid, SEED_HAND_1)
    assert table.delete(f"/sessions/{sid}/hands/1").status_code == 204


# --- Malformed bodies -----------------------------------------------------------------------------


def post_raw(table, path: str, raw: bytes | str):
    return table.call("POST", path, data=raw, content_type="application/json")


def test_json_nested_100000_deep_is_a_bad_request_not_a_crash(app, table, sid):
    before = snapshot(app)
    deep = "[" * 100_000 + "]" * 100_000
    for path in (f"/groups/{table.slug}/players", f"/sessions/{sid}/hands"):
        assert "nested" in error(post_raw(table, path, deep), 400)
        assert "nested" in error(post_raw(table, path, '{"a":' * 100_000 + "1"), 400)
    assert snapshot(app) == before


def test_nesting_is_counted_outside_strings_and_32_levels_are_allowed(table):
    name = "[[[{{{" * 10  # brackets inside a name are no nesting
    inner = 31 * "[" + 31 * "]"  # the body's object is the 32nd level
    body = '{"name": "' + name[:40] + '", "x": ' + inner + "}"
    response = post_raw(table, f"/groups/{table.slug}/players", body)
    assert response.status_code == 201, response.get_json()
    too_deep = '{"name": "Rex", "x": %s}' % (32 * "[" + 32 * "]")
    error(post_raw(table, f"/groups/{table.slug}/players", too_deep), 400)


# A string left open and full of escaped quotes (issue 38): the nesting check read it again
# from every quote inside it, so 32 KB took seconds of a core (and stalled every other request)
# and 2 MiB would have taken hours, before any limit or sign-in could refuse it.
CRAFTED = '"' + '\\"' * 16_000


def test_the_nesting_scan_reads_a_string_left_open_once():
    # The scan's work: the crafted string is one match, from its opening quote to the end of
    # the body, never tried again from a quote inside it.
    assert [m.span() for m in parse._STRING.finditer(CRAFTED)] == [(0, len(CRAFTED))]
    assert parse.nesting(CRAFTED) == 0
    assert parse.nesting(CRAFTED + "[[[[") == 0  # inside the string left open
    assert parse.nesting(CRAFTED + '"' + "[" * 40) == 40  # closed: the brackets after count
    assert parse.nesting('["\\\\", [["]"]]]') == 3  # an escaped backslash closes no string
    assert parse.nesting('[["a\\') == 2  # a string left open on a lone backslash


@pytest.mark.parametrize("copies", [16_000, 1_000_000])
def test_a_crafted_body_of_escaped_quotes_is_refused_as_not_json(app, client, copies):
    """POST /api/v1/groups needs no sign-in: 32 KB, and 2 MiB (the largest body the API takes),
    of `"` and `\\"` is refused as JSON it is not, and nothing is made."""
    before = snapshot(app)
    body = '"' + '\\"' * copies
    response = client.post("/api/v1/groups", data=body, content_type="application/json")
    assert "not valid JSON" in error(response, 400)
    assert snapshot(app) == before


def test_malformed_utf8_is_a_bad_request(table):
    path = f"/groups/{table.slug}/players"
    assert "UTF-8" in error(post_raw(table, path, b'{"name":"\xff"}'), 400)
    error(post_raw(table, f"/groups/{table.slug}/players", b'{"name":"\xed\xa0\x80"}'), 400)


def test_nan_and_infinity_are_not_json(table, sid):
    for constant in ("NaN", "Infinity", "-Infinity"):
        body = '{"results": [], "version": ' + constant + "}"
        error(post_raw(table, f"/sessions/{sid}/hands", body), 400)


@pytest.mark.parametrize("digits", [25, 5000, 100_000])
def test_a_number_of_thousands_of_digits_is_refused_naming_its_field(app, table, digits):
    before = snapshot(app)
    huge = "9" * digits
    start = '{"game": "spot", "players": ["A", "B"], "dealer": "A", "options": {"ante": '
    body = start + huge + "}}"
    error(post_raw(table, f"/groups/{table.slug}/sessions", body), 422, "options.ante")
    rummy = '{"game": "rummy", "players": ["A", "B"], "dealer": "A", "options": {"target": '
    error(
        post_raw(table, f"/groups/{table.slug}/sessions", rummy + huge + "}}"),
        422,
        "options.target",
    )
    assert snapshot(app) == before


# --- Ids no row can have --------------------------------------------------------------------------

TOO_LARGE = ["2147483648", "9223372036854775808", "99999999999999999999999", "9" * 5000]


@pytest.mark.parametrize("number", TOO_LARGE)
def test_an_id_past_the_databases_integer_is_not_found_on_every_call(app, table, sid, number):
    table.hand(sid, SEED_HAND_1)
    before = snapshot(app)
    calls = [
        ("GET", f"/sessions/{number}"),
        ("GET", f"/sessions/{number}/hands"),
        ("GET", f"/sessions/{number}/settlement"),
        ("GET", f"/sessions/{number}/history"),
        ("GET", f"/sessions/{number}/export.xlsx"),
        ("GET", f"/sessions/{number}/hands.csv"),
        ("POST", f"/sessions/{number}/hands"),
        ("POST", f"/sessions/{number}/finish"),
        ("POST", f"/sessions/{number}/players"),
        ("DELETE", f"/sessions/{number}/players/Enda"),
        ("PUT", f"/sessions/{sid}/hands/{number}"),
        ("DELETE", f"/sessions/{sid}/hands/{number}"),
    ]
    for method, path in calls:
        error(table.call(method, path, json={}), 404)
    assert snapshot(app) == before


# --- Names and other text -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name", ["Rex\x00", "\x00", "Re\x07x", "Rex\x7f", "Rex\x1b[31m", "R\ud800x"]
)
def test_a_player_name_with_a_control_character_or_a_lone_surrogate_is_refused(app, table, name):
    before = snapshot(app)

    error(table.post(f"/groups/{table.slug}/players", {"name": name}), 422, "name")
    body = {**SPOT, "players": ["Enda", name]}
    error(table.post(f"/groups/{table.slug}/sessions", body), 422, "players[1]")

    assert snapshot(app) == before


@pytest.mark.parametrize("name", ["Thursday\x00", "Thurs\x08day", "Th\udc00ursday"])
def test_a_group_name_with_a_control_character_or_a_lone_surrogate_is_refused(app, client, name):
    before = snapshot(app)
    response = client.post("/api/v1/groups", json={"name": name, "passphrase": "pints of plain"})
    error(response, 422, "name")
    assert snapshot(app) == before


def test_names_keep_their_length_limits_and_tidy_their_spaces(client, table):
    error(table.post(f"/groups/{table.slug}/players", {"name": "x" * 41}), 422, "name")
    assert table.ok("POST", f"/groups/{table.slug}/players", {"name": "x" * 40}, 201)
    tidied = table.ok("POST", f"/groups/{table.slug}/players", {"name": " Mary\tAnn  "}, 201)
    assert tidied["name"] == "Mary Ann"
    long_group = client.post("/api/v1/groups", json={"name": "g" * 80, "passphrase": "p" * 8})
    assert long_group.status_code == 201


# Every line break str.splitlines knows (issue 38: U+2028 in a bank account's name split the
# EPC QR code's text into more lines for a reader that splits on every line break).
LINE_BREAKS = [
    "\n",
    "\r",
    "\r\n",
    "\x0b",
    "\x0c",
    "\x1c",
    "\x1d",
    "\x1e",
    "\x85",
    "\u2028",
    "\u2029",
]


@pytest.mark.parametrize("cut", LINE_BREAKS)
def test_no_name_holds_a_line_break(app, client, table, cut):
    before = snapshot(app)
    players = f"/groups/{table.slug}/players"
    assert "line break" in error(table.post(players, {"name": f"Mary{cut}Ann"}), 422, "name")
    assert "line break" in error(table.post(players, {"name": f"Mary Ann{cut}"}), 422, "name")
    body = {**SPOT, "players": ["Enda", f"Mary{cut}Ann"]}
    error(table.post(f"/groups/{table.slug}/sessions", body), 422, "players[1]")
    group = {"name": f"Thursday{cut}Crowd", "passphrase": "pints of plain"}
    assert "line break" in error(client.post("/api/v1/groups", json=group), 422, "name")
    assert snapshot(app) == before
    table.ok("POST", players, {"name": "Enda"}, 201)
    before = snapshot(app)
    account = {"iban": "NL91ABNA0417164300", "name": f"Enda{cut}Byrne"}
    refused = table.put(f"/groups/{table.slug}/players/Enda/account", account)
    assert "line break" in error(refused, 422, "name")
    tally = {"game": "tally", "players": ["Enda", "Finn"], "dealer": "Enda"}
    tally["options"] = {"name": f"Hearts{cut}Whist"}
    error(table.post(f"/groups/{table.slug}/sessions", tally), 422, "options.name")
    assert snapshot(app) == before


@pytest.mark.parametrize("bad", ["\x00", "\ud800", "\udfff"])
def test_any_text_holding_nul_or_a_lone_surrogate_is_refused_naming_its_field(
    app, client, table, sid, bad
):
    before = snapshot(app)
    hand = {"results": [dict(r) for r in SEED_HAND_1["results"]]}
    hand["results"][2]["cards"] = f"2 9{bad}"
    error(table.post(f"/sessions/{sid}/hands", hand), 422, "results[2].cards")
    error(
        table.post(f"/sessions/{sid}/hands", {**SEED_HAND_1, "request_id": f"r{bad}"}),
        422,
        "request_id",
    )
    passphrase = {"name": "Snug", "passphrase": f"pints of {bad}plain"}
    error(client.post("/api/v1/groups", json=passphrase), 422, "passphrase")
    options = {**SPOT, "options": {"currency": f"EU{bad}"}}
    error(table.post(f"/groups/{table.slug}/sessions", options), 422, "options.currency")
    finish = table.post(f"/sessions/{sid}/finish", {"leftover_pot": f"carry{bad}"})
    error(finish, 422, "leftover_pot")
    assert snapshot(app) == before


# --- Options and numbers --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "option", "value", "words"),
    [
        ("spot", "ante", 10_001, "at most 10000"),
        ("spot", "ante", "10001", "at most 10000"),
        ("spot", "ante", 10**28, "too large"),
        ("spot", "ante", 1e28, "whole number"),
        ("spot", "ante", 5.0, "whole number"),
        ("spot", "ante", "9" * 5000, "at most 10000"),
        ("spot", "ante", "²", "whole number"),
        ("spot", "ante", "--5", "whole number"),
        ("spot", "unit_value", "1000.01", "at most 1000"),
        ("spot", "unit_value", "0", "more than nothing"),
        ("spot", "unit_value", "-1", "more than nothing"),
        ("rummy", "target", 100_001, "at most 100000"),
        ("rummy", "target", 2**31, "too large"),
    ],
)
def test_options_past_their_bounds_are_refused_naming_the_option(
    app, table, game, option, value, words
):
    before = snapshot(app)
    body = {"game": game, "players": ["Enda", "John"], "dealer": "Enda", "options": {option: value}}
    message = error(table.post(f"/groups/{table.slug}/sessions", body), 422, f"options.{option}")
    assert words in message
    assert snapshot(app) == before


def test_options_at_their_bounds_are_taken(table):
    spot = table.session(["Enda", "John"], dealer="Enda", ante=10_000, unit_value="1000")
    assert (spot["options"]["ante"], spot["options"]["unit_value"]) == (10_000, "1000")
    rummy = table.session(["Enda", "John"], dealer="Enda", game="rummy", target=100_000)
    assert rummy["options"]["target"] == 100_000


def test_an_ante_of_1e28_never_reaches_the_group_page(app, client, table):
    body = {**SPOT, "options": {"ante": 10**28}}
    error(table.post(f"/groups/{table.slug}/sessions", body), 422, "options.ante")
    assert table.ok("GET", f"/groups/{table.slug}")["sessions"] == []


@pytest.mark.parametrize("spots", [2**31, 2**63, -(2**63), 10**30])
def test_a_spot_total_past_the_databases_integer_is_refused(app, table, spots):
    sid = table.session(["Enda", "John"], dealer="Enda", entry="totals")["id"]
    before = snapshot(app)
    hand = {"results": [{"player": "Enda", "spots": spots}], "out": "John"}
    error(table.post(f"/sessions/{sid}/hands", hand), 422, "results[0].spots")
    assert snapshot(app) == before


def test_a_version_past_the_databases_integer_is_refused(table, sid):
    error(table.post(f"/sessions/{sid}/hands", {**SEED_HAND_1, "version": 2**40}), 422, "version")


def test_a_group_name_holding_nul_in_basic_auth_is_a_wrong_name(client):
    for user in ("\x00", "thursday-crowd\x00"):
        response = client.get(f"/api/v1/groups/{user}", headers=basic(user, "pints of plain"))
        error(response, 401)
