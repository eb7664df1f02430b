"""Basic auth against `ledger serve`: quick for the table's phones, slow and limited for guessers.

API.md: after one successful check the server accepts the same credentials quickly; failed
attempts stay slow and are limited per group. Past the limit the server answers 429 with a
Retry-After header (ledger/services/auth.py), and phones that are already in keep working.
Nothing here is timed: the tests check what a caller sees, not how long it took.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests

from tests.live.api import Api, new_group
from tests.live.server import APP_OWN_HASH, fresh_database, fresh_server, running_server

# Enough wrong guesses to pass any sensible limit; the tests find the limit by trying.
MAX_TRIES = 20


def guess(api: Api) -> int:
    return api.as_(api.slug, "a wrong guess").get(f"/groups/{api.slug}").status_code


def guess_until_limited(api: Api) -> None:
    for _ in range(MAX_TRIES):
        if guess(api) == 429:
            return
    pytest.fail(f"{MAX_TRIES} wrong passphrases and still no limit")


@pytest.fixture(scope="module")
def live_server(tmp_path_factory, external_database) -> Iterator[str]:
    """tests/live/conftest.py's server, with the app's own slow hash: these tests are about
    the slow checks."""
    with fresh_server(
        tmp_path_factory.mktemp("auth"), external_database, settings=APP_OWN_HASH
    ) as url:
        yield url


@pytest.fixture(scope="module")
def limit(live_server) -> int:
    """How many wrong passphrases a group takes before the server stops checking them."""
    api = new_group(live_server)
    statuses = [guess(api) for _ in range(MAX_TRIES)]
    assert 429 in statuses, f"{MAX_TRIES} wrong passphrases were all answered {set(statuses)}"
    tries = statuses.index(429)
    assert statuses == [401] * tries + [429] * (MAX_TRIES - tries)
    assert tries >= 3, "a table where someone mistypes twice must not be locked out"
    return tries


def test_after_one_check_many_calls_with_the_same_credentials_succeed(live_server):
    api = new_group(live_server)
    slug = api.slug
    paths = [f"/groups/{slug}", "/games", f"/groups/{slug}"] * 20
    for path in paths:
        api.ok("GET", path)
    api.ok("POST", f"/groups/{slug}/players", {"name": "Enda"}, 201)
    assert [p["name"] for p in api.ok("GET", f"/groups/{slug}")["players"]] == ["Enda"]


def test_many_phones_at_once_with_the_right_passphrase_all_get_in(live_server):
    api = new_group(live_server)
    barrier = threading.Barrier(12, timeout=30)

    def call(_):
        barrier.wait()
        return api.get(f"/groups/{api.slug}").status_code

    with ThreadPoolExecutor(max_workers=12) as pool:
        assert list(pool.map(call, range(12))) == [200] * 12


def test_wrong_passphrases_are_refused_then_limited_with_a_time_to_wait(live_server, limit):
    api = new_group(live_server)
    for _ in range(limit):
        response = api.as_(api.slug, "a wrong guess").get(f"/groups/{api.slug}")
        assert response.status_code == 401
        assert response.json()["error"]["message"]

    response = api.as_(api.slug, "a wrong guess").get(f"/groups/{api.slug}")
    assert response.status_code == 429
    assert int(response.headers["Retry-After"]) > 0
    assert response.json()["error"]["message"]
    assert api.slug not in response.text.replace(f"/groups/{api.slug}", "")  # nothing of it


def test_the_limit_holds_when_the_guesses_come_all_at_once(live_server, limit):
    api = new_group(live_server)
    count = 3 * limit
    barrier = threading.Barrier(count, timeout=30)

    def call(_):
        barrier.wait()
        return guess(api)

    with ThreadPoolExecutor(max_workers=count) as pool:
        statuses = sorted(pool.map(call, range(count)))
    assert statuses == [401] * limit + [429] * (count - limit)


def with_token(api: Api, token: str, method: str, path: str, json=None) -> requests.Response:
    headers = {"Authorization": f"Bearer {token}"}
    url = f"{api.base_url}/api/v1{path}"
    return requests.request(method, url, json=json, headers=headers, timeout=30)


def test_phones_already_in_keep_working_while_someone_guesses(live_server, limit):
    # Issue 11: "already in" means an access token (or a browser's sign-in); remembered Basic
    # credentials wait like any passphrase, or the limit would tell a right one from a wrong.
    api = new_group(live_server)
    token = api.ok("POST", f"/groups/{api.slug}/tokens", {}, status=201)["token"]
    guess_until_limited(api)

    assert with_token(api, token, "GET", f"/groups/{api.slug}").status_code == 200
    added = with_token(api, token, "POST", f"/groups/{api.slug}/players", {"name": "Enda"})
    assert added.status_code == 201


def test_the_limit_is_no_oracle_a_right_passphrase_waits_like_a_wrong_one(live_server, limit):
    """A phone's credentials are remembered; then someone guesses until refused. The right
    passphrase, remembered and all, now gets exactly the answer a wrong one gets, on the API
    and on the web's open form, so guessing on cannot find it."""
    api = new_group(live_server)
    api.ok("GET", f"/groups/{api.slug}")  # remembered: the quick way in
    browser = requests.Session()
    assert "csrf_token" in browser.get(live_server, timeout=30).text
    guess_until_limited(api)

    right = api.get(f"/groups/{api.slug}")
    wrong = api.as_(api.slug, "a wrong guess").get(f"/groups/{api.slug}")
    assert right.status_code == wrong.status_code == 429
    assert right.json() == wrong.json()
    assert int(right.headers["Retry-After"]) > 0

    def open_form(passphrase: str) -> requests.Response:
        page = browser.get(live_server, timeout=30).text
        csrf = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
        data = {"csrf_token": csrf, "open-group": api.slug, "open-passphrase": passphrase}
        return browser.post(f"{live_server}/open", data=data, timeout=30, allow_redirects=False)

    right_page, wrong_page = open_form(api.passphrase), open_form("a wrong guess")
    assert right_page.status_code == wrong_page.status_code == 429
    assert "Too many wrong passphrases for this group" in right_page.text
    strip = re.compile(r'value="[^"]*"|\d+')  # the form's token, the seconds to wait
    assert strip.sub("", right_page.text) == strip.sub("", wrong_page.text)


