"""The pages take no input the database or a page cannot hold (API.md "Bounds"): ids past the
database's integer are not found, the option bounds are said beside the option, and odd
numbers or characters typed into a form answer a sentence, never a 500."""

from __future__ import annotations

import re

import pytest

from tests.api.dbstate import snapshot
from tests.web.pages import HAND_1, Phone, html


@pytest.fixture
def phone(client) -> Phone:
    phone = Phone(client)
    phone.create_group()
    phone.add_players("Enda", "John", "Rex", "Finn")
    phone.start()
    phone.enter(HAND_1)
    return phone


TOO_LARGE = ["2147483648", "9223372036854775808", "99999999999999999999999", "9" * 5000]


@pytest.mark.parametrize("number", TOO_LARGE)
def test_an_id_past_the_databases_integer_is_not_found_on_the_pages(phone, number):
    base = f"/g/{phone.slug}/s"
    for path in (
        f"{base}/{number}",
        f"{base}/{number}/hands",
        f"{base}/{number}/settle",
        f"{base}/{number}/version.json",
        f"{base}/{number}/hands/new",
        f"{phone.board}/hands/{number}",
        f"{phone.board}/hands/{number}/edit",
    ):
        assert phone.client.get(path).status_code == 404, path
    assert phone.client.post(f"/g/{phone.slug}/players/{number}", data={}).status_code == 404


@pytest.mark.parametrize("number", TOO_LARGE)
def test_a_saved_hand_past_the_databases_integer_is_not_found(phone, number):
    assert phone.client.get(f"{phone.board}?saved={number}").status_code == 404
    # A hand number that could exist but does not is simply not shown, as before.
    assert phone.client.get(f"{phone.board}?saved=77").status_code == 200
    assert phone.client.get(f"{phone.board}?saved=abc").status_code == 200


@pytest.mark.parametrize("number", ["2147483648", "99999999999999999999999", "9" * 5000])
def test_a_number_in_a_form_past_every_rows_changes_nothing_and_breaks_nothing(app, phone, number):
    before = snapshot(app)
    undo = phone.client.post(f"{phone.board}/undo", data={"number": number})
    assert undo.status_code == 404  # no such hand
    # A version past every version is a stale one: the night is not finished behind the
    # back of whoever loaded the page.
    finish = phone.client.post(
        f"{phone.board}/finish", data={"leftover_pot": "carry", "version": number}
    )
    assert finish.status_code < 500
    form = phone.hand_form({"John": "5 5 6", "Rex": "K", "Finn": "3 5"}, out="Enda")
    form["version"] = number
    assert phone.client.post(f"{phone.board}/hands/new", data=form).status_code < 500
    assert phone.client.post(f"{phone.board}/hands/1/edit", data=form).status_code < 500
    assert snapshot(app) == before


@pytest.mark.parametrize("number", ["²", "١", "99999999999999999999999", "9" * 5000])
def test_odd_digits_in_a_form_break_nothing(app, phone, number):
    undo = phone.client.post(f"{phone.board}/undo", data={"number": number})
    assert undo.status_code < 500
    moved = phone.client.post(
        f"/g/{phone.slug}/s/new",
        data={"game": "spot", "order": ["Enda", "John"], "move": f"up:{number}"},
    )
    assert moved.status_code == 200
    finish = phone.client.post(
        f"{phone.board}/finish", data={"leftover_pot": "carry", "version": number}
    )
    assert finish.status_code < 500


@pytest.mark.parametrize("spots", ["9" * 5000, "²", "99999999999"])
def test_an_odd_spot_total_is_refused_beside_the_player(app, client, spots):
    phone = Phone(client)
    phone.create_group()
    phone.start(entry="totals")
    before = snapshot(app)
    form = phone.hand_form({"Enda": "J 10", "John": "A 3", "Rex": "2 9"})
    form["results-3-spots"] = spots
    response = phone.client.post(f"{phone.board}/hands/new", data=form)
    assert response.status_code == 422
    assert "Give a whole number." in html(response)
    assert snapshot(app) == before


