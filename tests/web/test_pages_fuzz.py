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

Issue 46.3: the browser also has the newer kinds, each with its forms: seasons (one open with a
night counted, one to close), a round of drinks, a Kaluki night with a buy-in, a Boerenbridge
night with its bids saved, a Klaverjassen night with a hand of its teams, payments at the
table and on the tab, and every game's options on the new-night page. The fields sent are the
list below and every field any of the browser's pages has (read off the pages themselves, so a
form added later is fuzzed too). And a refusal stores nothing: whenever the answer is 4xx or
the page it leads to says an error, every table of the group reads as before.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html import unescape
from typing import Any
from urllib.parse import quote, urlsplit

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from ledger.extensions import db
from ledger.models import GameSession, Payment, Round, Season, TabPayment
from tests.api.test_fuzz import EXAMPLES, kept_clean
from tests.api.test_seasons import PERIOD
from tests.rules.test_boerenbridge import SEATS
from tests.web.pages import HAND_1, HAND_2, Phone, html, table_of_four
from tests.web.test_new_games_pages import post_hand
from tests.web.test_trick_games_pages import klaver, post

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
    # The bids of a Boerenbridge round not yet bid (the browser's night has saved its own).
    "results-0-bid", "results-1-bid", "results-2-bid", "results-3-bid",
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
def requests(
    draw: Any,
    routes: list[tuple[str, str, str]],
    slug: str,
    known: list[int],
    fields: dict[str, list[str]],
) -> Any:
    """A request to one of the routes; a form is sent mostly the fields of the forms that
    post to it (``page_forms``), else any field of any form."""
    endpoint, method, rule = draw(st.sampled_from(routes))
    path = draw(paths(rule, slug, known))
    query = draw(mostly(st.just(""), st.sampled_from(["?next=%0A", "?account=show", "?page=-1"])))
    headers = draw(mostly(st.just({}), st.sampled_from(ODD_HOSTS).map(lambda h: {"Host": h})))
    if method == "GET":
        return method, path + query, headers, None
    own = st.sampled_from(fields.get(endpoint) or fields[""])
    names = mostly(own, st.sampled_from(fields[""]))
    form = draw(st.dictionaries(names, odd_text, max_size=6))
    if draw(st.integers(0, 9)) == 0:  # broken bytes, as no browser sends them
        return method, path, headers, b"name=%ED%A0%80&next=%0A%0D&iban=%FF"
    return method, path, headers, form


