"""Fuzzing the API: every /api/v1 route with generated bodies, ids, names and content types.

Whatever is sent, the answer is never a 5xx (with TESTING on, an exception would even escape
the test client), every error is API.md's JSON, and a refused request (4xx) leaves the
database as it was: the same rows and the same session versions. Bodies are valid requests
with a field or two replaced by odd values (NUL, lone surrogates, control characters, huge or
fractional numbers, wrong types, deep nesting) or raw text no parser should choke on.

Bodies may name who makes the change (``by``, API.md fifth edition), replaced by odd values
too. Issue 38's shapes are among them: a string left open and full of escaped quotes (which
the nesting check once read in quadratic time), a finish's ``leftover_pot`` of any text, names
holding a line break of any kind (U+2028 too) or a slash, a Host header no address can be
built on, a bank account's body; and afterwards no session keeps a choice for its pot but
"carry" or "refund", and no name or account holds a line break.

Bounded in time: a fixed number of examples and no deadline, so it runs in the normal suite,
on SQLite and on PostgreSQL (where NUL and surrogates behave differently).
"""

from __future__ import annotations

import base64
import json
import os
import re
from typing import Any
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select

from ledger.extensions import db
from ledger.models import BankAccount, Change, GameSession, Group, Player
from tests.api.dbstate import snapshot
from tests.api.helpers import PASSPHRASE, SEED_HAND_1, SEED_HAND_2, Table

# Its examples are drawn inside the test: marked so that `-m hypothesis` (CI's exploring run)
# picks it up with the tests Hypothesis marks itself.
pytestmark = pytest.mark.hypothesis

# A few seconds in the suite; LEDGER_FUZZ_EXAMPLES=5000 for a long hunt.
EXAMPLES = int(os.environ.get("LEDGER_FUZZ_EXAMPLES", "100"))

# --- Odd values -----------------------------------------------------------------------------------

ODD_TEXT = [
    "",
    " ",
    "\x00",
    "a\x00b",
    "\ud800",
    "x\udfff",
    "\ud83d",
    "\x07",
    "\x1b[31m",
    "\x7f",
    "\u202e",
    "\ufeff",
    "Enda",
    "enda ",
    "ENDA",
    "Maeve",
    "J 10",
    "A-3",
    "K♠ Q♥",
    "carry",
    "refund",
    "spot",
    "rummy",
    "x" * 41,
    "x" * 5000,
    "0.01",
    "1000.01",
    "1E+999999",
    "NaN",
    "²",
    "١٢",
    "9" * 5000,
    "<script>",
    "../..",
    # Issue 38: a finish's leftover_pot past PostgreSQL's 10 characters, line breaks of every
    # kind in names, slashes in names, what an address cannot carry.
    "x" * 11,
    "share",
    "Mary\u2028Ann",
    "Mary\u2029Ann",
    "Mary\x85Ann",
    "Mary\nAnn",
    "Mary\x0bAnn",
    "AC/DC",
    "/DC",
    "..",
    "AC/../DC",
]
ODD_NUMBERS = [
    0,
    1,
    -1,
    5,
    80,
    81,
    10_000,
    10_001,
    100_000,
    100_001,
    2**31 - 1,
    2**31,
    -(2**31),
    2**53 + 1,
    2**63,
    -(2**63) - 1,
    10**28,
    10**100,
]

odd_text = st.one_of(
    st.sampled_from(ODD_TEXT),
    st.text(max_size=12),
    st.text(alphabet=st.sampled_from("\x00\ud800\udc00\x1f\x7f aZ09-♠\u0301"), max_size=8),
)
odd_number = st.one_of(
    st.sampled_from(ODD_NUMBERS),
    st.integers(min_value=-(2**80), max_value=2**80),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([5.0, 1e28, 1e308, -0.0, 0.5]),
)
leaf = st.one_of(st.none(), st.booleans(), odd_number, odd_text)
json_value = st.recursive(
    leaf,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(odd_text, inner, max_size=4)
    ),
    max_leaves=12,
)

# --- Bodies: a valid one for the route, with some of its fields replaced --------------------------

HAND_3 = {
    "results": [
        {"player": "Enda", "cards": "2"},
        {"player": "John", "cards": "3"},
        {"player": "Rex", "cards": "4"},
    ],
    "out": "Finn",
}


