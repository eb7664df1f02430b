"""The table's pages: a session started by mistake deleted, the table remembered for the next
session, an invite landing on the game being played, Rummy's target and going rummy in words,
Spin Rummy entered as melds."""

from __future__ import annotations

import re

import pytest
from flask import Flask

from tests.web.pages import HAND_1, Phone, html, table_of_four


@pytest.fixture
def phone(client) -> Phone:
    return table_of_four(client)


# --- A session started by mistake --------------------------------------------------------------


def test_a_session_with_no_hands_is_deleted_from_its_page_and_the_group_page_says_so(phone):
    phone.start()
    board = html(phone.client.get(phone.board))
    assert "Delete this session" in board
    assert "Delete Spot #1" in board

    response = phone.client.post(f"{phone.board}/delete")

    assert response.headers["Location"] == f"/g/{phone.slug}"
    group = html(phone.client.get(f"/g/{phone.slug}"))
    assert "Spot #1 is deleted." in group
    assert f'href="/g/{phone.slug}/s/{phone.session_id}"' not in group
    assert phone.client.get(phone.board).status_code == 404


def test_a_session_with_a_hand_offers_no_delete_and_refuses_one_with_a_sentence(phone):
    phone.start()
    phone.enter(HAND_1)
    assert "Delete this session" not in html(phone.client.get(phone.board))

    response = phone.client.post(f"{phone.board}/delete", follow_redirects=True)

    page = html(response)
    # The night by its name, as the page names it (issue 36), not by its id.
    assert "Spot #1 has hands: only a session with no hands can be deleted." in page
    assert "Hand 1" in page or "#1" in page  # the hand is still there
    assert phone.client.get(phone.board).status_code == 200


def test_a_delete_without_the_forms_token_deletes_nothing(app: Flask, phone):
    phone.start()
    app.config["WTF_CSRF_ENABLED"] = True
    try:
        phone.client.post(f"{phone.board}/delete")
    finally:
        app.config["WTF_CSRF_ENABLED"] = False
    assert phone.client.get(phone.board).status_code == 200


# --- The table remembered ------------------------------------------------------------------------


def seats_offered(page: str) -> list[tuple[str, bool]]:
    """The new-session page's players in their order, and whether each is ticked to play."""
    rows = re.findall(r'name="seated" value="([^"]+)"( checked)?', page)
    return [(name, bool(ticked)) for name, ticked in rows]


def dealer_offered(page: str) -> str:
    (name,) = re.findall(r'name="dealer" value="([^"]+)" checked', page)
    return name


def test_a_first_session_offers_the_group_alphabetically(phone):
    page = html(phone.client.get(f"/g/{phone.slug}/s/new"))
    assert seats_offered(page) == [(n, True) for n in ("Enda", "Finn", "John", "Rex")]


def test_a_new_session_starts_from_last_nights_seats_and_the_deal_passed_on(phone):
    phone.add_players("Maeve")
    phone.start(players=("Rex", "Enda", "Finn", "John"), dealer="Finn")
    phone.enter(HAND_1 | {"Finn": "Q K"})
    board = html(phone.client.get(phone.board))
    next_dealer = re.search(r'<strong id="dealer">([^<]+)</strong>', board).group(1)
    assert next_dealer != "Finn"  # the deal has passed on

    page = html(phone.client.get(f"/g/{phone.slug}/s/new"))

    assert seats_offered(page) == [
        ("Rex", True),
        ("Enda", True),
        ("Finn", True),
        ("John", True),
        ("Maeve", False),  # not at last night's table: offered, not ticked
    ]
    assert dealer_offered(page) == next_dealer
    # The table may still change it: the order sent is the order kept.
    phone.start(players=("Maeve", "John"), dealer="Maeve")
    page = html(phone.client.get(f"/g/{phone.slug}/s/new"))
    assert seats_offered(page)[:2] == [("Maeve", True), ("John", True)]
    assert dealer_offered(page) == "Maeve"