def browser(client: Any) -> tuple[Phone, list[int]]:
    """A browser signed in to a group with a Spot night under way with a round of drinks, a
    night on the tab with a payment, a finished night paid at the table, two seasons, a Kaluki
    night with a buy-in, a Boerenbridge night with its bids saved, a Klaverjassen night with
    a hand, and a player called AC/DC, the phone said to be John's; the ids of the sessions,
    payments, rounds and seasons."""
    phone = table_of_four(client)
    phone.add_players("AC/DC")
    # RULES.md §20: this phone is John's, so what its forms store names him and kept_clean's
    # check that whoever a change names is of its group has changes to look at.
    group = html(client.get(f"/g/{phone.slug}"))
    john = re.search(r'<option value="(\d+)"(?: selected)?>John</option>', group)
    assert john, group
    claimed = client.post(f"/g/{phone.slug}/phone", data={"player": john.group(1)})
    assert claimed.status_code == 302, html(claimed)
    phone.start()
    phone.enter(HAND_1)
    phone.enter(HAND_2, out="Enda")
    drinks = {"paid_by": "John", "amount": "18.40", "for": ["Enda", "John", "Rex", "Finn"]}
    assert (
        client.post(f"{phone.board}/rounds/new", data={**drinks, "what": "pints"}).status_code
        == 302
    )
    tab = phone.start()
    phone.enter(HAND_1)
    phone.enter(HAND_2, out="Enda")
    client.post(f"{tab}/finish", data={"leftover_pot": "carry", "settle": "tab"})
    client.post(
        f"/g/{phone.slug}/tab/payments",
        data={"from": "Finn", "to": "Enda", "amount": "0.01", "currency": "EUR"},
    )
    paid = phone.start()
    phone.enter(HAND_1)
    phone.enter(HAND_2, out="Enda")
    client.post(f"{paid}/finish", data={"leftover_pot": "refund"})
    client.post(f"{paid}/payments", data={"from": "Finn", "to": "Enda", "units": "1"})
    season = {"game": "spot", "from": PERIOD["from"], "to": PERIOD["to"], "entry_fee": "500"}
    for name in ("Winter", "Spring"):
        made = client.post(f"/g/{phone.slug}/seasons", data={**season, "name": name})
        assert made.status_code == 303, html(made)
    phone.start("kaluki", players=("Enda", "John", "Rex"), dealer="Rex", entry="totals")
    post_hand(phone, {"John": {"spots": "160"}, "Rex": {"spots": "20"}}, out="Enda")
    version = re.search(r'name="version" value="(\d+)"', html(client.get(phone.board)))
    assert version
    bought = {"player": "John", "version": version.group(1)}
    assert client.post(f"{phone.board}/buy_in", data=bought).status_code == 302
    phone.start("boerenbridge", SEATS, "Ann", max_cards="4")
    post(phone, "call/bids", {p: {"bid": 0} for p in SEATS})
    phone.start("klaverjassen", SEATS, "Dee")
    post(phone, "new", {}, **klaver("1", "100", roem1="20"))
    # Forms that only show in another state: a buy-in still to make, bids still to save, a
    # pot to plan (a Spot night with its antes in), a night to reopen or take off the tab.
    phone.start("kaluki", players=("Enda", "John", "Rex"), dealer="Rex", entry="totals")
    post_hand(phone, {"John": {"spots": "160"}, "Rex": {"spots": "20"}}, out="Enda")
    phone.start("boerenbridge", SEATS, "Bob", max_cards="4")
    phone.start()
    phone.enter(HAND_1)
    for settle in ("now", "tab"):
        phone.start()
        phone.enter(HAND_1)
        phone.enter(HAND_2, out="Enda")
        client.post(f"{phone.board}/finish", data={"leftover_pot": "refund", "settle": settle})
    with client.application.app_context():
        known = [*db.session.scalars(select(GameSession.id))]
        for model in (Payment, TabPayment, Round, Season):
            known += db.session.scalars(select(model.id))
        db.session.rollback()
    return phone, [*known, 1, 2]


# The pages a browser of the group sees, whose forms' fields are fuzzed (with those of each
# session, season and round: ``page_forms``).
GROUP_PAGES = ["", "/s/new", "/seasons", "/tab", "/players", "/invite", "/p/Enda", "/p/AC/DC"]
SESSION_PAGES = ["", "/hands/new", "/settle", "/rounds/new", "/hands/1/edit"]


FORM = re.compile(r"<form\b(?P<attributes>[^>]*)>(?P<inside>.*?)</form>", re.DOTALL)
ACTION = re.compile(r'\baction="(?P<action>[^"]*)"')
METHOD = re.compile(r'\bmethod="(?P<method>\w+)"')
FORMACTION = re.compile(r'\bformaction="([^"]*)"')
TAG = re.compile(r"<(?P<tag>input|button|textarea|select)\b(?P<attributes>[^>]*)>(?P<after>)")
ATTRIBUTE = re.compile(r'\b(?P<key>[a-z-]+)(?:="(?P<value>[^"]*)")?')
OPTION = re.compile(r'<option\b[^>]*?value="(?P<value>[^"]*)"')


@dataclass
class PageForm:
    """A form on one of the browser's pages: where it is sent, and its fields as the page
    fills them in (a select's first choice, a checked box, the first of same-named buttons)."""

    endpoint: str
    method: str
    path: str
    fields: dict[str, str]


