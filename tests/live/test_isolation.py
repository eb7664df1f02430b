"""Groups cannot see each other: another group's things are simply not there (404, not 403).

Checked against `ledger serve` for every address of API.md that names a group, a session or
something in one, and for every method each address takes.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.live.api import Api, hand_entry, new_group, new_spot_session
from tests.live.server import fresh_server

# Names that appear nowhere else, so finding one in an answer means group A's data leaked.
A_PLAYERS = ["Zebedee", "Philomena", "Cornelius"]
A_NAME = "Secret Snug Club"


@pytest.fixture(scope="module")
def live_server(tmp_path_factory, external_database) -> Iterator[str]:
    """A server of this module's own: its wrong passphrases count against 127.0.0.1, which
    the shared server's other tests sign in from (tests/live/conftest.py)."""
    with fresh_server(tmp_path_factory.mktemp("isolation"), external_database) as url:
        yield url


@pytest.fixture(scope="module")
def groups(live_server):
    """Group A with a session, a hand and players; group B, empty; and what A looks like."""
    a = new_group(live_server, A_NAME)
    b = new_group(live_server, "The Other Table")
    session = new_spot_session(a, A_PLAYERS, dealer="Zebedee")
    entry = hand_entry({"Zebedee": "A 2", "Philomena": "3 4", "Cornelius": "5 6"})
    a.ok("POST", f"/sessions/{session['id']}/hands", entry, 201)
    return a, b, session["id"], snapshot(a, session["id"])


def snapshot(api: Api, sid: int):
    return (
        api.ok("GET", f"/groups/{api.slug}"),
        api.ok("GET", f"/sessions/{sid}"),
        api.ok("GET", f"/sessions/{sid}/hands"),
    )


def a_addresses(slug: str, sid: int) -> list[tuple[str, str, dict | None]]:
    """Every call of API.md on group A's things, with a body that would be valid for A."""
    entry = hand_entry({"Zebedee": "7 8", "Philomena": "3 4", "Cornelius": "5 6"})
    return [
        ("GET", f"/groups/{slug}", None),
        ("POST", f"/groups/{slug}/players", {"name": "Intruder"}),
        (
            "POST",
            f"/groups/{slug}/sessions",
            {"game": "spot", "players": A_PLAYERS, "dealer": "Zebedee", "options": {}},
        ),
        ("GET", f"/groups/{slug}/export.xlsx", None),
        ("GET", f"/sessions/{sid}", None),
        ("POST", f"/sessions/{sid}/players", {"name": "Intruder", "after": "Zebedee"}),
        ("DELETE", f"/sessions/{sid}/players/Cornelius", None),
        ("GET", f"/sessions/{sid}/hands", None),
        ("POST", f"/sessions/{sid}/hands", entry),
        ("PUT", f"/sessions/{sid}/hands/1", entry),
        ("DELETE", f"/sessions/{sid}/hands/1", None),
        ("POST", f"/sessions/{sid}/finish", {"leftover_pot": "refund"}),
        ("GET", f"/sessions/{sid}/settlement", None),
        ("GET", f"/sessions/{sid}/export.xlsx", None),
    ]


def test_with_another_groups_credentials_every_address_is_not_found(groups):
    a, b, sid, before = groups
    for method, path, body in a_addresses(a.slug, sid):
        response = b.call(method, path, body)
        assert response.status_code == 404, f"{method} {path}: {response.text}"
        assert response.headers["Content-Type"].startswith("application/json")
        assert response.json()["error"]["message"]
        for secret in [A_NAME, *A_PLAYERS]:
            assert secret not in response.text, f"{method} {path} shows {secret}"
    assert snapshot(a, sid) == before  # and nothing of A changed


def test_a_session_of_another_group_looks_like_one_that_does_not_exist(groups):
    a, b, sid, _ = groups
    missing = sid + 1000
    for suffix in ["", "/hands", "/settlement"]:
        theirs = b.get(f"/sessions/{sid}{suffix}")
        nowhere = b.get(f"/sessions/{missing}{suffix}")
        assert theirs.status_code == nowhere.status_code == 404
        assert theirs.text.replace(str(sid), "N") == nowhere.text.replace(str(missing), "N")


def test_without_the_right_passphrase_every_address_needs_credentials(groups):
    a, b, sid, before = groups
    anonymous = Api(a.base_url)
    for method, path, body in a_addresses(a.slug, sid):
        response = anonymous.call(method, path, body)
        assert response.status_code == 401, f"{method} {path}: {response.text}"
        assert response.json()["error"]["message"]
        for secret in [A_NAME, *A_PLAYERS]:
            assert secret not in response.text, f"{method} {path} shows {secret}"
    assert snapshot(a, sid) == before


def test_wrong_credentials_are_refused_with_401_at_every_address(groups):
    a, b, sid, before = groups
    # Wrong passphrases are limited per group name, made-up names alike (test_auth.py), so the
    # guesses are spread: a few with A's name, a few with B's, the rest two each with group
    # names that do not exist.
    wrong = [(a.slug, "not-the-passphrase")] * 2 + [(a.slug, b.passphrase)]
    wrong += [(b.slug, a.passphrase)] * 3
    addresses = a_addresses(a.slug, sid)
    wrong += [(f"no-such-group-{i // 2}", a.passphrase) for i in range(len(addresses) - len(wrong))]
    for (method, path, body), (slug, passphrase) in zip(addresses, wrong, strict=True):
        response = a.as_(slug, passphrase).call(method, path, body)
        assert response.status_code == 401, f"{method} {path} as {slug}: {response.text}"
        assert response.json()["error"]["message"]
        for secret in [A_NAME, *A_PLAYERS]:
            assert secret not in response.text
    assert snapshot(a, sid) == before
