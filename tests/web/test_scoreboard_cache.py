"""The scoreboard is kept rendered between changes: phones must never see it stale or shared."""

from __future__ import annotations

import re
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from ledger import services
from tests.web.pages import HAND_1, HAND_2, PASSPHRASE, Phone, html


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
    seen_twice(phone, phone.board)  # the English page is kept
    english = html(phone.client.get(phone.board))
    assert '<html lang="en">' in english
    phone.client.post("/language", data={"lang": "nl", "next": phone.board})
    dutch = html(phone.client.get(phone.board))
    assert '<html lang="nl">' in dutch
    assert "Saldi" in dutch and "Balances" not in dutch


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


# --- One build of a version serves the whole table, each phone with its own form token --------


def token_free(page: str) -> str:
    return re.sub(r'name="csrf_token" value="[^"]+"', 'name="csrf_token" value=""', page)


def test_the_phones_at_a_table_are_served_one_build_of_a_new_hand(app, phone, monkeypatch):
    from ledger.web.nights import scoreboard as sessions

    builds = []
    real = sessions._scoreboard

    def counted(*args):
        builds.append(args)
        return real(*args)

    monkeypatch.setattr(sessions, "_scoreboard", counted)
    phones = [signed_in(app, phone) for _ in range(3)]
    assert phone.enter(HAND_1).status_code == 302
    pages = [html(other.get(phone.board)) for other in phones]
    assert len(builds) == 1
    assert "+46" in pages[0]
    assert token_free(pages[0]) == token_free(pages[1]) == token_free(pages[2])
    assert len({frozenset(tokens(page)) for page in pages}) == 3  # a token of its own each


def test_a_build_that_writes_the_browsers_cookie_is_not_kept_even_on_its_first_look_of_a_day(
    app, phone, monkeypatch
):
    """A new phone's first look of the day renews its cookie before the page is built; a
    build that then writes something of its own into the cookie must still not be kept."""
    from flask import session as browser_session

    from ledger.web.nights import scoreboard as sessions

    builds = []
    real = sessions._scoreboard

    def writing(*args):
        builds.append(args)
        browser_session["seen_by_this_phone"] = len(builds)
        return real(*args)

    monkeypatch.setattr(sessions, "_scoreboard", writing)
    phones = [signed_in(app, phone) for _ in range(2)]
    assert phone.enter(HAND_1).status_code == 302
    for other in phones:
        assert other.get(phone.board).status_code == 200
    assert len(builds) == 2  # each phone's page was its own


def test_each_phone_sends_its_own_form_token_and_not_another_phones(app, phone):
    other = signed_in(app, phone)
    phone.enter(HAND_1)
    seen_twice(phone, phone.board)  # the first look may show a flash; the page is then kept
    seen_twice(Phone(other, phone.slug, phone.session_id), phone.board)
    app.config["WTF_CSRF_ENABLED"] = True  # the test config leaves tokens out of forms
    (mine,) = tokens(html(phone.client.get(phone.board)))
    (theirs,) = tokens(html(other.get(phone.board)))
    assert mine != theirs
    undo = f"{phone.board}/undo"
    refused = other.post(undo, data={"number": "1", "csrf_token": mine})
    assert refused.status_code == 400
    assert "+46" in html(other.get(phone.board))  # hand 1 is still there
    assert other.post(undo, data={"number": "1", "csrf_token": theirs}).status_code == 302
    assert "+46" not in html(phone.client.get(phone.board))


def test_a_group_named_like_the_pages_token_slot_shows_its_name(client):
    from markupsafe import escape

    from ledger.web.nights.pagecache import TOKEN_SLOT

    phone = Phone(client)
    phone.create_group(name=str(TOKEN_SLOT))
    phone.add_players("Enda", "John")
    board = phone.start(players=("Enda", "John"), dealer="John")
    seen_twice(phone, board)
    page = html(phone.client.get(board))
    assert str(escape(str(TOKEN_SLOT))) in page  # the name, as text
    assert str(TOKEN_SLOT) not in page
    assert len(tokens(page)) == 1  # every form: this browser's token, nothing else


def test_phones_reading_english_and_dutch_each_get_their_own_language(app, phone):
    dutch = signed_in(app, phone)
    dutch.post("/language", data={"lang": "nl"})
    seen_twice(phone, phone.board)
    assert "Balances" in html(phone.client.get(phone.board))
    assert "Saldi" in html(dutch.get(phone.board))
    assert "Balances" in html(phone.client.get(phone.board))


def test_a_renamed_player_shows_on_the_scoreboard_at_once(app, phone):
    other = signed_in(app, phone)
    phone.enter(HAND_1)
    seen_twice(Phone(other, phone.slug, phone.session_id), phone.board)
    with app.app_context():
        group = services.authenticate(phone.slug, PASSPHRASE)
        rex = next(p for p in services.group_view(group).players if p.name == "Rex")
    response = phone.client.post(f"/g/{phone.slug}/players/{rex.id}", data={"rename-name": "Rexy"})
    assert response.status_code == 302
    page = html(other.get(phone.board))
    assert "Rexy" in page


def test_a_group_given_another_name_shows_it_at_once(app, phone):
    from ledger.extensions import db
    from ledger.models import Group

    other = signed_in(app, phone)
    seen_twice(Phone(other, phone.slug, phone.session_id), phone.board)
    with app.app_context():  # as a restore of the group's backup under its old name would
        db.session.execute(
            db.update(Group).where(Group.slug == phone.slug).values(name="Friday crowd")
        )
        db.session.commit()
    page = html(other.get(phone.board))
    assert "Friday crowd" in page and "Thursday crowd" not in page


