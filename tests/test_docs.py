"""The README and docs/ point only at files a clone of the repository has."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LINK = re.compile(r"\]\(([^)\s]+)\)")
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
# The German players' guide and rule book (docs/de): a clone has them too, and they link back
# to the English ones (``../rules.md``), which is inside the repository.
GERMAN = sorted((ROOT / "docs/de").glob("*.md"))


def local_links(document: Path) -> list[str]:
    """The links of a markdown file that are not web addresses or anchors."""
    targets = LINK.findall(document.read_text(encoding="utf-8"))
    return [t for t in targets if not re.match(r"[a-z]+:", t) and not t.startswith("#")]


def test_every_link_of_the_readme_and_docs_names_a_file_in_the_repository():
    missing = [
        f"{doc.relative_to(ROOT)} -> {target}"
        for doc in [*DOCUMENTS, *GERMAN]
        for target in local_links(doc)
        if not (doc.parent / target.split("#")[0]).resolve().is_relative_to(ROOT)
        or not (doc.parent / target.split("#")[0]).exists()
    ]
    assert missing == []


def test_nothing_points_at_the_specification_outside_the_repository():
    for doc in DOCUMENTS:
        text = doc.read_text(encoding="utf-8")
        assert not re.search(r"shared/|RULES\.md|API\.md|\.\./", text), doc.name
    for doc in GERMAN:  # "../" is their way back to docs/: the links test keeps it in the clone
        text = doc.read_text(encoding="utf-8")
        assert not re.search(r"shared/|RULES\.md|API\.md", text), doc.name


def test_the_readme_links_the_rules_the_players_guide_and_the_api_reference():
    linked = set(local_links(ROOT / "README.md"))
    assert {"docs/rules.md", "docs/players.md", "docs/api.md"} <= linked


# The rule book's numbered sections, in its order: the API reference and the changelog point
# at them as "§n", in both languages, so a clone needs every one of them.
SECTIONS = ["1", "2", "3", "4", "5", "6", "6a", "6b", "6c", "7", "8", "9", "10", "11", "12"]
SECTIONS += ["13", "14", "15", "16", "17", "18", "19", "20"]


def numbered_sections(document: str) -> list[str]:
    return re.findall(r"^## (\d+[a-z]?)\.", (ROOT / document).read_text(encoding="utf-8"), re.M)


def test_the_rules_cover_every_section_of_the_rule_book():
    headings = numbered_sections("docs/rules.md")
    assert headings[: len(SECTIONS)] == SECTIONS
    # The sections after them (a game added later has its own) follow in the rule book's order.
    numbers = [int(re.match(r"\d+", h).group()) for h in headings]  # type: ignore[union-attr]
    assert numbers == sorted(numbers)


def test_the_german_rules_have_the_same_sections_as_the_english():
    assert numbered_sections("docs/de/rules.md") == numbered_sections("docs/rules.md")


README = (ROOT / "README.md").read_text(encoding="utf-8")
SERVE = "python3 -m venv .venv && .venv/bin/pip install -e . && .venv/bin/ledger serve"
TEST = "python3 -m venv .venv && .venv/bin/pip install -e '.[test]' && .venv/bin/python -m pytest"
FIRST_SCREEN = 60  # lines: what a laptop's browser shows of a README before scrolling, roughly


def test_the_readme_starts_with_the_two_commands_and_the_first_night():
    """Issue 37: a newcomer finds how to start it, what to do next, and how to test it, on
    the first screen; the rest is in docs/."""
    lines = README.splitlines()
    assert len(lines) <= 150
    first = "\n".join(lines[:FIRST_SCREEN])
    assert SERVE in first and TEST in first
    night = first[first.index("## Your first night") :]
    steps = re.findall(r"^(\d)\. \*\*([^*]+)\*\*", night, re.M)
    assert [n for n, _ in steps] == ["1", "2", "3", "4", "5"]
    words = " ".join(step for _, step in steps).lower()
    for deed in ("group", "players", "invite", "start a night", "hand", "settle up"):
        assert deed in words, deed


def test_the_readme_links_where_the_rest_went():
    linked = set(local_links(ROOT / "README.md"))
    moved = ["hosting", "configuration", "api", "benchmarks", "tests", "layout"]
    assert {f"docs/{name}.md" for name in moved} <= linked
