"""What makes a page cheaper to build (links remembered, the catalogue read once per render)
changes nothing a phone sees: each request's language, the prefix, a static file's version."""

from __future__ import annotations

import re
import shutil

from tests.web.pages import HAND_1, HAND_2, PASSPHRASE, Phone, html


def test_phones_in_two_languages_each_get_their_own_on_every_new_scoreboard(app, client):
    dutch = Phone(client)
    dutch.create_group()
    dutch.add_players("Enda", "John", "Rex", "Finn")
    dutch.start()
    english = app.test_client()
    english.post("/open", data={"open-group": dutch.slug, "open-passphrase": PASSPHRASE})
    client.set_cookie("lang", "nl")
    english.set_cookie("lang", "en")
    for hand in (HAND_1, HAND_2, HAND_1):
        assert dutch.enter(hand, out="Enda" if hand is HAND_2 else None).status_code == 302
        # Built in turn, one after the other, by the same process: each its own language in
        # the template's texts and in those the code writes (summaries, "Enter hand").
        for phone, own, other in (
            (client, ("Afrekenen", "Saldi", "Spel invoeren", "Taal:"), ("Settle up", "Balances")),
            (english, ("Settle up", "Balances", "Enter hand", "Language:"), ("Afrekenen", "Saldi")),
        ):
            page = html(phone.get(dutch.board))
            assert all(text in page for text in own), own
            assert not any(text in page for text in other), other
        assert "betaalt" in html(client.get(dutch.board))
        assert "betaalt" not in html(english.get(dutch.board))


def test_links_follow_the_prefix_the_app_is_served_under(client):
    for prefix in ("", "/ledger", "", "/other"):
        page = html(client.get("/", base_url=f"http://localhost{prefix}"))
        assert f'action="{prefix}/open"' in page
        assert re.search(rf'href="{prefix}/static/style\.css\?v=[0-9a-f]+"', page)


def test_a_static_file_changed_while_serving_is_linked_by_its_new_version(app, client, tmp_path):
    folder = tmp_path / "static"
    shutil.copytree(app.static_folder, folder)
    app.static_folder = str(folder)

    def linked() -> str:
        return re.search(r"/static/style\.css\?v=([0-9a-f]+)", html(client.get("/")))[1]

    first = linked()
    assert linked() == first
    (folder / "style.css").write_text("body { color: blue }")
    assert linked() != first


def test_only_static_addresses_get_values_from_the_apps_url_defaults(app):
    """The templates' url_for (ledger/web/urls.py) asks the app's url_defaults only for the
    endpoints in STATIC_ENDPOINTS: another url_defaults would leave its values out of every
    other link. Every link equals Flask's own."""
    from flask import url_for

    from ledger.web.assets import add_version
    from ledger.web.urls import STATIC_ENDPOINTS

    assert dict(app.url_default_functions) == {None: [add_version]}
    assert STATIC_ENDPOINTS == {"static"}
    links = app.jinja_env.globals["url_for"]
    with app.test_request_context("/"):
        for endpoint, values in [
            ("static", {"filename": "style.css"}),
            ("hands.show", {"slug": "thursday", "session_id": 3, "number": 12}),
            ("history.player", {"slug": "thursday", "name": "Rex & Co"}),
            ("sessions.show", {"slug": "thursday", "session_id": 3, "saved": True}),
        ]:
            assert links(endpoint, **values) == url_for(endpoint, **values)
        assert "?v=" in links("static", filename="style.css")  # the file's version
