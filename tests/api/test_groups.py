"""Games, groups and players: GET /games, POST /groups, GET /groups/<slug>, POST players."""

from __future__ import annotations

from ledger.rules.registry import GAMES
from tests.api.helpers import PASSPHRASE, Table, basic, error


def test_the_games_are_offered_with_their_player_counts_and_option_defaults(client):
    response = client.get("/api/v1/games")

    assert response.status_code == 200
    games = {g["key"]: g for g in response.get_json()}
    assert list(games) == list(GAMES)  # every game the engine registers, in its order
    assert set(games) >= {"spot", "spots", "rummy", "spin", "gin", "rummy500", "kaluki"}
    for key, game in GAMES.items():
        assert games[key]["options"] == game.defaults()
        assert (games[key]["min_players"], games[key]["max_players"]) == (
            game.min_players, game.max_players,
        )  # fmt: skip
    spot = games["spot"]
    assert (spot["name"], spot["min_players"], spot["max_players"]) == ("Spot", 2, 6)
    assert spot["options"]["ante"] == 5
    assert spot["options"]["unit_value"] == "0.01"
    assert games["spots"]["options"]["entry"] == "cards"
    assert (games["spin"]["min_players"], games["spin"]["max_players"]) == (1, 2)


def test_a_new_group_gets_a_url_safe_slug_from_its_name(client):
    response = client.post(
        "/api/v1/groups", json={"name": "The Thursday Crowd!", "passphrase": PASSPHRASE}
    )

    assert response.status_code == 201
    body = response.get_json()
    assert body["name"] == "The Thursday Crowd!"
    assert body["slug"].startswith("the-thursday-crowd-")
    assert body["slug"].replace("-", "").isalnum()


def test_two_groups_of_the_same_name_get_different_slugs(client):
    first = Table(client, "Darts")
    second = Table(client, "Darts")
    assert first.slug != second.slug


def test_a_group_needs_a_name_and_a_passphrase_of_eight_characters(client):
    short = client.post("/api/v1/groups", json={"name": "Snug", "passphrase": "seven77"})
    assert "8 characters" in error(short, 422, "passphrase")
    error(client.post("/api/v1/groups", json={"name": "Snug"}), 422, "passphrase")
    no_name = client.post("/api/v1/groups", json={"name": "  ", "passphrase": PASSPHRASE})
    error(no_name, 422, "name")
    error(client.post("/api/v1/groups", json={"passphrase": PASSPHRASE}), 422, "name")


def test_a_group_body_of_the_wrong_shape_is_a_bad_request(client):
    error(client.post("/api/v1/groups", data="{not json", content_type="application/json"), 400)
    error(client.post("/api/v1/groups", json=["Snug", PASSPHRASE]), 400)
    error(client.post("/api/v1/groups", json={"name": 7, "passphrase": PASSPHRASE}), 422, "name")


def test_the_group_lists_its_players_by_name_and_its_sessions(table):
    table.ok("POST", f"/groups/{table.slug}/players", {"name": "Rex"}, 201)
    table.session(["Enda", "Rex"], dealer="Enda")

    group = table.ok("GET", f"/groups/{table.slug}")

    assert group["slug"] == table.slug
    assert group["name"] == "Thursday Crowd"
    assert [p["name"] for p in group["players"]] == ["Enda", "Rex"]
    assert all(isinstance(p["id"], int) for p in group["players"])
    [session] = group["sessions"]
    assert (session["game"], session["status"]) == ("spot", "open")
    assert session["started_at"].endswith("Z")


def test_a_player_is_added_once_whatever_the_case_of_the_name(table):
    added = table.ok("POST", f"/groups/{table.slug}/players", {"name": " Enda "}, 201)
    assert added["name"] == "Enda"

    again = table.post(f"/groups/{table.slug}/players", {"name": "ENDA"})

    assert "already a player called Enda" in error(again, 409, "name")
    assert [p["name"] for p in table.ok("GET", f"/groups/{table.slug}")["players"]] == ["Enda"]


def test_a_player_needs_a_name(table):
    error(table.post(f"/groups/{table.slug}/players", {"name": ""}), 422, "name")
    error(table.post(f"/groups/{table.slug}/players", {}), 422, "name")
    error(table.post(f"/groups/{table.slug}/players", {"name": "x" * 41}), 422, "name")
    error(table.post(f"/groups/{table.slug}/players", {"name": ["Enda"]}), 422, "name")


# --- Access ------------------------------------------------------------------------------------


def test_without_credentials_the_group_asks_for_basic_auth(table, client):
    response = client.get(f"/api/v1/groups/{table.slug}")

    error(response, 401)
    assert response.headers["WWW-Authenticate"] == 'Basic realm="Pub Ledger"'


def test_a_wrong_passphrase_or_an_unknown_group_is_401(table):
    wrong = table.get(f"/groups/{table.slug}", headers=basic(table.slug, "not the one"))
    error(wrong, 401)
    assert wrong.headers["WWW-Authenticate"] == 'Basic realm="Pub Ledger"'
    assert table.slug not in wrong.get_data(as_text=True)
    unknown = table.get("/groups/nobody", headers=basic("nobody", PASSPHRASE))
    error(unknown, 401)


def test_another_groups_page_is_not_found_with_good_credentials(table, other):
    response = other.get(f"/groups/{table.slug}")
    assert "There is no group" in error(response, 404)
    assert "Thursday Crowd" not in response.get_data(as_text=True)


def test_five_wrong_passphrases_are_refused_then_the_group_waits_with_429(table):
    wrong = basic(table.slug, "a wrong guess")
    for _ in range(5):
        error(table.get(f"/groups/{table.slug}", headers=wrong), 401)

    response = table.get(f"/groups/{table.slug}", headers=wrong)

    message = error(response, 429)
    seconds = int(response.headers["Retry-After"])
    assert 0 < seconds <= 300
    assert message == (
        f"Too many wrong passphrases for this group; try again in {seconds} seconds."
    )
    # The right passphrase needs a slow check too, so it waits as well…
    error(table.get(f"/groups/{table.slug}"), 429)


def test_a_phone_already_in_keeps_working_while_someone_guesses(table, other):
    # Issue 11: "already in" is an access token now; remembered Basic credentials are
    # refused like any passphrase while the limit holds (or the lockout would be an oracle).
    token = table.ok("POST", f"/groups/{table.slug}/tokens", {}, status=201)["token"]
    wrong = basic(table.slug, "a wrong guess")
    for _ in range(6):
        table.get(f"/groups/{table.slug}", headers=wrong)

    bearer = {"Authorization": f"Bearer {token}"}
    assert table.get(f"/groups/{table.slug}", headers=bearer).status_code == 200
    added = table.call("POST", f"/groups/{table.slug}/players", {"name": "Enda"}, headers=bearer)
    assert added.status_code == 201
    other.ok("GET", f"/groups/{other.slug}")  # the limit is the guessed group's alone


def test_a_right_passphrase_clears_the_count_of_wrong_ones(table):
    wrong = basic(table.slug, "a wrong guess")
    for _ in range(4):
        error(table.get(f"/groups/{table.slug}", headers=wrong), 401)
    table.ok("GET", f"/groups/{table.slug}")
    for _ in range(4):
        error(table.get(f"/groups/{table.slug}", headers=wrong), 401)
