"""Restoring a group from its backup file on the start page: the whole history comes back."""

from __future__ import annotations

import io
import re

import pytest

from tests.web.pages import HAND_1, HAND_2, PASSPHRASE, Phone, html


@pytest.fixture
def night(client) -> Phone:
    phone = Phone(client)
    phone.create_group("Thursday crowd")
    phone.add_players("Enda", "John", "Rex", "Finn")
    phone.start()
    assert phone.enter(HAND_1).status_code == 302
    assert phone.enter(HAND_2, out="Enda").status_code == 302
    return phone


@pytest.fixture
def empty_server(tmp_path):
    """A second app on a database of its own, as on a new server."""
    from ledger import create_app
    from ledger.extensions import db

    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "another server",
            "WTF_CSRF_ENABLED": False,
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'new-server.sqlite'}",
        }
    )
    with app.app_context():
        db.create_all()
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def upload(client, content: bytes):
    return client.post(
        "/restore",
        data={"restore-backup": (io.BytesIO(content), "backup.json")},
        content_type="multipart/form-data",
    )


def balances(page: str) -> list[str]:
    return re.findall(r'<span class="total[^"]*">([-+]?\d+)', page)


def test_a_backup_uploaded_on_a_new_server_brings_the_whole_night_back(night, empty_server):
    backup = night.client.get(f"/g/{night.slug}/backup.json")
    assert backup.status_code == 200
    before = balances(html(night.client.get(night.board)))
    assert before == ["+44", "+25", "-31", "-38"]

    phone = empty_server.test_client()
    response = upload(phone, backup.data)
    assert response.status_code == 302
    start = html(phone.get(response.headers["Location"]))
    assert "Thursday crowd is back with all its sessions" in start
    # Not signed in by the file alone: the passphrase opens it.
    assert phone.get(f"/g/{night.slug}").status_code == 401
    opened = phone.post("/open", data={"open-group": night.slug, "open-passphrase": PASSPHRASE})
    assert opened.status_code == 302
    assert balances(html(phone.get(night.board))) == before
    hand_1 = html(phone.get(f"{night.board}/hands/1"))
    assert "J" in hand_1 and "John" in hand_1


def test_a_file_that_is_not_a_backup_is_refused_beside_the_field(night, empty_server):
    phone = empty_server.test_client()
    response = upload(phone, b"surely not json")
    assert response.status_code == 422
    assert "not a Pub Ledger backup" in html(response)
    assert 'id="restore-backup-error"' in html(response)


def test_a_group_that_is_here_already_is_not_restored_twice(night):
    backup = night.client.get(f"/g/{night.slug}/backup.json").data
    response = upload(night.client, backup)
    assert response.status_code == 422
    assert "This group is here already" in html(response)


def test_the_upload_asks_for_a_file(client):
    response = client.post("/restore", data={}, content_type="multipart/form-data")
    assert response.status_code == 422
    assert "Choose the backup file" in html(response)
