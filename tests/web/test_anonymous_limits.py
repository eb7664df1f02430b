"""Writes anyone may make without signing in: groups made (page and API) and restored (page),
at most LEDGER_GROUP_LIMIT an hour per client address (issue 32).

The suite runs with the limit off (tests/conftest.py); these tests turn it on. Requests come
from addresses of their own (``REMOTE_ADDR``), as tests/api/test_access_rules.py does.
"""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
from sqlalchemy import func, select, update

from ledger import create_app
from ledger.config import ConfigError
from ledger.extensions import db
from ledger.models import AddressFailure, Group, utcnow
from ledger.services import auth, throttle
from tests.web.pages import PASSPHRASE, html

STRANGER = "203.0.113.7"
NEIGHBOUR = "203.0.113.8"
LIMIT = 3


@pytest.fixture
def limited(app):
    app.config["LEDGER_GROUP_LIMIT"] = LIMIT
    app.config["LEDGER_PASSPHRASE_HASH"] = "pbkdf2:sha256:1000"
    return app


def at(address: str) -> dict:
    return {"environ_base": {"REMOTE_ADDR": address}}


def api_group(client, address: str = STRANGER, name: str = "Snug"):
    body = {"name": name, "passphrase": PASSPHRASE}
    return client.post("/api/v1/groups", json=body, **at(address))


def page_group(client, address: str = STRANGER, name: str = "Snug"):
    data = {"create-name": name, "create-passphrase": PASSPHRASE}
    return client.post("/groups", data=data, **at(address))


def restore(client, content: bytes, address: str = STRANGER):
    data = {"restore-backup": (io.BytesIO(content), "backup.json")}
    return client.post("/restore", data=data, content_type="multipart/form-data", **at(address))


def groups(app) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count(Group.id))) or 0


def test_one_address_makes_the_limit_of_groups_an_hour_then_is_told_when_to_come_back(
    limited, client
):
    made = [api_group(client).status_code for _ in range(LIMIT)]
    assert made == [201] * LIMIT

    refused = api_group(client)
    assert refused.status_code == 429
    wait = int(refused.headers["Retry-After"])
    assert 3500 < wait <= 3600
    message = refused.get_json()["error"]["message"]
    assert message == (
        "Too many groups were made or restored from this address in the last hour; "
        "try again in 60 minutes."
    )
    assert groups(limited) == LIMIT


def test_the_page_and_the_api_share_one_count_and_the_page_says_why_beside_the_form(
    limited, client
):
    assert api_group(client).status_code == 201
    assert page_group(client).status_code == 302
    assert api_group(client).status_code == 201

    refused = page_group(client, name="One more")
    assert refused.status_code == 429
    assert 0 < int(refused.headers["Retry-After"]) <= 3600
    page = html(refused)
    assert "Too many groups were made or restored from this address in the last hour" in page
    assert 'value="One more"' in page  # what was typed stays in the form
    assert groups(limited) == LIMIT


def test_the_page_says_it_in_dutch(limited, client):
    client.post("/language", data={"lang": "nl"})
    for _ in range(LIMIT):
        api_group(client)
    page = html(page_group(client))
    assert "Vanaf dit adres zijn het afgelopen uur te veel groepen gemaakt of teruggezet" in page


def test_other_addresses_have_counts_of_their_own(limited, client):
    for _ in range(LIMIT):
        assert api_group(client).status_code == 201
    assert api_group(client).status_code == 429
    assert api_group(client, NEIGHBOUR).status_code == 201


def test_an_ipv6_client_is_counted_by_its_64(limited, client):
    for n in range(LIMIT):
        assert api_group(client, f"2001:db8:1:2::{n + 1}").status_code == 201
    assert api_group(client, "2001:db8:1:2:ffff::9").status_code == 429
    assert api_group(client, "2001:db8:1:3::1").status_code == 201


def test_behind_a_trusted_proxy_the_clients_address_is_counted(limited, client):
    limited.config["LEDGER_TRUSTED_PROXY"] = True

    def via_proxy(phone: str):
        body = {"name": "Snug", "passphrase": PASSPHRASE}
        headers = {"X-Forwarded-For": phone}
        return client.post("/api/v1/groups", json=body, headers=headers, **at("127.0.0.1"))

    for _ in range(LIMIT):
        assert via_proxy(STRANGER).status_code == 201
    assert via_proxy(STRANGER).status_code == 429
    assert via_proxy(NEIGHBOUR).status_code == 201


def test_an_hour_later_the_address_may_make_groups_again(limited, client):
    for _ in range(LIMIT):
        api_group(client)
    assert api_group(client).status_code == 429
    with limited.app_context():
        db.session.execute(update(AddressFailure).values(since=utcnow() - timedelta(minutes=61)))
        db.session.commit()
    assert api_group(client).status_code == 201


def test_a_refused_name_or_passphrase_takes_no_place_in_the_count(limited, client):
    for _ in range(LIMIT + 2):
        short = client.post("/api/v1/groups", json={"name": "Snug", "passphrase": "short"})
        assert short.status_code == 422
    assert [api_group(client, "127.0.0.1").status_code for _ in range(LIMIT)] == [201] * LIMIT


