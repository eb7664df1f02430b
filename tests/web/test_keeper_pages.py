"""The pot keeper and points games for money on the pages (issue 14): who the finish page
proposes, where a refund's odd unit goes, and a Rummy game's money on its scoreboard."""

from __future__ import annotations

import pytest

from ledger.rules.payout import STAKE
from ledger.rules.registry import GAMES
from tests.web.pages import HAND_1, Phone, html, table_of_four


@pytest.fixture
def phone(client) -> Phone:
    return table_of_four(client)


# Nobody out; Enda (A 3) and John (2 2) tie on 4 and share what Rex (K, 10) and Finn (9 2, 11)
# pay: 21 units, 10 each, and the odd unit goes into the pot, which grows to 21.
TIE = {"Enda": "A 3", "John": "2 2", "Rex": "K", "Finn": "9 2"}


def test_on_equal_balances_the_page_proposes_the_first_from_the_dealers_left(phone):
    board = phone.start()  # Finn deals hand 1; the deal passes right, so Rex deals next
    phone.enter(TIE)

    page = html(phone.client.get(f"{board}/settle?pot=carry"))

    # Enda and John are both up 5; from Rex's left the order is Finn, Enda, John, Rex.
    assert '<option value="Enda" selected>Enda</option>' in page
    assert "Enda keeps the pot of €0.21 for the next Spot night" in page
    assert "into the pot" not in page


def test_a_keeper_picked_on_the_page_is_paid_the_pot_and_finishing_keeps_it(phone):
    board = phone.start()
    phone.enter(HAND_1)

    phone.client.post(f"{board}/pot", data={"pot": "carry", "keeper": "Rex"})
    page = html(phone.client.get(f"{board}/settle"))
    assert '<option value="Rex" selected>Rex</option>' in page
    assert '<input type="hidden" name="pot_keeper" value="Rex">' in page
    assert "Rex keeps the pot of €0.20 for the next Spot night" in page

    done = phone.client.post(f"{board}/finish", data={"leftover_pot": "carry", "pot_keeper": "Rex"})
    assert done.status_code == 302
    assert done.headers["Location"].endswith("/settle")
    board_page = html(phone.client.get(board))
    assert "Rex keeps the pot of €0.20 for the next Spot night" in board_page

    following = phone.start()
    assert "Rex brought the pot of 20 from Spot #1" in html(phone.client.get(following))


def test_a_keeper_who_is_not_a_player_is_refused_and_the_night_stays_open(phone):
    board = phone.start()
    phone.enter(HAND_1)

    done = phone.client.post(
        f"{board}/finish",
        data={"leftover_pot": "carry", "pot_keeper": "Stranger"},
        follow_redirects=True,
    )

    assert "Stranger is not a player in this session" in html(done)
    assert "Finish the night" in html(phone.client.get(f"{board}/settle"))


def test_a_refund_that_cannot_share_the_pot_evenly_says_where_the_odd_unit_goes(phone):
    board = phone.start(leftover_pot="refund")
    phone.enter(TIE)

    page = html(phone.client.get(f"{board}/settle?pot=refund"))

    # The antes (5 each) go back; the one unit more cannot be shared among four.
    sentence = (
        "The 1 unit that could not be shared evenly stays in the pot for the next Spot night."
    )
    assert sentence in page
    phone.client.post(f"{board}/finish", data={"leftover_pot": "refund"})
    assert sentence in html(phone.client.get(f"{board}/settle"))


def test_rummy_for_money_shows_the_money_when_the_game_is_over(phone):
    board = phone.start(
        game="rummy", players=("Enda", "John"), dealer="Enda", stake="2", target="30"
    )
    assert "Played for 2 units a point (€0.02)." in html(phone.client.get(board))
    phone.enter({"John": "K Q J"}, out="Enda")  # Enda scores 30: the game is over

    page = html(phone.client.get(board))
    assert "€0.60" in page and "-€0.60" in page
    settle = html(phone.client.get(f"{board}/settle"))
    assert "John pays Enda €0.60" in settle


def test_the_new_session_page_offers_a_stake_for_the_points_games(phone):
    page = html(phone.client.get(f"/g/{phone.slug}/s/new"))

    # Every game the registry has that may be played for a stake (RULES.md §7), and no other.
    for key, game in GAMES.items():
        assert (f'id="opt-{key}-stake"' in page) == (STAKE in game.options)
        # Who is paid is §7's choice; a stake a game won (Cribbage, §17) has none.
        paid_by_points = STAKE in game.options and not game.stake_per_game
        assert (f'id="opt-{key}-payout"' in page) == paid_by_points
    assert STAKE in GAMES["spots"].options and STAKE not in GAMES["spot"].options
    assert "Stake: units a point (0: not for money)" in page