def test_a_player_who_left_is_not_ticked_and_the_deal_is_where_the_session_passed_it(phone):
    phone.start(players=("Rex", "Enda", "Finn"), dealer="Rex")
    phone.client.post(f"{phone.board}/leave", data={"name": "Rex"})
    board = html(phone.client.get(phone.board))
    dealer = re.search(r'<strong id="dealer">([^<]+)</strong>', board).group(1)
    page = html(phone.client.get(f"/g/{phone.slug}/s/new"))
    assert [n for n, ticked in seats_offered(page) if ticked] == ["Enda", "Finn"]
    assert ("Rex", False) in seats_offered(page)
    assert dealer != "Rex" and dealer_offered(page) == dealer


# --- The invite link -----------------------------------------------------------------------------


def invite_path(phone: Phone) -> str:
    page = html(phone.client.get(f"/g/{phone.slug}/invite"))
    return re.search(r"http://localhost(/join/[^\"<\s]+)", page).group(1)


def test_an_invite_with_one_session_open_lands_on_its_scoreboard(client, phone):
    link = invite_path(phone)
    newcomer = Phone(client.application.test_client())
    assert newcomer.client.get(link).headers["Location"] == f"/g/{phone.slug}"

    phone.start()
    landed = newcomer.client.get(link, follow_redirects=True)
    assert landed.request.path == phone.board
    assert "Enter hand" in html(landed)

    first = phone.board
    phone.start(game="rummy", dealer="Enda")  # two open: which one is for the table to say
    assert newcomer.client.get(link).headers["Location"] == f"/g/{phone.slug}"
    phone.client.post(f"{phone.board}/finish", data={})
    assert newcomer.client.get(link).headers["Location"] == first


# --- Rummy ---------------------------------------------------------------------------------------


def test_rummys_scoreboard_shows_the_target_and_how_far_each_player_is(phone):
    phone.start(game="rummy", dealer="Enda", target=50)
    board = html(phone.client.get(phone.board))
    assert "Playing to 50: the game ends when a score reaches it." in board
    assert board.count("50 to go") == 4

    phone.enter({"Enda": "", "John": "K Q", "Rex": "5", "Finn": "A 2"}, out="Enda")  # 28

    board = html(phone.client.get(phone.board))
    assert "22 to go" in board and board.count("50 to go") == 3
    spot = Phone(phone.client, phone.slug)
    spot.start()
    assert "to go" not in html(phone.client.get(spot.board))


def test_a_hand_won_by_going_rummy_says_it_was_doubled(phone):
    phone.start(game="rummy", dealer="Enda")
    saved = phone.enter(
        {"Enda": "", "John": "K Q", "Rex": "5", "Finn": "A 2"}, out="Enda", rummy="y"
    )
    page = html(phone.client.get(saved.headers["Location"]))
    assert "Enda goes out and scores 56. Enda went rummy — doubled." in page
    hand = html(phone.client.get(f"{phone.board}/hands/1"))
    assert "Enda went rummy — doubled." in hand
    dutch = html(phone.client.get(phone.board, headers={"Accept-Language": "nl"}))
    assert "Enda ging rummy — verdubbeld." in dutch


def test_with_the_bonus_option_going_rummy_says_ten_points_more(phone):
    phone.start(game="rummy", dealer="Enda", rummy_bonus="bonus10")
    phone.enter({"Enda": "", "John": "K Q", "Rex": "5", "Finn": "A 2"}, out="Enda", rummy="y")
    page = html(phone.client.get(phone.board))
    assert "Enda goes out and scores 38. Enda went rummy — 10 points more." in page
    phone.enter({"Enda": "3", "John": "", "Rex": "5", "Finn": "A 2"}, out="John")
    assert "John went rummy" not in html(phone.client.get(phone.board))


# --- Spin Rummy ----------------------------------------------------------------------------------


def spin(phone: Phone) -> Phone:
    phone.start(game="spin", players=("Anna", "Ben"), dealer="Anna")
    return phone


