"""A group's room to grow is bounded (LEDGER_GROUP_HANDS), and the host can see the largest
groups and remove one (`ledger groups`, `ledger remove-group`): issue 32.

A group's size is counted in hands: every line of its sessions' history (a session's start,
a hand, a correction, a payment, a join…: the sessions' versions) and every player.
"""

from __future__ import annotations

import io

import pytest
from sqlalchemy import func, select

from ledger.extensions import db
from ledger.models import (
    AccessGrant,
    BankAccount,
    Change,
    Credential,
    GameSession,
    Group,
    Hand,
    Payment,
    Player,
    SessionPlayer,
    TabPayment,
)
from ledger.services import room, upkeep
from tests.api.dbstate import snapshot
from tests.api.helpers import SEED_HAND_1, SEED_HAND_2, Table, error

FULL = (
    "This group is full: it holds the {most} hands this server keeps for a group. "
    "Ask whoever runs the server to make room."
)


def size(app, table: Table) -> int:
    with app.app_context():
        group_id = db.session.scalar(select(Group.id).where(Group.slug == table.slug))
        return int(db.session.scalar(select(room.size_of(group_id))))


def room_for(app, table: Table, more: int) -> int:
    """Bound the group's size to what it holds now and ``more``; the bound."""
    most = size(app, table) + more
    app.config["LEDGER_GROUP_HANDS"] = most
    return most


def test_every_line_of_history_and_every_player_counts_as_a_hand(app, table):
    assert size(app, table) == 0
    sid = table.session()["id"]  # four players join the group, the session starts
    assert size(app, table) == 4 + 1
    table.hand(sid, SEED_HAND_1)
    table.hand(sid, SEED_HAND_2)
    assert size(app, table) == 4 + 3
    table.ok("PUT", f"/sessions/{sid}/hands/2", SEED_HAND_2)  # a correction is kept too
    table.ok("DELETE", f"/sessions/{sid}/hands/2", status=204)  # so is an undo
    assert size(app, table) == 4 + 5


def test_a_full_group_takes_no_more_hands_and_says_so(app, table):
    sid = table.session()["id"]
    most = room_for(app, table, 2)
    table.hand(sid, SEED_HAND_1)
    table.hand(sid, SEED_HAND_2)

    refused = table.post(f"/sessions/{sid}/hands", SEED_HAND_1)
    assert error(refused, 409) == FULL.format(most=most)
    assert table.ok("GET", f"/sessions/{sid}")["hands_played"] == 2
    assert size(app, table) == most


def test_a_full_group_takes_no_new_session_player_correction_or_payment(app, table):
    sid = table.session()["id"]
    table.hand(sid, SEED_HAND_1)
    table.hand(sid, SEED_HAND_2)
    most = room_for(app, table, 0)
    before = size(app, table)

    for response in (
        table.post(
            f"/groups/{table.slug}/sessions",
            {"game": "spot", "players": ["Enda", "John"], "dealer": "John", "options": {}},
        ),
        table.post(f"/groups/{table.slug}/players", {"name": "Maeve"}),
        table.put(f"/sessions/{sid}/hands/1", SEED_HAND_1),
        table.post(f"/sessions/{sid}/payments", {"from": "Finn", "to": "Enda", "units": 5}),
        table.post(f"/sessions/{sid}/players", {"name": "Maeve", "after": "Enda"}),
    ):
        assert error(response, 409) == FULL.format(most=most)
    assert size(app, table) == before


def test_a_full_group_can_still_undo_finish_and_settle(app, table):
    sid = table.session()["id"]
    table.hand(sid, SEED_HAND_1)
    table.hand(sid, SEED_HAND_2)
    room_for(app, table, 0)

    table.ok("DELETE", f"/sessions/{sid}/hands/2", status=204)
    table.ok("DELETE", f"/sessions/{sid}/players/Finn")
    finished = table.ok("POST", f"/sessions/{sid}/finish", {"leftover_pot": "refund"})
    assert finished["status"] == "finished"
    assert table.ok("GET", f"/sessions/{sid}/settlement")["transfers"]