def test_a_group_not_made_because_no_slow_check_was_free_gives_its_place_back(limited, client):
    with limited.app_context():
        slots = auth.hash_slots()
    taken = [slots.acquire(blocking=False) for _ in range(64)]
    limited.config["LEDGER_HASH_WAIT"] = 0
    try:
        busy = [api_group(client).status_code for _ in range(LIMIT + 2)]
    finally:
        for held in taken:
            if held:
                slots.release()
    assert busy == [503] * (LIMIT + 2)
    assert [api_group(client).status_code for _ in range(LIMIT)] == [201] * LIMIT


def test_restores_count_with_the_groups_made_and_a_refused_file_counts_too(limited, client):
    assert api_group(client).status_code == 201
    damaged = restore(client, b"not a backup at all")
    assert damaged.status_code == 422
    assert "not a Pub Ledger backup" in html(damaged)
    assert restore(client, b"{}").status_code == 422

    refused = restore(client, b"{}")
    assert refused.status_code == 429
    assert 0 < int(refused.headers["Retry-After"]) <= 3600
    assert "Too many groups were made or restored from this address" in html(refused)
    assert api_group(client).status_code == 429


def test_a_restore_sent_while_another_runs_takes_no_place(limited, client):
    from ledger.web.group.home import RESTORING

    assert RESTORING.acquire(blocking=False)
    try:
        assert [restore(client, b"{}").status_code for _ in range(LIMIT + 1)] == [503] * 4
    finally:
        RESTORING.release()
    assert [api_group(client).status_code for _ in range(LIMIT)] == [201] * LIMIT


def test_with_the_limit_off_an_address_makes_any_number(app, client):
    app.config["LEDGER_PASSPHRASE_HASH"] = "pbkdf2:sha256:1000"
    assert app.config["LEDGER_GROUP_LIMIT"] == 0  # the suite's own setting
    assert {api_group(client).status_code for _ in range(25)} == {201}
    with app.app_context():
        assert db.session.scalar(select(func.count(AddressFailure.id))) == 0


def test_the_largest_limit_counts_like_any_other(app, client):
    app.config["LEDGER_PASSPHRASE_HASH"] = "pbkdf2:sha256:1000"
    app.config["LEDGER_GROUP_LIMIT"] = 2**31 - 1
    assert {api_group(client).status_code for _ in range(3)} == {201}


def test_a_script_without_an_address_is_not_counted(limited):
    with limited.app_context():
        for _ in range(LIMIT + 2):
            auth.create_group("Snug", PASSPHRASE)
    assert groups(limited) == LIMIT + 2


def test_old_counts_of_other_addresses_go_but_not_before_their_hour_is_over(limited, client):
    assert api_group(client, STRANGER).status_code == 201
    with limited.app_context():
        db.session.execute(update(AddressFailure).values(since=utcnow() - timedelta(minutes=30)))
        db.session.commit()
    assert api_group(client, NEIGHBOUR).status_code == 201  # a new row: old ones are pruned
    with limited.app_context():
        keys = set(db.session.scalars(select(AddressFailure.key)))
    assert keys == {throttle.new_group_key(STRANGER), throttle.new_group_key(NEIGHBOUR)}


# --- The setting ------------------------------------------------------------------------------


def test_the_default_is_twenty_an_hour(tmp_path, monkeypatch):
    monkeypatch.setenv("LEDGER_INSTANCE_PATH", str(tmp_path))
    monkeypatch.delenv("LEDGER_GROUP_LIMIT", raising=False)
    assert create_app({"SECRET_KEY": "x"}).config["LEDGER_GROUP_LIMIT"] == 20


@pytest.mark.parametrize(
    ("text", "value"), [("0", 0), ("5", 5), ("1_000", 1000), (" 7 ", 7), ("2147483647", 2**31 - 1)]
)
def test_the_limit_comes_from_the_environment(tmp_path, monkeypatch, text, value):
    monkeypatch.setenv("LEDGER_INSTANCE_PATH", str(tmp_path))
    monkeypatch.setenv("LEDGER_GROUP_LIMIT", text)
    assert create_app({"SECRET_KEY": "x"}).config["LEDGER_GROUP_LIMIT"] == value


@pytest.mark.parametrize("text", ["-1", "lots", "2.5", "1e3", "true", "2147483648", "9" * 40])
def test_a_limit_that_is_not_a_whole_number_stops_the_start_with_a_sentence(
    tmp_path, monkeypatch, text
):
    monkeypatch.setenv("LEDGER_INSTANCE_PATH", str(tmp_path))
    monkeypatch.setenv("LEDGER_GROUP_LIMIT", text)
    with pytest.raises(ConfigError, match="LEDGER_GROUP_LIMIT must be a whole number"):
        create_app({"SECRET_KEY": "x"})


@pytest.mark.parametrize("value", [-5, True, 2.5, "many", None])
def test_a_limit_set_in_config_py_is_checked_too(tmp_path, monkeypatch, value):
    monkeypatch.setenv("LEDGER_INSTANCE_PATH", str(tmp_path))
    monkeypatch.delenv("LEDGER_GROUP_LIMIT", raising=False)
    with pytest.raises(ConfigError, match="LEDGER_GROUP_LIMIT must be a whole number"):
        create_app({"SECRET_KEY": "x", "LEDGER_GROUP_LIMIT": value})
