"""Fuzzing the pages: every page and form of a signed-in browser with generated values.

Whatever is sent (odd text in any field of any form, odd ids and names in the address, an
odd query string, a Host header no address can be built on, a `next` holding a line break),
the answer is never a 5xx (with TESTING on, an exception would even escape the test client),
and a redirect goes only to this site. Afterwards nothing the app could not have made is
kept: a session's choice for its pot is a word of the game's, no name holds a line break.

The shapes of issue 38 are among the values: a finish's `leftover_pot` of any text (Kaluki's
kept it), line breaks of every kind in names and in a bank account's name, slashes in
names, `next` with a newline (POST /language, /open), `a..b` and a 64-character label as the
Host. Bounded like tests/api/test_fuzz.py: LEDGER_FUZZ_EXAMPLES (100 by default).
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import quote, urlsplit

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from ledger.extensions import db
from ledger.models import GameSession, Payment, TabPayment
from tests.api.test_fuzz import EXAMPLES, kept_clean
from tests.web.pages import HAND_1, HAND_2, Phone, table_of_four

# Forms that end this browser's visit, or start over what the others test: left out, so the
# browser stays signed in; the restore has a fuzz of its own (tests/export).
LEFT_OUT = {
    "groups.sign_out",
    "groups.sign_out_everywhere",
    "groups.change_passphrase",
    "home.restore",
    "static",
}

ODD_TEXT = [
    "",
    " ",
    "\x00",
    "a\x00b",
    "\x07",
    "\x1b[31m",
    "\u202e",
    "\ufeff",
    "Enda",
    "enda ",
    "AC/DC",
    "/DC",
    "..",
    "AC/../DC",
    "Mary\u2028Ann",
    "Mary\u2029Ann",
    "Mary\x85Ann",
    "Mary\nAnn",
    "Mary\rAnn",
    "Mary\x0bAnn",
    "carry",
    "refund",
    "tab",
    "now",
    "x" * 11,
    "x" * 5000,
    "9" * 5000,
    "-1",
    "0",
    "1",
    "2",
    "2147483648",
    "1.5",
    "²",
    "NL91ABNA0417164300",
    "nl91 abna 0417 1643 00",
    "EUR",
    "<script>",
    # Where a form goes next: other sites, line breaks, what urlsplit drops.
    "/",
    "/g/x\nLocation: //evil.example",
    "/a\r\nb",
    "/\t/evil.example",
    "/\n/evil.example",
    "//evil.example",
    "https://evil.example/",
    "/\\evil.example",
]
# Form values as a browser sends them: any text but a lone surrogate (a browser cannot send
# one; werkzeug reads broken bytes with replacement characters).
odd_text = st.one_of(
    st.sampled_from(ODD_TEXT),
    st.text(alphabet=st.characters(exclude_categories=("Cs",)), max_size=12),
)
FIELDS = [
    "next", "lang", "name", "iban", "account_name", "remove", "leftover_pot", "settle",
    "version", "number", "pot", "keeper", "pot_keeper", "from", "to", "units", "amount",
    "currency", "player", "after", "out", "request_id", "game", "dealer", "order", "seated",
    "results-0-player", "results-0-cards", "results-0-spots", "results-1-player",
    "results-1-cards", "open-group", "open-passphrase", "create-name", "create-passphrase",
    "opt-spot-ante", "opt-kaluki-buy_in", "opt-tally-name", "confirm",
]  # fmt: skip
ODD_HOSTS = ["a..b", "x" * 64 + ".example", ".", "a.", "..", "[::1", "a:b:c", "é..x"]

PARAMETER = re.compile(r"<(?:(?P<converter>[a-z]+)(?:\([^)]*\))?:)?(?P<name>\w+)>")


def page_routes(app: Any) -> list[tuple[str, str, str]]:
    """Every (endpoint, method, rule) of the pages, less those LEFT_OUT."""
    routes = []
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith("/api") or rule.endpoint in LEFT_OUT:
            continue
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            routes.append((rule.endpoint, method, rule.rule))
    return sorted(routes)


def mostly(usual: st.SearchStrategy[Any], odd: st.SearchStrategy[Any]) -> Any:
    return st.integers(0, 4).flatmap(lambda n: odd if n == 0 else usual)


@st.composite
def paths(draw: Any, rule: str, slug: str, known: list[int]) -> str:
    def fill(match: re.Match[str]) -> str:
        converter, name = match["converter"], match["name"]
        if converter == "int":
            odd = st.sampled_from(["0", "2147483648", "9" * 40])
            return draw(mostly(st.sampled_from([str(n) for n in known]), odd))
        if name == "slug":
            return quote(draw(mostly(st.just(slug), odd_text)), safe="") or "x"
        if name == "token":
            return quote(draw(odd_text), safe="") or "x"
        value = draw(mostly(st.sampled_from(["Enda", "finn", "AC/DC", "Nobody"]), odd_text))
        return quote(value, safe=draw(st.sampled_from(["", "/"]))) or "x"

    return PARAMETER.sub(fill, rule)


@st.composite
def requests(draw: Any, routes: list[tuple[str, str, str]], slug: str, known: list[int]) -> Any:
    _endpoint, method, rule = draw(st.sampled_from(routes))
    path = draw(paths(rule, slug, known))
    query = draw(mostly(st.just(""), st.sampled_from(["?next=%0A", "?account=show", "?page=-1"])))
    headers = draw(mostly(st.just({}), st.sampled_from(ODD_HOSTS).map(lambda h: {"Host": h})))
    if method == "GET":
        return method, path + query, headers, None
    form = draw(st.dictionaries(st.sampled_from(FIELDS), odd_text, max_size=6))
    if draw(st.integers(0, 9)) == 0:  # broken bytes, as no browser sends them
        return method, path, headers, b"name=%ED%A0%80&next=%0A%0D&iban=%FF"
    return method, path, headers, form


def browser(client: Any) -> tuple[Phone, list[int]]:
    """A browser signed in to a group with a Spot night under way, a Kaluki game, a night on
    the tab with a payment, and a player called AC/DC; the sessions' ids."""
    phone = table_of_four(client)
    phone.add_players("AC/DC")
    phone.start()
    phone.enter(HAND_1)
    phone.enter(HAND_2, out="Enda")
    tab = phone.start()
    phone.enter(HAND_1)
    phone.enter(HAND_2, out="Enda")
    client.post(f"{tab}/finish", data={"leftover_pot": "carry", "settle": "tab"})
    client.post(
        f"/g/{phone.slug}/tab/payments",
        data={"from": "Finn", "to": "Enda", "amount": "0.01", "currency": "EUR"},
    )
    phone.start("kaluki", players=("Enda", "John", "Rex"), dealer="Rex", entry="totals")
    with client.application.app_context():
        known = [*db.session.scalars(select(GameSession.id))]
        known += [*db.session.scalars(select(Payment.id))]
        known += [*db.session.scalars(select(TabPayment.id)), 1, 2]
        db.session.rollback()
    return phone, known


def test_no_page_or_form_answers_5xx_and_redirects_stay_on_this_site(app, client):
    phone, known = browser(client)
    routes = page_routes(app)

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(requests(routes, phone.slug, known))
    def one(request: Any) -> None:
        method, path, headers, data = request
        kind = "application/x-www-form-urlencoded" if isinstance(data, bytes) else None
        response = client.open(path, method=method, headers=headers, data=data, content_type=kind)
        response.close()  # a static file's answer holds the file open until closed
        assert response.status_code < 500, (method, path, response.get_data()[:300])
        where = response.headers.get("Location")
        if where is not None:
            parts = urlsplit(where)
            assert parts.netloc in ("", "localhost"), where
            assert not any(c in where for c in "\r\n\t"), where

    one()
    kept_clean(app)
