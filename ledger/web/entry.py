"""The hand form, between what a phone sends and the engine's HandEntry, and back again.

What each game asks for (a card picker with which ranks, a number pad, who may sit out or
go rummy) is the engine's answer for the game and the session's options (``EntryForm``,
ledger/rules/table.py), so the templates only lay it out; the engine still judges every entry.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from flask_babel import gettext as _
from wtforms import SelectChoice

from ledger.ids import row_number
from ledger.rules import EntryForm, HandEntry, ResultEntry, RuleError, cards_as_typed, get_game
from ledger.web.forms import HandForm
from ledger.web.i18n import error_text, page_cards_language

_RESULT_FIELD = re.compile(r"^results\[(\d+)\](?:\.(\w+))?")
# The entry's fields beside its results (who went out, and whether rummy): an error about one
# goes beside the "went out" choice.
_OUT_FIELDS = frozenset(f.name for f in fields(HandEntry) if f.name != "results")


def layout(game_key: str, options: Mapping[str, Any], seated: int) -> EntryForm:
    """What the hand form offers for this game, its options and this many seated: the engine's
    answer (ledger/rules/table.py)."""
    return get_game(game_key).entry_form(options, seated)


@dataclass
class RowErrors:
    """The engine's refusal laid out on the form: beside players, the 'out' choice, or on top.

    Every problem of the refusal is placed (RULES.md §1, "Every mistake at once"); ``boxes``
    says which of a row's boxes the row's first problem was about (the field's last name, as
    the form names its boxes), so the page can put the focus in it.
    """

    rows: dict[int, list[str]] = field(default_factory=dict)
    out: list[str] = field(default_factory=list)
    general: list[str] = field(default_factory=list)
    boxes: dict[int, str] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.rows or self.out or self.general)

    def add_row(self, index: int, message: str, box: str | None = None) -> None:
        messages = self.rows.setdefault(index, [])
        if message not in messages:
            messages.append(message)
        if box is not None:
            self.boxes.setdefault(index, box)

    @property
    def count(self) -> int:
        """How many mistakes are marked on the form, beside rows and the 'out' choice."""
        return len({m for messages in self.rows.values() for m in messages} | set(self.out))

    @property
    def first_row(self) -> int | None:
        """The first row with a mistake, where the focus goes: it is first on the page."""
        return min(self.rows) if self.rows else None

    def focus_box(self, index: int) -> str:
        """Which of row ``index``'s boxes its problem is about ("" for none in particular)."""
        return self.boxes.get(index, "")


def fill(
    form: HandForm,
    players: Sequence[str],
    entry: Mapping[str, Any] | None = None,
    *,
    stored: bool = False,
) -> None:
    """One row per player; with ``entry`` (a hand as typed), the rows as typed then. A
    ``stored`` entry's cards are in English: they are shown in the page's letters."""
    typed = {r["player"]: r for r in (entry or {}).get("results", ())}
    language = page_cards_language()
    while form.results.entries:
        form.results.pop_entry()
    for name in players:
        r = typed.get(name, {})
        form.results.append_entry(
            dict(
                player=name,
                # Stored in English; shown as the page's players type them ("Vh" in Dutch).
                cards=cards_as_typed(r.get("cards") or "", language if stored else "en"),
                spots="" if r.get("spots") is None else str(r["spots"]),
                sitting_out=bool(r.get("sitting_out")),
                melds=list(r.get("melds") or ()),
                melded=cards_as_typed(r.get("melded") or "", language if stored else "en"),
                **{k: _text(r.get(k)) for k in ("melded_points", "low_aces", "points")},
            )
        )
    if entry is not None:
        # A stored entry (API.md "Hand entry") names its fields as the form does.
        form.out.data = entry.get(form.out.name) or ""
        form.rummy.data = bool(entry.get(form.rummy.name))
        form.ending.data = entry.get(form.ending.name) or ""


def _text(value: Any) -> str:
    return "" if value is None else str(value)


def as_typed(form: HandForm) -> dict[str, Any]:
    """What a posted form holds, in the shape ``fill`` takes: to lay the same input out again
    for the players seated now, when someone joined or left after the form was loaded."""
    return dict(
        results=[
            dict(
                player=row.player.data,
                cards=row.cards.data,
                spots=(row.spots.data or "").strip() or None,
                sitting_out=row.sitting_out.data,
                melds=list(row.melds.data),
                melded=row.melded.data,
                melded_points=row.melded_points.data,
                low_aces=row.low_aces.data,
                points=row.points.data,
            )
            for row in form.results
        ],
        out=form.out.data,
        rummy=form.rummy.data,
        ending=form.ending.data,
    )


def set_out_choices(form: HandForm, players: Sequence[str]) -> None:
    form.out.choices = [SelectChoice("", _("Nobody"))] + [SelectChoice(p) for p in players]


