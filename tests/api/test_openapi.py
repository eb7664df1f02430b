"""docs/openapi.yaml against the app: every /api/v1 route is described, and the answers of a
real night (money, points, Spin Rummy, mistakes included) validate against its schemas."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import jsonschema
import pytest
import yaml
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from ledger.rules import GAMES
from tests.api.helpers import SEED_HAND_1, SEED_HAND_2, SEED_PLAYERS, Table, basic

SPEC_PATH = Path(__file__).resolve().parents[2] / "docs" / "openapi.yaml"
API_MD = SPEC_PATH.with_name("api.md")
SPEC_URI = "urn:pub-ledger:openapi"

# Routes the spec describes before the app serves them, while they are being built; empty
# whenever a change lands, so the spec and the app match both ways.
PENDING_ROUTES: set[tuple[str, str]] = set()

# Werkzeug answers HEAD for every GET and OPTIONS for every route by itself; they are not
# calls of the API, so neither side lists them.
AUTOMATIC_METHODS = {"HEAD", "OPTIONS"}


@pytest.fixture(scope="module")
def spec() -> dict[str, Any]:
    return yaml.safe_load(SPEC_PATH.read_text(encoding="utf-8"))


def spec_path(rule: str) -> str:
    """A Flask rule as an OpenAPI path under the server /api/v1: ``<int:session_id>`` →
    ``{session_id}``."""
    path = re.sub(r"<(?:[a-z]+:)?([a-z_]+)>", r"{\1}", rule)
    assert path.startswith("/api/v1/"), rule
    return path.removeprefix("/api/v1")


def app_routes(app) -> set[tuple[str, str]]:
    return {
        (method, spec_path(rule.rule))
        for rule in app.url_map.iter_rules()
        if rule.rule.startswith("/api/v1/")
        for method in rule.methods - AUTOMATIC_METHODS
    }


def spec_routes(spec: dict[str, Any]) -> set[tuple[str, str]]:
    methods = {"get", "put", "post", "delete", "patch"}
    return {
        (method.upper(), path)
        for path, item in spec["paths"].items()
        for method in item
        if method in methods
    }


def test_the_spec_is_openapi_3_1_with_json_schema_2020_12_schemas(spec):
    assert spec["openapi"].startswith("3.1.")
    for schema in spec["components"]["schemas"].values():
        jsonschema.Draft202012Validator.check_schema(schema)


def test_every_api_route_of_the_app_is_in_the_spec(app, spec):
    missing = app_routes(app) - spec_routes(spec)
    assert not missing, f"routes the spec does not describe: {sorted(missing)}"


def test_every_route_in_the_spec_is_served_or_named_as_pending(app, spec):
    served = app_routes(app)
    extra = spec_routes(spec) - served - PENDING_ROUTES
    assert not extra, f"routes in the spec the app does not serve: {sorted(extra)}"
    # A pending route that has arrived must leave the list, so the list never hides one.
    arrived = PENDING_ROUTES & served
    assert not arrived, f"served now, take them out of PENDING_ROUTES: {sorted(arrived)}"


def test_every_api_route_is_in_the_prose_reference_too(app):
    """docs/api.md names each call as `METHOD /path` (placeholders in angle brackets)."""
    text = API_MD.read_text(encoding="utf-8")
    named = {
        (method, re.sub(r"<[^>]+>", "{}", path))
        for method, path in re.findall(r"`(GET|POST|PUT|DELETE) (/[^`\s?]+)", text)
    }
    served = {(method, re.sub(r"{[^}]+}", "{}", path)) for method, path in app_routes(app)}
    missing = served - named
    assert not missing, f"calls docs/api.md does not describe: {sorted(missing)}"


def test_every_ref_in_the_spec_resolves(spec):
    def refs(node: Any) -> Iterator[str]:
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "$ref":
                    yield value
                else:
                    yield from refs(value)
        elif isinstance(node, list):
            for item in node:
                yield from refs(item)

    for ref in refs(spec):
        assert ref.startswith("#/"), ref
        node: Any = spec
        for part in ref[2:].split("/"):
            node = node[part.replace("~1", "/").replace("~0", "~")]


# --- A real night, every answer checked against the spec -------------------------------------


class Checked:
    """Every API answer made through ``client`` is validated against the spec's schema for its
    route and status, and remembered as ``(method, path, status)``."""

    def __init__(self, app, client, spec: dict[str, Any]) -> None:
        self.adapter = app.url_map.bind("localhost")
        self.spec = spec
        resource = Resource.from_contents(spec, default_specification=DRAFT202012)
        self.registry = Registry().with_resource(SPEC_URI, resource)
        self.seen: set[tuple[str, str, int]] = set()
        original = client.open

        def open_checked(*args: Any, **kwargs: Any):
            response = original(*args, **kwargs)
            self.check(response)
            return response

        client.open = open_checked

    def check(self, response) -> None:
        request = response.request
        rule, _ = self.adapter.match(request.path, request.method, return_rule=True)
        path = spec_path(rule.rule)
        method = request.method.lower()
        status = str(response.status_code)
        operation = self.spec["paths"][path][method]
        assert status in operation["responses"], f"{method} {path} answered undocumented {status}"
        answer = operation["responses"][status]
        if "$ref" in answer:
            answer = self.resolve(answer["$ref"])
        self.seen.add((request.method, path, response.status_code))
        content = answer.get("content")
        if content is None:
            assert response.data == b"", f"{method} {path} {status} should have no body"
            return
        mimetype = response.mimetype
        assert mimetype in content, f"{method} {path} {status} answered {mimetype}"
        if mimetype != "application/json":
            return
        pointer = self.pointer(path, method, status, mimetype)
        validator = jsonschema.Draft202012Validator(
            {"$ref": f"{SPEC_URI}#{pointer}"}, registry=self.registry
        )
        errors = sorted(validator.iter_errors(response.get_json()), key=str)
        assert not errors, f"{method} {path} {status}: {errors[0]}"

    def resolve(self, ref: str) -> dict[str, Any]:
        node: Any = self.spec
        for part in ref.removeprefix("#/").split("/"):
            node = node[part]
        return node

    def pointer(self, path: str, method: str, status: str, mimetype: str) -> str:
        """The JSON pointer of the answer's schema; through a $ref'd response when it is one."""
        answer = self.spec["paths"][path][method]["responses"][status]
        if "$ref" in answer:
            base = answer["$ref"].removeprefix("#")
        else:
            escaped = path.replace("~", "~0").replace("/", "~1")
            base = f"/paths/{escaped}/{method}/responses/{status}"
        return quote(f"{base}/content/{mimetype.replace('/', '~1')}/schema", safe="/~")


def spin_hand(out: str, melds: list[str], other: str, cards: str) -> dict[str, Any]:
    return {
        "results": [{"player": out, "melds": melds}, {"player": other, "cards": cards}],
        "out": out,
    }


def test_the_games_are_the_registrys_and_the_spec_lists_none(client, spec):
    """A new game is its own files: the spec names no game (a key is any of those GET /games
    answers), and GET /games answers every game of the registry, in its order, each with the
    fields of its own entry."""
    key = spec["components"]["schemas"]["Game"]["properties"]["key"]
    assert "enum" not in key
    text = SPEC_PATH.read_text(encoding="utf-8")
    for game in GAMES:
        assert not re.search(rf"\benum: \[[^\]]*\b{game}\b", text), game
    answered = client.get("/api/v1/games").get_json()
    assert [g["key"] for g in answered] == list(GAMES)
    for g in answered:
        assert g["entry"] == GAMES[g["key"]].entry_fields()
        assert re.fullmatch(key["pattern"], g["key"])


def test_a_nights_answers_validate_against_the_spec(app, client, spec):
    checked = Checked(app, client, spec)
    assert client.get("/api/v1/games").status_code == 200
    table = Table(client)
    slug = table.slug
    group_path = f"/groups/{slug}"

    # Access: no credentials, a wrong passphrase, another group's address.
    assert table.get(group_path, headers={}).status_code == 401
    assert table.get(group_path, headers=basic(slug, "not the passphrase")).status_code == 401
    other = Table(client, name="The Other Table", passphrase="another passphrase")
    assert table.get(f"/groups/{other.slug}").status_code == 404

    # Players: one added, the same name again.
    table.ok("POST", f"{group_path}/players", {"name": "Enda"}, 201)
    assert table.post(f"{group_path}/players", {"name": "enda"}).status_code == 409
    assert table.post(f"{group_path}/players", {"name": 7}).status_code == 422
    assert (
        table.call(
            "POST", f"{group_path}/players", data="{", content_type="application/json"
        ).status_code
        == 400
    )

    # A Spot night for money: a hand, a repeat of it, a tie, a correction, a stale one.
    start = {"game": "spot", "players": SEED_PLAYERS, "dealer": "Finn", "request_id": "night-1"}
    sid = table.ok("POST", f"{group_path}/sessions", start, 201)["id"]
    assert table.ok("POST", f"{group_path}/sessions", start)["id"] == sid
    table.hand(sid, {**SEED_HAND_1, "request_id": "hand-1"})
    table.hand(sid, {**SEED_HAND_1, "request_id": "hand-1"}, status=200)
    table.hand(sid, SEED_HAND_2)
    tie = table.hand(
        sid,
        {
            "results": [
                {"player": "Enda", "cards": "5"},
                {"player": "John", "cards": "A 4"},
                {"player": "Rex", "cards": "K Q"},
                {"player": "Finn", "cards": "J Q K"},
            ]
        },
    )
    assert sorted(tie["winners"]) == ["Enda", "John"]
    version = table.ok("GET", f"/sessions/{sid}")["version"]
    table.ok("PUT", f"/sessions/{sid}/hands/1", {**SEED_HAND_1, "version": version})
    stale = table.put(f"/sessions/{sid}/hands/1", {**SEED_HAND_1, "version": version})
    assert stale.status_code == 409
    bad_card = {"results": [{"player": p, "cards": "Z"} for p in SEED_PLAYERS]}
    assert table.post(f"/sessions/{sid}/hands", bad_card).status_code == 422
    assert table.put(f"/sessions/{sid}/hands/99", SEED_HAND_1).status_code == 404
    # Someone joins and leaves between hands; a hand is entered and undone.
    table.ok("POST", f"/sessions/{sid}/players", {"name": "Mary", "after": "Rex"}, 201)
    table.ok("DELETE", f"/sessions/{sid}/players/Mary")
    table.hand(sid, SEED_HAND_1)
    assert table.delete(f"/sessions/{sid}/hands/4").status_code == 204
    assert table.delete(f"/sessions/{sid}/hands/1").status_code == 409
    for read in ("", "/hands", "/settlement", "/history"):
        table.ok("GET", f"/sessions/{sid}{read}")
    for download in ("/export.xlsx", "/hands.csv", "/payments.csv"):
        table.ok("GET", f"/sessions/{sid}{download}")
    assert table.get("/sessions/999999").status_code == 404
    # Rounds (RULES.md §6c): one recorded, its resend, a refusal, a change, a payment given
    # in the currency against the totals, then taken back with the round.
    pints = {"amount": "18.40", "paid_by": "John", "for": SEED_PLAYERS, "request_id": "r-1"}
    made = table.ok("POST", f"/sessions/{sid}/rounds", pints, 201)
    table.ok("POST", f"/sessions/{sid}/rounds", pints, 200)
    refused = {**pints, "amount": "0", "request_id": "r-2"}
    assert table.post(f"/sessions/{sid}/rounds", refused).status_code == 422
    table.ok("PUT", f"/sessions/{sid}/rounds/{made['id']}", {**pints, "shares": {"Rex": 2}})
    table.ok("GET", f"/sessions/{sid}/rounds")
    with_rounds = table.ok("GET", f"/sessions/{sid}/settlement")
    first = with_rounds["transfers"][0]
    paid = {"from": first["from"], "to": first["to"], "amount": first["amount"]}
    payment = table.ok("POST", f"/sessions/{sid}/payments", paid, 201)
    table.ok("GET", f"/sessions/{sid}/payments")
    assert table.delete(f"/sessions/{sid}/payments/{payment['id']}").status_code == 204
    assert table.delete(f"/sessions/{sid}/rounds/{made['id']}").status_code == 204
    # Finished with the pot carried on: the next Spot night opens with it.
    table.hand(sid, SEED_HAND_1)
    finished = table.ok("POST", f"/sessions/{sid}/finish", {"leftover_pot": "carry"})
    assert (finished["status"], finished["leftover_pot"]) == ("finished", "carry")
    assert table.post(f"/sessions/{sid}/finish", {}).status_code == 409
    assert table.post(f"/sessions/{sid}/hands", SEED_HAND_1).status_code == 409
    table.ok("GET", f"/sessions/{sid}/settlement")
    next_night = table.session()
    assert next_night["carried_in"] == finished["pot"] > 0

    # A Rummy game for points: no settlement (422), finished where it stands.
    rummy = table.session(["Enda", "John", "Rex"], dealer="Enda", game="rummy")["id"]
    table.hand(
        rummy,
        {
            "results": [{"player": "John", "cards": "K Q"}, {"player": "Rex", "cards": "5"}],
            "out": "Enda",
            "rummy": True,
        },
    )
    table.hand(
        rummy,
        {
            "results": [{"player": "Enda", "cards": "2"}, {"player": "Rex", "cards": "3 4"}],
            "out": "John",
        },
    )
    assert table.get(f"/sessions/{rummy}/settlement").status_code == 422
    table.ok("POST", f"/sessions/{rummy}/finish", {})
    table.ok("GET", f"/sessions/{rummy}/hands")

    # Spin Rummy for two: melds scored.
    spin = table.session(["Ann", "Bob"], dealer="Ann", game="spin")["id"]
    table.hand(spin, spin_hand("Ann", ["3S 3H 3D", "4C 5C 6C"], "Bob", "KS KH KD"))
    wrong_meld = spin_hand("Bob", ["3S 3H 3D", "4C 5C 7C"], "Ann", "")
    assert table.post(f"/sessions/{spin}/hands", wrong_meld).status_code == 422
    table.ok("GET", f"/sessions/{spin}")

    # The games of RULES.md §8–§12: their own fields in the entries and the answers.
    new_games_night(table)

    # The group as a whole.
    group = table.ok("GET", group_path)
    assert len(group["sessions"]) == 8
    table.ok("GET", f"{group_path}/export.xlsx")
    table.ok("GET", f"{group_path}/backup.json")

    # Wrong passphrases, one after another, lock the other group out for a while.
    wrong = basic(other.slug, "a wrong guess")
    answers = [other.get(f"/groups/{other.slug}", headers=wrong).status_code for _ in range(6)]
    assert answers[-1] == 429

    statuses = {status for _, _, status in checked.seen}
    assert statuses >= {200, 201, 204, 400, 401, 404, 409, 422, 429}


def new_games_night(table: Table) -> None:
    """Gin to its end (bonuses), a Rummy 500 hand, Kaluki's buy-in and finish, Any game."""
    gin = table.session(["Ann", "Bob"], dealer="Bob", game="gin", entry="totals", target=10)
    knock = {"ending": "knock", "out": "Ann", "results": [
        {"player": "Ann", "spots": 2}, {"player": "Bob", "spots": 30}]}  # fmt: skip
    assert table.hand(gin["id"], knock)["ending"] == "knock"
    assert "bonuses" in table.ok("GET", f"/sessions/{gin['id']}")
    assert table.post(f"/sessions/{gin['id']}/hands", {"ending": "draw"}).status_code == 409
    r500 = table.session(["Ann", "Bob"], dealer="Bob", game="rummy500")["id"]
    table.hand(r500, {"out": "Ann", "results": [
        {"player": "Ann", "melded": "7H 7S 7D"},
        {"player": "Bob", "melded_points": 0, "cards": "5D"}]})  # fmt: skip
    kaluki = table.session(["Ann", "Bob", "Cas"], dealer="Cas", game="kaluki", entry="totals")
    table.hand(kaluki["id"], {"out": "Ann", "results": [
        {"player": "Bob", "spots": 160}, {"player": "Cas", "spots": 20}]})  # fmt: skip
    assert table.post(f"/sessions/{kaluki['id']}/buy_in", {"player": "Ann"}).status_code == 422
    table.ok("POST", f"/sessions/{kaluki['id']}/buy_in", {"player": "Bob"})
    table.ok("POST", f"/sessions/{kaluki['id']}/finish", {})
    table.ok("GET", f"/sessions/{kaluki['id']}/settlement")
    tally = table.session(["Ann", "Bob"], dealer="Bob", game="tally", name="Whist")["id"]
    table.hand(
        tally,
        {"results": [{"player": "Ann", "points": -3}, {"player": "Bob", "sitting_out": True}]},
    )


