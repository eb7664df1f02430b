"""The pages and the flows a table goes through, with the Flask test client (no JavaScript)."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from html import unescape

import pytest

from tests.web.pages import HAND_1, HAND_2, PASSPHRASE, Phone, hidden_fields, html, table_of_four


@pytest.fixture
def phone(client) -> Phone:
    return table_of_four(client)


def scores(page: str) -> dict[str, str]:
    """The scoreboard's big numbers by player."""
    found = re.findall(
        r'<li class="score[^"]*"[^>]*>.*?</span>(.+?)\s*<small>.*?'
        r'<span class="total[^"]*">([-+]?\d+)',
        page,
        re.S,
    )
    # A name is a link to the player's page (issue 15): its text is the name.
    return {re.sub(r"<[^>]+>", "", name).strip(): total for name, total in found}


# --- Every page ------------------------------------------------------------------------------


def test_every_page_of_a_session_renders(phone):
    board = phone.start()
    assert phone.enter(HAND_1).status_code == 302
    pages = {
        "/": "Open a group",
        f"/g/{phone.slug}": "Leaderboard",
        f"/g/{phone.slug}/invite": "Invite link",
        f"/g/{phone.slug}/s/new": "Players, clockwise",
        board: "Enter hand",
        f"{board}/hands": "All hands",
        f"{board}/hands/new": "Save hand",
        f"{board}/hands/1": "Correct this hand",
        f"{board}/hands/1/edit": "Save the correction",
        f"{board}/settle": "Who pays whom",
    }
    for path, text in pages.items():
        response = phone.client.get(path)
        assert response.status_code == 200, path
        assert text in html(response), path
        assert response.content_type == "text/html; charset=utf-8"


def test_the_downloads_are_workbooks(phone):
    board = phone.start()
    phone.enter(HAND_1)
    for path in (f"{board}/export.xlsx", f"/g/{phone.slug}/export.xlsx"):
        response = phone.client.get(path)
        assert response.status_code == 200
        assert response.data[:2] == b"PK"  # a zip, as every .xlsx is
        assert "attachment" in response.headers["Content-Disposition"]
    backup = phone.client.get(f"/g/{phone.slug}/backup.json")
    assert backup.status_code == 200
    assert backup.is_json


# --- Start and group ---------------------------------------------------------------------------


def test_a_new_group_opens_signed_in_and_is_listed_on_the_start_page(client):
    phone = Phone(client)
    phone.create_group("The Local")
    assert "The group is ready" in html(client.get(f"/g/{phone.slug}?new=1"))
    start = html(client.get("/"))
    assert "Your groups" in start
    assert f'href="/g/{phone.slug}"' in start


def test_a_short_passphrase_is_refused_beside_the_field(client):
    response = client.post("/groups", data={"create-name": "Pub", "create-passphrase": "short"})
    assert response.status_code == 422
    assert "at least 8 characters" in html(response)
    assert 'value="Pub"' in html(response)  # what was typed stays


def test_another_phone_opens_the_group_by_its_name_and_passphrase(app, phone):
    other = app.test_client()
    assert other.get(f"/g/{phone.slug}").status_code == 401
    wrong = other.post("/open", data={"open-group": "thursday crowd", "open-passphrase": "nope"})
    assert wrong.status_code == 401
    assert "name or passphrase is wrong" in html(wrong)
    response = other.post(
        "/open", data={"open-group": "Thursday crowd", "open-passphrase": "pints4all"}
    )
    assert response.status_code == 302
    assert other.get(f"/g/{phone.slug}").status_code == 200


def test_a_sixth_group_of_one_name_is_told_how_to_open_it(app, client):
    """Issue 29: only the five oldest groups of a name are tried; the sixth's players were
    told their passphrase was wrong and nothing else."""
    slugs = [Phone(client).create_group("Darts", f"passphrase {n}") for n in range(6)]
    other = app.test_client()

    fifth = other.post("/open", data={"open-group": "darts", "open-passphrase": "passphrase 4"})
    assert fifth.status_code == 302 and slugs[4] in fifth.headers["Location"]
    sixth = other.post("/open", data={"open-group": "Darts", "open-passphrase": "passphrase 5"})
    assert sixth.status_code == 401
    page = unescape(html(sixth))
    assert "More than 5 groups have this name" in page
    assert "type the last part of your group's web address (after /g/)" in page
    by_address = other.post(
        "/open", data={"open-group": slugs[5], "open-passphrase": "passphrase 5"}
    )
    assert by_address.status_code == 302
    assert other.get(f"/g/{slugs[5]}").status_code == 200


def test_a_wrong_passphrase_for_a_name_five_groups_share_says_only_that(app, client):
    for n in range(5):
        Phone(client).create_group("Darts", f"passphrase {n}")

    wrong = app.test_client().post("/open", data={"open-group": "Darts", "open-passphrase": "nope"})

    assert wrong.status_code == 401
    assert "name or passphrase is wrong" in html(wrong)
    assert "groups have this name" not in html(wrong)


def test_the_passphrase_page_opens_the_group_and_goes_back_where_it_was(app, phone):
    board = phone.start()
    other = app.test_client()
    refused = other.get(board)
    assert refused.status_code == 401
    assert "needs its passphrase" in html(refused)
    response = other.post(
        "/open",
        data={"open-group": phone.slug, "open-passphrase": "pints4all", "next": board},
    )
    assert response.status_code == 302
    assert response.headers["Location"] == board


def test_players_are_added_and_renamed_and_a_duplicate_is_refused(phone):
    duplicate = phone.client.post(f"/g/{phone.slug}/players", data={"name": "rex"})
    assert duplicate.status_code == 422
    assert "already a player called" in html(duplicate)

    page = html(phone.client.get(f"/g/{phone.slug}"))
    rex_id = re.search(
        r'/players/(\d+)"[^>]*>\s*<input[^>]*>\s*<div class="field">\s*'
        r'<label for="rename-\d+">New name for Rex',
        page,
    )
    assert rex_id, page
    response = phone.client.post(
        f"/g/{phone.slug}/players/{rex_id.group(1)}", data={"rename-name": "Rexie"}
    )
    assert response.status_code == 302
    page = html(phone.client.get(f"/g/{phone.slug}"))
    assert "Renamed to Rexie." in page
    assert "New name for Rexie" in page


# --- Starting a session ----------------------------------------------------------------------


