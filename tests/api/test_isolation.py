"""Groups cannot see each other: every API address, walked from the app's own URL map."""

from __future__ import annotations

import pytest

from tests.api.helpers import Table, basic, error, hand_of

A_PLAYERS = ["Zebedee", "Philomena", "Cornelius"]
A_NAME = "Secret Snug Club"
# The calls anyone may make: no group is named in them.
PUBLIC = {("GET", "api.games"), ("POST", "api.create_group")}
# A payment group A may make after its hand (Philomena owes Zebedee 12 units).
PAYMENT = {"from": "Philomena", "to": "Zebedee", "units": 2}
# A round group A records (RULES.md §6c).
ROUND = {"what": "crisps", "amount": "3.00", "paid_by": "Cornelius", "for": A_PLAYERS}
SEASON = {"name": "Winter", "game": "spot", "from": "2000-01-01", "to": "2999-12-31"}


EVENING = {"name": "Drive", "game": "cribbage"}


@pytest.fixture
def groups(client):
    """Group A with a session, a hand, a payment and a round, group B with nothing, and A as A
    sees it."""
    a = Table(client, A_NAME)
    b = Table(client, "The Other Table", passphrase="another passphrase")
    sid = a.session(A_PLAYERS, dealer="Zebedee")["id"]
    a.hand(sid, hand_of({"Zebedee": "A 2", "Philomena": "3 4", "Cornelius": "5 6"}))
    a.ok("POST", f"/sessions/{sid}/payments", PAYMENT, 201)
    a.ok("POST", f"/sessions/{sid}/rounds", ROUND, 201)
    # A season (RULES.md §13): its id is 1, as group A's first.
    assert a.ok("POST", f"/groups/{a.slug}/seasons", SEASON, 201)["id"] == 1
    # A club evening (RULES.md §19), Cornelius checked in: its id is 1 too.
    assert a.ok("POST", f"/groups/{a.slug}/evenings", EVENING, 201)["id"] == 1
    a.ok("POST", f"/groups/{a.slug}/evenings/1/players", {"player": "Cornelius"}, 201)
    return a, b, sid


def snapshot(table: Table, sid: int):
    return (
        table.ok("GET", f"/groups/{table.slug}"),
        table.ok("GET", f"/sessions/{sid}"),
        table.ok("GET", f"/sessions/{sid}/hands"),
        table.ok("GET", f"/sessions/{sid}/history"),
        table.ok("GET", f"/sessions/{sid}/payments"),
        table.ok("GET", f"/sessions/{sid}/rounds"),
        table.ok("GET", f"/groups/{table.slug}/seasons"),
        table.ok("GET", f"/groups/{table.slug}/evenings"),
    )


def a_calls(app, slug: str, sid: int):
    """Every (method, path, endpoint) of the API, filled in with group A's things."""
    values = {"slug": slug, "session_id": sid, "number": 1, "name": "Cornelius", "payment_id": 1}
    values["call"] = "bids"  # a game's own call (Boerenbridge's)
    values["season_id"] = 1
    values["evening_id"] = 1
    values["round_id"] = 1
    calls = []
    for rule in app.url_map.iter_rules():
        if not rule.endpoint.startswith("api."):
            continue
        unknown = set(rule.arguments) - set(values)
        assert not unknown, f"{rule.rule}: teach this test about {unknown}"
        path = rule.rule.removeprefix("/api/v1")
        for argument in rule.arguments:
            path = path.replace(f"<{argument}>", str(values[argument]))
            for converter in ("int", "path", "string"):
                path = path.replace(f"<{converter}:{argument}>", str(values[argument]))
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            if (method, rule.endpoint) not in PUBLIC:
                calls.append((method, path, rule.endpoint))
    return calls


