"""The settle-up page's "paid" ticks are payments recorded in the session: a form per transfer
(no JavaScript needed), seen by every phone, taken back by a tap (RULES.md §2 "Paying up")."""

from __future__ import annotations

import re
from html import unescape

import pytest

from tests.web.pages import HAND_1, HAND_2, Phone, html

SEATS = ("Enda", "John", "Rex", "Finn")


@pytest.fixture
def phone(client) -> Phone:
    """A phone at a night of Spot with seed 000's two hands entered: Finn owes Enda 38."""
    return at_the_table(Phone(client), (HAND_1, None), (HAND_2, "Enda"))


def at_the_table(phone: Phone, *hands: tuple[dict[str, str], str | None]) -> Phone:
    """``phone`` in a new group of four, at a Spot session with ``hands`` (cards, out) entered."""
    phone.create_group()
    phone.add_players(*SEATS)
    phone.start(players=SEATS)
    for cards, out in hands:
        assert phone.enter(cards, out=out).status_code == 302
    return phone


@pytest.fixture
def other_phone(app, phone) -> Phone:
    """A second phone at the same table: its own browser, signed in to the same group."""
    other = Phone(app.test_client(), slug=phone.slug, session_id=phone.session_id)
    opened = other.client.post(
        "/open", data={"open-group": phone.slug, "open-passphrase": "pints4all"}
    )
    assert opened.status_code == 302
    return other


def tick_forms(page: str) -> list[dict[str, str]]:
    """Each tick's form: its action and the fields it posts."""
    forms = []
    for action, body in re.findall(
        r'<form method="post" action="([^"]+)" class="tick-form" data-tick>(.*?)</form>', page, re.S
    ):
        fields = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)">', body))
        forms.append({"action": unescape(action), **{k: unescape(v) for k, v in fields.items()}})
    return forms


def owed_lines(page: str) -> list[str]:
    block = re.search(r'<ul class="transfers" id="transfers">(.*?)</ul>', page, re.S)
    return re.findall(r'<span class="what">(.*?)</span>', block.group(1)) if block else []


def paid_lines(page: str) -> list[str]:
    block = re.search(r'<ul class="transfers" id="payments"[^>]*>(.*?)</ul>', page, re.S)
    return re.findall(r'<span class="what">(.*?)</span>', block.group(1)) if block else []


def test_a_tick_on_one_phone_is_on_every_phone_and_can_be_taken_back(phone, other_phone):
    board = phone.board
    page = html(phone.client.get(f"{board}/settle"))
    assert "The ticks stay on this phone only" not in page
    assert owed_lines(page) == [
        "Finn pays Enda €0.38",
        "Rex pays Enda €0.06",
        "Rex pays John €0.25",
    ]
    finn = next(f for f in tick_forms(page) if f.get("from") == "Finn")
    assert (finn["to"], finn["units"], finn["pot"]) == ("Enda", "38", "carry")

    ticked = phone.client.post(finn.pop("action"), data=finn)
    assert ticked.status_code == 302
    assert ticked.headers["Location"].endswith(f"{board}/settle")
    mine = html(phone.client.get(ticked.headers["Location"]))
    assert "Ticked: Finn paid Enda €0.38." in mine

    theirs = html(other_phone.client.get(f"{board}/settle"))
    assert owed_lines(theirs) == ["Rex pays Enda €0.06", "Rex pays John €0.25"]
    assert paid_lines(theirs) == ["Finn paid Enda €0.38"]
    assert re.search(r'aria-pressed="true".*Finn paid Enda', theirs, re.S)

    # The other phone takes the tick back: both phones owe it again.
    (untick,) = [f for f in tick_forms(theirs) if "/payments/" in f["action"]]
    taken = other_phone.client.post(untick.pop("action"), data=untick)
    assert "Taken back: Finn paid Enda €0.38." in html(other_phone.client.get(taken.location))
    again = html(phone.client.get(f"{board}/settle"))
    assert owed_lines(again)[0] == "Finn pays Enda €0.38"
    assert paid_lines(again) == []

    # Taken back twice (both phones at once): the second is told it is done already.
    (untick,) = [f for f in tick_forms(theirs) if "/payments/" in f["action"]]
    late = phone.client.post(untick.pop("action"), data=untick)
    assert "That payment was taken back already." in html(phone.client.get(late.location))


def test_the_same_tick_from_two_phones_is_recorded_once(phone, other_phone):
    board = phone.board
    page = html(phone.client.get(f"{board}/settle"))
    finn = next(f for f in tick_forms(page) if f.get("from") == "Finn")
    action = finn.pop("action")

    phone.client.post(action, data=finn)
    late = other_phone.client.post(action, data=finn)
    told = html(other_phone.client.get(late.location))

    assert "Nothing is still due from Finn to Enda" in told
    assert paid_lines(told) == ["Finn paid Enda €0.38"]