def melds(phone: Phone, typed: dict[str, list[str]], cards: dict[str, str]) -> dict:
    data = phone.hand_form(cards)
    for i, name in enumerate(phone.seats):
        for j, meld in enumerate(typed.get(name, [])):
            data[f"results-{i}-melds-{j}"] = meld
    return data


def test_spin_rummys_form_has_a_box_per_meld_and_no_went_out_choice(phone):
    spin(phone)
    form = html(phone.client.get(f"{phone.board}/hands/new"))
    assert 'name="results-0-melds-0"' in form and 'name="results-0-melds-1"' in form
    assert 'name="results-1-melds-1"' in form and 'name="results-0-melds-2"' not in form
    assert "Meld 1" in form and "Or the melds laid out – Anna" in form
    assert "went out" not in form and "Who went out?" not in form
    assert 'name="out"' not in form


def test_spin_rummy_entered_as_melds_scores_them(phone):
    spin(phone)
    typed = melds(phone, {"Anna": ["3H 3S 3D", "4C 5C 6C"]}, {"Ben": "QH KH AH"})

    saved = phone.client.post(f"{phone.board}/hands/new", data=typed)

    assert saved.status_code == 302, html(saved)
    page = html(phone.client.get(saved.headers["Location"]))
    assert "Round 1 saved. Anna scores 7, Ben 12. Ben wins the round." in page
    hand = html(phone.client.get(f"{phone.board}/hands/1"))
    # Each meld with its score (issue 29): a set its rank's value, a run its lowest card's.
    assert '<span class="meld">[3♠ 3♥ 3♦] = 3</span>' in hand
    assert '<span class="meld">[4♣ 5♣ 6♣] = 4</span>' in hand
    assert '<span class="meld">[Q♥ K♥ A♥] = 12</span>' in hand
    # Correcting it shows the melds as they were laid out, each in its box.
    edit = html(phone.client.get(f"{phone.board}/hands/1/edit"))
    assert 'name="results-0-melds-0" value="3H 3S 3D"' in edit
    assert 'name="results-0-melds-1" value="4C 5C 6C"' in edit


def test_a_meld_that_does_not_fit_the_rounds_contract_is_refused_as_typed(phone):
    spin(phone)
    phone.client.post(
        f"{phone.board}/hands/new", data=melds(phone, {}, {"Anna": "3H 3S 3D", "Ben": "QH KH AH"})
    )
    # Round 2: two runs. A set laid out is a slip, said beside Anna's row; nothing is saved.
    typed = melds(phone, {"Anna": ["7H 7S 7D", "4C 5C 6C"]}, {"Ben": "QH KH AH"})

    refused = phone.client.post(f"{phone.board}/hands/new", data=typed)

    assert refused.status_code == 422
    page = html(refused)
    assert "Anna&#39;s meld 1 (7♥ 7♠ 7♦) does not fit round 2&#39;s contract: two runs." in page
    assert 'value="7H 7S 7D"' in page  # what was typed stays to be fixed
    assert "Round 2 of 4" in html(phone.client.get(phone.board))
    dutch = html(
        phone.client.post(f"{phone.board}/hands/new", data=typed, headers={"Accept-Language": "nl"})
    )
    assert (
        "Combinatie 1 van Anna (7♥ 7♠ 7♦) past niet in de opdracht van ronde 2: twee reeksen."
        in dutch
    )


def test_cards_and_melds_for_one_player_are_refused(phone):
    spin(phone)
    typed = melds(phone, {"Anna": ["3H 3S 3D"]}, {"Anna": "9C", "Ben": "QH KH AH"})
    refused = phone.client.post(f"{phone.board}/hands/new", data=typed)
    assert refused.status_code == 422
    assert "Give either Anna&#39;s cards or the melds, not both." in html(refused)


# --- Words (issue 29) ----------------------------------------------------------------------------


