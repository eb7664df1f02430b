"""The hand form, between what a phone sends and the engine's HandEntry, and back again.

What each game asks for (a card picker with which ranks, a number pad, who may sit out or
go rummy) is read from the game and the session's options here, so the templates only lay
it out; the engine still judges every entry.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from flask_babel import gettext as _
from wtforms import SelectChoice

from ledger.ids import row_number
from ledger.rules.base import HandEntry, ResultEntry
from ledger.rules.cards import RANKS, SUITS, Card, spot_value
from ledger.rules.errors import RuleError
from ledger.rules.registry import get_game
from ledger.rules.spin import SPIN_RANKS
from ledger.rules.spin import VALUES as SPIN_VALUES
from ledger.web.forms import HandForm
from ledger.web.i18n import error_text

JOKER_VALUE = 15
_RESULT_FIELD = re.compile(r"^results\[(\d+)\](?:\.(\w+))?")


@dataclass(frozen=True)
class Layout:
    """What the hand form offers for this game and these options."""

    ranks: tuple[str, ...]
    values: Mapping[str, int]
    suits: tuple[str, ...]
    suits_required: bool
    show_total: bool  # a spot total means something (not in Spin Rummy, where melds score)
    totals: bool  # a player's spot total may be typed instead of the cards
    sitting_out: bool  # a player may sit a hand out (Spot)
    nobody_out: bool  # a hand may end with nobody out
    rummy: bool  # the player out may have gone rummy (Rummy)
    out_folds: bool  # the player out has no cards to enter
    dealer_sits_out: bool  # the dealer sits every hand out (Spots with five players)


def layout(game_key: str, options: Mapping[str, Any], seated: int) -> Layout:
    game = get_game(game_key)
    if game.key == "spin":
        return Layout(
            ranks=SPIN_RANKS,
            values=dict(SPIN_VALUES),
            suits=SUITS,
            suits_required=True,
            show_total=False,
            totals=False,
            sitting_out=False,
            nobody_out=True,
            rummy=False,
            out_folds=False,
            dealer_sits_out=False,
        )
    ace = int(options.get("ace_value", 1))
    jokers = bool(int(options.get("jokers", 0)))
    values = {rank: spot_value(Card(rank), ace=ace) for rank in RANKS}
    ranks = RANKS
    if jokers:
        values["JK"] = JOKER_VALUE
        ranks = (*RANKS, "JK")
    return Layout(
        ranks=ranks,
        values=values,
        suits=SUITS,
        suits_required=False,
        show_total=True,
        totals=options.get("entry") == "totals",
        sitting_out=game.money,
        nobody_out=game.key != "rummy",
        rummy=game.key == "rummy",
        out_folds=True,
        dealer_sits_out=game.key == "spots" and seated == 5,
    )


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
            {
                "player": name,
                "cards": r.get("cards") or "",
                "spots": "" if r.get("spots") is None else str(r["spots"]),
                "sitting_out": bool(r.get("sitting_out")),
            }
        )
    if entry is not None:
        form.out.data = entry.get("out") or ""
        form.rummy.data = bool(entry.get("rummy"))


def as_typed(form: HandForm) -> dict[str, Any]:
    """What a posted form holds, in the shape ``fill`` takes: to lay the same input out again
    for the players seated now, when someone joined or left after the form was loaded."""
    return {
        "results": [
            {
                "player": row.player.data,
                "cards": row.cards.data,
                "spots": (row.spots.data or "").strip() or None,
                "sitting_out": row.sitting_out.data,
            }
            for row in form.results
        ],
        "out": form.out.data,
        "rummy": form.rummy.data,
    }


def set_out_choices(form: HandForm, players: Sequence[str]) -> None:
    form.out.choices = [SelectChoice("", _("Nobody"))] + [SelectChoice(p) for p in players]


def read(form: HandForm, shape: Layout, dealer: str | None) -> tuple[HandEntry, RowErrors]:
    """The HandEntry the form describes, and the mistakes found before the engine sees it."""
    errors = RowErrors()
    out = (form.out.data or "").strip() or None
    results = []
    for i, row in enumerate(form.results):
        name = (row.player.data or "").strip()
        if shape.dealer_sits_out and name == dealer:
            results.append(ResultEntry(player=name, sitting_out=True))
            continue
        cards = (row.cards.data or "").strip()
        spots_text = (row.spots.data or "").strip() if shape.totals else ""
        if shape.sitting_out and row.sitting_out.data and name != out:
            results.append(ResultEntry(player=name, sitting_out=True))
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
        if error.field == "out" or error.field == "rummy":
            placed.out.append(message)
        else:
            placed.general.append(message)
    return placed
