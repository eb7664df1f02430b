"""The pot's plan, a night reopened and a night's winnings (issue 29; RULES.md §2, API.md
"Additions", third edition): one plan for the pot on every phone, the finish that uses it, a
change after a tick refused, and the kept pot left out of what a player won."""

from __future__ import annotations

from datetime import datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.api.helpers import SEED_HAND_1, SEED_HAND_2, error

# Hand 1 of the seed: Enda -25, John +46, Rex -16, Finn -25; the pot of 20 stays.
HAND_1_SCORES = {"Enda": -25, "John": 46, "Rex": -16, "Finn": -25}


def _night_with_a_pot(table) -> int:
    sid = table.session()["id"]
    table.hand(sid, SEED_HAND_1)
    return sid


def _balances(settled: dict) -> dict[str, int]:
    return {b["player"]: b["units"] for b in settled["balances"]}


def _kept(settled: dict) -> dict[str, int]:
    return {b["player"]: b["pot_kept"] for b in settled["balances"]}


def test_an_open_night_answers_its_plan_and_settles_by_it_on_every_phone(table):
    sid = _night_with_a_pot(table)
    fresh = table.ok("GET", f"/sessions/{sid}")
    assert (fresh["leftover_pot"], fresh["pot_keeper"]) == ("carry", None)

    chosen = table.ok("PUT", f"/sessions/{sid}/pot", {"leftover_pot": "carry", "pot_keeper": "rex"})

    assert (chosen["leftover_pot"], chosen["pot_keeper"], chosen["status"]) == (
        "carry",
        "Rex",
        "open",
    )
    assert chosen["version"] == fresh["version"] + 1
    # Two phones asking: the same plan, the same transfers, the pot paid to Rex.
    one, other = (table.ok("GET", f"/sessions/{sid}/settlement") for _ in range(2))
    assert one == other
    assert one["pot_keeper"] == "Rex"
    assert _balances(one) == {"Enda": -25, "John": 46, "Rex": 4, "Finn": -25}
    assert _kept(one) == {"Enda": 0, "John": 0, "Rex": 20, "Finn": 0}
    assert sum(_balances(one).values()) == 0
    assert all(t["from"] is not None and t["to"] is not None for t in one["transfers"])
    history = table.ok("GET", f"/sessions/{sid}/history")
    assert history[-1]["kind"] == "pot.planned"
    assert history[-1]["after"] == {"leftover_pot": "carry", "pot_keeper": "Rex"}


def test_finish_without_a_body_uses_the_plan(table):
    sid = _night_with_a_pot(table)
    table.ok("PUT", f"/sessions/{sid}/pot", {"leftover_pot": "carry", "pot_keeper": "Finn"})
    before = table.ok("GET", f"/sessions/{sid}/settlement")

    done = table.ok("POST", f"/sessions/{sid}/finish", {})

    assert (done["status"], done["leftover_pot"], done["pot_keeper"]) == (
        "finished",
        "carry",
        "Finn",
    )
    after = table.ok("GET", f"/sessions/{sid}/settlement")
    assert after["transfers"] == before["transfers"]
    assert _kept(after)["Finn"] == 20
    following = table.session()
    assert following["carried_in_keeper"] == "Finn"