def templates(table: Table) -> dict[str, dict[str, Any]]:
    """A body each route takes, by endpoint."""
    return {
        "api.create_group": {"name": "Snug", "passphrase": PASSPHRASE},
        "api.add_player": {"name": "Maeve"},
        "api.create_session": {
            "game": "spot",
            "players": ["Enda", "John", "Rex"],
            "dealer": "Enda",
            "options": {"ante": 5, "unit_value": "0.01", "currency": "EUR", "entry": "totals"},
            "request_id": "s-1",
        },
        "api.join": {"name": "Maeve", "after": "Enda"},
        "api.add_hand": {**HAND_3, "request_id": "h-1", "by": "Rex"},
        "api.correct_hand": SEED_HAND_2,
        "api.undo_hand": {},
        "api.finish": {"leftover_pot": "carry"},
        "api.buy_in": {"player": "Bob", "request_id": "b-1"},
        "api.pot_plan": {"leftover_pot": "refund"},
        "api.set_account": {"iban": "NL91ABNA0417164300", "name": "Enda Byrne"},
        "api.pay_tab": {
            "from": "Finn",
            "to": "Enda",
            "amount": "0.01",
            "currency": "EUR",
        },
        "api.record_payment": {"from": "Finn", "to": "Enda", "units": 1, "by": "finn"},
    }


# The result fields of the games of RULES.md §8–§12, beside the first four's.
RESULT_FIELDS = ["player", "cards", "spots", "melds", "sitting_out"]
RESULT_FIELDS += ["melded", "low_aces", "melded_points", "points"]


@st.composite
def changed(draw: Any, body: dict[str, Any]) -> Any:
    """``body`` with a few of its fields (at the top, in options, in a result) replaced."""
    body = json.loads(json.dumps(body))
    keys = sorted(body) + ["version", "out", "rummy", "cards_language", "ending", "extra"]
    keys += ["leftover_pot", "pot_keeper", "settle", "by"]
    for _ in range(draw(st.integers(0, 3))):
        where = draw(st.sampled_from(["top", "options", "result"]))
        if where == "options" and isinstance(body.get("options"), dict):
            options = ["ante", "unit_value", "currency", "target", "entry", "x"]
            options += ["stake", "buy_in", "hands", "lowest_wins", "name", "big_gin"]
            option = draw(st.sampled_from(options))
            body["options"][option] = draw(json_value)
        elif where == "result" and isinstance(body.get("results"), list) and body["results"]:
            i = draw(st.integers(0, len(body["results"]) - 1))
            field = draw(st.sampled_from(RESULT_FIELDS))
            if isinstance(body["results"][i], dict):  # not replaced by an earlier change
                body["results"][i][field] = draw(json_value)
        else:
            body[draw(st.sampled_from(keys))] = draw(json_value)
    return body


def raw_bodies() -> st.SearchStrategy[bytes]:
    """Text no body should be: deep, huge, broken, or not an object."""
    return st.one_of(
        st.integers(1, 100_000).map(lambda n: ("[" * n + "]" * n).encode()),
        st.integers(1, 100_000).map(lambda n: ('{"a":' * n + "1" + "}" * n).encode()),
        st.integers(20, 6000).map(lambda n: ('{"name": %s, "version": 1}' % ("9" * n)).encode()),
        # A string left open, full of escaped quotes, brackets after it or not (issue 38).
        st.integers(1, 200_000).map(lambda n: ('"' + '\\"' * n).encode()),
        st.integers(1, 50_000).map(lambda n: ('{"name": "' + '\\"' * n + "[" * 40).encode()),
        st.sampled_from(
            [
                b"",
                b"null",
                b"[]",
                b'"text"',
                b"{",
                b'{"name": NaN}',
                b'{"name": Infinity}',
                b"\xff\xfe{}",
                b'{"name": "\xed\xa0\x80"}',
                b'{"name": "\\u0000"}',
                b'{"name": "\\ud800"}',
                b'\xef\xbb\xbf{"name": "bom"}',
            ]
        ),
        st.binary(max_size=40),
    )


def encoded(value: Any, ascii_only: bool) -> bytes:
    # A lone surrogate written raw (ensure_ascii off) is not UTF-8: the bytes are as broken
    # as a client that writes them would send.
    return json.dumps(value, ensure_ascii=ascii_only).encode("utf-8", "surrogatepass")


CONTENT_TYPES = [
    "application/json",
    "application/json; charset=utf-8",
    "APPLICATION/JSON",
    "text/plain",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x",
    "application/json-patch+json",
    None,
]

# --- Paths ----------------------------------------------------------------------------------------

