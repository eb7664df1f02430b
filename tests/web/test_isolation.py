"""Groups cannot see each other on the pages: every page address, walked from the URL map.

A phone signed in to its own group tries every page of another group's things: under its own
group's address with their ids (404, as if they did not exist), and under their address
(401, their passphrase is asked). Nothing of theirs ever shows, and nothing of theirs changes.
"""

from __future__ import annotations

import re

import pytest

from tests.api.helpers import basic
from tests.web.pages import PASSPHRASE, Phone, html

SECRETS = ("Secretname", "Hiddenfella", "Theirs Snug")
# A form that would be good for their group, so only the group can be what is refused.
FORM = {
    "name": "Intruder",
    "rename-name": "Intruder",
    "join-name": "Intruder",
    "after": "Somebody",
    "number": "1",
    "from": "Intruder",
    "to": "Somebody",
    "units": "5",
}
# Pages that name no group, or make one: nothing of another group is reachable from them.
NO_GROUP = {"home.index", "home.restore", "home.create_group", "home.open_group", "home.join"}
NO_GROUP |= {"i18n.set_language", "health.healthz", "static"}
NO_GROUP |= {"assets.favicon", "assets.apple_touch_icon"}  # icons at the root, of no group


@pytest.fixture
def tables(app):
    ours = Phone(app.test_client())
    ours.create_group("Ours")
    ours.start(players=("Enda", "John"), dealer="John")
    theirs = Phone(app.test_client())
    theirs.create_group(SECRETS[2])
    theirs.start(players=SECRETS[:2], dealer=SECRETS[1])
    theirs.enter({SECRETS[0]: "J 10", SECRETS[1]: "A 3"})
    paid = theirs.client.post(
        f"{theirs.board}/payments", data={"from": SECRETS[0], "to": SECRETS[1], "units": "5"}
    )
    assert paid.status_code == 302
    crisps = {"paid_by": SECRETS[0], "amount": "3", "for": list(SECRETS[:2])}
    assert theirs.client.post(f"{theirs.board}/rounds/new", data=crisps).status_code == 302
    season = {"name": "Their league", "game": "spot", "from": "2000-01-01", "to": "2999-12-31"}
    made = theirs.client.post(f"/g/{theirs.slug}/seasons", data=season)
    assert made.status_code == 303 and made.headers["Location"].endswith("/seasons/1")
    drive = {"name": "Their drive", "game": "cribbage"}
    made = theirs.client.post(f"/g/{theirs.slug}/evenings", data=drive)
    assert made.status_code == 303 and made.headers["Location"].endswith("/evenings/1")
    checked = theirs.client.post(
        f"/g/{theirs.slug}/evenings/1/check-in", data={"player": SECRETS[0]}
    )
    assert checked.status_code == 303
    return ours, theirs


def their_payment_id(app, theirs: Phone) -> int:
    payments = app.test_client().get(
        f"/api/v1/sessions/{theirs.session_id}/payments", headers=basic(theirs.slug, PASSPHRASE)
    )
    (payment,) = payments.get_json()
    return payment["id"]


def their_round_id(app, theirs: Phone) -> int:
    rounds = app.test_client().get(
        f"/api/v1/sessions/{theirs.session_id}/rounds", headers=basic(theirs.slug, PASSPHRASE)
    )
    (made,) = rounds.get_json()
    return made["id"]


def their_player_id(app, theirs: Phone) -> int:
    group = app.test_client().get(
        f"/api/v1/groups/{theirs.slug}", headers=basic(theirs.slug, PASSPHRASE)
    )
    return next(p["id"] for p in group.get_json()["players"] if p["name"] == SECRETS[0])


def their_things(app, theirs: Phone) -> list:
    client, auth = app.test_client(), basic(theirs.slug, PASSPHRASE)
    paths = [f"/groups/{theirs.slug}", f"/groups/{theirs.slug}/seasons"] + [
        f"/sessions/{theirs.session_id}{suffix}"
        for suffix in ("", "/hands", "/history", "/payments", "/rounds")
    ]
    return [client.get(f"/api/v1{p}", headers=auth).get_json() for p in paths]


def page_calls(app, values: dict[str, object]):
    """Every (method, path, endpoint, arguments) of the pages that name a group, filled in."""
    calls = []
    for rule in app.url_map.iter_rules():
        if rule.endpoint.startswith("api.") or rule.endpoint in NO_GROUP:
            continue
        unknown = set(rule.arguments) - set(values)
        assert not unknown, f"{rule.rule}: teach this test about {unknown}"
        path = rule.rule
        for argument in rule.arguments:  # <name>, <int:name>, <any(a, b):name>
            path = re.sub(rf"<[^<>]*\b{argument}>", str(values[argument]), path)
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            calls.append((method, path, rule.endpoint, set(rule.arguments)))
    return calls


def assert_nothing_of_theirs(response, theirs: Phone) -> None:
    page = html(response)
    for secret in (*SECRETS, theirs.slug):
        assert secret not in page, (response.request.path, secret)
    assert "Traceback" not in page


def test_every_page_that_names_a_group_is_walked(app, tables):
    ours, theirs = tables
    values = {
        "slug": ours.slug,
        "session_id": 1,
        "number": 1,
        "player_id": 1,
        "name": "Enda",
        "payment_id": 1,
        "round_id": 1,
        "season_id": 1,
        "evening_id": 1,
        "what": "sheet",
    }
    endpoints = {endpoint for _, _, endpoint, _ in page_calls(app, values)}
    assert {"sessions.show", "hands.edit", "groups.backup", "groups.rename_player"} <= endpoints


def test_their_ids_under_our_group_are_not_found_and_show_nothing_of_theirs(app, tables):
    ours, theirs = tables
    before = their_things(app, theirs)
    values = {
        "slug": ours.slug,
        "session_id": theirs.session_id,
        "number": 1,
        "player_id": their_player_id(app, theirs),
        # A player's page under our group: not found. (Not their player's name: the address
        # itself is echoed on the page, in the language switch; test_stats.py tries theirs.)
        "name": "Intruder",
        "payment_id": their_payment_id(app, theirs),
        "round_id": their_round_id(app, theirs),
        "season_id": 1,  # their league
        "evening_id": 1,  # their club evening
        "what": "sheet",
    }
    walked = 0
    for method, path, _, arguments in page_calls(app, values):
        if not {"session_id", "player_id", "name", "season_id", "evening_id"} & arguments:
            continue  # our own group's pages: ours to see
        response = ours.client.open(path, method=method, data=FORM)
        assert response.status_code == 404, (method, path, response.status_code)
        assert_nothing_of_theirs(response, theirs)
        walked += 1
    assert walked >= 12
    assert their_things(app, theirs) == before


def test_their_group_address_asks_for_their_passphrase_and_shows_nothing_of_theirs(app, tables):
    ours, theirs = tables
    before = their_things(app, theirs)
    values = {
        "slug": theirs.slug,
        "session_id": theirs.session_id,
        "number": 1,
        "player_id": their_player_id(app, theirs),
        "name": "Intruder",
        "payment_id": their_payment_id(app, theirs),
        "round_id": their_round_id(app, theirs),
        "season_id": 1,
        "evening_id": 1,
        "what": "sheet",
    }
    for method, path, _, _ in page_calls(app, values):
        response = ours.client.open(path, method=method, data=FORM)
        assert response.status_code == 401, (method, path, response.status_code)
        page = html(response)
        for secret in SECRETS:
            assert secret not in page, (path, secret)
    assert their_things(app, theirs) == before