def test_a_refund_plan_gives_the_antes_back_and_nobody_keeps_anything(table):
    sid = _night_with_a_pot(table)

    table.ok("PUT", f"/sessions/{sid}/pot", {"leftover_pot": "refund", "pot_keeper": None})

    settled = table.ok("GET", f"/sessions/{sid}/settlement")
    assert set(_kept(settled).values()) == {0}
    assert _balances(settled) == {"Enda": -20, "John": 51, "Rex": -11, "Finn": -20}
    done = table.ok("POST", f"/sessions/{sid}/finish", {})
    assert (done["leftover_pot"], done["pot"]) == ("refund", 0)
    assert table.ok("GET", f"/sessions/{sid}/settlement")["transfers"] == settled["transfers"]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"leftover_pot": "carry", "pot_keeper": "Stranger"}, "pot_keeper"),
        ({"leftover_pot": "refund", "pot_keeper": "John"}, "pot_keeper"),
        ({"leftover_pot": "spend", "pot_keeper": None}, "leftover_pot"),
        ({"pot_keeper": "John"}, "leftover_pot"),
    ],
)
def test_a_plan_that_cannot_be_is_refused_naming_the_field_and_nothing_changes(table, body, field):
    sid = _night_with_a_pot(table)
    before = table.ok("GET", f"/sessions/{sid}")

    message = error(table.put(f"/sessions/{sid}/pot", body), 422, field)

    assert message
    assert table.ok("GET", f"/sessions/{sid}") == before


def test_a_points_game_has_no_pot_to_plan(table):
    sid = table.session(game="rummy")["id"]

    message = error(
        table.put(f"/sessions/{sid}/pot", {"leftover_pot": "carry"}), 422, "leftover_pot"
    )

    assert "points" in message


def test_a_finished_night_keeps_the_plan_it_was_finished_with(table):
    sid = _night_with_a_pot(table)
    table.ok("POST", f"/sessions/{sid}/finish", {"leftover_pot": "carry", "pot_keeper": "John"})

    refused = table.put(f"/sessions/{sid}/pot", {"leftover_pot": "refund", "pot_keeper": None})

    assert "finished" in error(refused, 409)
    assert table.ok("GET", f"/sessions/{sid}")["leftover_pot"] == "carry"


def test_after_a_tick_a_change_of_plan_is_refused_naming_the_payment(table):
    """Issue 29: ticks under refund and a finish with carry left a player paid 5 more than
    owed. Now the plan a payment was made under stays until that tick is taken back."""
    sid = _night_with_a_pot(table)
    table.ok("PUT", f"/sessions/{sid}/pot", {"leftover_pot": "refund", "pot_keeper": None})
    paid = table.ok(
        "POST", f"/sessions/{sid}/payments", {"from": "Enda", "to": "John", "units": 20}, 201
    )
    version = table.ok("GET", f"/sessions/{sid}")["version"]

    changed = table.put(f"/sessions/{sid}/pot", {"leftover_pot": "carry", "pot_keeper": "John"})
    finished = table.post(f"/sessions/{sid}/finish", {"leftover_pot": "carry"})

    for refused in (changed, finished):
        message = error(refused, 409, "leftover_pot")
        assert message.startswith("Enda paid John €0.20 under the plan for the pot")
    # The same plan again is no change; the tick taken back frees the plan.
    same = table.ok("PUT", f"/sessions/{sid}/pot", {"leftover_pot": "refund"})
    assert same["version"] == version
    table.ok("DELETE", f"/sessions/{sid}/payments/{paid['id']}", status=204)
    table.ok("PUT", f"/sessions/{sid}/pot", {"leftover_pot": "carry", "pot_keeper": "John"})
    done = table.ok("POST", f"/sessions/{sid}/finish", {})
    assert (done["leftover_pot"], done["pot_keeper"]) == ("carry", "John")


def test_every_tick_then_the_finish_leaves_nobody_owing_or_owed(table):
    """Money is conserved: the transfers of the plan paid, the finish under the same plan
    leaves nothing outstanding and the balances and the pot kept add up as they should."""
    sid = _night_with_a_pot(table)
    table.ok("PUT", f"/sessions/{sid}/pot", {"leftover_pot": "carry", "pot_keeper": "Enda"})
    for t in table.ok("GET", f"/sessions/{sid}/settlement")["transfers"]:
        body = {"from": t["from"], "to": t["to"], "units": t["units"]}
        table.ok("POST", f"/sessions/{sid}/payments", body, 201)

    table.ok("POST", f"/sessions/{sid}/finish", {})

    settled = table.ok("GET", f"/sessions/{sid}/settlement")
    assert settled["transfers"] == []
    assert {b["outstanding"] for b in settled["balances"]} == {0}
    assert sum(_balances(settled).values()) == 0
    assert _kept(settled)["Enda"] == settled["pot"] == 20