PARAMETER = re.compile(r"<(?:(?P<converter>[a-z]+)(?:\([^)]*\))?:)?(?P<name>\w+)>")


def api_routes(app: Any) -> list[tuple[str, str, str]]:
    """Every (endpoint, method, rule) of /api/v1 from the app's url_map."""
    routes = []
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/api/v1"):
            continue
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            routes.append((rule.endpoint, method, rule.rule))
    return sorted(routes)


def mostly(usual: st.SearchStrategy[Any], odd: st.SearchStrategy[Any]) -> Any:
    """``usual`` four times in five, so most requests get past the first check to the next."""
    return st.integers(0, 4).flatmap(lambda n: odd if n == 0 else usual)


def ids(known: list[int]) -> st.SearchStrategy[str]:
    return mostly(
        st.sampled_from([str(n) for n in known]),
        st.one_of(
            st.integers(0, 2**80).map(str),
            st.sampled_from(["0", "-1", "1.5", "²", "١", "2147483647", "2147483648", "9" * 5000]),
        ),
    )


@st.composite
def paths(draw: Any, rule: str, table: Table, known: list[int]) -> str:
    def fill(match: re.Match[str]) -> str:
        converter, name = match["converter"], match["name"]
        if converter == "int":
            return draw(ids(known))
        if name == "slug":
            value = draw(mostly(st.just(table.slug), odd_text))
        else:  # a player's name, a slash in it kept as one (issue 38) or sent as %2F
            value = draw(mostly(st.sampled_from(["Enda", "finn", "Nobody", "AC/DC"]), odd_text))
            safe = draw(st.sampled_from(["", "/"]))
            return quote(value.encode("utf-8", "surrogatepass"), safe=safe) or "x"
        return quote(value.encode("utf-8", "surrogatepass"), safe="") or "x"

    return PARAMETER.sub(fill, rule)


def auth_headers(table: Table) -> st.SearchStrategy[dict[str, str]]:
    def basic(user: str, password: str) -> dict[str, str]:
        token = base64.b64encode(f"{user}:{password}".encode()).decode()
        return {"Authorization": f"Basic {token}"}

    return mostly(
        st.just(table.headers),
        st.one_of(
            st.just({}),
            st.sampled_from(["\x00", f"{table.slug}\x00", "x" * 300]).map(lambda u: basic(u, "x")),
            st.sampled_from(["Bearer abc", "Basic !!!", "Basic " + "A" * 5000]).map(
                lambda h: {"Authorization": h}
            ),
            # A Host no address can be built on (issue 38: 500 on every page and /healthz).
            st.sampled_from(ODD_HOSTS).map(lambda h: {**table.headers, "Host": h}),
        ),
    )


ODD_HOSTS = ["a..b", "x" * 64 + ".example", ".", "..", "a.", "[::1", "a:b:c", "é..x"]


# --- The test -------------------------------------------------------------------------------------


def test_no_request_answers_5xx_and_a_refused_one_changes_nothing(app, client):
    table = seeded(client)
    fuzz(app, client, table, EXAMPLES)
    kept_clean(app)


def kept_clean(app: Any) -> None:
    """What the fuzz may have stored is only what the app could make: a session's choice for
    its pot is a word of the game's, and no name (a player's, a group's, an account's) holds
    a line break (issue 38), and whoever a change names is a player of its group."""
    with app.app_context():
        choices = set(db.session.scalars(select(GameSession.leftover_pot)))
        names = [*db.session.scalars(select(Player.name)), *db.session.scalars(select(Group.name))]
        names += db.session.scalars(select(BankAccount.name))
        db.session.rollback()
    assert choices <= {None, "carry", "refund"}, choices
    assert not [n for n in names if len(n.splitlines()) != 1], names
    # RULES.md §20: whoever a change names ("by") is a player of the session's own group.
    with app.app_context():
        named = db.session.execute(
            select(Change.id, GameSession.group_id, Player.group_id)
            .join(GameSession, GameSession.id == Change.session_id)
            .join(Player, Player.id == Change.by_id)
        ).all()
        db.session.rollback()
    assert named and all(session_group == player_group for _, session_group, player_group in named)


# Issue 32: the limits on anonymous writes and on a group's size, met at every turn: the test
# client's address has made its one group of the hour, and the group is full.
NEW_GROUPS = 1
ROOM = 0


