"""A phone signed out (a new passphrase, a cookie gone) while on a page: the passphrase page
leads back to a page that opens, with a hand that was being typed still there."""

from __future__ import annotations

import re
from html import unescape

import pytest

from tests.web.pages import HAND_1, HAND_2, PASSPHRASE, Phone, hidden_fields, html

NEW = "a brand new one"


@pytest.fixture
def phone(client) -> Phone:
    phone = Phone(client)
    phone.create_group()
    phone.add_players("Enda", "John", "Rex", "Finn")
    phone.start()
    return phone


def signed_out_phone(app, phone: Phone) -> Phone:
    """Another phone at the table that opened the group, then the passphrase changed."""
    other = Phone(app.test_client(), phone.slug, phone.session_id, list(phone.seats))
    opened = other.client.post("/open", data={"open-group": phone.slug, "open-passphrase": NEW})
    assert opened.status_code == 302
    return other


def change_passphrase(phone: Phone, current: str, new: str) -> None:
    response = phone.client.post(
        f"/g/{phone.slug}/passphrase",
        data={"current_passphrase": current, "new_passphrase": new, "new_passphrase_again": new},
    )
    assert response.status_code == 302


def passphrase_form(page: str) -> dict[str, list[str]]:
    """The hidden fields of the passphrase page's form, as the browser sends them."""
    form = re.search(r'<form method="post" action="/open".*?</form>', page, re.S)
    assert form, page
    fields: dict[str, list[str]] = {}
    for name, value in re.findall(
        r'<input type="hidden" name="([^"]+)" value="([^"]*)">', form.group(0)
    ):
        fields.setdefault(unescape(name), []).append(unescape(value))
    return fields


def open_from(browser, refused, passphrase: str = PASSPHRASE):
    """Type the passphrase on the 401 page and follow where it leads."""
    assert refused.status_code == 401
    data = passphrase_form(html(refused)) | {"open-passphrase": [passphrase]}
    opened = browser.post("/open", data=data)
    assert opened.status_code == 302, html(opened)
    return opened.headers["Location"], browser.get(opened.headers["Location"])


@pytest.mark.parametrize(
    ("action", "data"),
    [
        ("undo", {"number": "1"}),
        ("join", {"join-name": "Aoife", "after": "Rex"}),
        ("leave", {"name": "John"}),
        ("finish", {"leftover_pot": "carry"}),
    ],
)
def test_a_button_pressed_while_signed_out_leads_to_the_scoreboard_after_the_passphrase(
    app, phone, action, data
):
    phone.enter(HAND_1)
    stranger = app.test_client()
    refused = stranger.post(f"{phone.board}/{action}", data=data)
    location, page = open_from(stranger, refused)
    assert location == phone.board
    assert page.status_code == 200
    assert stranger.get(f"{phone.board}/version.json").get_json()["hands_played"] == 1


def test_a_group_form_sent_while_signed_out_leads_to_the_group_page(app, phone):
    stranger = app.test_client()
    refused = stranger.post(f"/g/{phone.slug}/players", data={"name": "Aoife"})
    location, page = open_from(stranger, refused)
    assert location == f"/g/{phone.slug}"
    assert page.status_code == 200


def test_a_page_opened_while_signed_out_is_the_page_after_the_passphrase(app, phone):
    stranger = app.test_client()
    refused = stranger.get(f"{phone.board}/settle?pot=refund")
    location, page = open_from(stranger, refused)
    assert location == f"{phone.board}/settle?pot=refund"
    assert page.status_code == 200


def test_a_hand_saved_while_signed_out_comes_back_typed_and_saves_once(app, phone):
    change_passphrase(phone, PASSPHRASE, NEW)
    other = signed_out_phone(app, phone)
    loaded = other.hidden(f"{phone.board}/hands/new")
    change_passphrase(phone, NEW, PASSPHRASE)  # the other phone is signed out meanwhile

    refused = other.enter(HAND_1, **loaded)
    location, form = open_from(other.client, refused)
    assert location == f"{phone.board}/hands/new"
    assert form.status_code == 200
    page = html(form)
    assert 'value="J 10"' in page and 'value="Q K"' in page  # what was typed, as typed
    assert hidden_fields(page)["request_id"] == loaded["request_id"]

    saved = other.enter(HAND_1, **hidden_fields(page))
    assert saved.status_code == 302, html(saved)
    again = other.enter(HAND_1, **hidden_fields(page))  # a resend still saves one hand
    assert again.headers["Location"] == saved.headers["Location"]
    assert phone.client.get(f"{phone.board}/version.json").get_json()["hands_played"] == 1
    # Shown once: the next hand's form starts empty.
    assert 'value="J 10"' not in html(other.client.get(f"{phone.board}/hands/new"))


def test_a_correction_saved_while_signed_out_comes_back_typed(app, phone):
    phone.enter(HAND_1)
    change_passphrase(phone, PASSPHRASE, NEW)
    other = signed_out_phone(app, phone)
    loaded = other.hidden(f"{phone.board}/hands/1/edit")
    change_passphrase(phone, NEW, PASSPHRASE)

    refused = other.client.post(
        f"{phone.board}/hands/1/edit", data=other.hand_form(dict(HAND_1, Enda="J 9"), **loaded)
    )
    location, form = open_from(other.client, refused)
    assert location == f"{phone.board}/hands/1/edit"
    assert form.status_code == 200
    assert 'value="J 9"' in html(form)
    assert hidden_fields(html(form))["version"] == loaded["version"]


def test_a_hand_typed_while_signed_out_over_another_hand_is_not_saved_twice(app, phone):
    """Kept with the version it was loaded at: a hand saved meanwhile is still noticed."""
    change_passphrase(phone, PASSPHRASE, NEW)
    other = signed_out_phone(app, phone)
    loaded = other.hidden(f"{phone.board}/hands/new")
    change_passphrase(phone, NEW, PASSPHRASE)
    phone.enter(HAND_2, out="Enda")
    _location, form = open_from(other.client, other.enter(HAND_1, **loaded))
    refused = other.enter(HAND_1, **hidden_fields(html(form)))
    assert refused.status_code == 409
    assert "Hand 1 was entered on another phone" in html(refused)


def test_a_phone_in_many_groups_keeps_a_cookie_a_browser_takes(app):
    """A browser drops a cookie over 4 KB without a word, and with it every group the phone
    had open (issue 37: the restore fuzz test's phone opened some 60 groups). The phone stays
    signed in to the 24 it opened last; the one opened longest ago asks for the passphrase."""
    phone = app.test_client()
    slugs: list[str] = []

    def open_group(slug: str) -> None:
        opened = phone.post("/open", data={"open-group": slug, "open-passphrase": PASSPHRASE})
        assert opened.status_code == 302

    for n in range(30):
        made = phone.post("/api/v1/groups", json={"name": f"Table {n}", "passphrase": PASSPHRASE})
        slugs.append(made.get_json()["slug"])
        open_group(slugs[-1])
        if n == 20:
            open_group(slugs[0])  # opened again: now among the latest
    cookie = phone.get_cookie("session")
    assert cookie is not None and len(cookie.value) < 3000

    still_open = [s for s in slugs if phone.get(f"/g/{s}").status_code == 200]
    assert still_open == [slugs[0], *slugs[7:]]