def test_the_option_help_speaks_in_words_not_in_option_keys(phone):
    """The help beside an option said "winner: …; penalty: …" (its keys) in both languages."""
    for language in ("en", "nl"):
        asked = {"Accept-Language": language}
        page = html(phone.client.get(f"/g/{phone.slug}/s/new", headers=asked))
        hints = re.findall(r'<span class="hint" id="opt-[^"]+-hint">([^<]*)</span>', page)
        assert len(hints) > 20
        for key in ("winner:", "penalty:", "everyone:", "cards:", "totals:"):
            assert not [h for h in hints if key in h], (language, key)
    page = html(phone.client.get(f"/g/{phone.slug}/s/new"))
    assert "The player out scores the cards left in the other hands, or each player adds" in page


def test_penalty_points_are_said_as_penalty_points_in_both_languages(phone):
    phone.start(game="spots")
    phone.enter({"Enda": "", "John": "K Q", "Rex": "5", "Finn": "A"}, out="Enda")
    dutch = html(phone.client.get(f"{phone.board}/hands/1", headers={"Accept-Language": "nl"}))
    assert "Enda gaat uit. John krijgt 20 strafpunten, Rex 5, Finn 1." in dutch
    english = html(phone.client.get(f"{phone.board}/hands/1"))
    assert "Enda goes out. John gets 20 penalty points, Rex 5, Finn 1." in english


def test_going_rummy_for_ten_with_penalty_points_is_ten_points_off(phone):
    """RULES.md §4: bonus10 is 10 points more for the player out, or with penalty scoring 10
    off their score; the option's label, its help and the hand say it the same way."""
    phone.start(game="rummy", dealer="Enda", rummy_bonus="bonus10", scoring="penalty")
    phone.enter({"Enda": "", "John": "K Q", "Rex": "5", "Finn": "A 2"}, out="Enda", rummy="y")
    board = html(phone.client.get(phone.board))
    assert "Enda went rummy — 10 points off." in board
    assert "Enda gets -10 penalty points, John 20, Rex 5, Finn 3." in board
    form = html(phone.client.get(f"/g/{phone.slug}/s/new"))
    assert "is worth 10 points more (with penalty points: 10 off)" in form
    assert "or is worth 10 points more (with penalty points: 10 off)." in form
    assert "instead" not in form


def test_a_hand_nobody_went_out_of_says_so(phone):
    phone.start()
    phone.enter({"Enda": "J 10", "John": "A 3", "Rex": "2 9", "Finn": "Q K"})
    assert "Nobody went out. John wins 51" in html(phone.client.get(f"{phone.board}/hands/1"))
    phone.enter({"John": "5 5 6", "Rex": "K", "Finn": "3 5"}, out="Enda")
    assert "Nobody went out" not in html(phone.client.get(f"{phone.board}/hands/2"))


def test_sessions_are_numbered_per_game_in_the_group_and_keep_their_address(phone):
    """Issue 29: after two Spot nights a Spots night is "Spots #1", not "Spots #3", on every
    page that names it; its address stays its id."""
    first = phone.start()
    phone.enter(HAND_1)
    phone.start()
    phone.enter(HAND_1)
    spots = phone.start(game="spots")
    assert spots.endswith("/s/3")  # the id, as before
    board = html(phone.client.get(spots))
    assert "<h1>Spots #1</h1>" in board
    group = html(phone.client.get(f"/g/{phone.slug}"))
    named = re.compile(r"\b(Spots? #\d+)")
    assert sorted(set(named.findall(group))) == ["Spot #1", "Spot #2", "Spots #1"]
    player = html(phone.client.get(f"/g/{phone.slug}/p/Enda"))
    assert {"Spot #1", "Spot #2"} <= set(named.findall(player))
    assert not {"Spot #3", "Spots #3"} & set(named.findall(player))
    settle = html(phone.client.get(f"{first}/settle"))
    assert "Spot #1: settling up" in settle
    history = html(phone.client.get(f"{first}/history"))
    assert "<title>" in history and "Spot #1" in history