def test_the_new_session_page_offers_each_game_with_its_description_and_defaults(phone):
    page = html(phone.client.get(f"/g/{phone.slug}/s/new"))
    for name in ("Spot", "Spots", "Rummy", "Spin Rummy"):
        assert f"<strong>{name}</strong>" in page
    assert "Irish pub rummy for money" in page
    assert 'id="opt-spot-ante" name="opt-spot-ante" value="5"' in page
    assert 'id="opt-rummy-target" name="opt-rummy-target" value="100"' in page
    assert re.search(r'<option value="carry" selected>', page)


def test_the_move_buttons_reorder_the_seats_without_javascript(phone):
    response = phone.client.post(
        f"/g/{phone.slug}/s/new",
        data={"game": "spot", "order": ["Enda", "Finn", "John", "Rex"], "move": "up:1"},
    )
    assert response.status_code == 200
    order = re.findall(r'name="order" value="([^"]+)"', html(response))
    assert order == ["Finn", "Enda", "John", "Rex"]


def test_someone_new_joins_the_list_before_the_session_starts(phone):
    response = phone.client.post(
        f"/g/{phone.slug}/s/new",
        data={"game": "spot", "order": ["Enda", "Finn"], "new_player": "Aoife", "add": "1"},
    )
    assert re.findall(r'name="order" value="([^"]+)"', html(response))[-1] == "Aoife"


def test_a_session_the_engine_refuses_says_why_beside_the_option(phone):
    response = phone.client.post(
        f"/g/{phone.slug}/s/new",
        data={
            "game": "spot",
            "order": ["Enda", "John"],
            "seated": ["Enda", "John"],
            "dealer": "Enda",
            "opt-spot-ante": "-1",
        },
    )
    assert response.status_code == 422
    page = html(response)
    assert re.search(r'id="opt-spot-ante-error"[^>]*>The option “Ante” must be at least 0', page)
    assert 'value="-1"' in page


def test_start_the_session_sent_twice_starts_one_session(phone):
    page = html(phone.client.get(f"/g/{phone.slug}/s/new"))
    token = re.search(r'name="once" value="([0-9a-f]+)"', page).group(1)
    form = {
        "game": "spot",
        "order": ["Enda", "John"],
        "seated": ["Enda", "John"],
        "dealer": "Enda",
        "once": token,
    }
    first = phone.client.post(f"/g/{phone.slug}/s/new", data=form)
    resent = phone.client.post(f"/g/{phone.slug}/s/new", data=form)  # a double tap, a retry
    assert first.status_code == resent.status_code == 302
    assert resent.headers["Location"] == first.headers["Location"]
    group = html(phone.client.get(f"/g/{phone.slug}"))
    assert len(set(re.findall(rf'href="/g/{phone.slug}/s/(\d+)"', group))) == 1
    # The same form sent from another browser (its cookie knows nothing) still finds it.
    again = phone.client.application.test_client()
    again.post("/open", data={"open-group": phone.slug, "open-passphrase": PASSPHRASE})
    assert (
        again.post(f"/g/{phone.slug}/s/new", data=form).headers["Location"]
        == (first.headers["Location"])
    )
    # A new form is a new session.
    fresh = re.search(
        r'name="once" value="([0-9a-f]+)"', html(phone.client.get(f"/g/{phone.slug}/s/new"))
    ).group(1)
    assert fresh != token
    other = phone.client.post(f"/g/{phone.slug}/s/new", data=form | {"once": fresh})
    assert other.headers["Location"] != first.headers["Location"]


def test_a_redrawn_new_session_form_keeps_its_one_time_token(phone):
    page = html(phone.client.get(f"/g/{phone.slug}/s/new"))
    token = re.search(r'name="once" value="([0-9a-f]+)"', page).group(1)
    moved = phone.client.post(
        f"/g/{phone.slug}/s/new",
        data={"game": "spot", "order": ["Enda", "Finn"], "move": "up:1", "once": token},
    )
    assert f'name="once" value="{token}"' in html(moved)


def test_one_player_is_not_enough_for_spot(phone):
    response = phone.client.post(
        f"/g/{phone.slug}/s/new",
        data={"game": "spot", "order": ["Enda"], "seated": ["Enda"], "dealer": "Enda"},
    )
    assert response.status_code == 422
    assert "Spot is played by 2 to 6 players, not 1." in html(response)


# --- The scoreboard and the hands ----------------------------------------------------------------


def test_the_scoreboard_says_who_deals_and_leads_and_shows_the_pot(phone):
    board = html(phone.client.get(phone.start()))
    assert '<strong id="dealer">Finn</strong>' in board
    assert '<strong id="leader">Enda</strong>' in board  # the dealer's left, clockwise
    assert "Hand 1" in board
    assert 'id="pot">0<' in board


def test_the_whole_night_enter_correct_undo_settle_finish(phone):
    board = phone.start()

    saved = phone.enter(HAND_1)
    assert saved.status_code == 302
    page = html(phone.client.get(saved.headers["Location"]))
    assert "John wins 51: Enda pays 20, Rex 11, Finn 20. The antes put 20 in the pot." in page

    phone.enter(HAND_2, out="Enda")
    page = html(phone.client.get(board))
    assert scores(page) == {"Enda": "+44", "John": "+25", "Rex": "-31", "Finn": "-38"}
    assert '<svg class="chart"' in page

    # Hand 1 was J 10 for Enda; it was really J 9: one unit less for John.
    corrected = dict(HAND_1, Enda="J 9")
    form = phone.hand_form(corrected, version="")
    response = phone.client.post(f"{board}/hands/1/edit", data=form)
    assert response.status_code == 302, html(response)
    page = html(phone.client.get(board))
    assert "Hand 1 is corrected." in page
    assert scores(page)["John"] == "+24"
    hand_page = html(phone.client.get(f"{board}/hands/1"))
    assert "Before the corrections" in hand_page
    assert "Enda: J 10" in hand_page  # the old entry, as typed
    assert "J 9" in html(phone.client.get(f"{board}/hands/1/edit"))

    undo = phone.client.post(f"{board}/undo", data={"number": "2"})
    assert undo.status_code == 302
    page = html(phone.client.get(board))
    assert "Hand 2 is undone." in page
    assert "Hand 2</strong>" in page  # the next hand to enter is hand 2 again

    settle = html(phone.client.get(f"{board}/settle"))
    assert "Who pays whom" in settle
    assert re.search(r"Finn pays John €0\.\d\d", settle)
    assert "There are 20 units (€0.20) in the pot" in settle

    done = phone.client.post(f"{board}/finish", data={"leftover_pot": "carry"})
    assert done.status_code == 302
    settle = html(phone.client.get(f"{board}/settle"))
    # Issue 14: the page finishes with the keeper it proposes, who keeps the pot.
    assert settle.count("The session is finished.") == 1  # issue 37: it was said twice
    assert re.search(r"\w+ keeps the pot of €0\.20 for the next Spot night", settle)
    page = html(phone.client.get(board))
    assert "Enter hand" not in page
    assert "The night is finished." in page  # a money game: the night, not "the game", is over
    assert "The game is over" not in page


