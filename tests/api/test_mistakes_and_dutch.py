"""A hand's 422 lists every problem (API.md "Additions"), and ``cards_language`` reads Dutch."""

from __future__ import annotations

import pytest

from tests.api.helpers import SEED_HAND_1, error
from tests.api.test_hands import everything


@pytest.fixture
def sid(table) -> int:
    return table.session()["id"]


THREE_MISTAKES = {
    "results": [
        {"player": "Enda", "cards": "J 1"},
        {"player": "John", "cards": "A 3"},
        {"player": "Rex", "cards": "2 11"},
        {"player": "Finn", "cards": "Q Q Q Q Q Q Q Q Q"},
    ]
}


def test_a_refused_hand_lists_every_problem_and_stores_nothing(table, sid):
    before = everything(table, sid)
    response = table.post(f"/sessions/{sid}/hands", THREE_MISTAKES)
    message = error(response, 422, "results[0].cards")
    body = response.get_json()
    assert [p["field"] for p in body["errors"]] == [
        "results[0].cards",
        "results[2].cards",
        "results[3].cards",
    ]
    assert body["errors"][0] == {"message": message, "field": "results[0].cards"}
    assert body["errors"][1]["message"].startswith("Rex: '11' is not a card")
    assert body["errors"][2]["message"].startswith("Finn has 9 cards")
    assert everything(table, sid) == before


def test_the_deck_check_across_players_comes_after_their_own_problems(table, sid):
    hand = {
        "results": [
            {"player": "Enda", "cards": "QS 10"},
            {"player": "John", "cards": "A x"},
            {"player": "Rex", "cards": "QS 9"},
            {"player": "Finn", "cards": "K"},
        ]
    }
    body = table.post(f"/sessions/{sid}/hands", hand).get_json()
    assert body["errors"] == [
        body["error"],
        {"message": "Two players both have the Q♠ (Enda, Rex).", "field": "results[0].cards"},
        # John's 'x' hides none of his cards that did read: he holds no Q♠ here.
    ]
    assert body["error"]["field"] == "results[1].cards"


def test_a_bad_token_a_card_held_twice_and_a_hand_left_empty_come_in_one_answer(table, sid):
    """Issue 29: '11' beside the K♥, the K♥ in another hand and an empty hand not marked out
    took three saves; now one 422 names all three, and nothing is stored."""
    before = everything(table, sid)
    hand = {
        "results": [
            {"player": "Enda", "cards": "11 KH 3C"},
            {"player": "John", "cards": "KH 5D"},
            {"player": "Rex", "cards": ""},
            {"player": "Finn", "cards": "4S"},
        ]
    }
    response = table.post(f"/sessions/{sid}/hands", hand)
    error(response, 422, "results[0].cards")
    messages = [p["message"] for p in response.get_json()["errors"]]
    assert messages[0].startswith("Enda: '11' is not a card")
    assert messages[1].startswith("Rex has no cards left: only the player who went out")
    assert messages[2] == "Two players both have the K♥ (Enda, John)."
    assert len(messages) == 3
    assert everything(table, sid) == before


def test_a_correction_lists_every_problem_too(table, sid):
    table.hand(sid, SEED_HAND_1)
    before = everything(table, sid)
    response = table.put(f"/sessions/{sid}/hands/1", THREE_MISTAKES)
    error(response, 422, "results[0].cards")
    assert len(response.get_json()["errors"]) == 3
    assert everything(table, sid) == before


def test_a_one_problem_hand_lists_that_one(table, sid):
    response = table.post(f"/sessions/{sid}/hands", {**SEED_HAND_1, "out": "Nobody"})
    error(response, 422, "out")
    assert len(response.get_json()["errors"]) == 1


def test_a_refusal_that_is_not_a_hand_has_no_list(table):
    response = table.post(
        f"/groups/{table.slug}/sessions",
        {"game": "spot", "players": ["Enda", "John"], "dealer": "Finn"},
    )
    error(response, 422, "dealer")
    assert "errors" not in response.get_json()


def test_dutch_letters_are_read_with_cards_language_nl_and_stored_in_english(table, sid):
    hand = {
        "cards_language": "nl",
        "results": [
            {"player": "Enda", "cards": "B 10"},
            {"player": "John", "cards": "A 3"},
            {"player": "Rex", "cards": "2 9"},
            {"player": "Finn", "cards": "Vh Hk"},
        ],
    }
    saved = table.hand(sid, hand)
    assert saved["results"][3]["cards"] == ["QH", "KC"]
    assert saved["results"][0]["cards"] == ["J", "10"]
    stored = table.ok("GET", f"/sessions/{sid}/hands")[0]["entry"]
    assert [r["cards"] for r in stored["results"]] == ["J 10", "A 3", "2 9", "QH KC"]
    assert table.ok("GET", f"/sessions/{sid}")["scores"]["John"] == 51 - 5


def test_dutch_letters_without_cards_language_say_they_are_dutch(table, sid):
    hand = {
        **SEED_HAND_1,
        "results": [*SEED_HAND_1["results"][:3], {"player": "Finn", "cards": "V H"}],
    }
    body = table.post(f"/sessions/{sid}/hands", hand).get_json()
    assert [p["field"] for p in body["errors"]] == ["results[3].cards"] * 2
    assert all("Dutch letters" in p["message"] for p in body["errors"])


@pytest.mark.parametrize("value", ["fr", "NL", "DE", "", 1, True, ["nl"], {"nl": 1}])
def test_a_cards_language_other_than_en_nl_or_de_is_refused_naming_it(table, sid, value):
    before = everything(table, sid)
    response = table.post(f"/sessions/{sid}/hands", {**SEED_HAND_1, "cards_language": value})
    message = error(response, 422, "cards_language")
    assert '"en", "nl" or "de"' in message
    assert everything(table, sid) == before


def test_cards_language_en_is_english(table, sid):
    table.hand(sid, {**SEED_HAND_1, "cards_language": "en"})
    assert table.ok("GET", f"/sessions/{sid}")["hands_played"] == 1
