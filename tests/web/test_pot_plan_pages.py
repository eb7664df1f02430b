"""Issue 29 on the pages: the pot's plan is the table's (any phone chooses, every phone
shows it), the kept pot on a line of its own, stakes remembered with a word for a pot that
waits, and a finished night that asks first and can be opened again."""

from __future__ import annotations

import re
from html import unescape

import pytest

from tests.web.pages import HAND_1, HAND_2, Phone, html
from tests.web.test_shared_ticks import at_the_table, owed_lines, tick_forms

# After hand 1 of seed 000: Enda -25, John +46, Rex -16, Finn -25 and 20 in the pot.
CARRIED_TO_JOHN = ["Enda pays John €0.25", "Finn pays John €0.25", "Rex pays John €0.16"]


@pytest.fixture
def phone(client) -> Phone:
    return at_the_table(Phone(client), (HAND_1, None))


@pytest.fixture
def other_phone(app, phone) -> Phone:
    other = Phone(app.test_client(), slug=phone.slug, session_id=phone.session_id)
    opened = other.client.post(
        "/open", data={"open-group": phone.slug, "open-passphrase": "pints4all"}
    )
    assert opened.status_code == 302
    return other


def keeper_selected(page: str) -> str | None:
    found = re.search(r'<option value="([^"]+)" selected>', page)
    return found.group(1) if found else None


def paid_to(lines: list[str]) -> dict[str, int]:
    """The cents each player is paid by the transfers listed ("Enda pays Rex €0.05")."""
    paid: dict[str, int] = {}
    for target, cents in re.findall(r"pays (\w+) €0\.(\d\d)", " ".join(lines)):
        paid[target] = paid.get(target, 0) + int(cents)
    return paid


