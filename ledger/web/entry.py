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
from ledger.rules import EntryForm, HandEntry, ResultEntry, RuleError, get_game
from ledger.web.forms import HandForm
from ledger.web.i18n import error_text

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
    """The engine's refusal laid out on the form: beside players, the 'out' choice, or on top."""

    rows: dict[int, list[str]] = field(default_factory=dict)
    out: list[str] = field(default_factory=list)
    general: list[str] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.rows or self.out or self.general)

    def add_row(self, index: int, message: str) -> None:
        messages = self.rows.setdefault(index, [])
        if message not in messages:
            messages.append(message)


def fill(form: HandForm, players: Sequence[str], entry: Mapping[str, Any] | None = None) -> None:
    """One row per player; with ``entry`` (a stored hand as typed), the rows as typed then."""
    typed = {r["player"]: r for r in (entry or {}).get("results", ())}
    while form.results.entries:
        form.results.pop_entry()
    for name in players:
        r = typed.get(name, {})
        form.results.append_entry(
            dict(
                player=name,
                cards=r.get("cards") or "",
                spots="" if r.get("spots") is None else str(r["spots"]),
                sitting_out=bool(r.get("sitting_out")),
                melds=list(r.get("melds") or ()),
            )
        )
    if entry is not None:
        # A stored entry (API.md "Hand entry") names its fields as the form does.
        form.out.data = entry.get(form.out.name) or ""
        form.rummy.data = bool(entry.get(form.rummy.name))


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
            )
            for row in form.results
        ],
        out=form.out.data,
        rummy=form.rummy.data,
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
            results.append(ResultEntry(player=name, spots=row_number(spots_text)))
        else:
            results.append(ResultEntry(player=name, cards=cards))
    entry = HandEntry(results=tuple(results), out=out, rummy=bool(shape.rummy and form.rummy.data))
    return entry, errors


def place(error: RuleError, players: Sequence[str]) -> RowErrors:
    """Where the engine's message goes: beside the row its field names, beside each player it
    names, beside the 'went out' choice, or above the form."""
    placed = RowErrors()
    message = error_text(error)
    match = _RESULT_FIELD.match(error.field or "")
    if match and int(match.group(1)) < len(players):
        placed.add_row(int(match.group(1)), message)
    for name in error.players:
        if name in players:
            placed.add_row(players.index(name), message)
    if not placed.rows:
        if error.field in _OUT_FIELDS:
            placed.out.append(message)
        else:
            placed.general.append(message)
    return placed


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
        for problem in table.misfits(round_no, result.player, i, result.melds or ()):
            errors.add_row(i, error_text(problem))