def test_an_engine_error_is_shown_beside_the_players_and_everything_typed_stays(phone):
    phone.start()
    response = phone.enter(dict(HAND_1, Enda="QS 10", John="QS 3"))
    assert response.status_code == 422
    page = html(response)
    for row in (0, 1):  # Enda and John
        assert re.search(
            rf'id="row-{row}-error" role="alert">Two players both have the Q♠ \(Enda, John\)', page
        )
    assert 'id="row-2-error"' not in page
    for typed in ("QS 10", "QS 3", "2 9", "Q K"):
        assert f'value="{typed}"' in page
    assert phone.client.get(f"{phone.board}/version.json").get_json()["hands_played"] == 0


def test_the_went_out_choice_is_kept_when_a_hand_is_refused(phone):
    phone.start()
    response = phone.enter(dict(HAND_2, John="5 5 6 XX"), out="Enda")
    assert response.status_code == 422
    assert re.search(r'name="out" id="out-0" value="Enda" checked', html(response))


def test_a_double_tap_saves_one_hand(phone):
    phone.start()
    request_id = phone.request_id()
    first = phone.enter(HAND_1, request_id=request_id)
    second = phone.enter(HAND_1, request_id=request_id)
    assert first.status_code == second.status_code == 302
    assert first.headers["Location"] == second.headers["Location"]
    assert phone.client.get(f"{phone.board}/version.json").get_json()["hands_played"] == 1


def test_a_hand_resent_after_its_undo_is_not_saved_again_until_the_player_saves_it_anew(phone):
    phone.start()
    request_id = phone.request_id()
    assert phone.enter(HAND_1, request_id=request_id).status_code == 302
    undone = phone.client.post(f"{phone.board}/undo", data={"number": "1"})
    assert undone.status_code == 302

    resent = phone.enter(HAND_1, request_id=request_id)  # a late retry of the first tap

    assert resent.status_code == 422
    page = html(resent)
    assert "already saved as hand 1 and then undone; nothing new was saved" in page
    assert phone.client.get(f"{phone.board}/version.json").get_json()["hands_played"] == 0
    fresh = re.search(r'name="request_id" type="hidden" value="([0-9a-f]+)"', page).group(1)
    assert fresh != request_id
    assert phone.enter(HAND_1, request_id=fresh).status_code == 302  # saving it on purpose
    assert phone.client.get(f"{phone.board}/version.json").get_json()["hands_played"] == 1


def _second_phone(app, phone: Phone) -> Phone:
    """Another phone at the same table, signed in to the group and looking at the session."""
    other = Phone(app.test_client(), phone.slug, phone.session_id, list(phone.seats))
    opened = other.client.post(
        "/open", data={"open-group": phone.slug, "open-passphrase": PASSPHRASE}
    )
    assert opened.status_code == 302
    return other


def _alert(page: str) -> str:
    found = re.search(
        r'<div class="flash flash-error" role="alert" id="form-errors">(.*?)</div>', page, re.S
    )
    assert found, page
    return found.group(1)


def _hands_played(phone: Phone) -> int:
    return phone.client.get(f"{phone.board}/version.json").get_json()["hands_played"]


def test_two_phones_entering_the_same_hand_store_it_once_and_the_second_is_told(app, phone):
    board = phone.start()
    other = _second_phone(app, phone)
    mine = phone.hidden(f"{board}/hands/new")
    theirs = other.hidden(f"{board}/hands/new")
    saved = phone.enter(HAND_1, **mine)
    assert saved.status_code == 302

    refused = other.enter(dict(HAND_1, Enda="J 9"), **theirs)
    assert refused.status_code == 409
    page = html(refused)
    alert = _alert(page)
    assert "Hand 1 was entered on another phone while you were typing." in alert
    assert "If yours is the same hand, drop it; if it is the next one, save it as hand 2." in alert
    # Both hands side by side (theirs as saved, mine as typed), not a form headed Hand 2
    # holding hand 1's cards: "Drop mine" first, "Save mine as hand 2" second.
    side = re.search(r'<section class="card" id="side-by-side".*?</section>', page, re.S)
    assert side, page
    cells = re.findall(
        r'<th scope="row">(\w+)</th><td class="cards">([^<]*)</td>'
        r'<td class="cards">([^<]*)</td>',
        side.group(0),
    )
    assert cells == [
        ("Enda", "J 10", "J 9"),
        ("John", "A 3", "A 3"),
        ("Rex", "2 9", "2 9"),
        ("Finn", "Q K", "Q K"),
    ]
    assert "<h1>Hand 1" in page and "<h1>Hand 2" not in page
    drop = page.index('id="drop-mine"')
    assert f'href="{board}"' in page[drop - 100 : drop + 100]
    assert page.index(">Drop mine<") < page.index(">Save mine as hand 2<")
    assert "save-bar" not in page  # no habitual Save at the end of the form
    assert 'value="J 9"' in page and 'value="Q K"' in page  # what was typed is kept
    assert _hands_played(phone) == 1

    again = other.enter(dict(HAND_1, Enda="J 9"), **hidden_fields(page))
    assert again.status_code == 302, html(again)
    assert "saved=2" in again.headers["Location"]
    assert _hands_played(phone) == 2
    assert "John wins 50: Enda pays 19, Rex 11, Finn 20." in html(
        phone.client.get(f"{board}/hands/2")
    )  # the second phone's input, as hand 2

    # The first phone's form sent again (a retry) still names hand 1 and adds nothing.
    resent = phone.enter(HAND_1, **mine)
    assert resent.status_code == 302
    assert resent.headers["Location"] == saved.headers["Location"]
    assert _hands_played(phone) == 2


def test_a_hand_undone_on_another_phone_while_typing_is_said_and_saving_again_enters_it(app, phone):
    board = phone.start()
    phone.enter(HAND_1)
    other = _second_phone(app, phone)
    theirs = other.hidden(f"{board}/hands/new")  # for hand 2
    assert phone.client.post(f"{board}/undo", data={"number": "1"}).status_code == 302

    refused = other.enter(HAND_2, out="Enda", **theirs)
    assert refused.status_code == 409
    page = html(refused)
    alert = _alert(page)
    assert "was entered on another phone" not in alert
    assert "The session changed on another phone while you were typing" in alert
    assert 'value="5 5 6"' in page
    assert re.search(r'name="out" id="out-0" value="Enda" checked', page)
    assert "<h1>Hand 1" in page
    assert _hands_played(phone) == 0

    again = other.enter(HAND_2, out="Enda", **hidden_fields(page))
    assert again.status_code == 302, html(again)
    assert "saved=1" in again.headers["Location"]