def filled(inside: str) -> dict[str, str]:
    """A form's fields with the values the page gives them, as a browser would send them."""
    fields: dict[str, str] = {}
    for tag in TAG.finditer(inside):
        attributes = {
            a["key"]: unescape(a["value"] or "") for a in ATTRIBUTE.finditer(tag["attributes"])
        }
        name = attributes.get("name")
        if not name or name in fields:
            continue
        if attributes.get("type") in ("checkbox", "radio") and "checked" not in attributes:
            continue
        value = attributes.get("value", "")
        if tag["tag"] == "select":
            option = OPTION.search(inside, tag.end())
            value = unescape(option["value"]) if option else ""
        fields[name] = value
    return fields


def page_forms(app: Any, client: Any, slug: str, known: list[int]) -> list[PageForm]:
    """Every form on the browser's pages (its group's, each session's, each season's, each
    round's), as the pages have them."""
    group = f"/g/{slug}"
    paths = ["/", *(group + p for p in GROUP_PAGES)]
    paths += [f"{group}/s/{n}{p}" for n in known for p in SESSION_PAGES]
    paths += [f"{group}/seasons/{n}" for n in known]
    paths += [f"{group}/s/{s}/rounds/{r}" for s in known for r in known]
    urls = app.url_map.bind("localhost")
    forms: dict[tuple[str, str], PageForm] = {}
    for path in dict.fromkeys(paths):
        response = client.get(path)
        if response.status_code != 200:
            continue
        for form in FORM.finditer(html(response)):
            action = ACTION.search(form["attributes"])
            sent = METHOD.search(form["attributes"])
            method = sent["method"].upper() if sent else "GET"
            fields = filled(form["inside"])
            # A button may send the form elsewhere (Boerenbridge's "Save the bids").
            targets = [unescape(action["action"]) if action and action["action"] else path]
            targets += [unescape(a) for a in FORMACTION.findall(form["inside"])]
            for target in (urlsplit(t).path for t in targets):
                endpoint, _ = urls.match(target, method=method)
                if endpoint not in LEFT_OUT:
                    key = (target, " ".join(sorted(fields)))
                    forms.setdefault(key, PageForm(endpoint, method, target, fields))
    return list(forms.values())


# Not the group's data: what a sign-in, a refused one too, keeps about this browser and its
# address (tests/api/dbstate.py), a chart drawn once for a page, the count of wrong guesses.
NOT_STORED = {"credentials", "address_failures", "access_grants", "session_charts"}
COUNTERS = {"failed_logins", "failed_since"}


def stored(app: Any) -> list[Any]:
    """Every row of every table of the groups, as it reads: to show a refusal stored nothing."""
    with app.app_context():
        kept = []
        for table in db.metadata.sorted_tables:
            if table.name in NOT_STORED:
                continue
            columns = [c for c in table.columns if c.key not in COUNTERS]
            rows = db.session.execute(select(*columns).order_by(*table.primary_key)).all()
            kept.append((table.name, [tuple(r) for r in rows]))
        db.session.rollback()
    return kept


def said_error(client: Any) -> bool:
    """Whether the page the browser is sent to will say an error (a flashed message); taken
    from the browser's session, so the next request starts without it."""
    with client.session_transaction() as cookie:
        said = cookie.pop("_flashes", [])
    return any(kind == "error" for kind, _ in said)


