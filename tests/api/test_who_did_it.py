"""API.md fifth edition, "Who did it": every call that changes something takes an optional
``"by": name`` (a player of the group; anyone else is refused, 422 naming ``by``, and nothing
changes), and a session's history answers ``by`` (null where nobody was named)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, timedelta
from typing import Any

import pytest

from tests.api.dbstate import snapshot
from tests.api.helpers import SEED_HAND_1, SEED_HAND_2, SEED_PLAYERS, Table, error

PINTS = {"what": "a round", "amount": "18.40", "paid_by": "John", "for": SEED_PLAYERS}
TODAY = date.today()
SEASON = {
    "name": "Winter",
    "game": "spot",
    "from": (TODAY - timedelta(days=30)).isoformat(),
    "to": (TODAY + timedelta(days=30)).isoformat(),
    "scoring": "places",
    "entry_fee": 500,
    "unit_value": "0.01",
    "currency": "EUR",
    "prizes": [100],
}


def history(table: Table, sid: int) -> list[dict[str, Any]]:
    return table.ok("GET", f"/sessions/{sid}/history")


def last_by(table: Table, sid: int, kind: str) -> str | None:
    lines = [c for c in history(table, sid) if c["kind"] == kind]
    assert lines, (kind, history(table, sid))
    return lines[-1]["by"]


class Calls:
    """Each changing call, sent first naming a stranger (refused, nothing changed) and then
    a player of the group in another case (done, and the history names them as stored)."""

    def __init__(self, app: Any, table: Table) -> None:
        self.app, self.table = app, table
        self.sent: set[str] = set()

    def send(
        self,
        method: str,
        path: str,
        body: dict[str, Any] | None = None,
        status: int = 200,
        **headers: str,
    ) -> Any:
        adapter = self.app.url_map.bind("localhost")
        self.sent.add(adapter.match(f"/api/v1{path}", method)[0])
        before = snapshot(self.app)
        sent_with = headers or self.table.headers
        refused = self.table.call(method, path, {**(body or {}), "by": "Zed"}, headers=sent_with)
        message = error(refused, 422, "by")
        assert "Zed" in message, message
        assert snapshot(self.app) == before, (method, path)
        done = self.table.call(method, path, {**(body or {}), "by": "rEX"}, headers=sent_with)
        assert done.status_code == status, (method, path, done.get_json())
        return done.get_json()


def test_every_call_that_changes_something_takes_by_and_the_history_names_who(app, table):
    calls = Calls(app, table)
    slug = table.slug
    send: Callable[..., Any] = calls.send

    for name in SEED_PLAYERS:
        table.ok("POST", f"/groups/{slug}/players", {"name": name}, 201)
    send("POST", f"/groups/{slug}/players", {"name": "Maeve"}, 201)
    started = send("POST", f"/groups/{slug}/sessions", {
        "game": "spot", "players": SEED_PLAYERS, "dealer": "Finn", "options": {}}, 201)  # fmt: skip
    sid = started["id"]
    assert last_by(table, sid, "session.created") == "Rex"
    send("POST", f"/sessions/{sid}/hands", SEED_HAND_1, 201)
    assert last_by(table, sid, "hand.created") == "Rex"
    send("PUT", f"/sessions/{sid}/hands/1", SEED_HAND_1)
    assert last_by(table, sid, "hand.corrected") == "Rex"
    send("POST", f"/sessions/{sid}/hands", SEED_HAND_2, 201)
    send("DELETE", f"/sessions/{sid}/hands/2", None, 204)
    assert last_by(table, sid, "hand.deleted") == "Rex"
    table.hand(sid, SEED_HAND_2)
    send("POST", f"/sessions/{sid}/players", {"name": "Maeve", "after": "Finn"}, 201)
    assert last_by(table, sid, "player.joined") == "Rex"
    send("DELETE", f"/sessions/{sid}/players/Maeve", None)
    assert last_by(table, sid, "player.left") == "Rex"
    send("PUT", f"/sessions/{sid}/pot", {"leftover_pot": "carry", "pot_keeper": "Enda"})
    assert last_by(table, sid, "pot.planned") == "Rex"
    rnd = send("POST", f"/sessions/{sid}/rounds", PINTS, 201)
    assert last_by(table, sid, "round.added") == "Rex"
    send("PUT", f"/sessions/{sid}/rounds/{rnd['id']}", {**PINTS, "amount": "20.00"})
    assert last_by(table, sid, "round.changed") == "Rex"
    send("DELETE", f"/sessions/{sid}/rounds/{rnd['id']}", None, 204)
    assert last_by(table, sid, "round.deleted") == "Rex"
    paid = send(
        "POST", f"/sessions/{sid}/payments", {"from": "Finn", "to": "Enda", "units": 1}, 201
    )
    assert last_by(table, sid, "payment.recorded") == "Rex"
    send("DELETE", f"/sessions/{sid}/payments/{paid['id']}", None, 204)
    assert last_by(table, sid, "payment.deleted") == "Rex"
    send("POST", f"/sessions/{sid}/finish", {"leftover_pot": "refund", "settle": "tab"})
    assert last_by(table, sid, "session.finished") == "Rex"
    send("DELETE", f"/sessions/{sid}/tab", None)
    assert last_by(table, sid, "tab.removed") == "Rex"
    send("POST", f"/sessions/{sid}/reopen", None)
    assert last_by(table, sid, "session.reopened") == "Rex"

    kaluki = table.session(["Ann", "Bob", "Cas"], dealer="Cas", game="kaluki", entry="totals")
    kid = kaluki["id"]
    table.hand(kid, {"out": "Ann", "results": [
        {"player": "Bob", "spots": 160}, {"player": "Cas", "spots": 20}]})  # fmt: skip
    send("POST", f"/sessions/{kid}/buy_in", {"player": "Bob"})
    assert last_by(table, kid, "player.bought_in") == "Rex"
    send("POST", f"/sessions/{kid}/buy_in/take_back", {"player": "Bob"})
    assert last_by(table, kid, "player.buy_in_taken_back") == "Rex"

    seats = ["Ann", "Bob", "Cas", "Dee"]
    bridge = table.session(seats, dealer="Ann", game="boerenbridge", max_cards=4)["id"]
    send("PUT", f"/sessions/{bridge}/bids", {"bids": {"Ann": 0, "Bob": 1, "Cas": 1, "Dee": 0}})
    assert last_by(table, bridge, "session.called") == "Rex"

    empty = table.session()["id"]
    send("DELETE", f"/sessions/{empty}", None, 204)

    tab_night = table.session()["id"]
    table.hand(tab_night, SEED_HAND_1)
    table.hand(tab_night, SEED_HAND_2)
    table.ok("POST", f"/sessions/{tab_night}/finish", {"settle": "tab"})
    paying = {"from": "Finn", "to": "Enda", "amount": "0.01", "currency": "EUR"}
    tab_paid = send("POST", f"/groups/{slug}/tab/payments", paying, 201)
    send("DELETE", f"/groups/{slug}/tab/payments/{tab_paid['id']}", None, 204)
    account = {"iban": "NL91ABNA0417164300", "name": "Enda Byrne"}
    send("PUT", f"/groups/{slug}/players/Enda/account", account)
    send("DELETE", f"/groups/{slug}/players/Enda/account", None, 204)

    season = send("POST", f"/groups/{slug}/seasons", SEASON, 201)
    send("PUT", f"/groups/{slug}/seasons/{season['id']}", {**SEASON, "name": "Spring"})
    send("DELETE", f"/groups/{slug}/seasons/{season['id']}", None, 204)
    season = table.ok("POST", f"/groups/{slug}/seasons", SEASON, 201)
    send("POST", f"/groups/{slug}/seasons/{season['id']}/close", {"settle": "now"})
    # A club evening (RULES.md §19): made, checked in and out, drawn, closed.
    evening = send("POST", f"/groups/{slug}/evenings", {"name": "Drive", "game": "cribbage"}, 201)
    at = f"/groups/{slug}/evenings/{evening['id']}"
    for name in ("Ann", "Bob"):
        table.ok("POST", f"{at}/players", {"player": name}, 201)
    send("POST", f"{at}/players", {"player": "Cas"}, 201)
    send("DELETE", f"{at}/players/Cas", None)
    drawn = send("POST", f"{at}/rounds", {}, 201)
    night = drawn["tables"][0]["session"]
    assert last_by(table, night, "session.created") == "Rex"
    table.ok("POST", f"/sessions/{night}/finish", {})
    send("POST", f"{at}/close", {"settle": "now"})

    token = send("POST", f"/groups/{slug}/tokens", None, 201)["token"]
    send("DELETE", f"/groups/{slug}/tokens/current", None, 204, Authorization=f"Bearer {token}")

    # Every call of the API that changes something was sent (but making a group: it has no
    # players yet).
    changing = {
        rule.endpoint
        for rule in app.url_map.iter_rules()
        if rule.endpoint.startswith("api.") and rule.methods & {"POST", "PUT", "DELETE"}
    }
    assert changing - calls.sent == {"api.create_group"}


def test_a_change_nobody_is_named_for_answers_by_null_and_names_survive_a_rename(table):
    sid = table.session()["id"]
    table.hand(sid, SEED_HAND_1)
    table.hand(sid, {**SEED_HAND_2, "by": "enda"})
    lines = history(table, sid)
    assert [(c["kind"], c["by"], c["phone"]) for c in lines] == [
        ("session.created", None, None),
        ("hand.created", None, None),
        ("hand.created", "Enda", None),
    ]
    players = table.ok("GET", f"/groups/{table.slug}")["players"]
    enda = next(p["id"] for p in players if p["name"] == "Enda")
    # Renamed on the group page (the API has no call for it): the history follows the name.
    signing_in = {"open-group": table.slug, "open-passphrase": table.passphrase}
    assert table.client.post("/open", data=signing_in).status_code == 302
    renamed = table.client.post(f"/g/{table.slug}/players/{enda}", data={"rename-name": "Enya"})
    assert renamed.status_code == 302
    lines = history(table, sid)
    assert [c["by"] for c in lines if c["kind"] == "hand.created"] == [None, "Enya"]
    assert lines[-1]["kind"] == "player.renamed" and lines[-1]["by"] is None


@pytest.mark.parametrize(
    ("by", "status"),
    [(5, 422), (["Enda"], 422), (True, 422), ("", 422), ("   ", 422), ("Zed", 422)],
)
def test_by_that_is_no_player_of_the_group_is_refused_naming_it(app, table, by, status):
    sid = table.session()["id"]
    before = snapshot(app)
    error(table.post(f"/sessions/{sid}/hands", {**SEED_HAND_1, "by": by}), status, "by")
    assert snapshot(app) == before


def test_by_may_not_name_a_player_of_another_group(app, table, other):
    other.ok("POST", f"/groups/{other.slug}/players", {"name": "Orla"}, 201)
    sid = table.session()["id"]
    before = snapshot(app)
    message = error(table.post(f"/sessions/{sid}/hands", {**SEED_HAND_1, "by": "Orla"}), 422, "by")
    assert message == "There is no player called Orla in this group to have done this."
    assert snapshot(app) == before
    # A player the two groups both have is this group's own.
    other.ok("POST", f"/groups/{other.slug}/players", {"name": "Rex"}, 201)
    table.hand(sid, {**SEED_HAND_1, "by": "Rex"})
    assert history(table, sid)[-1]["by"] == "Rex"


def test_a_resend_of_a_hand_names_its_first_sender(table):
    """A retry with the same request id answers the first hand: who sent it first stays."""
    sid = table.session()["id"]
    table.hand(sid, {**SEED_HAND_1, "request_id": "r-1", "by": "John"})
    again = table.post(f"/sessions/{sid}/hands", {**SEED_HAND_1, "request_id": "r-1", "by": "Rex"})
    assert again.status_code == 200
    assert [c["by"] for c in history(table, sid) if c["kind"] == "hand.created"] == ["John"]


def test_a_delete_names_who_did_it_in_a_json_body_and_never_in_its_address(app, table):
    """docs/api.md: a DELETE names its player as any call does, ``{"by": "Rex"}`` sent as
    JSON; sent bare it names nobody; ``?by=`` in the address is refused, nothing deleted,
    rather than leaving a history that names nobody where the caller meant Rex."""
    sid = table.session()["id"]
    for n in (1, 2, 3):
        table.hand(sid, SEED_HAND_1 if n % 2 else SEED_HAND_2)
    before = snapshot(app)
    message = error(table.call("DELETE", f"/sessions/{sid}/hands/3?by=Rex"), 422, "by")
    assert "JSON body" in message
    assert snapshot(app) == before
    assert table.call("DELETE", f"/sessions/{sid}/hands/3", {"by": "rex"}).status_code == 204
    assert last_by(table, sid, "hand.deleted") == "Rex"
    assert table.call("DELETE", f"/sessions/{sid}/hands/2").status_code == 204
    assert last_by(table, sid, "hand.deleted") is None