def body_for(endpoint: str):
    """A body that would be good for group A, so only the group can be what is refused."""
    return {
        "api.add_player": {"name": "Intruder"},
        "api.create_session": {"game": "spot", "players": A_PLAYERS, "dealer": "Zebedee"},
        "api.join": {"name": "Intruder", "after": "Zebedee"},
        "api.add_hand": hand_of({"Zebedee": "7 8", "Philomena": "3 4", "Cornelius": "5 6"}),
        "api.correct_hand": hand_of({"Zebedee": "7 8", "Philomena": "3 4", "Cornelius": "5 6"}),
        "api.finish": {"leftover_pot": "refund"},
        "api.pot_plan": {"leftover_pot": "refund"},
        "api.reopen": {},
        "api.record_payment": PAYMENT,
        "api.pay_tab": {"from": "Zebedee", "to": "Philomena", "amount": "0.01", "currency": "EUR"},
        "api.set_account": {"iban": "NL91ABNA0417164300", "name": "Cornelius"},
        "api.buy_in": {"player": "Zebedee"},
        "api.take_back_buy_in": {"player": "Zebedee"},
        "api.add_round": ROUND,
        "api.change_round": ROUND,
        "api.game_call": {"bids": {"Zebedee": 0, "Philomena": 0, "Cornelius": 0}},
        "api.create_season": SEASON,
        "api.update_season": {"best_of": 2},
        "api.close_season": {"settle": "now"},
        "api.create_evening": EVENING,
        "api.check_in": {"player": "Zebedee"},
        "api.draw_round": {},
        "api.close_evening": {"settle": "now"},
    }.get(endpoint)


def assert_nothing_of_a_shows(response):
    text = response.get_data(as_text=True)
    for secret in [A_NAME, *A_PLAYERS]:
        assert secret not in text


def test_every_address_of_the_api_is_walked(app, groups):
    a, _, sid = groups
    endpoints = {endpoint for _, _, endpoint in a_calls(app, a.slug, sid)}
    assert {"api.session", "api.add_hand", "api.correct_hand", "api.settlement"} <= endpoints


def test_with_another_groups_credentials_every_address_is_not_found(app, groups):
    a, b, sid = groups
    before = snapshot(a, sid)
    for method, path, endpoint in a_calls(app, a.slug, sid):
        response = b.call(method, path, body_for(endpoint))
        assert response.status_code == 404, (method, path, response.get_json())
        error(response, 404)
        assert_nothing_of_a_shows(response)
    assert snapshot(a, sid) == before


def test_without_credentials_or_with_a_wrong_passphrase_every_address_is_401(app, groups):
    a, b, sid = groups
    before = snapshot(a, sid)
    for method, path, endpoint in a_calls(app, a.slug, sid):
        response = a.call(method, path, body_for(endpoint), headers={})
        error(response, 401)
        assert response.headers["WWW-Authenticate"] == 'Basic realm="Pub Ledger"'
        assert_nothing_of_a_shows(response)
    # B's passphrase with A's slug is a wrong passphrase (only a few: guesses are limited).
    for method, path, endpoint in a_calls(app, a.slug, sid)[:3]:
        wrong = basic(a.slug, b.passphrase)
        response = a.call(method, path, body_for(endpoint), headers=wrong)
        error(response, 401)
        assert_nothing_of_a_shows(response)
    assert snapshot(a, sid) == before


def test_another_groups_session_answers_exactly_like_one_that_does_not_exist(groups):
    a, b, sid = groups
    for suffix in ["", "/hands", "/settlement", "/history"]:
        theirs = b.get(f"/sessions/{sid}{suffix}")
        nowhere = b.get(f"/sessions/{sid + 1000}{suffix}")
        assert theirs.status_code == nowhere.status_code == 404
        assert theirs.get_json()["error"]["message"].replace(str(sid), "N") == (
            nowhere.get_json()["error"]["message"].replace(str(sid + 1000), "N")
        )


def test_a_session_of_another_group_cannot_be_reached_through_ones_own_group(groups):
    a, b, sid = groups
    # B names A's players: they become B's own players, nothing of A's is touched.
    own = b.session(A_PLAYERS, dealer="Zebedee")
    assert own["id"] != sid
    assert b.ok("GET", f"/sessions/{own['id']}")["hands_played"] == 0
    assert a.ok("GET", f"/sessions/{sid}")["hands_played"] == 1
