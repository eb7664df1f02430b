"""Changing a group's passphrase on the invite page: only for whoever knows the current one."""

from __future__ import annotations

import re
from html import unescape
from urllib.parse import urlsplit

import pytest

from tests.web.pages import PASSPHRASE, Phone, html

NEW = "a brand new one"


@pytest.fixture
def phone(client) -> Phone:
    phone = Phone(client)
    phone.create_group()
    return phone


def invited(app, phone: Phone):
    """A phone that joined through the invite link and never typed the passphrase."""
    invite = html(phone.client.get(f"/g/{phone.slug}/invite"))
    link = re.search(r'<textarea id="invite-link"[^>]*>([^<]+)</textarea>', invite).group(1)
    guest = app.test_client()
    assert guest.get(urlsplit(link).path).status_code == 302
    assert guest.get(f"/g/{phone.slug}").status_code == 200
    return guest


def change(browser, slug: str, current: str, new: str = NEW, again: str | None = None):
    data = {
        "current_passphrase": current,
        "new_passphrase": new,
        "new_passphrase_again": new if again is None else again,
    }
    return browser.post(f"/g/{slug}/passphrase", data=data)


def field_error(page: str, field: str) -> str:
    found = re.search(rf'<p class="field-error" id="{field}-error">([^<]*)</p>', page)
    return unescape(found.group(1)) if found else ""


def opens(app, slug: str, passphrase: str) -> bool:
    response = app.test_client().post(
        "/open", data={"open-group": slug, "open-passphrase": passphrase}
    )
    return response.status_code == 302


def test_the_invite_page_asks_for_the_current_passphrase_and_the_new_one_twice(phone):
    page = html(phone.client.get(f"/g/{phone.slug}/invite"))
    assert '<label for="current_passphrase">Current passphrase</label>' in page
    assert '<label for="new_passphrase">New passphrase</label>' in page
    assert '<label for="new_passphrase_again">New passphrase again</label>' in page
    current = re.search(r'<input[^>]*id="current_passphrase"[^>]*>', page).group(0)
    assert 'autocomplete="current-password"' in current and 'type="password"' in current


def test_a_phone_that_joined_by_invite_cannot_change_a_passphrase_it_does_not_know(app, phone):
    guest = invited(app, phone)
    refused = change(guest, phone.slug, "a wild guess")
    assert refused.status_code == 422
    assert field_error(html(refused), "current_passphrase") == (
        "That is not the group's current passphrase."
    )
    # Nothing changed: the old passphrase opens the group, the new one does not, and both
    # phones are still in.
    assert opens(app, phone.slug, PASSPHRASE)
    assert not opens(app, phone.slug, NEW)
    assert guest.get(f"/g/{phone.slug}").status_code == 200
    assert phone.client.get(f"/g/{phone.slug}").status_code == 200


def test_the_current_passphrase_is_asked_for(phone):
    refused = change(phone.client, phone.slug, "")
    assert refused.status_code == 422
    assert field_error(html(refused), "current_passphrase") == "Give the current passphrase."


def test_two_different_new_passphrases_are_refused_beside_the_second(app, phone):
    refused = change(phone.client, phone.slug, PASSPHRASE, again="a brand new on")
    assert refused.status_code == 422
    page = html(refused)
    assert field_error(page, "new_passphrase_again") == "The two new passphrases are not the same."
    assert field_error(page, "new_passphrase") == ""
    assert field_error(page, "current_passphrase") == ""
    assert opens(app, phone.slug, PASSPHRASE)
    assert not opens(app, phone.slug, "a brand new on")


def test_the_new_passphrase_must_be_typed_again(phone):
    refused = change(phone.client, phone.slug, PASSPHRASE, again="")
    assert refused.status_code == 422
    assert field_error(html(refused), "new_passphrase_again") == "Type the new passphrase again."


def test_a_short_new_passphrase_is_refused_beside_it(app, phone):
    refused = change(phone.client, phone.slug, PASSPHRASE, new="short")
    assert refused.status_code == 422
    assert "at least 8 characters" in field_error(html(refused), "new_passphrase")
    assert opens(app, phone.slug, PASSPHRASE)


def test_wrong_current_passphrases_are_counted_like_wrong_sign_ins(app, phone):
    guest = invited(app, phone)
    for _ in range(5):
        assert change(guest, phone.slug, "a wild guess").status_code == 422
    # The limit is reached: even the right one waits now, here and on the start page.
    refused = change(guest, phone.slug, PASSPHRASE)
    assert refused.status_code == 422
    assert field_error(html(refused), "current_passphrase").startswith(
        "Too many wrong passphrases for this group; try again in"
    )
    assert not opens(app, phone.slug, PASSPHRASE)
    assert phone.client.get(f"/g/{phone.slug}").status_code == 200  # signed-in phones stay in


def test_the_right_current_passphrase_and_the_new_one_twice_change_it(app, phone):
    guest = invited(app, phone)
    changed = change(phone.client, phone.slug, PASSPHRASE)
    assert changed.status_code == 302
    assert "The passphrase is changed" in html(phone.client.get(changed.headers["Location"]))
    assert opens(app, phone.slug, NEW)
    assert not opens(app, phone.slug, PASSPHRASE)
    assert guest.get(f"/g/{phone.slug}").status_code == 401
