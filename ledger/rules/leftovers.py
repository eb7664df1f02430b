"""Reading the cards left in hand after a hand of Spot or Spots, which are dealt and end alike.

Both games take the same entry (RULES.md §1–§3): each seated player's leftover cards or, if the
session asks for totals, a spot total; exactly one player out with nothing left; one pack.
"""

from __future__ import annotations

from collections.abc import Sequence

from ledger.rules.base import HandEntry, PlayerResult, ResultEntry, State, canonical, index_results
from ledger.rules.cards import Card, cards_read, check_deck, parse_cards, spot_total
from ledger.rules.errors import Param, Phrase, Problems, RuleError

MAX_CARDS = 8  # the leader's 9th card is always discarded before the hand ends
MAX_SPOTS = 80  # eight picture cards


def read_leftovers(
    state: State, entry: HandEntry, *, entry_mode: str, game_name: str
) -> tuple[dict[str, PlayerResult], str | None]:
    """Every seated player's leftover hand, checked (RULES.md §1, §2), and who went out:
    each result is cards (at most 8) or, with ``entry_mode`` ``totals``, a spot total from 1 to
    80. Only the player out has nothing left (no result, ``""`` or a total of 0), and only
    one player goes out; all the hand's cards must fit in one pack (the cards that read, in a
    row refused for a token). Going rummy is Rummy's alone. A refusal names every problem
    (RULES.md §1): each player's own, then who went out, then the deck."""
    if entry.rummy:
        raise RuleError(
            "{game} has no going-rummy bonus: mark the player who went out as out.",
            field="rummy",
            game=game_name,
        )
    problems = Problems()
    given = index_results(state, entry, problems)
    out = canonical(state, entry.out)
    results: dict[str, PlayerResult] = {}
    hands: dict[str, tuple[Card, ...]] = {}
    fields: dict[str, str] = {}
    empty: list[tuple[str, str]] = []  # players with nothing left, and where they said so
    for p in state.seats:
        if p not in given:  # index_results lets only the player out leave their result out
            if p == out:
                results[p] = PlayerResult(p, spots=0)
                empty.append((p, "out"))
            continue
        i, r = given[p]
        try:
            results[p], where = _read_one(
                p,
                r,
                f"results[{i}]",
                out=out,
                entry_mode=entry_mode,
                game_name=game_name,
                language=entry.cards_language,
            )
        except RuleError as e:
            problems.add(e)
            if cards_read(e) and e.field:
                hands[p], fields[p] = cards_read(e), e.field
            continue
        if results[p].sitting_out:
            continue
        if results[p].cards:
            hands[p], fields[p] = results[p].cards, where
        if not results[p].spots:
            empty.append((p, where))
    try:
        _check_one_out(empty, out)
    except RuleError as e:
        problems.add(e)
    try:
        check_deck(hands, packs=1, fields=fields, language=entry.cards_language)
    except RuleError as e:
        problems.add(e)
    problems.raise_found()
    return results, out


def _read_one(
    player: str,
    r: ResultEntry,
    where: str,
    *,
    out: str | None,
    entry_mode: str,
    game_name: str,
    language: str = "en",
) -> tuple[PlayerResult, str]:
    """One player's result, checked on its own, and the field it was given in."""
    if r.sitting_out:
        return PlayerResult(player, sitting_out=True), where
    if r.spots is not None:
        where = f"{where}.spots"
        total = _spot_total(
            player, r.spots, went_out=player == out, entry_mode=entry_mode, field=where
        )
        result = PlayerResult(player, spots=total)
    else:
        where = f"{where}.cards"
        cards = _leftover_cards(
            player, r.cards or "", field=where, game_name=game_name, language=language
        )
        result = PlayerResult(player, cards=cards, spots=spot_total(cards))
    if player == out and result.spots:
        raise RuleError(
            "{player} went out, so {player} has no cards left: leave {player}'s hand empty.",
            field=where,
            players=(player,),
            player=player,
        )
    return result, where


def _leftover_cards(
    player: str, text: str, *, field: str, game_name: str, language: str
) -> tuple[Card, ...]:
    """The cards typed for one player: a hand ends with at most eight."""
    cards = parse_cards(text, game_name=game_name, player=player, field=field, language=language)
    if len(cards) > MAX_CARDS:
        raise RuleError(
            "{player} has {count} cards, but a hand of {game} ends with at most {most}.",
            field=field,
            players=(player,),
            player=player,
            count=len(cards),
            game=game_name,
            most=MAX_CARDS,
        )
    return cards


def _check_one_out(empty: Sequence[tuple[str, str]], out: str | None) -> None:
    """Only the player marked out may end with nothing left, and only one player goes out."""
    if len(empty) > 1:
        names = [p for p, _ in empty]
        raise RuleError(
            "Only one player can go out in a hand, but {names} have no cards left.",
            field=next(f for p, f in empty if p != out),
            players=tuple(names),
            names=_and(names),
        )
    if empty and out is None:
        p, where = empty[0]
        raise RuleError(
            "{player} has no cards left: only the player who went out can end with none. "
            "If {player} went out, mark {player} as out.",
            field=where,
            players=(p,),
            player=p,
        )


def _spot_total(player: str, spots: object, *, went_out: bool, entry_mode: str, field: str) -> int:
    """A spot total typed instead of cards: whole, 1 to 80, or 0 for the player out."""
    if entry_mode != "totals" and not (went_out and spots == 0):
        raise RuleError(
            "This session asks for every player's cards, not a spot total: "
            "give the cards left in {player}'s hand.",
            field=field,
            players=(player,),
            player=player,
        )
    if isinstance(spots, bool) or not isinstance(spots, int):
        raise RuleError(
            "{player}'s spot total must be a whole number.",
            field=field,
            players=(player,),
            player=player,
        )
    if went_out and spots != 0:
        raise RuleError(
            "{player} went out, so {player}'s spot total is 0.",
            field=field,
            players=(player,),
            player=player,
        )
    if not went_out and not 1 <= spots <= MAX_SPOTS:
        raise RuleError(
            "{player}'s spot total must be from 1 to {most}, not {spots}.",
            field=field,
            players=(player,),
            player=player,
            most=MAX_SPOTS,
            spots=spots,
        )
    return spots


def _and(names: Sequence[str]) -> Param:
    if len(names) == 1:
        return names[0]
    return Phrase("{names} and {last}", names=", ".join(names[:-1]), last=names[-1])