def test_someone_sitting_down_while_a_phone_types_gets_a_row_and_the_typed_rows_stay(app, phone):
    board = phone.start()
    other = _second_phone(app, phone)
    theirs = other.hidden(f"{board}/hands/new")
    joined = phone.client.post(f"{board}/join", data={"join-name": "Ann", "after": "John"})
    assert joined.status_code == 302

    refused = other.enter(HAND_1, **theirs)
    assert refused.status_code == 409
    page = html(refused)
    assert "The session changed on another phone while you were typing" in _alert(page)
    rows = re.findall(r'id="row-\d+"\s+data-player="([^"]+)"', page)
    assert rows == ["Enda", "John", "Ann", "Rex", "Finn"]
    assert 'value="A 3"' in page and 'value="2 9"' in page  # John's and Rex's, as typed
    assert _hands_played(phone) == 0


def test_spin_rummy_says_round_when_the_same_round_was_entered_on_another_phone(app, client):
    phone = Phone(client)
    phone.create_group()
    board = phone.start(game="spin", players=("Anna", "Ben"), dealer="Anna")
    other = _second_phone(app, phone)
    theirs = other.hidden(f"{board}/hands/new")
    assert phone.enter({"Anna": "3H 3S 3D", "Ben": "QH KH AH"}).status_code == 302
    refused = other.enter({"Anna": "3H 3S 3D", "Ben": "QH KH AH"}, **theirs)
    assert refused.status_code == 409
    assert "Round 1 was entered on another phone while you were typing." in _alert(html(refused))


def test_each_hand_form_has_a_new_request_id(phone):
    phone.start()
    assert phone.request_id() != phone.request_id()


def test_the_version_changes_with_every_hand_for_the_other_phones(phone):
    phone.start()
    before = phone.client.get(f"{phone.board}/version.json")
    assert before.headers["Cache-Control"] == "no-store"
    phone.enter(HAND_1)
    after = phone.client.get(f"{phone.board}/version.json").get_json()
    assert after["version"] > before.get_json()["version"]
    assert after["hands_played"] == 1


def test_totals_may_be_typed_where_the_session_allows_them(phone):
    phone.start(entry="totals")
    form = html(phone.client.get(f"{phone.board}/hands/new"))
    assert 'inputmode="numeric"' in form
    response = phone.enter({"Enda": 20, "John": 4, "Rex": 11, "Finn": "Q K"})
    assert response.status_code == 302, html(response)
    assert "John wins 51" in html(phone.client.get(response.headers["Location"]))


def test_cards_and_a_total_for_one_player_are_refused_beside_that_player(phone):
    phone.start(entry="totals")
    data = phone.hand_form(HAND_1)
    data["results-0-spots"] = "20"
    response = phone.client.post(f"{phone.board}/hands/new", data=data)
    assert response.status_code == 422
    assert re.search(r'id="row-0-error"[^>]*>Give either Enda', html(response))


def test_a_player_may_sit_out_a_hand_of_spot(phone):
    phone.start()
    response = phone.enter(dict(HAND_1, Rex="sitting out"))
    assert response.status_code == 302, html(response)
    hand = html(phone.client.get(f"{phone.board}/hands/1"))
    assert "sat out" in hand


def test_dutch_spots_shows_the_round_and_the_hand(phone):
    board = phone.start(game="spots", dealer="Enda")
    assert "Round 1 · hand 1 of 4" in html(phone.client.get(board))
    phone.enter(HAND_1)
    page = html(phone.client.get(board))
    assert "Round 1 · hand 2 of 4" in page
    assert "Pot:" not in page
    assert "Settle up" not in page


def test_a_points_game_names_who_is_ahead_and_who_plays_first_in_their_own_words(phone):
    """Issue 37: "Leads: Enda" on a points game read as "Enda is winning"; it said who plays
    first. Now it says so, and a points game says who is ahead by its own measure (in Spots
    the fewest points): nobody before the first hand, nor once the game is over."""
    board = phone.start(game="spots", dealer="Enda")
    page = html(phone.client.get(board))
    assert '<span>Plays first: <strong id="leader">John</strong></span>' in page
    assert "Leads" not in page and "Ahead:" not in page
    phone.enter(HAND_1)  # Enda 20, John 4, Rex 11, Finn 20
    page = html(phone.client.get(board))
    assert '<span>Ahead: <strong id="ahead">John</strong></span>' in page
    assert phone.client.post(f"{board}/finish", data={}).status_code == 302
    assert "Ahead:" not in html(phone.client.get(board))


def test_a_money_night_names_nobody_ahead(phone):
    board = phone.start()
    phone.enter(HAND_1)
    page = html(phone.client.get(board))
    assert "Plays first:" in page and "Ahead:" not in page


def test_a_points_game_can_be_ended_by_the_table(phone):
    board = phone.start(game="rummy", dealer="Enda")
    response = phone.enter({"Enda": "", "John": "K Q", "Rex": "5", "Finn": "A 2"}, out="Enda")
    assert response.status_code == 302, html(response)
    assert phone.client.post(f"{board}/finish", data={}).status_code == 302
    page = html(phone.client.get(board))
    assert "The game is over." in page
    assert "Enter hand" not in page
    # Ended by the table, its hands stay as they are: no undo, no correction offered.
    assert 'id="undo"' not in page
    assert "Correct this hand" not in html(phone.client.get(f"{board}/hands/1"))
    assert phone.client.get(f"{board}/hands/1/edit").status_code == 302


def test_a_player_joins_and_another_leaves_between_hands(phone):
    board = phone.start()
    phone.client.post(f"{board}/join", data={"join-name": "Aoife", "after": "Rex"})
    phone.client.post(f"{board}/leave", data={"name": "John"})
    page = html(phone.client.get(board))
    assert "Aoife sits down." in page
    assert "left the table" in page
    form = html(phone.client.get(f"{board}/hands/new"))
    assert "Cards left – Aoife" in form
    assert "Cards left – John" not in form


def test_undo_takes_back_only_the_hand_the_phone_saw_as_last(phone):
    board = phone.start()
    phone.enter(HAND_1)
    phone.enter(HAND_2, out="Enda")
    response = phone.client.post(f"{board}/undo", data={"number": "1"})
    assert response.status_code == 302
    assert "Only the last hand can be undone" in html(phone.client.get(board))
    assert phone.client.get(f"{board}/version.json").get_json()["hands_played"] == 2