def test_a_finished_night_reopens_as_it_was_and_can_be_played_on(table):
    sid = _night_with_a_pot(table)
    table.ok("PUT", f"/sessions/{sid}/pot", {"leftover_pot": "carry", "pot_keeper": "John"})
    before = table.ok("GET", f"/sessions/{sid}")
    table.ok("POST", f"/sessions/{sid}/finish", {})

    opened = table.ok("POST", f"/sessions/{sid}/reopen", {})

    assert opened["status"] == "open" and opened["finished_at"] is None
    assert (opened["scores"], opened["pot"]) == (before["scores"], before["pot"])
    assert (opened["leftover_pot"], opened["pot_keeper"]) == ("carry", "John")
    table.hand(sid, SEED_HAND_2)  # Enda goes out and takes the pot
    done = table.ok("POST", f"/sessions/{sid}/finish", {})
    assert (done["pot"], done["pot_keeper"]) == (0, None)
    kinds = [c["kind"] for c in table.ok("GET", f"/sessions/{sid}/history")]
    assert kinds.count("session.finished") == 2 and "session.reopened" in kinds
    assert table.session()["carried_in"] == 0  # the first finish's pot is not waiting


def test_a_night_something_depends_on_is_not_reopened(table):
    paid = _night_with_a_pot(table)
    table.ok("POST", f"/sessions/{paid}/finish", {"leftover_pot": "refund"})
    table.ok("POST", f"/sessions/{paid}/payments", {"from": "Enda", "to": "John", "units": 5}, 201)
    message = error(table.post(f"/sessions/{paid}/reopen", {}), 409)
    number = table.ok("GET", f"/sessions/{paid}")["number"]
    assert message == (
        f"Payments were ticked for Spot #{number}: take them back before reopening it."
    )

    carried = table.session()["id"]
    table.hand(carried, SEED_HAND_1)
    table.ok("POST", f"/sessions/{carried}/finish", {"leftover_pot": "carry"})
    later = table.session()["id"]
    message = error(table.post(f"/sessions/{carried}/reopen", {}), 409)
    numbers = {s["id"]: s["number"] for s in table.ok("GET", f"/groups/{table.slug}")["sessions"]}
    assert message == (
        f"The pot of Spot #{numbers[carried]} opened Spot #{numbers[later]}: it can no longer "
        "be reopened."
    )
    assert table.ok("GET", f"/sessions/{carried}")["status"] == "finished"

    assert "open already" in error(table.post(f"/sessions/{later}/reopen", {}), 409)


def test_another_groups_night_is_not_found_for_the_plan_or_a_reopen(client, table):
    from tests.api.helpers import Table

    sid = _night_with_a_pot(table)
    table.ok("POST", f"/sessions/{sid}/finish", {})
    other = Table(client, name="Friday Crowd")

    assert other.put(f"/sessions/{sid}/pot", {"leftover_pot": "refund"}).status_code == 404
    assert other.post(f"/sessions/{sid}/reopen", {}).status_code == 404
    assert table.ok("GET", f"/sessions/{sid}")["status"] == "finished"


