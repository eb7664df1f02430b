"""Boerenbridge's bids and tricks screens and Klaverjassen's wij/zij sheet, driven through the
pages as a phone posts them (tests/e2e plays them in Chromium with the scripts on)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.rules.test_boerenbridge import SEATS, WORKED
from tests.web.pages import Phone, hidden_fields, html
from tests.web.test_new_games_pages import board, words


@pytest.fixture
def phone(client) -> Phone:
    phone = Phone(client)
    phone.create_group()
    return phone


def post(phone: Phone, path: str, rows: dict[str, dict[str, Any]], status: int = 302, **more: Any):
    data: dict[str, Any] = {**hidden_fields(html(phone.client.get(f"{phone.board}/hands/new")))}
    for i, name in enumerate(phone.seats):
        data[f"results-{i}-player"] = name
        for box, value in rows.get(name, {}).items():
            data[f"results-{i}-{box}"] = str(value)
    data.update(more)
    response = phone.client.post(f"{phone.board}/hands/{path}", data=data)
    assert response.status_code == status, words(html(response))[:2000]
    return response


def test_boerenbridge_bids_then_tricks_through_the_worked_example(phone):
    phone.start("boerenbridge", SEATS, "Ann", max_cards="4")
    for number, (bids, tricks, _points) in enumerate(WORKED, start=1):
        form = words(html(phone.client.get(f"{phone.board}/hands/new")))
        assert "Save the bids" in form and "Tricks –" not in form
        post(phone, "call/bids", {p: {"bid": n} for p, n in bids.items()})
        seen = board(phone)
        assert f"Round {number}:" in seen
        form = words(html(phone.client.get(f"{phone.board}/hands/new")))
        assert "Tricks –" in form and "Bid –" not in form
        post(phone, "new", {p: {"tricks": tricks.get(p, 0)} for p in SEATS})
    history = words(html(phone.client.get(f"/g/{phone.slug}/s/{phone.session_id}/history")))
    assert "Bids saved for round 4: Ann 1, Bob 2, Cas 0, Dee 0." in history
    seen = board(phone)
    assert "A round of one card. Ann bid 0 and took 0: +10. Bob bid 1 and took 1: +12." in seen
    assert "Winner: Cas" in seen
    assert "54" in seen and "48" in seen


def test_boerenbridge_the_dealers_forbidden_bid_is_refused_beside_the_dealer(phone):
    phone.start("boerenbridge", SEATS, "Ann", max_cards="4")
    for bids, tricks, _ in WORKED[:3]:
        post(phone, "call/bids", {p: {"bid": n} for p, n in bids.items()})
        post(phone, "new", {p: {"tricks": tricks.get(p, 0)} for p in SEATS})
    form = words(html(phone.client.get(f"{phone.board}/hands/new")))
    assert "Dee deals and bids last: the bids may not add up to 4." in form
    response = post(phone, "call/bids", {"Ann": {"bid": 1}, "Bob": {"bid": 2}, "Cas": {"bid": 0},
                                         "Dee": {"bid": 1}}, status=422)  # fmt: skip
    said = words(html(response))
    assert "Dee deals and may not bid 1: the bids would add up to 4, the round's cards." in said


def test_boerenbridge_bids_and_tricks_at_once(phone):
    phone.start("boerenbridge", SEATS, "Ann", max_cards="4")
    form = words(html(phone.client.get(f"{phone.board}/hands/new?both=1")))
    assert "Bid –" in form and "Tricks –" in form
    bids, tricks, _ = WORKED[0]
    post(phone, "new", {p: {"bid": bids[p], "tricks": tricks.get(p, 0)} for p in SEATS})
    assert "Round 2:" in board(phone)


def klaver(playing: str, points: str, roem1: str = "", roem2: str = "", pit: str = "") -> dict:
    return {"playing": playing, "points": points, "roem-1": roem1, "roem-2": roem2, "pit": pit}


def test_klaverjassen_the_worked_example_on_the_wij_zij_sheet(phone):
    phone.start("klaverjassen", SEATS, "Dee")
    form = words(html(phone.client.get(f"{phone.board}/hands/new")))
    assert "Who played?" in form and "Ann & Cas" in form and "Bob & Dee" in form
    post(phone, "new", {}, **klaver("1", "100", roem1="20"))
    post(phone, "new", {}, **klaver("2", "70", roem1="20", roem2="50"))
    post(phone, "new", {}, **klaver("1", "70", roem1="20"))
    post(phone, "new", {}, **klaver("2", "", roem2="40", pit="2"))
    seen = board(phone)
    assert "Wij / zij" in seen
    assert "182 nat" not in seen and "0 nat" in seen and "302 pit" in seen
    assert "Total 232 666" in seen
    assert (
        "Ann & Cas played: 70 card points and 20 roem against 92 and 0. Nat: Bob & Dee score 182."
        in seen
    )
    assert "Pit: Bob & Dee took every trick." in seen


def test_klaverjassen_a_wrong_number_is_said_and_nothing_is_saved(phone):
    phone.start("klaverjassen", SEATS, "Dee")
    response = post(phone, "new", {}, status=422, **klaver("1", "170"))
    assert "Card points are 0 to 162: 170 is not." in words(html(response))
    response = post(phone, "new", {}, status=422, **klaver("", "100"))
    assert "Say which team played." in words(html(response))
    assert "Wij / zij" in board(phone) and "Total 0 0" in board(phone)


def test_the_new_session_page_seats_klaverjassen_partners_opposite(phone):
    page = words(html(phone.client.get(f"/g/{phone.slug}/s/new")))
    assert "Partners sit opposite: seats 1 and 3 play together against seats 2 and 4." in page