def test_with_five_at_spots_the_dealer_has_nothing_to_enter(phone):
    phone.add_players("Aoife")
    players = ("Enda", "John", "Rex", "Finn", "Aoife")
    phone.start(game="spots", players=players, dealer="Aoife")
    form = html(phone.client.get(f"{phone.board}/hands/new"))
    assert "Deals this hand and sits it out." in form
    assert "Cards left – Aoife" not in form
    assert "Round 1 · hand 1 of 5" in html(phone.client.get(phone.board))
    phone.seats = list(players)
    response = phone.enter(dict(HAND_1, Aoife=""))
    assert response.status_code == 302, html(response)


def test_a_paid_tick_is_kept_in_the_session_and_survives_finishing_the_night(phone):
    """The ticks used to stay on one phone (localStorage); now a tick is a payment recorded in
    the session, so finishing the night (a new version) keeps it, and the line it paid is no
    longer owed."""
    board = phone.start()
    phone.enter(HAND_1)
    settle = html(phone.client.get(f"{board}/settle"))
    assert "The ticks stay on this phone only" not in settle
    assert "data-storage-key" not in settle
    lines = re.findall(r"data-paid='([^']*)'", settle)
    assert '["Enda", "John", "0.25"]' in lines
    paid = phone.client.post(
        f"{board}/payments", data={"from": "Enda", "to": "John", "units": "25", "pot": "carry"}
    )
    assert paid.status_code == 302
    phone.client.post(f"{board}/finish", data={"leftover_pot": "carry"})
    finished = html(phone.client.get(f"{board}/settle"))
    assert '["Enda", "John", "0.25"]' not in re.findall(r"data-paid='([^']*)'", finished)
    assert "Enda paid John €0.25" in finished


def test_dates_are_the_day_then_the_month_on_a_24_hour_clock(phone):
    phone.start()
    english = html(phone.client.get(f"/g/{phone.slug}", headers={"Accept-Language": "en-GB"}))
    assert re.search(
        r"· <time [^>]+>\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2} UTC</time> ·", english
    )
    assert not re.search(r"\d{1,2}/\d{1,2}/\d{2}", english)
    assert " AM " not in english and " PM " not in english
    dutch = html(phone.client.get(f"/g/{phone.slug}", headers={"Accept-Language": "nl"}))
    months = "jan|feb|mrt|apr|mei|jun|jul|aug|sep|okt|nov|dec"
    assert re.search(
        rf"· <time [^>]+>\d{{1,2}} ({months})\.? \d{{4}}, \d{{2}}:\d{{2}} UTC</time> ·", dutch
    )


def test_spin_rummy_calls_its_hands_rounds(client):
    phone = Phone(client)
    phone.create_group()
    board = phone.start(game="spin", players=("Anna", "Ben"), dealer="Anna")
    assert "Enter round" in html(client.get(board))
    assert "<h1>Round 1" in html(client.get(f"{board}/hands/new"))
    saved = phone.enter({"Anna": "3H 3S 3D 9C", "Ben": "QH KH AH 5S 6S 7S"})
    page = html(client.get(saved.headers["Location"]))
    assert "Round 1 saved. Anna scores 3, Ben 17. Ben wins the round." in page
    assert "Last rounds" in page and "Undo round 1" in page
    assert "Hand 1" not in page and "Last hands" not in page and "Enter hand" not in page
    hand = html(client.get(f"{board}/hands/1"))
    assert "<h1>Round 1" in hand and "Correct this round" in hand
    # The melds' value is the points: one column for it, not two with the same number.
    assert ">Points</th>" in hand and ">Value</th>" not in hand
    assert '<span class="meld">[3♠ 3♥ 3♦] = 3</span>' in hand
    assert '<span class="meld muted">9♣</span>' in hand  # the card in no meld, still shown
    assert "1 round" in html(client.get(f"/g/{phone.slug}"))
    assert "All rounds" in html(client.get(f"{board}/hands"))


def test_spin_rummy_asks_for_suited_cards_and_names_the_contract(client):
    phone = Phone(client)
    phone.create_group()
    phone.start(game="spin", players=("Anna", "Ben"), dealer="Anna")
    board = html(client.get(phone.board))
    assert "Round 1 of 4" in board
    assert "Contract: two melds" in board
    form = html(client.get(f"{phone.board}/hands/new"))
    assert 'data-show-total="0"' in form
    assert 'data-rank="2"' not in form  # Spin Rummy has no 2s
    response = phone.enter({"Anna": "3H 3S 3D", "Ben": "QH KH AH"})
    assert response.status_code == 302, html(response)
    assert "Round 2 of 4" in html(client.get(phone.board))


def test_the_leaderboard_adds_up_every_session(phone):
    phone.start()
    phone.enter(HAND_1)
    phone.enter(HAND_2, out="Enda")
    phone.start(game="spots", dealer="Enda")
    phone.enter(HAND_1)  # a Spots game that goes on: its points count for nobody yet
    phone.start(game="rummy", dealer="Enda", target=10)
    # Enda goes out and scores 28, past the target: the game is over and Enda has won it.
    phone.enter({"Enda": "", "John": "K Q", "Rex": "5", "Finn": "A 2"}, out="Enda")
    page = html(phone.client.get(f"/g/{phone.slug}"))
    table = page.split('id="leaderboard-heading"')[1].split("</table>")[0]
    headers = re.findall(r'<th scope="col"[^>]*>([^<]+)</th>', table)
    assert headers == ["Player", "Net money", "Games won", "Hands won"]
    rows = re.findall(
        r'<th scope="row"><a [^>]*>(\w+)</a></th>'
        r'\s*<td class="number">\s*<span class="[^"]*">([^<]+)</span>'
        r'\s*</td>\s*<td class="number">(\d+)</td>\s*<td class="number">(\d+)</td>',
        table,
    )
    assert rows[0] == ("Enda", "€0.44", "1", "2")  # the Rummy game; Spot hand 2, Rummy hand 1
    assert ("John", "€0.25", "0", "2") in rows  # hand 1 of Spot and of Spots
    assert [r[0] for r in rows] == ["Enda", "John", "Rex", "Finn"]  # by money, best first