def test_a_wrong_type_in_an_answer_fails_the_schema(app, client, spec):
    """The schemas are strict enough to notice: a hand whose units are text, or a session
    without its version, does not validate."""
    checked = Checked(app, client, spec)
    table = Table(client)
    sid = table.session()["id"]
    hand = table.hand(sid, SEED_HAND_1)
    session = table.ok("GET", f"/sessions/{sid}")

    def valid(schema: str, value: Any) -> bool:
        validator = jsonschema.Draft202012Validator(
            {"$ref": f"{SPEC_URI}#/components/schemas/{schema}"}, registry=checked.registry
        )
        return validator.is_valid(value)

    assert valid("Hand", hand) and valid("Session", session)
    hand["payments"][0]["units"] = "20"
    assert not valid("Hand", hand)
    del session["version"]
    assert not valid("Session", session)
    assert not valid("Error", {"error": {"message": "Oops."}})


def test_the_tabs_answers_validate_against_the_spec(app, client, spec):
    Checked(app, client, spec)
    table = Table(client)
    group_path = f"/groups/{table.slug}"
    sid = table.session()["id"]
    table.hand(sid, SEED_HAND_1)
    table.hand(sid, SEED_HAND_2)
    account = {"iban": "NL91 ABNA 0417 1643 00", "name": "E. Byrne"}
    table.ok("PUT", f"{group_path}/players/Enda/account", account)
    assert table.put(f"{group_path}/players/Enda/account", {"iban": "NL00"}).status_code == 422
    assert table.ok("POST", f"/sessions/{sid}/finish", {"settle": "tab"})["on_tab"] is True
    assert table.ok("GET", f"/sessions/{sid}/settlement")["transfers"] == []
    (tab,) = table.ok("GET", f"{group_path}/tab")["tabs"]
    assert any("epc" in t for t in tab["transfers"])
    body = {"from": "Finn", "to": "Enda", "amount": "0.38", "currency": "EUR"}
    paid = table.ok("POST", f"{group_path}/tab/payments", body, 201)
    assert table.post(f"{group_path}/tab/payments", body).status_code == 422
    assert table.delete(f"/sessions/{sid}/tab").status_code == 409
    assert table.delete(f"{group_path}/tab/payments/{paid['id']}").status_code == 204
    assert table.ok("DELETE", f"/sessions/{sid}/tab")["on_tab"] is False
    assert table.delete(f"{group_path}/players/Enda/account").status_code == 204
