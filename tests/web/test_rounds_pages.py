"""Rounds on the pages (RULES.md §6c): "Add drinks or food" from the scoreboard, the list
with each part, a refusal beside its field, a change and a take-back, the settle-up's totals, the
history, and a Dutch page's comma."""

from __future__ import annotations

import re

import pytest

from tests.web.pages import Phone, html, table_of_four

SEATS = ["Enda", "John", "Rex", "Finn"]


@pytest.fixture
def phone(client) -> Phone:
    phone = table_of_four(client)
    phone.start(ante="0", entry="totals")
    response = phone.enter({"Enda": 1, "John": 30, "Rex": 50, "Finn": 40})
    assert response.status_code == 302, html(response)
    return phone


def add_round(phone: Phone, **fields) -> object:
    page = html(phone.client.get(f"{phone.board}/rounds/new"))
    once = re.search(r'name="once" value="([0-9a-f]+)"', page)
    token = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page)
    data = {"once": once.group(1) if once else "", "for": SEATS, **fields}
    if token:
        data["csrf_token"] = token.group(1)
    return phone.client.post(f"{phone.board}/rounds/new", data=data)


def test_the_worked_example_on_the_pages(phone):
    board = html(phone.client.get(phone.board))
    assert "Add drinks or food" in board and "No drinks or food yet" in board
    form = html(phone.client.get(f"{phone.board}/rounds/new"))
    # Everyone at the table is ticked (and nobody as the payer); the amount asks for a keypad
    # with decimals.
    assert form.count('name="for"') == 4 and form.count("checked") == 4
    assert 'inputmode="decimal"' in form

    response = add_round(phone, paid_by="John", amount="18.40", what="a round")
    assert response.status_code == 302, html(response)
    board = html(phone.client.get(response.headers["Location"]))
    assert "Saved: John paid €18.40 for a round for Enda, John, Rex and Finn." in board
    assert "Enda €4.60 · John €4.60 · Rex €4.60 · Finn €4.60" in board
    crisps = {"for": ["John", "Rex", "Finn"], "what": "crisps"}
    assert add_round(phone, paid_by="Rex", amount="7.50", **crisps).status_code == 302

    settle = html(phone.client.get(f"{phone.board}/settle"))
    # The money table's rows (the balances' rows carry an id); each row's class marks this
    # phone's own player (RULES.md §20), which changes no figure.
    rows = re.findall(r"<tr class=\"[^\"]*\">\s*<th scope=\"row\">.*?</tr>", settle, re.S)
    cells = [re.findall(r"(-?€[\d.]+)", row) for row in rows]
    assert cells == [
        ["€1.20", "-€4.60", "-€3.40"],
        ["-€0.30", "€11.30", "€11.00"],
        ["-€0.50", "€0.40", "-€0.10"],
        ["-€0.40", "-€7.10", "-€7.50"],
    ]
    for words in ("Finn pays John €7.50", "Enda pays John €3.40", "Rex pays John €0.10"):
        assert words in settle
    # A tick pays a total in the currency.
    assert 'name="amount" value="7.50"' in settle


def test_a_refusal_stays_on_the_form_beside_its_field(phone):
    response = add_round(phone, paid_by="John", amount="12.345")
    assert response.status_code == 422
    page = html(response)
    assert "in whole cents: 12.345 is not." in page
    assert 'value="12.345"' in page  # what was typed stays
    response = add_round(phone, paid_by="John", amount="4", **{"share-Rex": "0"})
    assert "Shares are whole numbers of at least 1: Rex&#39;s is 0." in html(response)
    assert "No drinks or food yet" in html(phone.client.get(phone.board))


def test_a_double_tap_records_one_round(phone):
    page = html(phone.client.get(f"{phone.board}/rounds/new"))
    once = re.search(r'name="once" value="([0-9a-f]+)"', page).group(1)
    data = {"once": once, "for": SEATS, "paid_by": "Rex", "amount": "8"}
    assert phone.client.post(f"{phone.board}/rounds/new", data=data).status_code == 302
    assert phone.client.post(f"{phone.board}/rounds/new", data=data).status_code == 302
    assert html(phone.client.get(phone.board)).count('class="parts') == 1


def test_a_round_is_changed_then_taken_back_and_the_history_says_so(phone):
    add_round(phone, paid_by="John", amount="18.40")
    board = html(phone.client.get(phone.board))
    round_id = re.search(r'id="round-(\d+)"', board).group(1)
    form = html(phone.client.get(f"{phone.board}/rounds/{round_id}"))
    assert 'value="18.40"' in form and "Change drinks or food" in form
    data = {"for": ["Enda", "John"], "paid_by": "John", "amount": "10", "share-John": "3"}
    assert phone.client.post(f"{phone.board}/rounds/{round_id}", data=data).status_code == 302
    board = html(phone.client.get(phone.board))
    assert "John paid €10.00 for Enda and John ×3" in board
    assert "Enda €2.50 · John €7.50" in board
    response = phone.client.post(f"{phone.board}/rounds/{round_id}/delete")
    assert response.status_code == 302
    assert "No drinks or food yet" in html(phone.client.get(phone.board))
    history = html(phone.client.get(f"{phone.board}/history"))
    assert "Drinks or food added: John paid €18.40 for Enda, John, Rex and Finn." in history
    assert "Drinks or food changed to: John paid €10.00 for Enda and John ×3" in history
    assert "Drinks or food taken back: John paid €10.00" in history


