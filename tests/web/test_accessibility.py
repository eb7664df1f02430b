"""What a screen reader needs from every page: unique ids, a name on every control, headings."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest

from tests.web.pages import HAND_1, HAND_2, Phone, html

CONTROLS = {"input", "select", "textarea", "button"}
UNNAMED_INPUTS = {"hidden", "submit"}


class Page(HTMLParser):
    """The ids, the labels and the controls of a page, and which controls have a name."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: list[str] = []
        self.label_for: set[str] = set()
        self.labels_open = 0
        self.controls: list[tuple[str, dict[str, str | None], bool]] = []
        self.button_text: list[list[str]] = []
        self.headings: list[str] = []
        self.in_template = 0
        self.in_button = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "template":
            self.in_template += 1
        if a.get("id") and not self.in_template:
            self.ids.append(a["id"])
        if tag == "label":
            self.labels_open += 1
            if a.get("for"):
                self.label_for.add(a["for"])
        if tag in ("h1", "h2", "h3"):
            self.headings.append(tag)
        if tag in CONTROLS:
            if tag == "input" and a.get("type") in UNNAMED_INPUTS:
                return
            self.controls.append((tag, a, self.labels_open > 0))
            if tag == "button":
                self.button_text.append([])
                self.in_button = True

    def handle_endtag(self, tag):
        if tag == "button":
            self.in_button = False
        if tag == "label":
            self.labels_open -= 1
        if tag == "template":
            self.in_template -= 1

    def handle_data(self, data):
        if self.in_button and data.strip():
            self.button_text[-1].append(data.strip())

    def unnamed(self) -> list[str]:
        missing = []
        texts = iter(self.button_text)
        for tag, a, wrapped in self.controls:
            named = (
                wrapped
                or a.get("aria-label")
                or a.get("aria-labelledby")
                or (a.get("id") in self.label_for)
            )
            if tag == "button":
                named = named or bool(next(texts))
            if not named:
                missing.append(f"<{tag} {a}>")
        return missing


@pytest.fixture
def night(client) -> Phone:
    phone = Phone(client)
    phone.create_group()
    phone.add_players("Enda", "John", "Rex", "Finn")
    phone.start(entry="totals")
    phone.enter(HAND_1)
    phone.enter(HAND_2, out="Enda")
    return phone


def pages(phone: Phone) -> list[str]:
    board = phone.board
    return [
        "/",
        f"/g/{phone.slug}",
        f"/g/{phone.slug}/invite",
        f"/g/{phone.slug}/s/new",
        board,
        f"{board}/hands",
        f"{board}/hands/new",
        f"{board}/hands/1",
        f"{board}/hands/1/edit",
        f"{board}/settle",
        "/no-such-page",
    ]


def test_every_control_has_a_name_and_every_id_is_unique(night):
    for path in pages(night):
        page = Page()
        page.feed(html(night.client.get(path)))
        assert page.unnamed() == [], path
        duplicates = {i for i in page.ids if page.ids.count(i) > 1}
        assert duplicates == set(), path


def test_every_page_has_one_main_heading(night):
    for path in pages(night):
        page = Page()
        page.feed(html(night.client.get(path)))
        assert page.headings.count("h1") == 1, path
        assert page.headings[0] == "h1", path


def test_a_refused_hand_keeps_names_and_ids_in_order(night):
    response = night.enter(dict(HAND_1, Enda="QS 10", John="QS 3"))
    page = Page()
    page.feed(html(response))
    assert page.unnamed() == []
    assert len(page.ids) == len(set(page.ids))