def test_finishing_after_a_tick_on_another_phone_is_not_refused_as_changed(phone, other_phone):
    """A tick raises the session's version but changes no score: the page that was open
    before it still shows the payments the night ends with."""
    board = phone.board
    page = html(phone.client.get(f"{board}/settle"))
    version = re.search(r'name="version" value="(\d+)"', page).group(1)
    finn = next(f for f in tick_forms(page) if f.get("from") == "Finn")
    other_phone.client.post(finn.pop("action"), data=finn)

    done = phone.client.post(f"{board}/finish", data={"leftover_pot": "carry", "version": version})
    after = html(phone.client.get(done.location))
    assert "The session is finished." in after
    assert "changed on another phone" not in after

    # A hand entered on another phone still stops a page that did not show it.
    second = Phone(phone.client)
    second.slug = phone.slug
    second.start()
    second.enter(HAND_1)
    page = html(phone.client.get(f"{second.board}/settle"))
    version = re.search(r'name="version" value="(\d+)"', page).group(1)
    second.enter(HAND_2, out="Enda")
    refused = phone.client.post(
        f"{second.board}/finish", data={"leftover_pot": "carry", "version": version}
    )
    assert "changed on another phone" in html(phone.client.get(refused.location))


def test_a_refused_tick_says_why_and_stores_nothing(phone):
    board = phone.board
    response = phone.client.post(
        f"{board}/payments", data={"from": "Finn", "to": "Enda", "units": "39"}
    )
    page = html(phone.client.get(response.location))
    assert "Only €0.38 is still due from Finn to Enda" in page
    assert paid_lines(page) == []
    for data, words in (
        ({"from": "Finn", "to": "Nora", "units": "5"}, "Nora is not a player in this session."),
        ({"from": "Finn", "to": "Enda", "units": "lots"}, "whole number above 0"),
        ({"from": "Finn", "to": "Enda", "units": "9" * 30}, "more than the app can keep"),
    ):
        response = phone.client.post(f"{board}/payments", data=data)
        assert words in html(phone.client.get(response.location))
    assert paid_lines(html(phone.client.get(f"{board}/settle"))) == []


def test_a_tick_in_dutch_says_so_in_dutch(phone):
    board = phone.board
    phone.client.set_cookie("lang", "nl")
    response = phone.client.post(
        f"{board}/payments", data={"from": "Finn", "to": "Enda", "units": "38"}
    )
    page = html(phone.client.get(response.location))
    assert "Afgevinkt: Finn betaalde Enda €\xa00,38." in page
    refused = phone.client.post(
        f"{board}/payments", data={"from": "Finn", "to": "Enda", "units": "38"}
    )
    assert "Er staat niets meer open van Finn aan Enda" in html(phone.client.get(refused.location))


def test_a_tick_needs_its_csrf_token(app, phone):
    board = phone.board
    app.config["WTF_CSRF_ENABLED"] = True
    refused = phone.client.post(
        f"{board}/payments", data={"from": "Finn", "to": "Enda", "units": "38"}
    )
    assert refused.status_code == 400
    app.config["WTF_CSRF_ENABLED"] = False
    assert paid_lines(html(phone.client.get(f"{board}/settle"))) == []


def test_another_groups_session_cannot_be_ticked_nor_its_ticks_taken_back(app, phone):
    board = phone.board
    phone.client.post(f"{board}/payments", data={"from": "Rex", "to": "John", "units": "25"})
    (untick,) = [
        f
        for f in tick_forms(html(phone.client.get(f"{board}/settle")))
        if "/payments/" in f["action"]
    ]
    stranger = Phone(app.test_client())
    stranger.create_group("Another pub")
    path = board.replace(phone.slug, stranger.slug)
    response = stranger.client.post(
        f"{path}/payments", data={"from": "Finn", "to": "Enda", "units": "38"}
    )
    assert response.status_code == 404
    taken = stranger.client.post(untick["action"].replace(phone.slug, stranger.slug))
    assert taken.status_code == 404
    assert paid_lines(html(phone.client.get(f"{board}/settle"))) == ["Rex paid John €0.25"]


def test_a_carried_pot_is_paid_to_its_keeper_with_a_tick_like_any_transfer(phone):
    board = phone.start()
    phone.enter(HAND_1)  # nobody out: the pot stays, and is carried on
    page = html(phone.client.get(f"{board}/settle"))
    lines = owed_lines(page)
    # The page names a keeper (RULES.md §2): no transfer "into the pot", every one is ticked.
    assert lines and not any("into the pot" in line for line in lines)
    forms = tick_forms(page)
    assert len(forms) == len(lines)
    keeper = forms[0]["keeper"]
    assert {f["keeper"] for f in forms} == {keeper}
    ticked = phone.client.post(forms[0].pop("action"), data=forms[0])
    assert ticked.headers["Location"].endswith("/settle")
    assert "Ticked:" in html(phone.client.get(ticked.headers["Location"]))


def test_francs_show_the_exact_money_beside_the_coins_paid(phone):
    phone.add_players("Ann", "Bob")
    board = phone.start(players=("Ann", "Bob"), dealer="Ann", ante=0, currency="CHF")
    phone.seats = ["Ann", "Bob"]
    phone.enter({"Ann": "K K K 7", "Bob": ""}, out="Bob")
    page = html(phone.client.get(f"{board}/settle"))
    assert "In coins" in page
    assert re.search(r"-CHF\xa00\.37</td>\s*<td[^>]*>-CHF\xa00\.35</td>", page), page
    assert owed_lines(page) == ["Ann pays Bob CHF\xa00.35"]
    (tick,) = tick_forms(page)
    assert tick["units"] == "35"
