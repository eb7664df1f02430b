"""The session workbooks of the games of RULES.md §8–§12 carry each game's own columns: Gin
Rummy's ending and bonuses, Rummy 500's melded and in-hand points, Kaluki's penalty points,
who is eliminated and the buy-ins."""

from __future__ import annotations

from tests.export.history import Table
from tests.export.sheets import load, rows, table
from tests.export.test_new_games_backup import play_new_games


def workbook(made: Table, sid: int):
    return load(made.ok("GET", f"/sessions/{sid}/export.xlsx"))


def players(ws) -> dict[str, dict]:
    header_row = next(i for i, row in enumerate(rows(ws), 1) if row and row[0] == "Player")
    return {r["Player"]: r for r in table(ws, header_row)}


def test_the_new_games_workbooks_have_their_own_columns(client):
    made = Table.new_group(client)
    ids = play_new_games(made)

    gin = workbook(made, ids["gin"])
    hands = table(gin["Hands"])
    assert [h["Ending"] for h in hands] == ["draw", "knock"]
    ann = players(gin["Summary"])["Ann"]
    assert (ann["Hand points"], ann["Game bonus"], ann["Boxes won"], ann["Box points"]) == (
        18, 200, 1, 25,
    )  # fmt: skip
    assert ann["Final score (points)"] == 243  # the final total, bonuses in

    r500 = table(workbook(made, ids["rummy500"])["Hands"])
    assert (r500[0]["Ann melded"], r500[0]["Ann in hand"], r500[0]["Ann points"]) == (6, 0, 6)
    assert (r500[0]["Bob melded"], r500[0]["Bob in hand"]) == (0, 5)

    kaluki = workbook(made, ids["kaluki"])
    first = table(kaluki["Hands"])[0]
    assert (first["Bob spots"], first["Bob points"], first["Cas points"]) == (160, 160, 20)
    bob = players(kaluki["Summary"])["Bob"]
    assert (bob["Points"], bob["Eliminated"], bob["Buy-ins"]) == (40, "no", 2)
