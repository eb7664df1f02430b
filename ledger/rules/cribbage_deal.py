"""A deal of Cribbage as entered (API.md fifth edition) and checked whole (RULES.md §17,
Checks): the starter, each player's show and pegging, the crib, who pegged out first; and the
sides that score together."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ledger.rules import entries
from ledger.rules.base import State
from ledger.rules.cards import Card, parse_cards, shown_card
from ledger.rules.cribbage_show import Part, count, total
from ledger.rules.errors import Phrase, Problems, RuleError
from ledger.rules.texts import N_

NAME = "Cribbage"
MOST_PEGGED = 60  # pegged in one deal's play (RULES.md §17)
MOST_SHOW = 29  # the best five cards: 5 5 5 J with the fourth 5 turned
NO_SHOW = frozenset((19, 25, 26, 27))  # counts no five cards make
HEELS = 2
GAMES_KEY, GAME_KEY, OVER_KEY = "games", "game", "over"  # what State.more keeps

# --- A deal as entered --------------------------------------------------------------------------


@dataclass(frozen=True)
class CribResult:
    """One player's part of a deal: their show (four cards, or its count with ``entry``
    ``points``) and what they pegged in the play."""

    player: str = field(metadata={"kind": entries.TEXT})
    show: str | int | None = entries.entry_field(entries.CARDS_OR_WHOLE, example="5S 5D JH 10C")
    pegged: int | None = entries.entry_field(entries.WHOLE)


@dataclass(frozen=True)
class CribEntry:
    """A deal of Cribbage (API.md fifth edition): the starter, each player's show and pegging,
    the crib, and who pegged out first where the play took more than one past the target."""

    results: tuple[CribResult, ...] = field(metadata={"kind": entries.RESULTS})
    starter: str | None = entries.entry_field(entries.CARDS, example="5H")
    crib: str | int | None = entries.entry_field(entries.CARDS_OR_WHOLE, example="2D 3D KS QC")
    pegged_out: str | None = entries.entry_field(entries.TEXT, blank_none=True)
    cards_language: str = entries.entry_field(entries.LANGUAGE, "en")


@dataclass(frozen=True)
class Show:
    """A show or the crib as checked: its cards (none with ``entry`` ``points``), its parts
    and its points."""

    cards: tuple[Card, ...]
    parts: tuple[Part, ...]
    points: int


@dataclass(frozen=True)
class Deal:
    """A deal checked whole: the starter, each player's show and pegging, the crib."""

    starter: Card | None
    shows: Mapping[str, Show]
    pegged: Mapping[str, int]
    crib: Show
    pegged_out: str | None


def _place(player: str | None) -> Phrase:
    if player is None:
        return Phrase("the crib")
    return Phrase("{player}'s show", player=player)


def _read_cards(
    text: str, where: str, player: str | None, language: str, problems: Problems
) -> tuple[Card, ...] | None:
    """The cards typed in one place (the starter, a show, the crib), each with its suit; None
    after a problem, added to ``problems``."""
    try:
        cards = parse_cards(
            text,
            suits_required=True,
            game_name=Phrase(NAME),
            player=player,
            field=where,
            language=language,
        )
    except RuleError as e:
        problems.add(e)
        return None
    return cards


def _checked_show(
    value: str | int | None,
    where: str,
    player: str | None,
    by_cards: bool,
    language: str,
    problems: Problems,
) -> tuple[Card, ...] | int | None:
    """One show or the crib as entered: four cards, or a count no five cards refuse; None
    after a problem, added to ``problems``."""
    said = {"field": where, "players": (player,) if player is not None else ()}
    try:
        if by_cards:
            return _show_cards(value, said, player, language)
        return _show_count(value, said, player)
    except RuleError as e:
        problems.add(e)
        return None


def _show_cards(
    value: str | int | None, said: dict[str, Any], player: str | None, language: str
) -> tuple[Card, ...]:
    what = _place(player)
    if isinstance(value, int) or not value:
        raise RuleError("Type the four cards of {what}.", what=what, **said)
    cards = parse_cards(
        value,
        suits_required=True,
        game_name=Phrase(NAME),
        player=player,
        field=said["field"],
        language=language,
    )
    if len(cards) != 4:
        raise RuleError(
            "{what} has {n} cards: a show is four cards.",
            what=what.capitalized(),
            n=len(cards),
            **said,
        )
    return cards