def test_the_limit_is_per_group(live_server, limit):
    guessed = new_group(live_server)
    other = new_group(live_server)
    guess_until_limited(guessed)

    assert guess(other) == 401  # its own count, not the other group's
    other.ok("GET", f"/groups/{other.slug}")


def test_an_unknown_group_or_no_credentials_get_401(live_server):
    nobody = Api(live_server)
    assert nobody.get("/groups/no-such-group").status_code == 401
    stranger = Api(live_server, "no-such-group", "whatever-it-is")
    response = stranger.get("/groups/no-such-group")
    assert response.status_code == 401
    assert response.json()["error"]["message"]


def test_the_limit_holds_across_two_server_processes_on_one_database(
    tmp_path, external_database, limit
):
    """Two `ledger serve` processes (two workers) share the database: guesses split between
    them count together, and past the limit either one answers 429."""
    with (
        fresh_database(external_database, tmp_path) as database_url,
        running_server(tmp_path / "one", database_url, threads=2, settings=APP_OWN_HASH) as one,
        running_server(tmp_path / "two", database_url, threads=2, settings=APP_OWN_HASH) as two,
    ):
        first = new_group(one)
        second = Api(two, first.slug, first.passphrase)
        second.ok("GET", f"/groups/{first.slug}")  # the group is there for the other process

        statuses = [guess(first if i % 2 == 0 else second) for i in range(limit)]

        assert statuses == [401] * limit
        assert guess(first) == 429
        assert guess(second) == 429
