""" "Copy as text" on the settle-up: what goes into the group chat says which night of which
group, what is still owed, and what was paid already (issue 29, item 8)."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from html import unescape

from tests.web.pages import html
from tests.web.test_shared_ticks import phone, tick_forms  # noqa: F401  (the fixture)


def copied(page: str) -> list[str]:
    found = re.search(r'<textarea id="settle-text"[^>]*>(.*?)</textarea>', page, re.S)
    assert found, page
    return unescape(found.group(1)).splitlines()


def tonight(group: str = "Thursday crowd") -> str:
    today = datetime.now(UTC)
    return f"{group} · {today:%A} {today.day} {today:%B %Y}"


def test_the_copy_names_the_group_and_the_night_and_lists_the_payments_ticked(phone):  # noqa: F811
    settle = f"{phone.board}/settle"
    page = html(phone.client.get(settle))
    owed = ["Finn pays Enda €0.38", "Rex pays Enda €0.06", "Rex pays John €0.25"]
    title = f"Spot #{phone.session_id}: settling up"
    assert copied(page) == [title, tonight(), *owed]

    finn = next(f for f in tick_forms(page) if f.get("from") == "Finn")
    assert phone.client.post(finn.pop("action"), data=finn).status_code == 302

    ticked = html(phone.client.get(settle))
    assert copied(ticked) == [
        title,
        tonight(),
        *owed[1:],
        "",
        "Paid already:",
        "✓ Finn paid Enda €0.38",
    ]

    for form in tick_forms(ticked):
        if "/payments/" not in form["action"]:
            assert phone.client.post(form.pop("action"), data=form).status_code == 302
    done = html(phone.client.get(settle))
    assert copied(done)[:3] == [title, tonight(), "Everything is paid."]
    assert copied(done)[4:] == [
        "Paid already:",
        "✓ Finn paid Enda €0.38",
        "✓ Rex paid Enda €0.06",
        "✓ Rex paid John €0.25",
    ]


def test_the_dutch_copy_says_the_night_in_dutch(phone):  # noqa: F811
    phone.client.post("/language", data={"lang": "nl", "next": "/"})
    page = html(phone.client.get(f"{phone.board}/settle"))
    line = copied(page)[1]
    assert line.startswith("Thursday crowd · ")
    months = (
        "januari februari maart april mei juni juli augustus september oktober november december"
    )
    assert line.split()[-2] in months.split(), line