def test_with_the_limits_on_a_refused_request_says_when_or_why_and_none_is_passed(app, client):
    from ledger.services import room

    app.config["LEDGER_GROUP_LIMIT"] = NEW_GROUPS
    table = seeded(client)  # the address's first group

    def size() -> int:
        with app.app_context():
            group_id = db.session.scalar(select(Group.id).where(Group.slug == table.slug))
            return int(db.session.scalar(select(room.size_of(group_id))))

    most = size() + ROOM
    app.config["LEDGER_GROUP_HANDS"] = most
    last = [size()]

    def limits(request: tuple[str, str], status: int, response: Any) -> None:
        method, path = request
        if status == 429:
            assert 0 < int(response.headers["Retry-After"]) <= 3600
        with app.app_context():
            assert db.session.scalar(select(func.count(Group.id))) == NEW_GROUPS
        now = size()
        if now > last[0] >= most:
            # A full group grows only by what takes back or ends something (room.FREE_KINDS).
            assert method == "DELETE" or path.endswith("/finish"), (method, path, last, now)
        last[0] = now

    fuzz(app, client, table, EXAMPLES, limits)


def seeded(client: Any) -> Table:
    """A group with a money night of two hands and a night of spot totals."""
    table = Table(client)
    sid = table.session()["id"]
    table.hand(sid, {**SEED_HAND_1, "by": "Rex"})
    table.hand(sid, SEED_HAND_2)
    table.session(["Enda", "John", "Rex", "Finn"], dealer="Finn", entry="totals")
    # The new games, so the bodies' new fields reach their engines: a Kaluki game where Bob
    # may buy back in, a Rummy 500 and a Gin game, and Any game.
    kaluki = table.session(["Ann", "Bob", "Cas"], dealer="Cas", game="kaluki", entry="totals")
    table.hand(kaluki["id"], {"out": "Ann", "results": [
        {"player": "Bob", "spots": 160}, {"player": "Cas", "spots": 20}]})  # fmt: skip
    table.session(["Ann", "Bob", "Cas"], dealer="Cas", game="rummy500", entry="totals")
    table.session(["Ann", "Bob"], dealer="Bob", game="gin", entry="totals")
    table.session(["Ann", "Bob", "Cas"], dealer="Cas", game="tally")
    # A night on the tab, so a payment against it can be taken (issue 38: the size bound).
    tab = table.session()["id"]
    table.hand(tab, SEED_HAND_1)
    table.hand(tab, SEED_HAND_2)
    table.ok("POST", f"/sessions/{tab}/finish", {"settle": "tab"})
    return table


def fuzz(app: Any, client: Any, table: Table, examples: int, more: Any = None) -> None:
    """Send ``examples`` generated requests: none answers 5xx, every error is API.md's JSON,
    a refused one changes nothing; ``more((method, path), status, response)`` checks what
    else must hold."""
    with app.app_context():
        known = [1, 2, 3, *db.session.scalars(select(GameSession.id))]
    routes = api_routes(app)
    bodies = templates(table)
    assert {endpoint for endpoint, _, _ in routes} >= set(bodies), "a body route is missing"
    writes = [r for r in routes if r[0] in bodies]

    @st.composite
    def requests(draw: Any) -> tuple[str, str, dict[str, str], bytes | None, str | None]:
        # Mostly the calls that take a body: the reads have far less to get wrong.
        endpoint, method, rule = draw(mostly(st.sampled_from(writes), st.sampled_from(routes)))
        path = draw(paths(rule, table, known))
        headers = draw(auth_headers(table))
        content_type = draw(mostly(st.just("application/json"), st.sampled_from(CONTENT_TYPES)))
        kind = draw(st.sampled_from(["template"] * 6 + ["any", "raw", "none"]))
        if kind == "template":
            body = encoded(draw(changed(bodies.get(endpoint, {}))), draw(st.booleans()))
        elif kind == "any":
            body = encoded(draw(json_value), draw(st.booleans()))
        elif kind == "raw":
            body = draw(raw_bodies())
        else:
            body = None
        return method, path, headers, body, content_type

    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(requests())
    def one(request: tuple[str, str, dict[str, str], bytes | None, str | None]) -> None:
        method, path, headers, body, content_type = request
        before = snapshot(app)
        response = client.open(
            path, method=method, headers=headers, data=body, content_type=content_type
        )
        status = response.status_code
        assert status < 500, (status, response.get_data()[:300])
        if status >= 400:
            assert response.content_type == "application/json", response.get_data()[:300]
            error = response.get_json()["error"]
            assert set(error) >= {"message", "field"} and error["message"], error
            assert snapshot(app) == before, (status, error)
        if more is not None:
            more((method, path), status, response)

    one()
