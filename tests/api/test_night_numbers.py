"""A night's number (issue 36, API.md fourth edition): given per game when a night starts, kept
for life, answered as `number`, and the name of the night everywhere people read it; an Any
game counted and numbered by its name, never added to another's."""

from __future__ import annotations

from io import BytesIO

from openpyxl import load_workbook

from tests.api.helpers import SEED_HAND_1, Table, error

IBAN = "NL91ABNA0417164300"


def tally(table: Table, name: str, players=("Enda", "John")) -> int:
    return table.session(list(players), dealer=players[0], game="tally", name=name)["id"]


def points(table: Table, sid: int, scored: dict[str, int]) -> None:
    table.hand(sid, {"results": [{"player": p, "points": n} for p, n in scored.items()]})


def test_each_game_counts_its_own_nights_and_the_number_is_kept(table):
    first = table.session()
    rummy = table.session(["Enda", "John"], dealer="Enda", game="rummy")
    second = table.session()

    assert (first["number"], rummy["number"], second["number"]) == (1, 1, 2)
    assert table.ok("GET", f"/sessions/{second['id']}")["number"] == 2
    listed = table.ok("GET", f"/groups/{table.slug}")["sessions"]
    assert [(s["game"], s["number"]) for s in listed] == [("spot", 1), ("rummy", 1), ("spot", 2)]


def test_a_deleted_nights_number_goes_to_the_next_night_only_if_it_was_the_last(table):
    """As a table would expect: a night started by mistake and deleted leaves no gap, but no
    night that exists ever changes its number (numbers are names on paper and in chats)."""
    first = table.session()["id"]
    mistake = table.session()["id"]
    table.ok("DELETE", f"/sessions/{mistake}", status=204)
    again = table.session()
    assert again["number"] == 2 and again["id"] != mistake  # the id is never used again

    table.ok("DELETE", f"/sessions/{first}", status=204)
    third = table.session()
    assert third["number"] == 3  # #2 is there: #1 is not given out again after it
    assert table.ok("GET", f"/sessions/{again['id']}")["number"] == 2


def test_any_game_is_numbered_and_counted_by_its_name(table):
    hearts = tally(table, "Hearts")
    whist = tally(table, "Whist")
    again = tally(table, "  hearts ")  # the group's Hearts, whatever the case typed

    answers = [table.ok("GET", f"/sessions/{s}") for s in (hearts, whist, again)]
    assert [(a["options"]["name"], a["number"]) for a in answers] == [
        ("Hearts", 1),
        ("Whist", 1),
        ("Hearts", 2),
    ]
    points(table, hearts, {"Enda": 62, "John": 40})
    points(table, whist, {"Enda": 7, "John": 9})
    for sid in (hearts, whist):
        table.ok("POST", f"/sessions/{sid}/finish", {})

    stats = {p["name"]: p for p in table.ok("GET", f"/groups/{table.slug}/stats")["players"]}
    assert stats["Enda"]["points"] == {"tally:Hearts": 62, "tally:Whist": 7}
    assert stats["Enda"]["games_won"] == {"tally:Hearts": 1}
    assert stats["John"]["games_won"] == {"tally:Whist": 1}
    nights = table.ok("GET", f"/groups/{table.slug}/players/Enda")["sessions"]
    assert [(n["game"], n["number"]) for n in nights] == [("tally", 1), ("tally", 1), ("tally", 2)]

    book = load_workbook(BytesIO(table.call("GET", f"/groups/{table.slug}/export.xlsx").data))
    header = [c.value for c in next(book["Players"].iter_rows(max_row=1))]
    assert "Points (Hearts)" in header and "Points (Whist)" in header
    assert not any(str(h).startswith("Points (Any game") for h in header)
    sessions = [r[:3] for r in list(book["Sessions"].values)[1:]]
    assert sessions == [("Hearts #1", hearts, "Hearts"), ("Whist #1", whist, "Whist")] + [
        ("Hearts #2", again, "Hearts")
    ]
    enda = [r[:3] for r in list(book["Enda"].values)[1:4]]
    assert [r[0] for r in enda] == ["Hearts #1", "Whist #1", "Hearts #2"]
    totals = {r[0]: r[1] for r in book["Enda"].values if r and isinstance(r[0], str)}
    assert (totals["Points (Hearts)"], totals["Points (Whist)"]) == (62, 7)
    assert totals["Games won (Hearts)"] == 1


def test_the_bank_qr_and_a_message_name_the_night_by_its_number(table):
    table.session(["Enda", "John"], dealer="Enda", game="rummy")  # another game first
    table.session(["Enda", "John"], dealer="Enda", game="rummy")
    sid = table.session()["id"]
    assert sid == 3
    table.hand(sid, SEED_HAND_1)
    table.ok("PUT", f"/groups/{table.slug}/players/John/account", {"iban": IBAN, "name": "J"})

    transfers = table.ok("GET", f"/sessions/{sid}/settlement")["transfers"]
    coded = [t["epc"] for t in transfers if "epc" in t]
    assert coded and all(c.endswith("\nPub Ledger Thursday Crowd Spot #1") for c in coded)

    message = error(table.delete(f"/sessions/{sid}"), 409)
    assert message == "Spot #1 has hands: only a session with no hands can be deleted."
    fix = table.put(f"/sessions/{sid}/hands/9", SEED_HAND_1)
    assert error(fix, 404) == "Spot #1 has no hand 9."


def test_the_workbook_and_its_file_name_name_the_night(table):
    table.session(["Enda", "John"], dealer="Enda", game="rummy")
    sid = table.session()["id"]
    table.hand(sid, SEED_HAND_1)

    response = table.call("GET", f"/sessions/{sid}/export.xlsx")

    assert f"{table.slug}-spot-1-" in response.headers["Content-Disposition"]
    book = load_workbook(BytesIO(response.data))
    info = dict(zip(*list(book["Summary"].values)[:2], strict=False))
    assert (info["Session"], info["Id"]) == ("Spot #1", sid)
    hands = [r[:2] for r in list(book["Hands"].values)[1:]]
    assert hands == [(1, "Finn")]