def test_the_leaderboard_adds_up_points_game_by_game_and_never_across_games(phone):
    phone.start(game="spots", dealer="Enda")
    phone.enter(HAND_1)  # Enda 20, John 4, Rex 11, Finn 20 penalty points
    out_enda = {"Enda": "", "John": "K Q", "Rex": "5", "Finn": "A 2"}
    phone.start(game="rummy", dealer="Enda")
    phone.enter(out_enda, out="Enda")  # Enda scores the others' 28
    phone.start(game="rummy", dealer="Enda", scoring="penalty")
    phone.enter(out_enda, out="Enda")  # each adds their own: John 20, Rex 5, Finn 3
    phone.start()
    phone.enter(HAND_1)  # Spot, for money: no points

    page = html(phone.client.get(f"/g/{phone.slug}"))
    table = page.split('id="points-heading"')[1].split("</table>")[0]

    headers = re.findall(r'<th scope="col"[^>]*>([^<]+)</th>', table)
    assert headers == ["Player", "Spots", "Rummy", "Rummy (penalty)"]
    rows = {
        name: re.findall(r'<td class="number">([^<]+)</td>', cells)
        for name, cells in re.findall(
            r'<th scope="row"><a [^>]*>(\w+)</a></th>(.*?)</tr>', table, re.S
        )
    }
    assert rows == {
        "Enda": ["20", "28", "0"],
        "John": ["4", "0", "20"],
        "Rex": ["11", "0", "5"],
        "Finn": ["20", "0", "3"],
    }
    assert "fewest points are best" in page


def test_a_leaderboard_of_money_games_only_has_no_points_column(phone):
    phone.start()
    phone.enter(HAND_1)
    page = html(phone.client.get(f"/g/{phone.slug}"))
    table = page.split('id="leaderboard-heading"')[1].split("</table>")[0]
    headers = re.findall(r'<th scope="col"[^>]*>([^<]+)</th>', table)
    assert headers == ["Player", "Net money", "Hands won"]  # three columns fit a phone
    assert re.search(r'<th scope="row"><a [^>]*>Enda</a></th>\s*<td class="number">\s*<span', table)


def test_a_group_opens_by_its_pasted_address_too(app, phone):
    other = app.test_client()
    address = f"http://192.168.1.20:8000/g/{phone.slug}/s/new"
    response = other.post("/open", data={"open-group": address, "open-passphrase": "pints4all"})
    assert response.status_code == 302
    assert response.headers["Location"] == f"/g/{phone.slug}"


def test_a_correction_based_on_an_old_scoreboard_is_refused_with_the_input_kept(phone):
    board = phone.start()
    phone.enter(HAND_1)
    form = html(phone.client.get(f"{board}/hands/1/edit"))
    version = re.search(r'name="version" type="hidden" value="(\d+)"', form).group(1)
    phone.enter(HAND_2, out="Enda")  # another phone saves a hand meanwhile
    data = phone.hand_form(dict(HAND_1, Enda="J 9"), version=version)
    response = phone.client.post(f"{board}/hands/1/edit", data=data)
    assert response.status_code == 409
    page = html(response)
    alert = _alert(page)
    assert "changed on another phone while you were correcting" in alert
    assert "saving again applies your correction to hand 1 as it is now" in alert
    assert 'value="J 9"' in page
    assert scores(html(phone.client.get(board))) == {
        "Enda": "+44",
        "John": "+25",
        "Rex": "-31",
        "Finn": "-38",
    }  # nothing changed yet

    # Saved again from the page it came back on, the correction goes through.
    again = phone.client.post(f"{board}/hands/1/edit", data=data | hidden_fields(page))
    assert again.status_code == 302, html(again)
    page = html(phone.client.get(board))
    assert "Hand 1 is corrected." in page
    assert scores(page) == {"Enda": "+45", "John": "+24", "Rex": "-31", "Finn": "-38"}


def test_a_correction_refused_because_another_phone_corrected_that_hand_says_so(app, phone):
    board = phone.start()
    phone.enter(HAND_1)
    other = _second_phone(app, phone)
    theirs = other.hidden(f"{board}/hands/1/edit")
    corrected = phone.client.post(
        f"{board}/hands/1/edit",
        data=phone.hand_form(dict(HAND_1, Rex="2 8"), **phone.hidden(f"{board}/hands/1/edit")),
    )
    assert corrected.status_code == 302
    refused = other.client.post(
        f"{board}/hands/1/edit", data=other.hand_form(dict(HAND_1, Enda="J 9"), **theirs)
    )
    assert refused.status_code == 409
    alert = _alert(html(refused))
    assert "Hand 1 was corrected on another phone while you were correcting it" in alert


def test_a_correction_sent_twice_is_saved_once_and_not_called_a_clash(phone):
    board = phone.start()
    phone.enter(HAND_1)
    data = phone.hand_form(dict(HAND_1, Enda="J 9"), **phone.hidden(f"{board}/hands/1/edit"))
    first = phone.client.post(f"{board}/hands/1/edit", data=data)
    resent = phone.client.post(f"{board}/hands/1/edit", data=data)  # a double tap, a retry
    assert first.status_code == resent.status_code == 302, html(resent)
    assert resent.headers["Location"] == first.headers["Location"]
    hand = html(phone.client.get(f"{board}/hands/1"))
    assert "corrected on another phone" not in hand
    assert hand.count("Until ") == 1  # one correction in the history, not two
    assert scores(html(phone.client.get(board)))["Enda"] == "-24"


def test_a_stale_correction_that_differs_from_the_hand_now_is_still_refused(phone):
    board = phone.start()
    phone.enter(HAND_1)
    loaded = phone.hidden(f"{board}/hands/1/edit")
    saved = phone.client.post(
        f"{board}/hands/1/edit", data=phone.hand_form(dict(HAND_1, Enda="J 9"), **loaded)
    )
    assert saved.status_code == 302
    other = phone.client.post(
        f"{board}/hands/1/edit", data=phone.hand_form(dict(HAND_1, Enda="J 8"), **loaded)
    )
    assert other.status_code == 409
    assert "Hand 1 was corrected on another phone" in _alert(html(other))


def test_correcting_a_hand_of_a_finished_night_goes_to_the_hand_and_says_why(phone):
    board = phone.start()
    phone.enter(HAND_1)
    assert phone.client.post(f"{board}/finish", data={"leftover_pot": "carry"}).status_code == 302
    response = phone.client.get(f"{board}/hands/1/edit")
    assert response.status_code == 302
    assert response.headers["Location"] == f"{board}/hands/1"
    page = html(phone.client.get(response.headers["Location"]))
    assert "This session is finished: its hands can no longer be changed." in page
    assert "Save the correction" not in page


def test_going_rummy_is_offered_in_rummy_only(phone):
    phone.start(game="rummy", dealer="Enda")
    form = html(phone.client.get(f"{phone.board}/hands/new"))
    assert "Went rummy" in form
    assert "Nobody went out" not in form  # in Rummy someone always goes out
    response = phone.enter({"John": "K Q", "Rex": "5", "Finn": "A 2"}, out="Enda", rummy="y")
    assert response.status_code == 302, html(response)
    hand = html(phone.client.get(f"{phone.board}/hands/1"))
    assert "Enda goes out and scores 56." in hand  # 20 + 5 + 3, doubled


