"""Nights named by game and number on the pages, an Any game by its name (issue 36): Hearts
and Whist are two games on the leaderboard, a player's page and the scoreboard, never "Any
game", and each is numbered on its own ("Whist #1" after a Hearts night)."""

from __future__ import annotations

import base64
import re
from html import unescape

from tests.web.pages import PASSPHRASE, Phone, html, table_of_four


def say(page: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", page)).split())


def api(phone: Phone, method: str, path: str, body=None):
    token = base64.b64encode(f"{phone.slug}:{PASSPHRASE}".encode()).decode()
    response = phone.client.open(
        f"/api/v1{path}", method=method, json=body, headers={"Authorization": f"Basic {token}"}
    )
    assert response.status_code < 300, response.get_json()
    return response.get_json()


def a_night_of(phone: Phone, name: str, scored: dict[str, int]) -> str:
    board = phone.start(game="tally", players=("Enda", "John"), dealer="Enda", name=name)
    results = [{"player": p, "points": n} for p, n in scored.items()]
    api(phone, "POST", f"/sessions/{phone.session_id}/hands", {"results": results})
    api(phone, "POST", f"/sessions/{phone.session_id}/finish", {})
    return board


def test_hearts_and_whist_are_two_games_on_every_page(client):
    phone = table_of_four(client)
    hearts = a_night_of(phone, "Hearts", {"Enda": 62, "John": 40})
    whist = a_night_of(phone, "Whist", {"Enda": 7, "John": 9})

    assert "<h1>Whist #1</h1>" in html(phone.client.get(whist))
    assert "<h1>Hearts #1</h1>" in html(phone.client.get(hearts))
    group = say(html(phone.client.get(f"/g/{phone.slug}?period=all")))
    assert "Hearts #1" in group and "Whist #1" in group
    points = group.split("Points by game")[1].split("Points are added up")[0]
    assert "Hearts" in points and "Whist" in points
    assert "Any game" not in points and "69" not in points  # 62 and 7, never added

    enda = say(html(phone.client.get(f"/g/{phone.slug}/p/Enda")))
    assert "Hearts #1" in enda and "Whist #1" in enda
    assert "Any game" not in enda


def test_the_settle_up_and_a_deleted_night_are_named_by_number(client):
    phone = table_of_four(client)
    a_night_of(phone, "Whist", {"Enda": 7, "John": 9})
    board = phone.start()  # Spot #1, though it is the group's second night
    settle = say(html(phone.client.get(f"{board}/settle")))
    assert "Back to the scoreboard of Spot #1" in settle
    assert "Spot #1: settling up" in settle

    gone = phone.client.post(f"{board}/delete", follow_redirects=True)
    assert "Spot #1 is deleted." in say(html(gone))