def say(page: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", page)).split())


def test_the_plan_chosen_on_one_phone_is_the_plan_and_the_payments_on_the_other(phone, other_phone):
    board = phone.board
    before = other_phone.client.get(f"{board}/version.json").get_json()["version"]
    # Both phones propose the same keeper before anyone chooses: John, owed the most.
    assert keeper_selected(html(phone.client.get(f"{board}/settle"))) == "John"
    assert keeper_selected(html(other_phone.client.get(f"{board}/settle"))) == "John"

    chosen = phone.client.post(f"{board}/pot", data={"pot": "carry", "keeper": "Rex"})

    assert chosen.headers["Location"].endswith(f"{board}/settle")
    assert other_phone.client.get(f"{board}/version.json").get_json()["version"] == before + 1
    mine = html(phone.client.get(f"{board}/settle"))
    theirs = html(other_phone.client.get(f"{board}/settle"))
    assert keeper_selected(theirs) == "Rex"
    assert owed_lines(theirs) == owed_lines(mine)
    # Rex lost 16 and keeps the pot of 20: he is paid 4; John his 46.
    assert paid_to(owed_lines(theirs)) == {"Rex": 4, "John": 46}
    assert '<input type="hidden" name="pot_keeper" value="Rex">' in theirs
    assert "Rex keeps the pot: €0.20" in theirs
    history = say(html(other_phone.client.get(f"{board}/history")))
    assert "The table chose to carry the pot on, kept by Rex." in history


def test_the_plan_is_a_form_that_works_without_javascript(phone):
    page = html(phone.client.get(f"{phone.board}/settle"))

    form = re.search(
        r'<form method="post" action="([^"]+)" id="pot-choice" data-tick>(.*?)</form>', page, re.S
    )

    assert form and form.group(1) == f"{phone.board}/pot"
    assert 'name="csrf_token"' in form.group(2) or "csrf" in form.group(2)
    assert 'id="pot-show"' in form.group(2) and "Use this plan" in form.group(2)
    refund = phone.client.post(f"{phone.board}/pot", data={"pot": "refund"}, follow_redirects=True)
    assert 'id="pot-refund" value="refund" checked' in html(refund)
    assert "Every phone now shows this plan for the pot." in html(refund)


def test_the_kept_pot_has_a_line_of_its_own_and_the_balances_are_the_winnings(phone):
    page = html(phone.client.get(f"{phone.board}/settle"))

    assert owed_lines(page) == CARRIED_TO_JOHN
    assert "John keeps the pot: €0.20" in page
    # John's money says what he won, €0.46; the pot's €0.20 stands in a column of its own
    # beside it and the total, €0.66, is what the transfers pay him.
    john = re.search(
        r">John</a></th>\s*((?:<td class=\"number[^\"]*\">[^<]*</td>\s*){3})</tr>", page
    )
    assert john and re.findall(r">([^<]*)</td>", john.group(1)) == ["€0.46", "€0.20", "€0.66"]

    phone.client.post(f"{phone.board}/finish", data={"leftover_pot": "carry", "pot_keeper": "John"})
    following = phone.start()
    board = html(phone.client.get(following))
    # The next night John brought the pot back: his score starts at -20, he has lost nothing.
    assert re.search(r'>John</a>.*?<span class="total[^"]*">0\s', board, re.S)
    settle = html(phone.client.get(f"{following}/settle"))
    assert "John brought the pot back: €0.20" in settle


def test_a_tick_fixes_the_plan_it_was_made_under_and_a_change_is_then_refused(phone, other_phone):
    board = phone.board
    page = html(phone.client.get(f"{board}/settle"))
    enda = next(f for f in tick_forms(page) if f.get("from") == "Enda")
    assert (enda["pot"], enda["keeper"]) == ("carry", "John")

    phone.client.post(enda.pop("action"), data=enda)

    # The other phone moves the pot to Rex: refused, naming the payment.
    refused = other_phone.client.post(
        f"{board}/pot", data={"pot": "carry", "keeper": "Rex"}, follow_redirects=True
    )
    assert (
        "Enda paid John €0.25 under the plan for the pot: take that tick back before changing "
        "what happens to the pot." in say(html(refused))
    )
    assert keeper_selected(html(refused)) == "John"


def test_a_tick_from_a_page_that_showed_another_plan_is_refused(phone, other_phone):
    board = phone.board
    stale = html(phone.client.get(f"{board}/settle"))  # John proposed
    other_phone.client.post(f"{board}/pot", data={"pot": "carry", "keeper": "Rex"})
    enda = next(f for f in tick_forms(stale) if f.get("from") == "Enda")

    told = phone.client.post(enda.pop("action"), data=enda, follow_redirects=True)

    assert "The plan for the pot was changed on another phone" in say(html(told))
    assert "Enda paid" not in say(html(told))


def test_finish_asks_first_and_a_finished_night_can_be_opened_again(phone):
    board = phone.board
    page = html(phone.client.get(f"{board}/settle"))
    assert re.search(r'id="finish" data-confirm="Finish the night\? [^"]+"', page)
    phone.client.post(f"{board}/finish", data={"leftover_pot": "carry", "pot_keeper": "John"})
    finished = html(phone.client.get(board))
    assert re.search(
        r'id="reopen" data-confirm="Open this night again\?[^"]*">Open the night again', finished
    )

    opened = phone.client.post(f"{board}/reopen", follow_redirects=True)

    assert "The night is open again." in html(opened)
    assert 'id="enter-hand"' in html(opened)
    assert "The night was opened again." in say(html(phone.client.get(f"{board}/history")))
    assert phone.enter(HAND_2, out="Enda").status_code == 302


def test_a_night_whose_pot_went_on_is_not_reopened_and_says_why(phone):
    first = phone.board
    phone.client.post(f"{first}/finish", data={"leftover_pot": "carry", "pot_keeper": "John"})
    phone.start()

    told = phone.client.post(f"{first}/reopen", follow_redirects=True)

    assert "The pot of Spot #1 opened Spot #2: it can no longer be reopened." in html(told)
    assert 'id="enter-hand"' not in html(told)
    # Issue 37: the settle-up offers no button that can only refuse; it says why instead.
    settle = html(phone.client.get(f"{first}/settle"))
    assert 'id="reopen"' not in settle
    assert 'id="reopen-why">The pot of Spot #1 opened Spot #2' in settle


def test_the_new_session_page_starts_from_the_last_stakes_and_says_which_pot_waits(phone):
    """A night at ante 2 × €0.10 carried €0.40 to Rex; the next new-session page starts at
    those stakes, and a night started at other stakes says why the pot is not in it."""
    phone.start(ante=2, unit_value="0.10")
    phone.enter(HAND_1)  # pot of 8 units: €0.80
    phone.client.post(f"{phone.board}/finish", data={"leftover_pot": "carry", "pot_keeper": "Rex"})

    page = html(phone.client.get(f"/g/{phone.slug}/s/new"))

    assert re.search(r'id="opt-spot-ante" name="opt-spot-ante" value="2"', page)
    assert re.search(r'id="opt-spot-unit_value" name="opt-spot-unit_value" value="0.10"', page)
    waits = "Rex's €0.80 waits for a Spot night at €0.10 a unit with Rex at the table."
    assert waits in unescape(page)
    cheaper = phone.start(unit_value="0.01")
    board = unescape(html(phone.client.get(cheaper)))
    assert waits in board
    assert 'id="pot">0<' in board


def test_a_finish_with_another_plan_than_the_one_paid_under_is_not_made(phone, other_phone):
    """The issue's harm: ticks made under "refund" on one phone and a finish with "carry" on
    another left a player paid more than owed. Now that finish does not happen."""
    board = phone.board
    stale = html(phone.client.get(f"{board}/settle"))  # carry, John keeps the pot
    version = re.search(r'name="version" value="(\d+)"', stale).group(1)
    other_phone.client.post(f"{board}/pot", data={"pot": "refund"})
    refund = html(other_phone.client.get(f"{board}/settle"))
    enda = next(f for f in tick_forms(refund) if f.get("from") == "Enda")
    other_phone.client.post(enda.pop("action"), data=enda)

    told = phone.client.post(
        f"{board}/finish",
        data={"leftover_pot": "carry", "pot_keeper": "John", "version": version},
        follow_redirects=True,
    )

    assert "Finish the night" in html(told)  # still open
    assert 'id="pot-refund" value="refund" checked' in html(told)
    assert owed_lines(html(told)) == owed_lines(html(other_phone.client.get(f"{board}/settle")))