def test_times_are_sent_in_utc_for_each_phone_to_show_on_its_own_clock(phone):
    phone.start()
    page = html(phone.client.get(f"/g/{phone.slug}"))
    stamp = re.search(r'<time datetime="([^"]+)" data-local>([^<]+)</time>', page)
    assert stamp is not None, "the session's start time is not marked up as a <time>"
    moment = datetime.fromisoformat(stamp.group(1).replace("Z", "+00:00"))
    assert moment.utcoffset() == timedelta(0)
    assert abs(datetime.now(UTC) - moment) < timedelta(minutes=5)
    # Without script the text still makes sense: it says which clock it is on.
    assert stamp.group(2) == f"{moment.day} {moment:%b %Y, %H:%M} UTC"


def test_a_tie_says_what_each_loser_paid_and_the_odd_unit_that_went_into_the_pot(phone):
    phone.start()
    # Enda A-3 and John 4 tie on 4; Rex pays 9 and Finn 8: 17 shared by two, one left over.
    saved = phone.enter({"Enda": "A 3", "John": "4", "Rex": "9", "Finn": "8"})
    assert saved.status_code == 302
    page = html(phone.client.get(saved.headers["Location"]))
    assert (
        "Enda and John win 8 each: Rex pays 9, Finn 8. "
        "The odd unit goes into the pot, which grows to 21."
    ) in page


def test_a_pot_of_one_unit_is_one_unit_on_the_settle_up_page(phone):
    board = phone.start(ante=0)
    phone.enter({"Enda": "A 3", "John": "4", "Rex": "9", "Finn": "8"})  # the odd unit: pot 1
    page = html(phone.client.get(f"{board}/settle"))
    assert "In the pot: 1 unit (€0.01)" in page
    assert "There is 1 unit (€0.01) in the pot. What happens to it?" in page
    assert "1 units" not in page


def test_someone_sitting_down_is_seated_to_the_left_of_the_player_the_form_names(phone):
    board = phone.start()
    page = html(phone.client.get(board))
    assert "Sits down to the left of (next after them, clockwise)" in page
    response = phone.client.post(f"{board}/join", data={"join-name": "Ann", "after": "John"})
    assert response.status_code == 302
    seats = re.search(
        r'<select id="join-after"[^>]*>(.*?)</select>', html(phone.client.get(board)), re.S
    )
    order = re.findall(r'<option value="([^"]+)">', seats.group(1))
    assert order == ["Enda", "John", "Ann", "Rex", "Finn"]  # in seat order, clockwise


# --- Settling up before the night is finished: the payments follow what happens to the pot ---


def settle_lines(page: str) -> list[str]:
    return re.findall(r'<span class="what">(.*?)</span>', page)


def copied(page: str) -> list[str]:
    """What "Copy as text" copies: the hidden text area, line by line."""
    found = re.search(r'<textarea id="settle-text"[^>]*>(.*?)</textarea>', page, re.S)
    assert found, page
    return unescape(found.group(1)).splitlines()


def tonight() -> str:
    """The copy's second line: the group and the night (issue 29)."""
    today = datetime.now(UTC)
    return f"Thursday crowd · {today:%A} {today.day} {today:%B %Y}"


def balances_after_paying(page: str) -> dict[str, int]:
    """Each player's balance on the page (units) once every listed payment is made."""
    if '<th scope="col" class="number">Total</th>' in page:
        # The pot's columns beside the money: each row's last figure (Total) is what settles.
        left = {
            name: round(Decimal(money.replace("€", "")) / Decimal("0.01"))
            for name, money in re.findall(
                r'<th scope="row">(?:<a [^>]*>)?([^<]+)(?:</a>)?</th>'
                r'(?:\s*<td class="number[^"]*">[^<]*</td>)*?'
                r'\s*<td class="number[^"]*">(-?€[\d.]+)</td>\s*</tr>',
                page,
            )
        }
    else:
        left = {
            name: int(units)
            for name, units in re.findall(
                r'<th scope="row">(?:<a [^>]*>)?([^<]+)(?:</a>)?</th>'
                r'\s*<td class="number[^"]*">([-+]?\d+)</td>',
                page,
            )
        }
        # Issue 29: the balances shown are the night's winnings; the pot kept (or brought
        # back) is on a line of its own, and the transfers pay it.
        for name, money in re.findall(r"([^>]+) keeps the pot: €([\d.]+)<", page):
            left[name] += int(Decimal(money) / Decimal("0.01"))
        for name, money in re.findall(r"([^>]+) brought the pot back: €([\d.]+)<", page):
            left[name] -= int(Decimal(money) / Decimal("0.01"))
    assert left and len(left) == page.count('<tr id="balance-'), page
    for source, target, amount in (
        json.loads(unescape(p)) for p in re.findall(r"data-paid='([^']*)'", page)
    ):
        units = int(Decimal(amount) / Decimal("0.01"))  # the default unit, €0.01
        if source is not None:
            left[source] += units
        if target is not None:
            left[target] -= units
    return left


def finish_choice(page: str) -> str:
    """The pot choice the "Finish the night" form posts."""
    found = re.search(r'<input type="hidden" name="leftover_pot" value="(\w+)">', page)
    assert found, page
    return found.group(1)


def test_a_refund_night_settles_before_finishing_as_it_will_after(phone):
    board = phone.start(leftover_pot="refund")
    phone.enter(HAND_1)  # nobody out: 20 units stay in the pot

    before = html(phone.client.get(f"{board}/settle"))
    refund = ["Enda pays John €0.20", "Finn pays John €0.20", "Rex pays John €0.11"]
    assert settle_lines(before) == refund
    assert copied(before) == ["Spot #1: settling up", tonight(), *refund]
    assert 'id="pot-refund" value="refund" checked' in before
    assert "These balances count the antes given back from the pot." in before
    assert "In the pot: 20 units (€0.20)" in before
    assert finish_choice(before) == "refund"
    assert set(balances_after_paying(before).values()) == {0}

    done = phone.client.post(f"{board}/finish", data={"leftover_pot": finish_choice(before)})
    assert done.status_code == 302
    after = html(phone.client.get(f"{board}/settle"))
    assert "The session is finished; the pot was given back." in after
    assert settle_lines(after) == refund
    assert copied(after) == copied(before)
    assert re.findall(r"data-paid='([^']*)'", after) == re.findall(r"data-paid='([^']*)'", before)
    assert 'name="pot"' not in after  # decided: no more choice
    assert settle_lines(html(phone.client.get(f"{board}/settle?pot=carry"))) == refund