def test_payments_against_the_tab_count_and_a_full_group_takes_no_more(app, table):
    """Issue 38: tab payments skipped the bound (300 of 300, then 1,740 more in 45 s)."""
    from tests.api.test_tab import night_on_tab, pay

    night_on_tab(table)
    before = size(app, table)
    assert pay(table, "Finn", "Enda", "0.01").status_code == 201
    assert size(app, table) == before + 1
    room_for(app, table, 1)
    assert pay(table, "Finn", "Enda", "0.01").status_code == 201
    state = snapshot(app)
    full = pay(table, "Finn", "Enda", "0.01")
    assert error(full, 409) == FULL.format(most=f"{before + 2:,}")
    assert snapshot(app) == state
    with app.app_context():
        listed = upkeep.group_size(table.slug)
    assert listed.size == before + 2


def test_other_groups_have_room_of_their_own(app, table, other):
    sid = table.session()["id"]
    table.hand(sid, SEED_HAND_1)
    table.hand(sid, SEED_HAND_2)
    room_for(app, table, 0)
    assert table.post(f"/sessions/{sid}/hands", SEED_HAND_1).status_code == 409

    theirs = other.session()["id"]
    other.hand(theirs, SEED_HAND_1)
    other.hand(theirs, SEED_HAND_2)
    assert other.post(f"/sessions/{theirs}/hands", SEED_HAND_1).status_code == 409


def test_no_bound_when_the_setting_is_0(app, table):
    sid = table.session()["id"]
    app.config["LEDGER_GROUP_HANDS"] = 0
    for _ in range(3):
        table.hand(sid, SEED_HAND_1)


def test_the_page_shows_the_sentence_beside_the_hand(app, client):
    from tests.web.pages import HAND_1, Phone, html

    phone = Phone(client)
    phone.create_group()
    phone.add_players("Enda", "John", "Rex", "Finn")
    phone.start()
    app.config["LEDGER_GROUP_HANDS"] = 1
    refused = phone.enter(HAND_1)
    assert refused.status_code == 422  # the form again, with the sentence beside it
    assert "This group is full" in html(refused)


def test_a_full_group_on_the_pages_says_so_wherever_something_new_is_asked_for(app, client):
    from tests.web.pages import HAND_1, HAND_2, Phone, html

    phone = Phone(client)
    phone.create_group()
    phone.add_players("Enda", "John", "Rex", "Finn")
    phone.start()
    assert phone.enter(HAND_1).status_code == 302
    app.config["LEDGER_GROUP_HANDS"] = 1

    group = f"/g/{phone.slug}"
    start = {
        "game": "spot",
        "order": ["Enda", "John"],
        "seated": ["Enda", "John"],
        "dealer": "John",
    }
    for path, data in (
        (f"{group}/s/new", start),
        (f"{group}/players", {"name": "Maeve"}),
        (f"{phone.board}/join", {"join-name": "Maeve", "after": "Enda"}),
        (f"{group}/players/1", {"rename-name": "Enda Óg"}),
    ):
        response = client.post(path, data=data)
        assert response.status_code in (302, 422), (path, response.status_code)
        if response.status_code == 302:  # the sentence waits for the next page
            response = client.get(response.headers["Location"])
        assert "This group is full" in html(response), path
    # What takes back or ends still works: undo the hand, then see the scoreboard.
    assert client.post(f"{phone.board}/undo").status_code == 302
    assert "This group is full" in html(phone.enter(HAND_2, out="Enda"))


def test_a_backup_larger_than_a_group_may_grow_is_refused_on_the_restore_page(app, client):
    table = Table(client)
    sid = table.session()["id"]
    table.hand(sid, SEED_HAND_1)
    backup = client.get(f"/api/v1/groups/{table.slug}/backup.json", headers=table.headers).data
    held = size(app, table)
    with app.app_context():
        upkeep.remove_group(table.slug)  # as on a new server

    app.config["LEDGER_GROUP_HANDS"] = held - 1
    data = {"restore-backup": (io.BytesIO(backup), "backup.json")}
    refused = client.post("/restore", data=data, content_type="multipart/form-data")
    assert refused.status_code == 422
    assert (
        f"The backup holds {held} hands, more than the {held - 1} this server keeps for a group."
    ) in refused.get_data(as_text=True)

    app.config["LEDGER_GROUP_HANDS"] = held  # exactly full: restored, with no room to grow
    data = {"restore-backup": (io.BytesIO(backup), "backup.json")}
    assert client.post("/restore", data=data, content_type="multipart/form-data").status_code == 302


def test_the_command_line_restores_any_size(app, client, runner, tmp_path):
    table = Table(client)
    sid = table.session()["id"]
    table.hand(sid, SEED_HAND_1)
    path = tmp_path / "backup.json"
    assert runner.invoke(args=["backup", table.slug, str(path)]).exit_code == 0
    app.config["LEDGER_GROUP_HANDS"] = 1
    result = runner.invoke(args=["restore", str(path), "--slug", "copy-of-it"])
    assert result.exit_code == 0, result.output


