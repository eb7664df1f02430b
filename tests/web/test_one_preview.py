"""Every game's preview takes one path (issues 48 and 49): ``Game.preview`` on the state before
the hand, asked by the form posted with ``preview`` or by ``…/hands/count`` as JSON, for
Cribbage's counts box by box and Skat's value of the whole deal alike; nothing is saved."""

from __future__ import annotations

from ledger.rules import GAMES, Game
from tests.web import test_cribbage_pages as crib
from tests.web import test_skat_pages as skat
from tests.web.pages import Phone, html
from tests.web.test_new_games_pages import board, words


def test_one_preview_seam_on_every_game():
    assert not hasattr(Game, "preview_entry")
    for game in GAMES.values():
        assert not hasattr(game, "preview_entry"), game.key


def _phone(client, game: str, seats, dealer: str, **options: str) -> Phone:
    phone = Phone(client)
    phone.create_group()
    phone.start(game, seats, dealer, **options)
    return phone


def test_cribbages_counts_come_with_the_form_posted_for_a_preview(client):
    phone = _phone(client, "cribbage", ("Ann", "Bob"), "Ann", target="61")
    starter, shows, _crib = crib.WORKED[0]
    page = html(crib.post(phone, starter, shows, "2D 3D KS", status=200, preview="1"))

    def count(box: str) -> str:
        return words(page.split(f'id="{box}" aria-live="polite">')[1].split("</p>")[0])

    counted = {count("count-0"), count("count-1")}
    assert "13 — 15-2, 15-4, a run of 5 is 9, a flush is 13" in counted
    assert any(c.startswith("21 — 15-2") and c.endswith("nobs is 21") for c in counted)
    assert count("count-crib") == ""  # three cards: nothing to count yet
    assert "Hand 1 entered" not in words(html(phone.client.get(f"{phone.board}/history")))


def test_skats_value_comes_as_json_from_the_same_path(client):
    phone = _phone(client, "skat", skat.SEATS, "Cas")
    query = {f"results-{i}-player": name for i, name in enumerate(skat.SEATS)}
    asked = phone.client.get(f"{phone.board}/hands/count", query_string={**query, **skat.WORKED[2]})
    assert asked.status_code == 200
    assert asked.get_json() == {"said": ["With 1, game 2, hand 3 × 10 = 30: overbid at 40"]}
    refused = phone.client.get(
        f"{phone.board}/hands/count", query_string={**query, **skat.WORKED[0], "bid": "19"}
    )
    assert refused.status_code == 422
    assert "18 is the lowest bid; 19 is no game's value." in refused.get_json()["errors"]
    assert "0 of 36 deals played" in board(phone)


def test_a_corrected_deal_is_previewed_on_the_state_before_it(client):
    phone = _phone(client, "skat", skat.SEATS, "Cas")
    for deal in skat.WORKED[:2]:
        skat.post(phone, deal)
    query = {f"results-{i}-player": name for i, name in enumerate(skat.SEATS)}
    asked = phone.client.get(
        f"{phone.board}/hands/count", query_string={**query, **skat.WORKED[2], "number": "1"}
    )
    assert asked.get_json() == {"said": ["With 1, game 2, hand 3 × 10 = 30: overbid at 40"]}
    assert "2 of 36 deals played" in board(phone)


def test_a_game_without_a_preview_has_none(client):
    phone = _phone(client, "spot", ("Ann", "Bob"), "Ann")
    assert phone.client.get(f"{phone.board}/hands/count").status_code == 404
    mistyped = {"results-0-player": "Ann", "results-0-cards": "ZZ", "out": "Bob"}
    asked = phone.client.get(f"{phone.board}/hands/count", query_string=mistyped)
    assert asked.status_code == 404  # nothing to show, whatever was typed
