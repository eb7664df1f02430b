"""The tab and bank accounts in a backup (RULES.md §6a, §6b): carried and restored, the
restore's checks refusing a crafted file, and the account never in a workbook or a CSV."""

from __future__ import annotations

import io
import json
import zipfile

import pytest

from ledger.backup import BackupError, backup_group, restore_group
from ledger.extensions import db
from tests.api.helpers import SEED_HAND_1, SEED_HAND_2, SEED_PLAYERS
from tests.export.history import Table, play_a_history
from tests.export.test_restore_refusals import refused

IBAN = "NL91ABNA0417164300"


def paid_at_the_table(data: dict) -> None:
    """A payment at the table for the night on the tab, as recording one stores it."""
    (night,) = data["sessions"]
    ids = {p["name"]: p["id"] for p in data["players"]}
    paid = {"payer_id": ids["Finn"], "payee_id": ids["Enda"], "units": 5, "id": 7}
    data["payments"].append({**paid, "session_id": night["id"], "at": night["finished_at"]})


@pytest.fixture
def kept(app, client) -> tuple[Table, dict]:
    """A group with a night on the tab, a payment against it and an account, and its backup."""
    made = Table.new_group(client)
    sid = made.new_session("spot", SEED_PLAYERS, "Finn")
    made.ok("POST", f"/sessions/{sid}/hands", SEED_HAND_1, 201)
    made.ok("POST", f"/sessions/{sid}/hands", SEED_HAND_2, 201)
    made.ok("POST", f"/sessions/{sid}/finish", {"settle": "tab"})
    made.ok("PUT", f"/groups/{made.slug}/players/Enda/account", {"iban": IBAN, "name": "E. B"})
    body = {"from": "Finn", "to": "Enda", "amount": "0.20", "currency": "EUR"}
    made.ok("POST", f"/groups/{made.slug}/tab/payments", body, 201)
    with app.app_context():
        data = backup_group(made.slug)
        db.session.rollback()
    return made, json.loads(json.dumps(data))


def test_the_tab_and_accounts_are_backed_up_and_restored(app, client, kept):
    made, data = kept
    assert [a["iban"] for a in data["bank_accounts"]] == [IBAN]
    assert [p["cents"] for p in data["tab_payments"]] == [20]
    assert [s["on_tab"] for s in data["sessions"]] == [True]

    with app.app_context():
        copy = restore_group(data, slug="the-copy")
    table = Table(client, copy.slug)

    def same(tab: dict) -> dict:  # ids differ after a restore; everything else is the same
        return {**tab, "sessions": len(tab["sessions"]),
                "payments": [{**p, "id": 0} for p in tab["payments"]]}  # fmt: skip

    assert [same(t) for t in table.get(f"/groups/{copy.slug}/tab")["tabs"]] == [
        same(t) for t in made.get(f"/groups/{made.slug}/tab")["tabs"]
    ]
    (tab,) = table.get(f"/groups/{copy.slug}/tab")["tabs"]
    assert [(p["from"], p["to"], p["amount"]) for p in tab["payments"]] == [
        ("Finn", "Enda", "0.20")
    ]
    assert any("epc" in t for t in tab["transfers"])


def test_a_backup_from_before_the_tab_still_restores(app, kept):
    _, data = kept
    del data["tab_payments"], data["bank_accounts"]
    for s in data["sessions"]:
        del s["on_tab"]
    for c in data["changes"]:  # nothing went on a tab before there was one
        if c["kind"] == "session.finished":
            del c["after"]["settle"]
    with app.app_context():
        restore_group(data, slug="from-before")


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda d: d["bank_accounts"][0].update(iban="NL92ABNA0417164300"), "bank account"),
        (lambda d: d["bank_accounts"][0].update(iban="nl91 abna 0417 1643 00"), "bank account"),
        (lambda d: d["bank_accounts"][0].update(name="E\nB"), "bank account"),
        (lambda d: d["bank_accounts"][0].update(name="x" * 10_000), "damaged"),
        (lambda d: d["bank_accounts"].append({**d["bank_accounts"][0], "id": 99}), "two bank"),
        (lambda d: d["tab_payments"][0].update(cents=0), "pays nobody"),
        (
            lambda d: d["tab_payments"][0].update(payee_id=d["tab_payments"][0]["payer_id"]),
            "pays nobody",
        ),
        (lambda d: d["tab_payments"][0].update(payer_id=123456), "does not hold"),
        (lambda d: d["sessions"][0].update(on_tab="yes"), "damaged"),
        # Its history says the night went on the tab: off it, the group would answer otherwise.
        (lambda d: d["sessions"][0].update(on_tab=False), "whether session .* is on the tab"),
        # No payment is made for a night on the tab (it is paid on the tab's settle-up).
        (paid_at_the_table, "whether session .* is on the tab"),
    ],
)
def test_a_crafted_tab_or_account_is_refused(app, kept, damage, message):
    _, data = kept
    damage(data)
    with app.app_context(), pytest.raises(BackupError, match=message):
        restore_group(data, slug="crafted")


def test_a_night_put_on_the_tab_in_the_file_alone_is_refused(app, client):
    """The tab flag is the history's: a finished night the file alone puts on the tab (the
    fuzz test's find, issue 37) would restore as a group whose tab and settle-ups answer
    otherwise than the original's. Refused, whatever night it is."""
    made = Table.new_group(client)
    play_a_history(made)
    with app.app_context():
        data = json.loads(json.dumps(backup_group(made.slug)))
        db.session.rollback()
    finished = [s["id"] for s in data["sessions"] if s["status"] == "finished"]
    assert len(finished) == 3
    for sid in finished:
        crafted = json.loads(json.dumps(data))
        crafted["group"]["slug"] = f"crafted-{sid}"
        next(s for s in crafted["sessions"] if s["id"] == sid)["on_tab"] = True
        refused(app, crafted, "whether session .* is on the tab is not as its history")


def test_an_account_is_never_in_a_workbook_or_a_csv(client, kept):
    made, _ = kept
    sid = made.get(f"/groups/{made.slug}")["sessions"][0]["id"]
    downloads = [
        made.ok("GET", f"/groups/{made.slug}/export.xlsx"),
        made.ok("GET", f"/sessions/{sid}/export.xlsx"),
        made.ok("GET", f"/sessions/{sid}/hands.csv"),
        made.ok("GET", f"/sessions/{sid}/payments.csv"),
    ]
    for raw in downloads:
        texts = [raw]
        if raw[:2] == b"PK":
            with zipfile.ZipFile(io.BytesIO(raw)) as book:
                texts = [book.read(n) for n in book.namelist()]
        assert not any(b"ABNA" in t or b"E. B" in t for t in texts)