# --- The host's commands ----------------------------------------------------------------------


def test_ledger_groups_lists_every_group_the_largest_first(app, client, runner):
    small = Table(client, name="Small Table")
    big = Table(client, name="Big Table", passphrase="another passphrase")
    sid = big.session()["id"]
    big.hand(sid, SEED_HAND_1)
    big.hand(sid, SEED_HAND_2)
    small.ok("POST", f"/groups/{small.slug}/players", {"name": "Maeve"}, 201)
    app.config["LEDGER_GROUP_HANDS"] = 5000

    result = runner.invoke(args=["groups"])

    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "2 groups; each keeps at most 5000 hands (LEDGER_GROUP_HANDS)."
    assert lines[1].split() == [
        "size", "hands", "sessions", "players", "made", "played", "slug", "name",
    ]  # fmt: skip
    assert lines[2].split()[:4] == ["7", "2", "1", "4"]
    assert lines[2].endswith(f"{big.slug}  Big Table")
    assert lines[3].split()[:4] == ["1", "0", "0", "1"]
    assert lines[3].split()[5] == "-"  # never played
    assert lines[3].endswith(f"{small.slug}  Small Table")


def test_ledger_groups_on_an_empty_server(runner, app):
    app.config["LEDGER_GROUP_HANDS"] = 0
    result = runner.invoke(args=["groups"])
    assert result.exit_code == 0, result.output
    assert (
        result.output == "0 groups; each keeps at most any number of hands (LEDGER_GROUP_HANDS).\n"
    )


def rows_of(app, slug: str) -> dict[str, int]:
    """How many rows of each kind the group of ``slug`` has (0 for each once it is gone)."""
    with app.app_context():
        group_id = db.session.scalar(select(Group.id).where(Group.slug == slug))
        sessions = select(GameSession.id).where(GameSession.group_id == group_id)
        count = {
            "groups": select(func.count()).where(Group.id == group_id),
            "players": select(func.count()).where(Player.group_id == group_id),
            "sessions": select(func.count()).where(GameSession.group_id == group_id),
            "hands": select(func.count()).where(Hand.session_id.in_(sessions)),
            "changes": select(func.count()).where(Change.session_id.in_(sessions)),
            "seats": select(func.count()).where(SessionPlayer.session_id.in_(sessions)),
            "payments": select(func.count()).where(Payment.session_id.in_(sessions)),
            "grants": select(func.count()).where(AccessGrant.group_id == group_id),
            "credentials": select(func.count()).where(Credential.group_id == group_id),
            "tab payments": select(func.count()).where(TabPayment.group_id == group_id),
            "accounts": select(func.count()).where(
                BankAccount.player_id.in_(select(Player.id).where(Player.group_id == group_id))
            ),
        }
        return {k: int(db.session.scalar(q) or 0) for k, q in count.items()}


@pytest.fixture
def two_histories(app, client):
    from tests.export.history import Table as HistoryTable
    from tests.export.history import play_a_history

    kept = HistoryTable.new_group(client, "The Local")
    play_a_history(kept)
    gone = HistoryTable.new_group(client, "Spam Table")
    play_a_history(gone)
    gone.ok("POST", f"/groups/{gone.slug}/tokens", {}, status=201)
    return kept, gone


def test_ledger_remove_group_asks_first_then_removes_every_row_of_it(app, runner, two_histories):
    kept, gone = two_histories
    before = rows_of(app, kept.slug)
    held = rows_of(app, gone.slug)
    assert min(n for kind, n in held.items() if kind not in ("tab payments", "accounts")) > 0

    no = runner.invoke(args=["remove-group", gone.slug], input="n\n")
    assert no.exit_code == 1
    assert "Spam Table" in no.output and "sessions" in no.output
    assert "Remove it and all of its history for good?" in no.output
    assert "Nothing was removed." in no.output
    assert rows_of(app, gone.slug)["hands"] > 0

    yes = runner.invoke(args=["remove-group", gone.slug], input="y\n")
    assert yes.exit_code == 0, yes.output
    assert f"{gone.slug} is removed." in yes.output
    assert set(rows_of(app, gone.slug).values()) == {0}
    assert rows_of(app, kept.slug) == before
    # The other group answers as before, its workbook and backup included.
    kept.get(f"/groups/{kept.slug}")
    kept.ok("GET", f"/groups/{kept.slug}/export.xlsx")
    kept.ok("GET", f"/groups/{kept.slug}/backup.json")
    assert gone.call("GET", f"/groups/{gone.slug}").status_code == 401