def read(form: HandForm, shape: EntryForm, dealer: str | None) -> tuple[HandEntry, RowErrors]:
    """The HandEntry the form describes, and the mistakes found before the engine sees it."""
    errors = RowErrors()
    # Where who went out changes nothing the form does not ask, and takes no stray choice.
    out = (form.out.data or "").strip() or None if shape.out_choice else None
    results = []
    dealt_in = shape.dealt_in([(row.player.data or "").strip() for row in form.results], dealer)
    for i, row in enumerate(form.results):
        name = (row.player.data or "").strip()
        if name not in dealt_in:  # the dealer sits the hand out (the game says when)
            results.append(ResultEntry(player=name, sitting_out=True))
            continue
        cards = (row.cards.data or "").strip()
        spots_text = (row.spots.data or "").strip() if shape.totals else ""
        if shape.sitting_out and row.sitting_out.data and name != out:
            results.append(ResultEntry(player=name, sitting_out=True))
        elif shape.points_only:
            results.append(ResultEntry(player=name, points=_points(row, i, errors)))
        elif melds := _melds_typed(row, shape):
            if cards:
                errors.add_row(
                    i, _("Give either %(name)s's cards or the melds, not both.", name=name)
                )
            results.append(ResultEntry(player=name, melds=melds))
        elif spots_text:
            if cards:
                errors.add_row(
                    i, _("Give either %(name)s's cards or the total, not both.", name=name)
                )
            spots = row_number(spots_text)
            results.append(ResultEntry(player=name, spots=spots, **_melded(row, shape, i, errors)))
        else:
            results.append(ResultEntry(player=name, cards=cards, **_melded(row, shape, i, errors)))
    ending = (form.ending.data or "").strip() or None if shape.endings else None
    if ending in shape.no_result_endings:
        results, out = [], None  # a draw: the page asks for nothing more
    entry = HandEntry(
        results=tuple(results),
        out=out,
        rummy=bool(shape.rummy and form.rummy.data),
        cards_language=page_cards_language(),
        ending=ending,
    )
    return entry, errors


_WHOLE = re.compile(r"^-?[0-9]{1,9}$")
_FRACTION = re.compile(r"^-?[0-9]{1,9}[.,][0-9]{1,6}$")


def _points(row: Any, index: int, errors: RowErrors) -> int | float | None:
    """A row's points as typed (Any game): a whole number, maybe below zero; a fraction is
    passed on for the engine to refuse in words ("not 7.5"); anything else is marked here."""
    text = (row.points.data or "").strip().replace("−", "-").replace(" ", "")
    if not text:
        return None
    if _WHOLE.match(text):
        return int(text)
    if _FRACTION.match(text):
        number = float(text.replace(",", "."))
        return int(number) if number.is_integer() else number  # 7.0 is kept as 7
    errors.add_row(index, _("Give a whole number, like 12 or -5."), "points")
    return None


def _melded(row: Any, shape: EntryForm, index: int, errors: RowErrors) -> dict[str, Any]:
    """Rummy 500's melded points or cards, with the aces counted 1, where the game asks."""
    if not shape.melded:
        return {}
    found: dict[str, Any] = {"melded": (row.melded.data or "").strip() or None}
    for box in ("melded_points", "low_aces"):
        text = (getattr(row, box).data or "").strip()
        found[box] = row_number(text) if text else None
        if text and found[box] is None:
            errors.add_row(index, _("Give a whole number."), box)
    return found


def place(error: RuleError, players: Sequence[str]) -> RowErrors:
    """Where each of the engine's problems goes (its ``problems``, every one found): beside
    the row its field names, beside each player it names, beside the 'went out' choice, or
    above the form."""
    placed = RowErrors()
    for problem in error.problems:
        _place_one(placed, problem, players)
    return placed


def _place_one(placed: RowErrors, problem: RuleError, players: Sequence[str]) -> None:
    message = error_text(problem)
    rows: list[int] = []
    match = _RESULT_FIELD.match(problem.field or "")
    if match and int(match.group(1)) < len(players):
        rows.append(int(match.group(1)))
    rows += [players.index(name) for name in problem.players if name in players]
    box = match.group(2) if match else None
    for index in rows:
        placed.add_row(index, message, box if match and index == int(match.group(1)) else None)
    if rows:
        return
    if problem.field in _OUT_FIELDS:
        if message not in placed.out:
            placed.out.append(message)
    elif message not in placed.general:
        placed.general.append(message)


def _melds_typed(row: Any, shape: EntryForm) -> tuple[str, ...]:
    """The melds boxes a player filled in (empty boxes left out), where the game takes melds."""
    if not shape.melds:
        return ()
    return tuple(t.strip() for t in (row.melds.data or ())[: shape.melds] if t and t.strip())


def check_contract(errors: RowErrors, game_key: str, round_no: int, typed: HandEntry) -> None:
    """Melds laid out that round ``round_no``'s contract does not take, beside their rows.

    The page's own check, before the engine scores: a player lays out the contract's melds, so
    a set typed in a round of two runs is a slip to fix, not a meld that silently scores 0.
    """
    table = get_game(game_key).table
    for i, result in enumerate(typed.results):
        for problem in table.misfits(
            round_no, result.player, i, result.melds or (), typed.cards_language
        ):
            errors.add_row(i, error_text(problem))
