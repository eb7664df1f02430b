import json
from ledger.backup import backup_group, restore_group
from ledger.extensions import db
from tests.export.history import Table, skat_deal, PASSPHRASE


def test_dbg(app, client):
    table = Table.new_group(client)
    s = table.new_session("skat", ["Ann", "Bob", "Cas", "Dee"], "Ann")
    skat_deal(table, s, "Bob", True)
    skat_deal(table, s, "Cas", True)
    table.ok("POST", f"/sessions/{s}/finish", {})
    group = table.get(f"/groups/{table.slug}")
    bob = next(p["id"] for p in group["players"] if p["name"] == "Bob")
    assert (
        client.post(
            "/open", data={"open-group": table.slug, "open-passphrase": PASSPHRASE}
        ).status_code
        == 302
    )
    r = client.post(f"/g/{table.slug}/players/{bob}", data={"rename-name": "Bobby"})
    print("RENAME", r.status_code, table.get(f"/sessions/{s}")["players"])
    table.ok("POST", f"/sessions/{s}/reopen", {})
    skat_deal(table, s, "Bobby", True)
    table.ok("POST", f"/sessions/{s}/finish", {})
    with app.app_context():
        data = json.loads(json.dumps(backup_group(table.slug)))
        db.session.rollback()
        data["group"]["slug"] = "x"
        restore_group(data)