def test_a_nights_winnings_leave_the_kept_pot_out_and_a_period_adds_up_the_same(table):
    """Issue 29, RULES.md §2: John won 46 on the first night and kept the pot of 20; on the
    next his score starts at -20, which he did not lose there. The stats count what he won;
    over both nights his total is what the two settlements paid him."""
    first = _night_with_a_pot(table)
    table.ok("PUT", f"/sessions/{first}/pot", {"leftover_pot": "carry", "pot_keeper": "John"})
    table.ok("POST", f"/sessions/{first}/finish", {})
    second = table.session()["id"]
    table.hand(second, SEED_HAND_2)  # Enda out: John pays his ante and 16
    table.ok("POST", f"/sessions/{second}/finish", {})
    paid = [_balances(table.ok("GET", f"/sessions/{s}/settlement")) for s in (first, second)]
    assert (paid[0]["John"], paid[1]["John"]) == (66, -41)

    john = table.ok("GET", f"/groups/{table.slug}/players/John")
    nights = {n["id"]: n["money"] for n in john["sessions"]}
    stats = {p["name"]: p for p in table.ok("GET", f"/groups/{table.slug}/stats")["players"]}

    assert nights == {first: "0.46", second: "-0.21"}
    assert stats["John"]["money"] == {"EUR": 66 - 41}
    for name in ("Enda", "Rex", "Finn"):
        assert stats[name]["money"] == {"EUR": paid[0][name] + paid[1][name]}


@given(
    scores=st.lists(st.integers(-500, 500), min_size=2, max_size=6),
    later=st.lists(st.integers(-500, 500), min_size=2, max_size=6),
    pot=st.integers(1, 300),
    keeper=st.integers(0, 5),
)
def test_over_both_nights_the_keepers_money_is_the_same_either_way(scores, later, pot, keeper):
    """A property of the stats' arithmetic: a kept pot moves money between two nights of
    its keeper, never in or out of the period that holds both. Each night's winnings as its
    read model gives them (ledger/rules/keeper.py ``winnings``: the pot brought back left out)."""
    from ledger.rules.keeper import winnings
    from ledger.services.stats import SessionFacts, night_facts

    names = [f"P{i}" for i in range(max(len(scores), len(later)))]
    keeper_name = names[keeper % len(names)]
    first_scores = {n: s for n, s in zip(names, scores, strict=False)}
    first_scores.setdefault(keeper_name, 0)
    second_scores = {n: s for n, s in zip(names, later, strict=False)}
    second_scores[keeper_name] = second_scores.get(keeper_name, 0) - pot  # brought back
    when = datetime(2026, 11, 26)
    kept = SessionFacts(1, "spot", {}, "finished", when, first_scores, (), {}, {}, first_scores)
    won = {n: winnings(s, pot if n == keeper_name else 0) for n, s in second_scores.items()}
    brought = SessionFacts(2, "spot", {}, "finished", when, second_scores, (), {}, {}, won)

    won = {}
    for facts in (kept, brought):
        for name, night in night_facts(facts):
            won[name] = won.get(name, 0) + round(night.money * 100)
    # What the two settlements paid: the keeper's first balance with the pot counted.
    settled = {n: first_scores.get(n, 0) + second_scores.get(n, 0) for n in won}
    settled[keeper_name] += pot
    assert won == settled


def test_a_night_put_on_the_tab_uses_the_plans_keeper_and_reopens_only_off_the_tab(table):
    """Issues 29 and 31 together: the tab's finish keeps the table's plan (not the keeper the
    rules would propose), and a night on the tab is taken off it before it can be reopened."""
    sid = _night_with_a_pot(table)  # John is owed the most: the rules would propose him
    table.ok("PUT", f"/sessions/{sid}/pot", {"leftover_pot": "carry", "pot_keeper": "Rex"})

    done = table.ok("POST", f"/sessions/{sid}/finish", {"settle": "tab"})

    assert (done["on_tab"], done["pot_keeper"]) == (True, "Rex")
    message = error(table.post(f"/sessions/{sid}/reopen", {}), 409)
    number = table.ok("GET", f"/sessions/{sid}")["number"]
    assert message == f"Spot #{number} is on the tab: take it off the tab before reopening it."
    assert table.ok("GET", f"/sessions/{sid}")["status"] == "finished"

    assert table.call("DELETE", f"/sessions/{sid}/tab").status_code == 200
    reopened = table.ok("POST", f"/sessions/{sid}/reopen", {})
    assert (reopened["status"], reopened["on_tab"], reopened["pot_keeper"]) == (
        "open",
        False,
        "Rex",
    )
