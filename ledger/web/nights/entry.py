"""The hand form, between what a phone sends and the game's entry, and back again.

The shared rows of cards offer what the engine answers for the game and the session's options
(``EntryForm``, ledger/rules/table.py: a card picker with which ranks, who may sit out or go
rummy); what only one game asks (melds, endings, points) is in that game's own template
(templates/games/<key>/entry.html), read back by the game itself (``Game.form_result`` and
``Game.form_entry``). The engine still judges every entry.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from flask_babel import gettext as _
from wtforms import SelectChoice

from ledger.ids import row_number
from ledger.rules import (
    EntryForm,
    Game,
    HandEntry,
    ResultEntry,
    RuleError,
    cards_as_typed,
    entries,
    get_game,
)
from ledger.rules.entries import RowErrors
from ledger.rules.errors import Problems
from ledger.web.forms import HandForm
from ledger.words.language import error_text, page_cards_language

_RESULT_FIELD = re.compile(r"^results\[(\d+)\](?:\.(\w+))?")
# The shared form's own fields: everything else a form posts is its game's.
_CORE_ROW = frozenset(entries.field_names(ResultEntry))
_CORE_TOP = frozenset((*entries.field_names(HandEntry), "request_id", "version", "number"))
_CORE_TOP |= {"csrf_token"}


def layout(game_key: str, options: Mapping[str, Any], seated: int) -> EntryForm:
    """What the hand form's rows of cards offer (the engine's answer: ``Game.entry_form``)."""
    return get_game(game_key).entry_form(options, seated)


def fill(
    form: HandForm,
    players: Sequence[str],
    entry: Mapping[str, Any] | None = None,
    *,
    stored: bool = False,
    game: Game | None = None,
) -> None:
    """One row per player; with ``entry`` (as typed, or as ``stored``: its cards shown in the
    page's letters) the rows as then, the ``game``'s own boxes in ``form.more_rows``/``more``."""
    typed = {r["player"]: r for r in (entry or {}).get("results", ())}
    language = page_cards_language() if stored else "en"
    kinds = {} if game is None else entries.kinds(game.entry_type, game.result_type)
    while form.results.entries:
        form.results.pop_entry()
    form.more_rows = []
    for name in players:
        r = typed.get(name, {})
        form.results.append_entry(
            dict(
                player=name,
                cards=cards_as_typed(r.get("cards") or "", language),  # "Vh" in Dutch
                spots="" if r.get("spots") is None else str(r["spots"]),
                sitting_out=bool(r.get("sitting_out")),
            )
        )
        more = {k: v for k, v in r.items() if k not in _CORE_ROW}
        form.more_rows.append(entries.shown(more, kinds.get("results", {}), language))
    if entry is not None:  # a stored entry names its fields as the form does
        form.out.data = entry.get(form.out.name) or ""
        form.rummy.data = bool(entry.get(form.rummy.name))
        more = {k: v for k, v in entry.items() if k not in _CORE_TOP and k != "results"}
        form.more = entries.shown(more, kinds.get("entry", {}), language)


def as_typed(form: HandForm) -> dict[str, Any]:
    """What a posted form holds, in the shape ``fill`` takes: to lay the same input out again
    for the players seated now, when someone joined or left after the form was loaded."""
    rows, top = posted(form)
    return dict(
        results=[
            dict(
                player=row.player.data,
                cards=row.cards.data,
                spots=(row.spots.data or "").strip() or None,
                sitting_out=row.sitting_out.data,
                **rows[i],
            )
            for i, row in enumerate(form.results)
        ],
        out=form.out.data,
        rummy=form.rummy.data,
        **top,
    )


def posted(form: HandForm) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The game's own boxes of a posted form as typed: each row's (``results-<i>-<name>``,
    a list for ``results-<i>-<name>-<j>``), and the form's others."""
    return entries.form_boxes(form.posted or {}, len(form.results), _CORE_ROW, _CORE_TOP)


def set_out_choices(form: HandForm, players: Sequence[str]) -> None:
    form.out.choices = [SelectChoice("", _("Nobody"))] + [SelectChoice(p) for p in players]


def read(
    form: HandForm, game: Game, options: Mapping[str, Any], dealer: str | None, number: int
) -> tuple[Any, RowErrors]:
    """Hand ``number``'s entry as the form says it (the game reads its own boxes), and the
    mistakes found before the engine sees it."""
    shape = game.entry_form(options, len(form.results))
    errors, problems = RowErrors(), Problems()
    rows, top = posted(form)
    form.more_rows, form.more = rows, top  # shown again as typed if the form comes back
    # Where who went out changes nothing the form does not ask, and takes no stray choice.
    out = (form.out.data or "").strip() or None if shape.out_choice else None
    results = []
    dealt_in = shape.dealt_in([(row.player.data or "").strip() for row in form.results], dealer)
    for i, row in enumerate(form.results):
        name = (row.player.data or "").strip()
        if name not in dealt_in:  # the dealer sits the hand out (the game says when)
            results.append(ResultEntry(player=name, sitting_out=True))
            continue
        core = _card_row(row, name, i, shape, out, errors)
        results.append(game.form_result(name, i, core, rows[i], problems))
    rummy = bool(shape.rummy and form.rummy.data)
    core_entry = HandEntry(tuple(results), out, rummy, page_cards_language())
    entry = game.form_entry(core_entry, top, number, problems)
    players = [r.player.data for r in form.results]
    for problem in problems.found:
        _place_one(errors, problem, players, _out_fields(game))
    return entry, errors


def _card_row(
    row: Any, name: str, i: int, shape: EntryForm, out: str | None, errors: RowErrors
) -> ResultEntry:
    """A player's row of cards as typed: the cards, a spot total, or sitting out."""
    cards = (row.cards.data or "").strip()
    spots_text = (row.spots.data or "").strip() if shape.totals else ""
    if shape.sitting_out and row.sitting_out.data and name != out:
        return ResultEntry(player=name, sitting_out=True)
    if spots_text:
        if cards:
            errors.add_row(i, _("Give either %(name)s's cards or the total, not both.", name=name))
        return ResultEntry(player=name, spots=row_number(spots_text))
    return ResultEntry(player=name, cards=cards)


def place(error: RuleError, players: Sequence[str], game: Game) -> RowErrors:
    """Where each of the engine's problems goes (its ``problems``, every one found): beside
    the row its field names, beside each player it names, beside the 'went out' choice, or
    above the form."""
    placed = RowErrors()
    for problem in error.problems:
        _place_one(placed, problem, players, _out_fields(game))
    return placed


def _out_fields(game: Game) -> frozenset[str]:
    """The entry's fields beside its results (who went out, whether rummy, how the hand
    ended): an error about one goes beside the "went out" choice. An entry that is no hand
    of cards (a team game's) has none: its errors go above the form."""
    if not issubclass(game.entry_type, HandEntry):
        return frozenset()
    return frozenset(entries.field_names(game.entry_type)) - {"results"}


def _place_one(
    placed: RowErrors, problem: RuleError, players: Sequence[str], out_fields: frozenset[str]
) -> None:
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
    if problem.field in out_fields:
        if message not in placed.out:
            placed.out.append(message)
    elif message not in placed.general:
        placed.general.append(message)