def test_no_page_or_form_answers_5xx_and_redirects_stay_on_this_site(app, client):
    phone, known = browser(client)
    routes = page_routes(app)
    forms = page_forms(app, client, phone.slug, known)
    named: dict[str, set[str]] = {}
    for form in forms:
        named.setdefault(form.endpoint, set()).update(form.fields)
    every = sorted({*FIELDS, *(f for names in named.values() for f in names)})
    fields = {endpoint: sorted(names) for endpoint, names in named.items()} | {"": every}

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(requests(routes, phone.slug, known, fields))
    def one(request: Any) -> None:
        method, path, headers, data = request
        kind = "application/x-www-form-urlencoded" if isinstance(data, bytes) else None
        before = stored(app)
        said_error(client)  # none left over from before
        response = client.open(path, method=method, headers=headers, data=data, content_type=kind)
        response.close()  # a static file's answer holds the file open until closed
        assert response.status_code < 500, (method, path, response.get_data()[:300])
        if said_error(client) or 400 <= response.status_code < 500:
            assert stored(app) == before, (method, path, data, response.status_code)
        where = response.headers.get("Location")
        if where is not None:
            parts = urlsplit(where)
            assert parts.netloc in ("", "localhost"), where
            assert not any(c in where for c in "\r\n\t"), where

    one()
    kept_clean(app)


# What each field of each form is sent in turn, the rest as the page filled them in: the
# shapes that broke a form before (issues 38, 46), none of them a value the form offers.
SWEEP = [
    "",
    "later",
    "\x00",
    "-1",
    "2147483648",
    "x" * 5000,
    "AC/DC",
    "Mary\nAnn",
    "\u202e",
    "1.5",
    "a\u200db",
]
# The forms whose success ends what the others are sent to: sent last.
ENDINGS = ("delete", "finish", "undo", "leave", "show", "reopen", "off_tab")


def test_every_field_of_every_page_form_refused_with_its_page_and_nothing_stored(app, client):
    """Issue 46.3: each form on the browser's pages (the newer kinds' among them: seasons and
    their close, rounds of drinks, a buy-in, bids, teams, payments, options), each of its
    fields given each odd value in turn and left out, the rest as the page filled them in:
    never a 5xx, and a refusal (a 4xx, or the page it leads to saying an error) stores nothing.
    """
    phone, known = browser(client)
    forms = page_forms(app, client, phone.slug, known)
    wanted = [
        ("seats.buy_in", "player"),
        ("hands.call", "results-0-bid"),
        ("sessions.pot", "pot"),
        ("sessions.reopen", "csrf_token"),
        ("seasons.index", "prizes"),
        ("seasons.show", "settle"),
        ("rounds.form", "share-Enda"),
        ("seats.take_back_buy_in", "player"),
        ("hands.new", "results-0-tricks"),
        ("hands.new", "roem-1"),
        ("sessions.pay", "units"),
        ("tab.pay", "currency"),
        ("sessions.new", "opt-kaluki-buy_in"),
    ]
    for endpoint, field in wanted:  # each newer kind's form is among them, with its own field
        assert any(f.endpoint == endpoint and field in f.fields for f in forms), (endpoint, field)
    # One form of each kind (the same fields to the same place: a rename of each player is one).
    kinds = {(f.endpoint, " ".join(f.fields)): f for f in reversed(forms)}
    turn = refusals = 0
    # What the tables hold before each request: read once, then after each request (the
    # next request's "before"), so a refusal's check costs no second read of every table.
    said_error(client)
    before = stored(app)
    for form in sorted(kinds.values(), key=lambda f: f.endpoint.endswith(ENDINGS)):
        for field in form.fields:
            turn += 1  # each field a few of the odd values, every value in turn
            for value in [*(SWEEP[(turn + i) % len(SWEEP)] for i in range(0, 12, 3)), None]:
                data = {**form.fields, field: value}
                if value is None:
                    del data[field]
                response = client.open(form.path, method=form.method, data=data)
                response.close()
                where = (form.endpoint, field, value, response.status_code)
                assert response.status_code < 500, where
                after = stored(app)
                if said_error(client) or 400 <= response.status_code < 500:
                    assert after == before, where
                    refusals += 1
                before = after
    assert refusals > 300  # the check above was made, and often
    kept_clean(app)
