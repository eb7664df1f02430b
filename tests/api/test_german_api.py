"""German card letters through the API (RULES.md §20): ``"cards_language": "de"`` reads Dame,
Bube and the suits kr, pi, he, ka, stores the one English notation, and a German page shows
them back with the German letters."""

from __future__ import annotations

from tests.api.helpers import error


def test_german_letters_are_read_with_cards_language_de_and_stored_in_english(table):
    sid = table.session()["id"]
    hand = {
        "cards_language": "de",
        "results": [
            {"player": "Enda", "cards": "B 10"},
            {"player": "John", "cards": "A 3"},
            {"player": "Rex", "cards": "2 9"},
            {"player": "Finn", "cards": "Dhe Kkr"},
        ],
    }
    saved = table.hand(sid, hand)
    assert saved["results"][3]["cards"] == ["QH", "KC"]
    assert saved["results"][0]["cards"] == ["J", "10"]
    stored = table.ok("GET", f"/sessions/{sid}/hands")[0]["entry"]
    assert [r["cards"] for r in stored["results"]] == ["J 10", "A 3", "2 9", "QH KC"]
    # John's 4 is lowest: Enda pays 20, Rex 11, Finn 20 (the queen and the king 10 each).
    assert table.ok("GET", f"/sessions/{sid}")["scores"]["John"] == 51 - 5


def test_a_german_suit_without_cards_language_is_refused_saying_it_is_german(table):
    sid = table.session()["id"]
    hand = {
        "results": [
            {"player": "Enda", "cards": "J 10"},
            {"player": "John", "cards": "A 3"},
            {"player": "Rex", "cards": "2 9"},
            {"player": "Finn", "cards": "Dhe K"},
        ],
    }
    message = error(table.post(f"/sessions/{sid}/hands", hand), 422, "results[3].cards")
    assert "German" in message
    assert table.ok("GET", f"/sessions/{sid}")["hands_played"] == 0
