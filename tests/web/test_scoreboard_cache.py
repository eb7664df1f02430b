"""The scoreboard is kept rendered between changes: phones must never see it stale or shared."""

from __future__ import annotations

import re

import pytest

from ledger import services
from tests.web.pages import HAND_1, PASSPHRASE, Phone, html


@pytest.fixture
def phone(client) -> Phone:
    phone = Phone(client)
    phone.create_group()
    phone.add_players("Enda", "John", "Rex", "Finn")
    phone.start()
    return phone


def signed_in(app, phone: Phone):
    other = app.test_client()
    response = other.post("/open", data={"open-group": phone.slug, "open-passphrase": PASSPHRASE})
    assert response.status_code == 302
    return other


def tokens(page: str) -> set[str]:
    return set(re.findall(r'name="csrf_token" value="([^"]+)"', page))


def test_a_hand_entered_on_another_phone_shows_on_the_next_look(app, phone):
    other = signed_in(app, phone)
    before = html(other.get(phone.board))
    assert html(other.get(phone.board)) == before  # nothing changed: the same page
    assert phone.enter(HAND_1).status_code == 302
    after = html(other.get(phone.board))
    assert after != before
    assert "+46" in after and "-25" in after  # John's and Enda's balances after hand 1


def test_a_correction_made_over_the_api_shows_at_once(app, phone):
    phone.enter(HAND_1)
    first = html(phone.client.get(phone.board))
    with app.app_context():
        group = services.authenticate(phone.slug, PASSPHRASE)
        services.undo_hand(group, phone.session_id, 1)
    page = html(phone.client.get(phone.board))
    assert page != first
    assert "+46" not in page


def test_a_new_passphrase_signs_out_a_phone_that_had_the_page(app, phone):
    other = signed_in(app, phone)
    assert other.get(phone.board).status_code == 200
    assert other.get(phone.board).status_code == 200
    new = {"new_passphrase": "a brand new one", "new_passphrase_again": "a brand new one"}
    response = phone.client.post(
        f"/g/{phone.slug}/passphrase", data={"current_passphrase": PASSPHRASE, **new}
    )
    assert response.status_code == 302
    assert other.get(phone.board).status_code == 401


def test_two_phones_never_get_each_others_form_tokens(app, phone):
    other = signed_in(app, phone)
    phone.enter(HAND_1)
    app.config["WTF_CSRF_ENABLED"] = True  # the test config leaves tokens out of forms
    for browser in (phone.client, other, phone.client, other):
        browser.get(phone.board)  # the first look may show a flash; then the page is kept
    mine = html(phone.client.get(phone.board))
    theirs = html(other.get(phone.board))
    assert tokens(mine) and tokens(theirs)
    assert tokens(mine).isdisjoint(tokens(theirs))


def test_switching_to_dutch_shows_the_dutch_page_at_once(phone):
    english = html(phone.client.get(phone.board))
    phone.client.post("/language", data={"language": "nl"})
    dutch = html(phone.client.get(phone.board))
    assert dutch != english
    assert 'lang="nl"' in dutch


def test_the_sign_in_cookie_is_renewed_once_a_day_not_on_every_look(app, phone, monkeypatch):
    import datetime as real

    from ledger.web import access

    other = signed_in(app, phone)
    other.get(phone.board)  # the first look of the day may renew it
    again = other.get(phone.board)
    assert again.status_code == 200
    assert "Set-Cookie" not in again.headers  # polling re-sends nothing

    class Tomorrow(real.date):
        @classmethod
        def today(cls):
            return real.date.today() + real.timedelta(days=1)

    monkeypatch.setattr(access, "date", Tomorrow)
    renewed = other.get(phone.board)
    cookie = renewed.headers.get("Set-Cookie", "")
    assert cookie.startswith("session=") and "Expires=" in cookie  # 31 more days from today
    assert other.get(phone.board).status_code == 200  # still signed in with the new cookie
    assert "Set-Cookie" not in other.get(phone.board).headers


# --- Messages for this phone are shown on the scoreboard it already had -----------------------


def seen_twice(phone: Phone, board: str) -> None:
    """The phone has the scoreboard as it is now (the page kept for the next look)."""
    for _look in range(2):
        assert phone.client.get(board).status_code == 200


def test_a_refused_join_is_said_on_the_scoreboard_the_phone_already_had(phone):
    seen_twice(phone, phone.board)
    phone.client.post(f"{phone.board}/join", data={"join-name": "", "after": "Rex"})
    assert "Give the player a name." in html(phone.client.get(phone.board))
    # Said once, where it belongs: not again on the next page.
    assert "Give the player a name." not in html(phone.client.get(f"/g/{phone.slug}"))


def test_a_refused_leave_is_said_on_the_scoreboard_the_phone_already_had(client):
    phone = Phone(client)
    phone.create_group()
    board = phone.start(players=("Enda", "John"), dealer="John")
    seen_twice(phone, board)
    phone.client.post(f"{board}/leave", data={"name": "John"})
    assert "John cannot leave: Spot needs at least 2 players." in html(phone.client.get(board))


def test_a_refused_undo_is_said_on_the_scoreboard_the_phone_already_had(phone):
    phone.enter(HAND_1)
    phone.enter({"John": "5 5 6", "Rex": "K", "Finn": "3 5"}, out="Enda")
    seen_twice(phone, phone.board)  # live.js reloads the page after the second hand
    phone.client.post(f"{phone.board}/undo", data={"number": "1"})
    assert "Only the last hand can be undone" in html(phone.client.get(phone.board))


def test_enter_hand_after_dutch_spots_ended_says_the_game_is_over_on_the_scoreboard(client):
    phone = Phone(client)
    phone.create_group()
    board = phone.start(game="spots", dealer="Enda", entry="totals")
    for _hand in range(8):  # four players: two rounds of four hands
        response = phone.enter({"Enda": 3, "John": 5, "Rex": 7, "Finn": 0}, out="Finn")
        assert response.status_code == 302, html(response)
    seen_twice(phone, board)
    opened = phone.client.get(f"{board}/hands/new")
    assert opened.status_code == 302
    assert "The game is over: no more hands can be added." in html(phone.client.get(board))
