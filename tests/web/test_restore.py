"""Restoring a group from its backup file on the start page: the whole history comes back."""

from __future__ import annotations

import io
import re
from html import unescape

import pytest
from werkzeug.datastructures import FileStorage
from werkzeug.test import encode_multipart

from tests.web.pages import HAND_1, HAND_2, PASSPHRASE, Phone, html

MB = 1024 * 1024


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


# --- With form tokens on, as in production, and files larger than other forms ----------------


def long_history(app, phone: Phone, hands: int) -> None:
    """Many nights' worth of hands in one session, entered as the API would."""
    from ledger import services
    from ledger.rules.base import HandEntry, ResultEntry

    with app.app_context():
        group = services.authenticate(phone.slug, PASSPHRASE)
        for number in range(hands):
            cards = HAND_1 if number % 2 else dict(HAND_2, Enda="")
            results = tuple(ResultEntry(name, cards=text or None) for name, text in cards.items())
            entry = HandEntry(results, out=None if number % 2 else "Enda")
            services.add_hand(group, phone.session_id, entry)


def form_token(page: str) -> str:
    return re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)


def post_multipart(client, path: str, fields: dict):
    """The body encoded beforehand: the test client would spool a large one to a temporary
    file, and one the app refuses unread would be left open."""
    boundary, body = encode_multipart(fields)
    return client.post(path, data=body, content_type=f"multipart/form-data; boundary={boundary}")


def upload_with_token(client, content: bytes):
    token = form_token(html(client.get("/")))
    backup = FileStorage(io.BytesIO(content), "backup.json")
    fields = {"csrf_token": token, "restore-backup": backup}
    return post_multipart(client, "/restore", fields)


def message(page: str) -> str:
    found = re.search(r'<section class="card error">(.*?)</section>', page, re.S)
    assert found, page
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", found.group(1))).split())


def test_a_backup_larger_than_other_forms_restores_with_the_form_token_on(app, empty_server):
    phone = Phone(app.test_client())
    phone.create_group("Thursday crowd")
    phone.add_players("Enda", "John", "Rex", "Finn")
    phone.start()
    long_history(app, phone, 760)
    backup = phone.client.get(f"/g/{phone.slug}/backup.json").data
    assert len(backup) > empty_server.config["MAX_CONTENT_LENGTH"]

    empty_server.config["WTF_CSRF_ENABLED"] = True
    new_phone = empty_server.test_client()
    response = upload_with_token(new_phone, backup)
    assert response.status_code == 302, html(response)
    assert "Thursday crowd is back with all its sessions" in html(new_phone.get("/"))
    opened = new_phone.post(
        "/open",
        data={
            "csrf_token": form_token(html(new_phone.get("/"))),
            "open-group": phone.slug,
            "open-passphrase": PASSPHRASE,
        },
    )
    assert opened.status_code == 302
    assert new_phone.get(f"{phone.board}/hands/760").status_code == 200
    assert new_phone.get(f"{phone.board}/hands/761").status_code == 404


def test_a_backup_over_the_restore_limit_gets_a_page_that_says_so(app, client, monkeypatch):
    from ledger.web import limits

    monkeypatch.setattr(limits, "RESTORE_LIMIT", 3 * MB)
    app.config["WTF_CSRF_ENABLED"] = True
    response = upload_with_token(client, b" " * (3 * MB + 1))
    assert response.status_code == 413
    page = html(response)
    assert "<h1>That backup file is too big</h1>" in page
    assert "restores a backup file of at most 3 MB, and this one is bigger" in message(page)
    assert "ledger restore FILE" in message(page)
    assert 'href="/#restore"' in page  # back to the restore form
    assert "Something about that request was not right" not in page


def test_the_restore_limit_is_16_mb_and_no_other_form_takes_more_than_2(app, client):
    from ledger.web import limits

    assert limits.RESTORE_LIMIT == 16 * MB
    assert app.config["MAX_CONTENT_LENGTH"] == 2 * MB
    app.config["WTF_CSRF_ENABLED"] = True
    token = form_token(html(client.get("/")))
    fields = {
        "csrf_token": token,
        "create-name": "Pub",
        "create-passphrase": PASSPHRASE,
        "photo": FileStorage(io.BytesIO(b" " * (2 * MB + 1)), "photo.jpg"),
    }
    response = post_multipart(client, "/groups", fields)
    assert response.status_code == 413
    page = html(response)
    assert "A form here sends at most 2 MB, and this was more." in message(page)
    assert "backup" not in message(page)