@pytest.mark.parametrize(
    ("option", "value", "sentence"),
    [
        ("ante", "10001", "The option “Ante” must be at most 10000."),
        ("ante", "9" * 5000, "The option “Ante” must be at most 10000."),
        ("ante", "1e28", "The option “Ante” must be a whole number."),
        ("unit_value", "1000.5", "is more than the app can keep: give at most 1000."),
    ],
)
def test_an_option_past_its_bound_is_refused_beside_the_option(
    app, client, option, value, sentence
):
    phone = Phone(client)
    phone.create_group()
    before = snapshot(app)
    response = phone.client.post(
        f"/g/{phone.slug}/s/new",
        data={
            "game": "spot",
            "order": ["Enda", "John"],
            "seated": ["Enda", "John"],
            "dealer": "Enda",
            f"opt-spot-{option}": value,
        },
    )
    assert response.status_code == 422
    page = html(response)
    error = re.search(rf'id="opt-spot-{option}-error"[^>]*>(.*?)<', page, re.S)
    assert error and sentence in error.group(1), error
    assert snapshot(app) == before


def test_the_rummy_target_is_bounded_beside_the_option(client):
    phone = Phone(client)
    phone.create_group()
    response = phone.client.post(
        f"/g/{phone.slug}/s/new",
        data={
            "game": "rummy",
            "order": ["Enda", "John"],
            "seated": ["Enda", "John"],
            "dealer": "Enda",
            "opt-rummy-target": "100001",
        },
    )
    assert response.status_code == 422
    assert re.search(r'id="opt-rummy-target-error"[^>]*>[^<]*at most 100000', html(response))


@pytest.mark.parametrize("name", ["Re\x07x", "Rex\x1b", "Rex\x7f"])
def test_a_player_name_with_a_control_character_is_refused_beside_the_field(app, client, name):
    phone = Phone(client)
    phone.create_group()
    before = snapshot(app)
    response = phone.client.post(f"/g/{phone.slug}/players", data={"name": name})
    assert response.status_code == 422
    assert "A name cannot hold control characters" in html(response)
    assert snapshot(app) == before


def test_a_group_name_with_a_control_character_is_refused_beside_the_field(app, client):
    before = snapshot(app)
    response = client.post(
        "/groups", data={"create-name": "Thurs\x08day", "create-passphrase": "pints4all"}
    )
    assert response.status_code == 422
    assert re.search(r"A name cannot hold control characters", html(response))
    assert snapshot(app) == before


@pytest.mark.parametrize(
    "data",
    [
        {"create-name": "Thurs\x00day", "create-passphrase": "pints4all"},
        {"create-name": "Thursday", "create-passphrase": "pints\x004all"},
    ],
)
def test_nul_in_a_form_is_refused_before_anything_reads_it(app, client, data):
    before = snapshot(app)
    response = client.post("/groups", data=data)
    assert response.status_code == 400
    assert "cannot be kept" in html(response)
    assert snapshot(app) == before


def test_nul_anywhere_in_a_page_form_is_refused(app, phone):
    before = snapshot(app)
    form = phone.hand_form(HAND_1)
    form["request_id"] = "abc\x00"
    assert phone.client.post(f"{phone.board}/hands/new", data=form).status_code == 400
    name = phone.client.post(f"/g/{phone.slug}/players", data={"name": "Rex\x00"})
    assert name.status_code == 400
    assert phone.client.get(f"{phone.board}?saved=1%00").status_code == 400
    assert snapshot(app) == before


@pytest.mark.parametrize("bound", [9, 10, 109, 250, 1000, 4321])
def test_the_id_pattern_takes_exactly_the_numbers_up_to_its_bound(bound):
    from ledger.ids import at_most

    pattern = re.compile(at_most(bound) + r"\Z")
    assert [n for n in range(bound * 3) if pattern.match(str(n))] == list(range(bound + 1))
    assert not pattern.match(str(bound + 1)) and not pattern.match(str(bound) + "0")


def test_an_address_holding_nul_is_not_found(phone):
    for path in (
        "/g/%00",
        f"/g/{phone.slug}%00",
        "/g/%00/s/1",
        f"/g/%00/s/{phone.session_id}/hands/new",
        "/join/%00",
    ):
        response = phone.client.get(path)
        assert response.status_code == 404, path
        assert "<html" in html(response)
