"""A phone at the table, driven through the pages with the Flask test client."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from flask.testing import FlaskClient
from werkzeug.test import TestResponse

PASSPHRASE = "pints4all"


def html(response: TestResponse) -> str:
    return response.get_data(as_text=True)


def hidden_fields(page: str) -> dict[str, str]:
    """A form's own hidden fields (request id, version…), as a phone would post them back."""
    return dict(re.findall(r'name="(\w+)" type="hidden" value="([^"]*)"', page))


@dataclass
class Phone:
    """One browser: its own cookie jar, signed in to the groups it opened."""

    client: FlaskClient
    slug: str = ""
    session_id: int = 0
    seats: list[str] = field(default_factory=list)

    def create_group(self, name: str = "Thursday crowd", passphrase: str = PASSPHRASE) -> str:
        response = self.client.post(
            "/groups", data={"create-name": name, "create-passphrase": passphrase}
        )
        assert response.status_code == 302, html(response)
        self.slug = response.headers["Location"].split("/g/")[1].split("?")[0]
        return self.slug

    def add_players(self, *names: str) -> None:
        for name in names:
            response = self.client.post(f"/g/{self.slug}/players", data={"name": name})
            assert response.status_code == 302, html(response)

    def start(
        self,
        game: str = "spot",
        players: tuple[str, ...] = ("Enda", "John", "Rex", "Finn"),
        dealer: str = "Finn",
        **options: Any,
    ) -> str:
        """A new session; the players are named in seat order (new names join the group)."""
        data: dict[str, Any] = {
            "game": game,
            "order": list(players),
            "seated": list(players),
            "dealer": dealer,
        }
        data |= {f"opt-{game}-{k}": str(v) for k, v in options.items()}
        response = self.client.post(f"/g/{self.slug}/s/new", data=data)
        assert response.status_code == 302, html(response)
        location = response.headers["Location"]
        self.session_id = int(location.rsplit("/", 1)[1])
        self.seats = list(players)
        return location

    @property
    def board(self) -> str:
        return f"/g/{self.slug}/s/{self.session_id}"

    def hand_form(self, cards: dict[str, str], out: str | None = None, **extra: Any) -> dict:
        """The fields the hand form posts: one row per seated player, in seat order."""
        data: dict[str, Any] = {"out": out or ""}
        for i, name in enumerate(self.seats):
            data[f"results-{i}-player"] = name
            value = cards.get(name, "")
            if value == "sitting out":
                data[f"results-{i}-sitting_out"] = "y"
            elif isinstance(value, int):
                data[f"results-{i}-spots"] = str(value)
            else:
                data[f"results-{i}-cards"] = value
        data.update(extra)
        return data

    def enter(self, cards: dict[str, str], out: str | None = None, **extra: Any) -> TestResponse:
        return self.client.post(f"{self.board}/hands/new", data=self.hand_form(cards, out, **extra))

    def hidden(self, path: str) -> dict[str, str]:
        """The hidden fields of the form at ``path`` as this phone loaded it."""
        return hidden_fields(html(self.client.get(path)))

    def request_id(self) -> str:
        page = html(self.client.get(f"{self.board}/hands/new"))
        match = re.search(r'name="request_id" type="hidden" value="([0-9a-f]+)"', page)
        assert match, page
        return match.group(1)


def table_of_four(client: FlaskClient) -> Phone:
    """A phone signed in to a new group with the four players of the seed hands."""
    phone = Phone(client)
    phone.create_group()
    phone.add_players("Enda", "John", "Rex", "Finn")
    return phone


HAND_1 = {"Enda": "J 10", "John": "A 3", "Rex": "2 9", "Finn": "Q K"}
HAND_2 = {"John": "5 5 6", "Rex": "K", "Finn": "3 5"}
