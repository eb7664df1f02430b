"""Random nights paid up at random: balances, the pot and the payments always add up, and the
settle-up is exactly what is outstanding, in the fewest transfers (RULES.md §2 and §6).

Each example plays a Spot night through the API (totals typed, random outs, antes and a pot
carried on or refunded), then ticks random payments that are allowed, tries ones that are
not, takes some back and corrects a hand in between, checking the settlement after each.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.rules.test_settle import fewest_by_brute_force

NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve")


def random_hand(data: st.DataObject, players: list[str]) -> dict[str, Any]:
    out = data.draw(st.sampled_from([None, *players]), label="out")
    results = [
        {"player": p, "spots": data.draw(st.integers(1, 40), label=f"{p} spots")}
        for p in players
        if p != out
    ]
    return {"results": results, "out": out}


def check(table, sid: int) -> dict[str, Any]:
    """The invariants of a settlement with payments; answers the settlement."""
    s = table.ok("GET", f"/sessions/{sid}/settlement")
    units = {b["player"]: b["units"] for b in s["balances"]}
    left = {b["player"]: b["outstanding"] for b in s["balances"]}
    paid: Counter[str] = Counter()
    for p in s["payments"]:
        assert p["units"] > 0 and p["from"] != p["to"]
        paid[p["from"]] += p["units"]
        paid[p["to"]] -= p["units"]
    # A payment changes no balance; it moves what is outstanding by what it paid.
    assert left == {p: units[p] + paid[p] for p in units}
    # The pot's share is as before payments: the players' balances and it add up to zero,
    # and so do the outstanding amounts and it.
    pot_party = -sum(units.values())
    assert sum(left.values()) + pot_party == 0
    after: Counter[str | None] = Counter(left)
    after[None] += pot_party
    for t in s["transfers"]:
        assert t["units"] > 0 and t["from"] != t["to"]
        after[t["from"]] += t["units"]
        after[t["to"]] -= t["units"]
    assert set(after.values()) <= {0}, (left, s["transfers"])
    assert len(s["transfers"]) == fewest_by_brute_force([*left.values(), pot_party])
    return s


def debts(s: dict[str, Any]) -> tuple[list[str], list[str], dict[str, int]]:
    left = {b["player"]: b["outstanding"] for b in s["balances"]}
    return [p for p, u in left.items() if u < 0], [p for p, u in left.items() if u > 0], left


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(st.data())
def test_random_nights_paid_up_at_random_conserve_money_and_settle_what_is_outstanding(table, data):
    players = list(NAMES[: data.draw(st.integers(2, 5), label="players")])
    options = {"ante": data.draw(st.integers(0, 5), label="ante"), "entry": "totals"}
    sid = table.session(players, players[0], **options)["id"]
    for _ in range(data.draw(st.integers(1, 4), label="hands")):
        table.hand(sid, random_hand(data, players))
    finished = data.draw(st.sampled_from([None, "carry", "refund"]), label="finish")
    if finished:
        table.ok("POST", f"/sessions/{sid}/finish", {"leftover_pot": finished})
    s = check(table, sid)

    for _ in range(data.draw(st.integers(1, 8), label="steps")):
        step = data.draw(st.sampled_from(["pay", "pay", "too much", "take back", "correct"]))
        owing, owed, left = debts(s)
        if step == "pay" and owing and owed:
            source = data.draw(st.sampled_from(owing), label="from")
            target = data.draw(st.sampled_from(owed), label="to")
            most = min(-left[source], left[target])
            units = data.draw(st.integers(1, most), label="units")
            body = {"from": source, "to": target, "units": units}
            table.ok("POST", f"/sessions/{sid}/payments", body, 201)
        elif step == "too much" and owing and owed:
            source, target = owing[0], owed[0]
            body = {"from": source, "to": target, "units": min(-left[source], left[target]) + 1}
            version = table.ok("GET", f"/sessions/{sid}")["version"]
            table.ok("POST", f"/sessions/{sid}/payments", body, 422)
            assert table.ok("GET", f"/sessions/{sid}")["version"] == version
        elif step == "take back" and s["payments"]:
            taken = data.draw(st.sampled_from(s["payments"]), label="taken back")
            table.ok("DELETE", f"/sessions/{sid}/payments/{taken['id']}", status=204)
        elif step == "correct" and not finished:
            # A correction after payments: the balances move, the payments stay.
            table.ok("PUT", f"/sessions/{sid}/hands/1", random_hand(data, players))
        payments = table.ok("GET", f"/sessions/{sid}/payments")
        s = check(table, sid)
        assert s["payments"] == payments