def test_a_finished_night_offers_no_change(phone):
    add_round(phone, paid_by="John", amount="18.40")
    phone.client.post(f"{phone.board}/finish", data={"leftover_pot": "refund"})
    board = html(phone.client.get(phone.board))
    assert "Add drinks or food" not in board and "Take back" not in board
    assert "John paid €18.40" in board
    response = phone.client.get(f"{phone.board}/rounds/new")
    assert response.status_code == 302


def test_a_dutch_page_takes_a_comma(phone):
    phone.client.set_cookie("lang", "nl")
    form = html(phone.client.get(f"{phone.board}/rounds/new"))
    assert 'placeholder="18,40"' in form
    assert add_round(phone, paid_by="John", amount="18,40").status_code == 302
    phone.client.set_cookie("lang", "en")
    assert "John paid €18.40" in html(phone.client.get(phone.board))


def test_another_groups_round_pages_are_not_found(phone, client):
    add_round(phone, paid_by="John", amount="18.40")
    board = html(phone.client.get(phone.board))
    round_id = re.search(r'id="round-(\d+)"', board).group(1)
    other = Phone(client.application.test_client())
    other.create_group("Other table")
    for path in (f"/rounds/{round_id}", "/rounds/new"):
        response = other.client.get(f"/g/{other.slug}/s/{phone.session_id}{path}")
        assert response.status_code == 404


def test_a_points_game_settles_its_rounds_alone_and_a_stake_waits_for_the_end(client):
    """RULES.md §6c: a points game with no stake has a settle-up of its rounds alone, paid in
    the currency; one played for a stake settles once it has ended, its rounds with it."""
    phone = table_of_four(client)
    phone.start("rummy", players=("John", "Rex"), dealer="Rex")
    board = html(phone.client.get(phone.board))
    assert "Settle up" not in board
    page = html(phone.client.get(f"{phone.board}/rounds/new"))
    once = re.search(r'name="once" value="([0-9a-f]+)"', page).group(1)
    data = {"once": once, "for": ["John", "Rex"], "paid_by": "John", "amount": "9,01"}
    assert phone.client.post(f"{phone.board}/rounds/new", data=data).status_code == 302
    board = html(phone.client.get(phone.board))
    assert "What drinks and food give so far: John €4.50 · Rex -€4.50" in " ".join(
        re.sub(r"<[^>]+>", " ", board).split()
    )
    settle = html(phone.client.get(f"{phone.board}/settle"))
    # The money table's rows (the balances' rows carry an id); each row's class marks this
    # phone's own player (RULES.md §20), which changes no figure.
    rows = re.findall(r"<tr class=\"[^\"]*\">\s*<th scope=\"row\">.*?</tr>", settle, re.S)
    assert [re.findall(r"(-?€[\d.]+)", row) for row in rows] == [
        ["€0.00", "€4.50", "€4.50"],
        ["€0.00", "-€4.50", "-€4.50"],
    ]
    assert "Rex pays John €4.50" in settle and "Finish the night" not in settle
    tick = {"from": "Rex", "to": "John", "amount": "4.50"}
    assert phone.client.post(f"{phone.board}/payments", data=tick).status_code == 302
    assert "Ticked: Rex paid John €4.50." in html(phone.client.get(f"{phone.board}/settle"))

    # For a stake, the game's money is not known before the end: no settle-up yet.
    phone.start("rummy", players=("John", "Rex"), dealer="Rex", stake="1")
    data["once"] = re.search(
        r'name="once" value="([0-9a-f]+)"', html(phone.client.get(f"{phone.board}/rounds/new"))
    ).group(1)
    assert phone.client.post(f"{phone.board}/rounds/new", data=data).status_code == 302
    board = html(phone.client.get(phone.board))
    assert "John paid €9.01" in board and "Settle up" not in board
    assert phone.client.get(f"{phone.board}/settle").status_code == 404


def test_a_tick_given_in_units_and_as_an_amount_is_refused_and_records_nothing(phone):
    """A tick that says both units and an amount cannot say which it meant: refused, in the
    page's words (English and Dutch), and nothing is paid."""
    assert add_round(phone, paid_by="John", amount="18.40").status_code == 302
    tick = {"from": "Finn", "to": "John", "units": "40", "amount": "7.50"}
    assert phone.client.post(f"{phone.board}/payments", data=tick).status_code == 302
    settle = html(phone.client.get(f"{phone.board}/settle"))
    assert "Give the payment in units or as an amount, not both." in settle
    assert "Ticked" not in settle and 'id="payments"' not in settle
    phone.client.set_cookie("lang", "nl")
    assert phone.client.post(f"{phone.board}/payments", data=tick).status_code == 302
    settle = html(phone.client.get(f"{phone.board}/settle"))
    assert "Geef de betaling in eenheden of als bedrag, niet allebei." in settle