def test_switching_the_pot_to_carry_pays_it_to_the_keeper_the_page_proposes(phone):
    board = phone.start(leftover_pot="refund")
    phone.enter(HAND_1)

    chosen = phone.client.post(f"{board}/pot", data={"pot": "carry"})
    assert chosen.headers["Location"].endswith(f"{board}/settle")
    page = html(phone.client.get(f"{board}/settle"))
    # Issue 14: the pot is paid to its keeper (John, owed the most), not "into the pot".
    carry = ["Enda pays John €0.25", "Finn pays John €0.25", "Rex pays John €0.16"]
    kept = "John keeps the pot of €0.20 for the next Spot night"
    assert settle_lines(page) == carry
    assert copied(page) == ["Spot #1: settling up", tonight(), *carry, kept]
    assert '<option value="John" selected>John</option>' in page
    assert 'id="pot-carry" value="carry" checked' in page
    assert "These balances count the antes given back from the pot." not in page
    assert finish_choice(page) == "carry"
    assert set(balances_after_paying(page).values()) == {0}
    # Without JavaScript the choice is a form that posts the table's plan (issue 29).
    assert re.search(rf'<form method="post" action="{board}/pot" id="pot-choice"', page)
    assert "Use this plan" in page
    # A page address cannot show another plan than the table's.
    assert settle_lines(html(phone.client.get(f"{board}/settle?pot=refund"))) == carry

    # Anything but carry or refund is refused, naming it; the plan stays.
    refused = phone.client.post(f"{board}/pot", data={"pot": "spend"}, follow_redirects=True)
    assert "The pot left at the end can be carried or refunded, not &#39;spend&#39;." in html(
        refused
    )
    assert settle_lines(html(refused)) == carry

    phone.client.post(
        f"{board}/finish", data={"leftover_pot": finish_choice(page), "pot_keeper": "John"}
    )
    after = html(phone.client.get(f"{board}/settle"))
    assert kept in after
    assert settle_lines(after) == carry


def test_a_carry_night_switched_to_refund_shares_a_carried_pot_as_finishing_will(phone):
    """A pot carried in goes back to those who paid its antes; Finn's wait in the pot."""
    phone.start()
    phone.enter(HAND_1)
    phone.client.post(f"{phone.board}/finish", data={"leftover_pot": "carry"})
    board = phone.start(players=("Enda", "John", "Rex"), dealer="Rex")
    phone.enter({"Enda": "J 10", "John": "A 3", "Rex": "2 9"})  # the pot: 20 + 15

    default = html(phone.client.get(f"{board}/settle"))
    assert finish_choice(default) == "carry"
    phone.client.post(f"{board}/pot", data={"pot": "refund"})
    page = html(phone.client.get(f"{board}/settle"))
    assert settle_lines(page) != settle_lines(default)
    assert finish_choice(page) == "refund"
    assert set(balances_after_paying(page).values()) == {0}

    phone.client.post(f"{board}/finish", data={"leftover_pot": "refund"})
    after = html(phone.client.get(f"{board}/settle"))
    assert settle_lines(after) == settle_lines(page)
    assert copied(after) == copied(page)
    assert "In the pot: 5 units (€0.05)" in after  # Finn's ante from the first night


def test_finishing_after_another_phone_saved_a_hand_shows_the_new_payments_first(app, phone):
    board = phone.start()
    phone.enter(HAND_1)
    settle = html(phone.client.get(f"{board}/settle"))
    shown = re.search(r'name="version" value="(\d+)"', settle).group(1)
    phone.enter(HAND_2, out="Enda")  # another phone's hand, while this one looks at the list
    response = phone.client.post(
        f"{board}/finish", data={"leftover_pot": "carry", "version": shown}
    )
    assert response.status_code == 302
    page = html(phone.client.get(response.headers["Location"]))
    assert "the night is not finished yet" in page
    assert phone.client.get(f"{board}/version.json").get_json()["status"] == "open"
    assert "Finn pays Enda €0.38" in page  # the payments after hand 2, not after hand 1
    now = re.search(r'name="version" value="(\d+)"', page).group(1)
    again = phone.client.post(f"{board}/finish", data={"leftover_pot": "carry", "version": now})
    assert again.status_code == 302
    assert phone.client.get(f"{board}/version.json").get_json()["status"] == "finished"


def test_a_points_game_is_not_ended_on_scores_the_phone_has_not_seen(phone):
    board = phone.start(game="rummy", dealer="Enda")
    shown = re.search(r'name="version" value="(\d+)"', html(phone.client.get(board))).group(1)
    phone.enter({"Enda": "", "John": "K Q", "Rex": "5", "Finn": "A 2"}, out="Enda")
    response = phone.client.post(f"{board}/finish", data={"version": shown})
    assert "the game is not ended" in html(phone.client.get(response.headers["Location"]))
    assert phone.client.get(f"{board}/version.json").get_json()["status"] == "open"


def _undo_form(page: str) -> dict[str, str]:
    """What the scoreboard's undo button posts: the hand it names and the version shown."""
    form = re.search(r'<form[^>]*action="[^"]*/undo"[^>]*>(.*?)</form>', page, re.S)
    assert form, page
    return dict(re.findall(r'type="hidden" name="(\w+)" value="([^"]*)"', form.group(1)))


def test_a_stale_undo_never_takes_back_a_hand_another_phone_entered(app, phone):
    """Issue 38: the undo sent only the hand's number: after another phone took hand 2 back
    and entered a new hand 2, a tap on a page still showing the old one removed the new one."""
    board = phone.start()
    phone.enter(HAND_1)
    phone.enter(HAND_2, out="Enda")
    other = _second_phone(app, phone)
    stale = _undo_form(html(other.client.get(board)))
    assert stale["number"] == "2"
    assert phone.client.post(board + "/undo", data=_undo_form(html(phone.client.get(board))))
    phone.enter({"Enda": "K", "John": "", "Rex": "7 7", "Finn": "Q"}, out="John")  # a new hand 2

    refused = other.client.post(f"{board}/undo", data=stale, follow_redirects=True)

    assert "Nothing is undone: the session changed on another phone" in html(refused)
    assert _hands_played(phone) == 2
    assert "John" in html(phone.client.get(f"{board}/hands/2"))  # the new hand 2 is kept
    fresh = _undo_form(html(other.client.get(board)))
    undone = other.client.post(f"{board}/undo", data=fresh, follow_redirects=True)
    assert "Hand 2 is undone." in html(undone)
    assert _hands_played(phone) == 1
