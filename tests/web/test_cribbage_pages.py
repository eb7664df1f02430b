"""Cribbage's pages as a phone posts them: the deal entered in one screen, the board, the last
deal's counts spelled out, the games of the night, the live count and every refusal at once
(tests/e2e plays the worked example in Chromium with the scripts on)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.pages import Phone, hidden_fields, html
from tests.web.test_new_games_pages import board, words

WORKED = (
    ("5H", {"Bob": ("5S 5D JH 10C", 4), "Ann": ("4C 6C 7C 8C", 3)}, "2D 3D KS QC"),
    ("JS", {"Ann": ("5H 5D 5C QD", 5), "Bob": ("7H 8H 9H 10H", 2)}, "AC 4S KD 2C"),
    ("6D", {"Bob": ("9C 9S 3H KC", 3), "Ann": ("4H 4D 5C 6H", 6)}, "2S 3S 7D 8D"),
)


@pytest.fixture
def phone(client) -> Phone:
    phone = Phone(client)
    phone.create_group()
    phone.start("cribbage", ("Ann", "Bob"), "Ann", target="61", stake="1", unit_value="0.50")
    return phone


def post(
    phone: Phone, starter: str, shows: dict[str, tuple[str, Any]], crib: str, status=302, **more
):
    data: dict[str, Any] = {**hidden_fields(html(phone.client.get(f"{phone.board}/hands/new")))}
    for i, name in enumerate(phone.seats):
        data[f"results-{i}-player"] = name
        show, pegged = shows.get(name, ("", ""))
        data[f"results-{i}-show"] = show
        data[f"results-{i}-pegged"] = str(pegged)
    data.update(starter=starter, crib=crib, **more)
    response = phone.client.post(f"{phone.board}/hands/new", data=data)
    assert response.status_code == status, words(html(response))[:2000]
    return response


def test_the_worked_example_on_the_pages(phone):
    form = words(html(phone.client.get(f"{phone.board}/hands/new")))
    assert "Starter (the card turned up)" in form and "Show – Bob" in form
    assert form.index("Show – Bob") < form.index("Show – Ann")  # counted from the dealer's left
    post(phone, *WORKED[0])
    seen = board(phone)
    bob = "Bob's show: 15-2, 15-4, 15-6, 15-8, 15-10, 15-12, 15-14, three of a kind is 20, "
    assert bob + "nobs is 21." in seen
    assert "Ann's crib: 15-2, 15-4, 15-6, 15-8." in seen
    assert "25 / 61" in seen and "24 / 61" in seen and "needs 36" in seen
    post(phone, *WORKED[1])
    assert "His heels: Bob 2." in board(phone)
    post(phone, *WORKED[2])
    seen = board(phone)
    assert "Ann won game 1." in seen
    assert "Ann's crib, 7, was not counted: the game was won before it." in seen
    assert "The board · game 2" in seen and "A new game: the board starts at 0." in seen
    assert "Ann 1 game · Bob 0 games" in seen
    assert "Played for 1 unit a game (€0.50)." in seen
    settle = words(html(phone.client.get(f"{phone.board}/settle")))
    assert "Bob pays Ann €0.50" in settle
    history = words(html(phone.client.get(f"{phone.board}/history")))
    assert "A phone entered hand 1: Ann 4C 6C 7C 8C / 3, Bob 5S 5D JH 10C / 4." in history
    hands = words(html(phone.client.get(f"{phone.board}/hands")))
    assert "Ann won game 1." in hands and bob + "nobs is 21." in hands
    assert "€0.50" in seen and "-€0.50" in seen.replace("−", "-")


def test_a_refused_deal_lists_every_problem_at_once(phone):
    shows = {"Bob": ("5S 5D JH", 4), "Ann": ("4C 6C 5H 8C", 61)}
    said = words(html(post(phone, "5H", shows, "2D 3D KS 4C", status=422)))
    assert "Bob's show has 3 cards: a show is four cards." in said
    assert "Ann pegged 61: the play gives 0 to 60." in said
    assert "The 5♥ is typed in the starter and Ann's show: one pack has one." in said
    assert "The 4♣ is typed in Ann's show and the crib: one pack has one." in said
    assert "4 things in this hand do not add up" in said
    assert phone.client.get(f"/api/v1/sessions/{phone.session_id}").status_code in (401, 200)


def test_the_live_count_in_parts(phone):
    asked = phone.client.get(
        f"{phone.board}/hands/count",
        query_string={
            "starter": "5H",
            "results-0-show": "5S 5D JH 10C",
            "crib": "2D 3D KS",
            "results-1-show": "4C 6C 7C 8C",
        },
    )
    assert asked.status_code == 200
    assert asked.get_json() == {
        "results-0-show": {
            "points": 21,
            "said": "15-2, 15-4, 15-6, 15-8, 15-10, 15-12, 15-14, three of a kind is 20, "
            "nobs is 21",
        },
        "results-1-show": {"points": 13, "said": "15-2, 15-4, a run of 5 is 9, a flush is 13"},
    }
    dutch = phone.client.get(
        f"{phone.board}/hands/count",
        query_string={"starter": "5h", "crib": "5s 5r Bh 10k"},
        headers={"Accept-Language": "nl"},
    )
    assert dutch.get_json()["crib"]["points"] == 21


def test_points_entry_on_the_page_refuses_a_nineteen(client):
    phone = Phone(client)
    phone.create_group()
    phone.start("cribbage", ("Ann", "Bob", "Cas"), "Cas", entry="points")
    page = html(phone.client.get(f"{phone.board}/hands/new"))
    assert "Show counts – Ann" in words(page) and "data-picker" not in page  # no card buttons
    shows = {"Ann": ("19", 2), "Bob": ("8", 1), "Cas": ("4", 0)}
    said = words(html(post(phone, "", shows, "²", status=422)))
    assert "No hand counts 19: at the table 'nineteen' means nothing, enter 0." in said
    assert "Give the count of the crib as a number, 0 to 29." in said
    post(phone, "JH", {**shows, "Ann": ("0", 2)}, "6")
    seen = board(phone)
    assert "His heels: Cas 2." in seen and "Cas's crib: 6." in seen
    assert "Ann's show: 0." in seen


def test_a_corrected_show_is_recounted_and_said_in_the_history(phone):
    post(phone, *WORKED[0])
    post(phone, *WORKED[1])
    edit = f"{phone.board}/hands/1/edit"
    shown = html(phone.client.get(edit))
    assert 'value="5S 5D JH 10C"' in shown and 'value="2D 3D KS QC"' in shown  # as saved
    assert 'id="starter" name="starter" type="text" value="5H"' in shown
    data: dict[str, Any] = {**hidden_fields(shown)}
    starter, shows, crib = WORKED[0]
    shows = {**shows, "Bob": ("5S 5D QH 10C", 4)}  # the queen, not the jack: no nobs
    for i, name in enumerate(phone.seats):
        data[f"results-{i}-player"] = name
        data[f"results-{i}-show"], data[f"results-{i}-pegged"] = shows[name][0], str(shows[name][1])
    data.update(starter=starter, crib=crib)
    assert phone.client.post(edit, data=data).status_code == 302
    history = words(html(phone.client.get(f"{phone.board}/history")))
    assert "A phone corrected hand 1: Bob 5S 5D JH 10C / 4 → 5S 5D QH 10C / 4." in history
    assert (
        "Bob's show: 15-2, 15-4, 15-6, 15-8, 15-10, 15-12, 15-14, three of a kind is 20."
        in board(phone)
    )
    assert "49 / 61" in board(phone) and "43 / 61" in board(phone)  # hand 2 recounted on it


def test_the_live_count_is_the_groups_own_and_cribbages_own(client, phone):
    new = words(html(phone.client.get(f"/g/{phone.slug}/s/new")))
    assert "with four, partners sit opposite: seats 1 and 3 against seats 2 and 4." in new
    stranger = client.application.test_client()
    asked = stranger.get(f"{phone.board}/hands/count", query_string={"starter": "5H"})
    assert asked.status_code in (302, 401, 404) and b"15-" not in asked.get_data()
    phone.start("spot", ("Ann", "Bob"), "Ann")
    assert phone.client.get(f"{phone.board}/hands/count").status_code == 404


def test_four_in_two_teams_on_the_board(client):
    phone = Phone(client)
    phone.create_group()
    phone.start("cribbage", ("Ann", "Bob", "Cas", "Dee"), "Dee", target="61")
    shows = {
        "Ann": ("5S 5D JH 10C", 2), "Bob": ("4C 6C 7C 8C", 1),
        "Cas": ("2S 3H 9D KD", 3), "Dee": ("AH 4H QS QH", 4),
    }  # fmt: skip
    form = words(html(phone.client.get(f"{phone.board}/hands/new")))
    assert form.index("Show – Ann") < form.index("Show – Bob") < form.index("Show – Dee")
    post(phone, "5H", shows, "2D 3D KS QC")
    seen = board(phone)
    # Ann & Cas: pegged 2 + 3, Ann's 21, Cas's 4 (2 + 3 + K, 5 + K) = 30. Bob & Dee: pegged
    # 1 + 4, Bob's 13, Dee's 10 (two fifteens of A 4 Q, two of 5 Q, the queens' pair), Dee's
    # crib 8 = 36.
    assert "Ann & Cas needs 31 30 / 61" in seen and "Bob & Dee needs 25 36 / 61" in seen
    assert "Cas's show: 15-2, 15-4." in seen and "Dee's crib: 15-2, 15-4, 15-6, 15-8." in seen


def test_a_deal_in_dutch(phone):
    phone.client.post("/language", data={"lang": "nl"})
    form = words(html(phone.client.get(f"{phone.board}/hands/new")))
    assert "Starter (de omgedraaide kaart)" in form and "Hand – Bob" in form
    assert "Gepegd in het spel – Ann" in form and "Wie pegde als eerste uit?" in form
    # The Dutch letters: boer, vrouw, heer; ruiten, klaveren, schoppen.
    post(phone, "5h", {"Bob": ("5s 5r Bh 10k", 4), "Ann": ("4k 6k 7k 8k", 3)}, "2r 3r Hs Vk")
    seen = board(phone)
    bob = "De hand van Bob: 15-2, 15-4, 15-6, 15-8, 15-10, 15-12, 15-14, drie gelijke is 20, "
    assert bob + "nobs is 21." in seen
    assert "Het bord · potje 1" in seen and "25 / 61" in seen
    post(phone, "Vk", {"Ann": ("2s 3r 4h 9k", 0), "Bob": ("As 6r 7h 8h", 0)}, "5s 5h Hk Bk")
    assert "Starter V♣." in board(phone)
    phone.client.post("/language", data={"lang": "en"})
    assert "Starter Q♣." in board(phone)