def test_ledger_remove_group_removes_its_tab_payments_and_bank_accounts(app, runner, table):
    """A payment against the tab names two of the group's players, who could not be removed
    before it (the foreign keys refused the removal)."""
    from tests.api.test_tab import IBAN, night_on_tab, pay

    night_on_tab(table)
    assert pay(table, "Finn", "Enda", "0.10").status_code == 201
    table.ok("PUT", f"/groups/{table.slug}/players/Enda/account", {"iban": IBAN, "name": "E"})
    assert rows_of(app, table.slug)["tab payments"] == 1
    assert rows_of(app, table.slug)["accounts"] == 1

    result = runner.invoke(args=["remove-group", table.slug, "--yes"])

    assert result.exit_code == 0, result.output
    assert set(rows_of(app, table.slug).values()) == {0}


def test_ledger_remove_group_with_yes_asks_nothing(app, runner, two_histories):
    _kept, gone = two_histories
    result = runner.invoke(args=["remove-group", gone.slug, "--yes"])
    assert result.exit_code == 0, result.output
    assert "for good?" not in result.output
    assert set(rows_of(app, gone.slug).values()) == {0}


def test_ledger_remove_group_of_no_such_group_says_so(runner, app):
    result = runner.invoke(args=["remove-group", "no-such-group", "--yes"])
    assert result.exit_code == 1
    assert "There is no group no-such-group." in result.output


# --- The setting ------------------------------------------------------------------------------


def test_the_default_is_a_hundred_thousand(tmp_path, monkeypatch):
    from ledger import create_app

    monkeypatch.setenv("LEDGER_INSTANCE_PATH", str(tmp_path))
    monkeypatch.delenv("LEDGER_GROUP_HANDS", raising=False)
    assert create_app({"SECRET_KEY": "x"}).config["LEDGER_GROUP_HANDS"] == 100_000


@pytest.mark.parametrize("text", ["-1", "a lot", "1.5", "yes"])
def test_a_bound_that_is_not_a_whole_number_stops_the_start_with_a_sentence(
    tmp_path, monkeypatch, text
):
    from ledger import create_app
    from ledger.config import ConfigError

    monkeypatch.setenv("LEDGER_INSTANCE_PATH", str(tmp_path))
    monkeypatch.setenv("LEDGER_GROUP_HANDS", text)
    with pytest.raises(ConfigError, match="LEDGER_GROUP_HANDS must be a whole number"):
        create_app({"SECRET_KEY": "x"})


# --- Grants are rows of the group too -----------------------------------------------------------


def test_a_group_holds_so_many_access_tokens_then_says_how_to_make_room(app, table, monkeypatch):
    from ledger.services.auth import grants

    monkeypatch.setattr(grants, "MOST_TOKENS", 3)
    tokens = [
        table.ok("POST", f"/groups/{table.slug}/tokens", {}, status=201)["token"] for _ in range(3)
    ]
    refused = table.post(f"/groups/{table.slug}/tokens", {})
    assert error(refused, 409) == (
        "This group has 3 access tokens, the most it may have: revoke one that is no longer "
        "used, or change the passphrase to end them all."
    )
    revoked = table.client.delete(
        f"/api/v1/groups/{table.slug}/tokens/current",
        headers={"Authorization": f"Bearer {tokens[0]}"},
    )
    assert revoked.status_code == 204
    table.ok("POST", f"/groups/{table.slug}/tokens", {}, status=201)


def test_past_so_many_sign_ins_the_browser_unused_longest_is_signed_out(app, monkeypatch):
    from ledger.services.auth import grants
    from tests.web.pages import PASSPHRASE, Phone

    monkeypatch.setattr(grants, "MOST_SIGN_INS", 3)
    first = Phone(app.test_client())
    slug = first.create_group()
    phones = [first]
    for _ in range(3):
        phone = app.test_client()
        opened = phone.post("/open", data={"open-group": slug, "open-passphrase": PASSPHRASE})
        assert opened.status_code == 302
        phones.append(Phone(phone, slug))
    assert first.client.get(f"/g/{slug}").status_code == 401  # the one unused longest
    assert [p.client.get(f"/g/{slug}").status_code for p in phones[1:]] == [200] * 3
