"""A night that is a run of games (``Game.night_of_games``: Cribbage) is ended, over and opened
again as "the night" on the shared pages; a night of one game still says "the game". No game's
key is asked: the game says which it is."""

from __future__ import annotations

from tests.web.pages import Phone, hidden_fields, html
from tests.web.test_new_games_pages import words


def _ended(client, game: str, players: tuple[str, ...], **options: str) -> tuple[str, str, str]:
    """The scoreboard before and after ending the night at the table, and its history."""
    phone = Phone(client)
    phone.create_group()
    phone.start(game, players, players[0], **options)
    before = html(phone.client.get(phone.board))
    form = before.split(f'action="{phone.board}/finish"')[1].split("</form>")[0]
    finished = phone.client.post(f"{phone.board}/finish", data=hidden_fields(form))
    assert finished.status_code == 302
    after = html(phone.client.get(phone.board))
    history = words(html(phone.client.get(f"{phone.board}/history")))
    return before, after, history


def test_a_cribbage_night_is_ended_as_a_night(client):
    before, after, history = _ended(client, "cribbage", ("Ann", "Bob"), target="61")
    assert "End the night here" in words(before) and "End the game here" not in before
    assert 'data-confirm="End the night here? No more hands can be added."' in before
    assert "The night is over." in words(after) and "The game is over" not in after
    assert "Open the night again" in words(after) and "Open the game again" not in after
    assert "The night was ended at the table." in history


def test_a_night_of_one_game_still_ends_the_game(client):
    before, after, history = _ended(client, "tally", ("Ann", "Bob", "Cas"))
    assert "End the game here" in words(before) and "End the night here" not in before
    assert "The game is over." in words(after) and "Open the game again" in words(after)
    assert "The game was ended at the table." in history


def test_a_hand_posted_to_an_ended_cribbage_night_is_refused_as_a_night(client):
    phone = Phone(client)
    phone.create_group()
    phone.start("cribbage", ("Ann", "Bob"), "Ann", target="61")
    board = html(phone.client.get(phone.board))
    form = board.split(f'action="{phone.board}/finish"')[1].split("</form>")[0]
    phone.client.post(f"{phone.board}/finish", data=hidden_fields(form))
    refused = phone.client.get(f"{phone.board}/hands/new", follow_redirects=True)
    assert "The night is over: no more hands can be added." in words(html(refused))