def _show_count(value: str | int | None, said: dict[str, Any], player: str | None) -> int:
    what = _place(player)
    if not isinstance(value, int):
        raise RuleError("Give the count of {what} as a number, 0 to 29.", what=what, **said)
    if value == 19:
        raise RuleError(
            "No hand counts 19: at the table 'nineteen' means nothing, enter 0.", **said
        )
    if value in NO_SHOW:
        raise RuleError(
            "No hand counts {count}: no five cards make 19, 25, 26 or 27.", count=value, **said
        )
    if not 0 <= value <= MOST_SHOW:
        raise RuleError(
            "A show counts 0 to 29: {what} cannot count {count}.", what=what, count=value, **said
        )
    return value


def _one_pack(
    starter: Card | None,
    shows: Mapping[str, tuple[Card, ...]],
    crib: tuple[Card, ...] | None,
    fields: Mapping[str, str],
    language: str,
    problems: Problems,
) -> None:
    """No card twice among the starter, the shows and the crib (one pack): each card typed
    twice is named with every place it was typed."""
    places: dict[Card, list[tuple[Phrase, str | None, str]]] = {}
    if starter is not None:
        places.setdefault(starter, []).append((Phrase("the starter"), None, "starter"))
    for player, cards in shows.items():
        for card in cards:
            places.setdefault(card, []).append((_place(player), player, fields[player]))
    for card in crib or ():
        places.setdefault(card, []).append((_place(None), None, "crib"))
    for card, where in places.items():
        if len(where) < 2:
            continue
        named = [w[0] for w in where]
        said = named[0] if len(set(map(str, named))) == 1 else _and(named)
        template = N_("The {card} is typed in {places}: one pack has one.")
        if len(set(map(str, named))) == 1:
            template = N_("The {card} is typed twice in {places}: one pack has one.")
        players = tuple(dict.fromkeys(w[1] for w in where if w[1] is not None))
        problems.add(
            RuleError(
                template,
                field=where[-1][2],
                players=players,
                card=shown_card(card.code, language),
                places=said,
            )
        )


def _and(named: Sequence[Phrase | str]) -> Phrase:
    """ "the starter and Bob's show", "the starter, Bob's show and the crib"."""
    unique = list({str(p): p for p in named}.values())
    said = Phrase("{first} and {last}", first=unique[-2], last=unique[-1])
    for p in reversed(unique[:-2]):
        said = Phrase("{first}, {rest}", first=p, rest=said)
    return said


def _results(
    state: State, entry: CribEntry, problems: Problems
) -> dict[str, tuple[int, CribResult]]:
    """Each seated player's part of the deal with its place in the entry."""
    found: dict[str, tuple[int, CribResult]] = {}
    by_key = {p.casefold(): p for p in state.seats}
    for i, r in enumerate(entry.results):
        name = by_key.get((r.player or "").strip().casefold())
        if name is None:
            problems.add(
                RuleError(
                    "{player} is not seated in this session.",
                    field=f"results[{i}].player",
                    player=r.player,
                )
            )
        elif name in found:
            problems.add(
                RuleError(
                    "{player} has two shows in this deal.",
                    players=(name,),
                    field=f"results[{i}].player",
                    player=name,
                )
            )
        else:
            found[name] = (i, r)
    for p in state.seats:
        if p not in found:
            problems.add(
                RuleError(
                    "{player} has no show in this deal.", field="results", players=(p,), player=p
                )
            )
    return found


def _pegged(i: int, r: CribResult, problems: Problems) -> int:
    """What a player pegged in the play: a whole number, 0 to 60 (none given: 0)."""
    pegged = r.pegged or 0
    if not 0 <= pegged <= MOST_PEGGED:
        problems.add(
            RuleError(
                "{player} pegged {pegged}: the play gives 0 to 60.",
                field=f"results[{i}].pegged",
                players=(r.player,),
                player=r.player,
                pegged=pegged,
            )
        )
        return 0
    return pegged