def test_a_message_for_one_phone_is_not_shown_to_the_others(app, phone):
    other = signed_in(app, phone)
    phone.enter(HAND_1)
    phone.enter(HAND_2, out="Enda")
    seen_twice(phone, phone.board)
    seen_twice(Phone(other, phone.slug, phone.session_id), phone.board)
    phone.client.post(f"{phone.board}/undo", data={"number": "1"})
    assert "Only the last hand can be undone" in html(phone.client.get(phone.board))
    assert "Only the last hand can be undone" not in html(other.get(phone.board))
    assert "Only the last hand can be undone" not in html(phone.client.get(phone.board))


# --- The page cache itself ------------------------------------------------------------------


def test_phones_asking_while_a_page_is_built_wait_for_that_build():
    from ledger.lru import PageCache

    cache = PageCache()
    building, release = threading.Event(), threading.Event()
    builds = []

    def build():
        builds.append(1)
        building.set()
        release.wait(10)
        return "the page", True

    class Arrivals:
        """The build's "done" event, counting the phones that come to wait for it."""

        def __init__(self, done: threading.Event) -> None:
            self.done = done
            self.arrived = threading.Semaphore(0)

        def wait(self, timeout: float | None = None) -> bool:
            self.arrived.release()
            return self.done.wait(timeout)

    pool = ThreadPoolExecutor(max_workers=4)
    first = pool.submit(cache.get_or_build, "v2", build)
    assert building.wait(10)
    arrivals = cache._building["v2"] = Arrivals(cache._building["v2"])
    waiting = [pool.submit(cache.get_or_build, "v2", build) for _ in range(3)]
    # All three wait for the build (had they come after it, the page would be kept anyway).
    assert all(arrivals.arrived.acquire(timeout=10) for _ in waiting)
    release.set()
    assert [f.result(10) for f in (first, *waiting)] == ["the page"] * 4
    assert len(builds) == 1
    pool.shutdown()


def test_a_build_that_fails_or_is_not_to_be_kept_leaves_each_phone_building_its_own():
    from ledger.lru import PageCache

    cache = PageCache(wait=0)

    def fails():
        raise RuntimeError("the database went away")

    with pytest.raises(RuntimeError):
        cache.get_or_build("v2", fails)
    assert cache.get_or_build("v2", lambda: ("for this phone", False)) == "for this phone"
    assert cache.get_or_build("v2", lambda: ("kept", True)) == "kept"
    assert cache.get_or_build("v2", lambda: ("not built again", True)) == "kept"


def test_a_page_kept_for_a_deleted_night_never_answers_for_a_night_given_its_id(app, client):
    """A database that hands out a deleted night's id again (one upgraded through the tab's
    migration, before issue 36): the page kept for the deleted night of two is not served
    for the new night of four that took its address."""
    from sqlalchemy import text

    from ledger.extensions import db

    phone = Phone(client)
    phone.create_group()
    gone = phone.start(players=("Enda", "John"), dealer="Enda")
    assert "Enda" in html(phone.client.get(gone))
    html(phone.client.get(gone))  # kept now
    deleted = phone.client.post(f"{gone}/delete", follow_redirects=True)
    assert "Spot #1 is deleted." in html(deleted)  # said, so the next look is a kept page
    with app.app_context():  # the id is free to be used again, as such a database does
        if db.engine.dialect.name == "sqlite":
            db.session.execute(text("DELETE FROM sqlite_sequence WHERE name = 'sessions'"))
        else:
            db.session.execute(text("SELECT setval('sessions_id_seq', 1, false)"))
        db.session.commit()

    board = phone.start(players=("Rex", "Finn", "Maeve", "Aoife"), dealer="Rex")

    assert board == gone  # the same address
    page = html(phone.client.get(board))
    assert all(name in page for name in ("Rex", "Finn", "Maeve", "Aoife"))
    assert "Enda" not in page and "John" not in page


def test_a_pot_that_starts_to_wait_on_another_night_shows_on_an_open_nights_page_at_once(
    app, phone
):
    """Issue 45: an open night's page shows the pots waiting from the group's other nights, so
    its kept copy is keyed on the group's nights version as well as its own version. Night A
    is looked at; night B starts, plays a hand nobody goes out of and ends carrying its pot:
    A's page and its poll show B's pot at once, and its keeper's new name after a rename."""
    night_a = phone.board
    other = signed_in(app, phone)
    seen_twice(Phone(other, phone.slug, phone.session_id), night_a)
    before = other.get(f"{night_a}/version.json").get_json()
    assert "waits for" not in html(other.get(night_a))

    night_b = phone.start(players=("Ann", "Bob", "Cas"), dealer="Cas")
    assert phone.enter({"Ann": "J 10", "Bob": "A 3", "Cas": "2 9"}).status_code == 302
    finished = phone.client.post(f"{night_b}/finish", data={"leftover_pot": "carry"})
    assert finished.status_code == 302

    waiting = "Bob's €0.15 waits for a Spot night at €0.01 a unit with Bob at the table."
    page = html(other.get(night_a))
    assert waiting in page.replace("&#39;", "'")
    polled = other.get(f"{night_a}/version.json").get_json()
    assert polled["version"] == before["version"]  # night A itself did not change
    assert polled["page"] != before["page"]  # but its page did: a phone following it looks
    assert f'data-page="{polled["page"]}"' in page

    # The keeper never sat at night A: a new name of theirs moves no version of A's.
    with app.app_context():
        group = services.authenticate(phone.slug, PASSPHRASE)
        bob = next(p for p in services.group_view(group).players if p.name == "Bob")
    renamed = phone.client.post(f"/g/{phone.slug}/players/{bob.id}", data={"rename-name": "Rob"})
    assert renamed.status_code == 302
    page = html(other.get(night_a)).replace("&#39;", "'")
    assert "Rob's €0.15 waits" in page and "Bob's" not in page