def test_the_group_page_says_a_backup_is_restored_on_the_start_page(client):
    phone = Phone(client)
    phone.create_group()
    page = html(client.get(f"/g/{phone.slug}"))
    files = re.search(r'<section[^>]*aria-labelledby="files-heading">(.*?)</section>', page, re.S)
    sentence = re.search(r"<p[^>]*>([^<]*<a href=\"([^\"]+)\">[^<]*</a>[^<]*)</p>", files.group(1))
    assert sentence, files.group(1)
    text = re.sub(r"<[^>]+>", "", sentence.group(1))
    assert text == "A backup file is restored on the start page."
    path, anchor = sentence.group(2).split("#")
    start = html(client.get(path))
    restore_card = re.search(rf'<section[^>]*id="{anchor}"[^>]*>(.*?)</section>', start, re.S)
    assert restore_card, start
    assert 'action="/restore"' in restore_card.group(1)


# --- Crafted files: refused beside the field, nothing stored ---------------------------------


def error_beside_the_field(page: str) -> str:
    found = re.search(r'id="restore-backup-error"[^>]*>(.*?)</', page, re.S)
    assert found, page
    return " ".join(unescape(found.group(1)).split())


def test_a_backup_with_a_score_bumped_is_refused_beside_the_field(night, empty_server):
    import json

    backup = json.loads(night.client.get(f"/g/{night.slug}/backup.json").data)
    backup["sessions"][0]["state"]["scores"]["Rex"] += 1000  # the settle-up would pay it
    phone = empty_server.test_client()

    response = upload(phone, json.dumps(backup).encode())

    assert response.status_code == 422
    sentence = error_beside_the_field(html(response))
    assert sentence == (
        "Session 1 of the backup cannot be read back: its state is not what the rules make of it."
    )
    from ledger.extensions import db
    from ledger.models import Group, Hand

    with empty_server.app_context():  # nothing stored
        assert db.session.scalar(db.select(db.func.count()).select_from(Group)) == 0
        assert db.session.scalar(db.select(db.func.count()).select_from(Hand)) == 0


@pytest.mark.parametrize(
    "content",
    [
        b'{"format": "pub-ledger-backup", "version": 1, "group": ' + b"[" * 50_000 + b"]" * 50_000,
        b'{"format": "pub-ledger-backup", "version": 1, "made_at": ' + b"7" * 5000 + b"}",
        b'{"format": "pub-ledger-backup", "version": 1, "group": {"id": 1}, "players": 5}',
    ],
    ids=["nested deep", "5,000 digits", "a row with nothing in it"],
)
def test_a_file_crafted_to_trip_the_restore_gets_a_sentence_not_a_500(client, content):
    response = upload(client, content)
    assert response.status_code == 422
    assert error_beside_the_field(html(response)).startswith(("The backup is", "This file"))


def test_the_refusals_of_a_restore_are_in_dutch_too(night, empty_server):
    import json

    backup = json.loads(night.client.get(f"/g/{night.slug}/backup.json").data)
    backup["group"]["passphrase_hash"] = "plain:pints of plain"
    phone = empty_server.test_client()
    phone.set_cookie("lang", "nl")

    response = upload(phone, json.dumps(backup).encode())

    assert response.status_code == 422
    sentence = error_beside_the_field(html(response))
    assert sentence == (
        "De back-up wordt geweigerd: de hash van de wachtzin is er geen die Pub Ledger maakt."
    )


def test_a_restore_sent_while_another_runs_is_asked_to_come_back_and_stores_nothing(app, client):
    """Anyone may send a backup and each holds a thread for seconds: one at a time."""
    from ledger.web.group import home

    app.config["WTF_CSRF_ENABLED"] = True
    assert home.RESTORING.acquire(blocking=False)  # as if another restore were running
    try:
        response = upload_with_token(client, b'{"format": "pub-ledger-backup"}')
    finally:
        home.RESTORING.release()
    assert response.status_code == 503
    assert "Another backup is being restored; try again in a minute." in html(response)
    # Once it is done, the next file is read again (here refused as damaged, not as busy).
    again = upload_with_token(client, b'{"format": "pub-ledger-backup"}')
    assert again.status_code == 422
    assert "Another backup is being restored" not in html(again)


@pytest.mark.parametrize("written", ["escaped", "as bytes"])
def test_a_backup_holding_half_a_surrogate_pair_is_refused_beside_the_field(
    night, empty_server, written
):
    """Issue 38: a name holding a lone surrogate got a refusal the page could not write (500).
    Such text is not UTF-8, as bytes (ED A0 80) or as a JSON escape (\\ud800)."""
    import json

    from ledger.extensions import db
    from ledger.models import Group

    backup = json.loads(night.client.get(f"/g/{night.slug}/backup.json").data)
    backup["players"][0]["name"] = "En\ud800da"
    if written == "escaped":
        content = json.dumps(backup).encode()
    else:
        content = json.dumps(backup, ensure_ascii=False).encode("utf-8", "surrogatepass")
    phone = empty_server.test_client()

    response = upload(phone, content)

    assert response.status_code == 422
    assert "UTF-8" in error_beside_the_field(html(response))
    with empty_server.app_context():
        assert db.session.query(Group).count() == 0