def check_deal(state: State, entry: CribEntry, options: Mapping[str, Any]) -> Deal:
    """The deal checked whole (RULES.md §17, Checks): every problem found at once."""
    problems = Problems()
    by_cards = options["entry"] == "cards"
    language = entry.cards_language
    found = _results(state, entry, problems)
    starter = _starter(entry.starter, by_cards, language, problems)
    typed: dict[str, tuple[Card, ...] | int | None] = {}
    fields = {p: f"results[{i}].show" for p, (i, _r) in found.items()}
    for p, (_i, r) in found.items():
        typed[p] = _checked_show(r.show, fields[p], p, by_cards, language, problems)
    crib = _checked_show(entry.crib, "crib", None, by_cards, language, problems)
    pegged = {p: _pegged(i, r, problems) for p, (i, r) in found.items()}
    if by_cards:
        cards = {p: c for p, c in typed.items() if isinstance(c, tuple)}
        _one_pack(
            starter, cards, crib if isinstance(crib, tuple) else None, fields, language, problems
        )
    out = _pegged_out(state, entry.pegged_out, problems)
    heels = starter is not None and starter.rank == "J"
    _check_play(state, pegged, out, heels, int(options["target"]), problems)
    problems.raise_found()
    return Deal(
        starter=starter,
        shows={p: _show(typed[p], starter) for p in state.seats},
        pegged=pegged,
        crib=_show(crib, starter, crib=True),
        pegged_out=out,
    )


def _starter(text: str | None, by_cards: bool, language: str, problems: Problems) -> Card | None:
    """The starter: one card with its suit (with ``entry`` ``points`` it may be left out)."""
    if not text:
        if by_cards:
            problems.add(RuleError("Type the starter, the card turned up.", field="starter"))
        return None
    cards = _read_cards(text, "starter", None, language, problems)
    if cards is not None and len(cards) != 1:
        problems.add(RuleError("The starter is one card, not {n}.", field="starter", n=len(cards)))
        return None
    return cards[0] if cards else None


def _pegged_out(state: State, name: str | None, problems: Problems) -> str | None:
    if not name:
        return None
    seated = next((p for p in state.seats if p.casefold() == name.strip().casefold()), None)
    if seated is None:
        problems.add(
            RuleError(
                "{player}, who pegged out, is not seated in this session.",
                field="pegged_out",
                player=name,
            )
        )
    return seated


def _show(
    typed: tuple[Card, ...] | int | None, starter: Card | None, *, crib: bool = False
) -> Show:
    if isinstance(typed, int):
        return Show((), (), typed)
    assert typed is not None and starter is not None
    parts = count(typed, starter, crib=crib)
    return Show(typed, parts, total(parts))


def _check_play(
    state: State,
    pegged: Mapping[str, int],
    out: str | None,
    heels: bool,
    target: int,
    problems: Problems,
) -> None:
    """Who pegged out, where the play takes more than one side to the target: named, and
    one of them (RULES.md §17, the order of counting)."""
    board = start_board(state)
    dealer = side_of(state.seats, state.dealer)
    if heels and board[dealer] + HEELS >= target:
        return  # his heels wins it before the play
    board[dealer] += HEELS if heels else 0
    reached = [s for s in board if board[s] + sum(pegged.get(p, 0) for p in s) >= target]
    if out is not None and side_of(state.seats, out) not in reached:
        problems.add(
            RuleError(
                "{player} did not peg out: the play does not take them to {target}.",
                field="pegged_out",
                players=(out,),
                player=out,
                target=target,
            )
        )
    elif out is None and len(reached) > 1:
        names = [side_name(s) for s in reached]
        said = N_("{names} both pass {target} in the play: say who pegged out first.")
        if len(reached) > 2:
            said = N_("{names} all pass {target} in the play: say who pegged out first.")
        problems.add(
            RuleError(
                said,
                field="pegged_out",
                players=tuple(p for s in reached for p in s),
                target=target,
                names=_and(names),
            )
        )


# --- Sides, the board and the run of games -------------------------------------------------------


def sides_of(seats: Sequence[str]) -> tuple[tuple[str, ...], ...]:
    """Who scores together: each player alone, or with four two teams, partners opposite."""
    if len(seats) == 4:
        return ((seats[0], seats[2]), (seats[1], seats[3]))
    return tuple((p,) for p in seats)


def side_of(seats: Sequence[str], player: str) -> tuple[str, ...]:
    return next(s for s in sides_of(seats) if player in s)


def side_name(side: Sequence[str]) -> str:
    """ "Ann", or a team "Ann & Cas"."""
    return " & ".join(side)


def start_board(state: State) -> dict[tuple[str, ...], int]:
    """Each side's score as the next deal starts: 0 when the last deal won a game."""
    over = bool(state.more.get(OVER_KEY))
    return {s: 0 if over else int(state.scores.get(s[0], 0)) for s in sides_of(state.seats)}
