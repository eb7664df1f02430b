"""A deal of Skat as entered (RULES.md §18, API.md fifth edition): its fields, read from the
API or from a phone's boxes, and checked whole, every mistake named at once."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ledger.rules import entries
from ledger.rules.base import HandEntry, State
from ledger.rules.cards import Cards, parse_cards, shown_card
from ledger.rules.errors import Problems, RuleError
from ledger.rules.skat_values import (
    BIDS,
    CARD_POINTS,
    GAME_KEYS,
    GRAND,
    HAND_AND_SKAT,
    LOWEST_BID,
    MOST_IN_SKAT,
    NULL,
    SKAT_RANKS,
    TRICKS,
    Declared,
    Valued,
    count_matadors,
    most_matadors,
    null_name,
    null_value,
    value_of,
)

NAME = "Skat"
SOME = "some"


@dataclass(frozen=True)
class SkatEntry:
    """A deal of Skat (API.md fifth edition): the declarer (None: all passed), the bid, the
    game, the matadors ("with" positive, "without" negative) or the declarer's twelve cards,
    hand and the announcements, the declarer's card points and tricks."""

    declarer: str | None = entries.entry_field(entries.TEXT, always=True, blank_none=True)
    bid: int | None = entries.entry_field(entries.WHOLE)
    game: str | None = entries.entry_field(entries.TEXT, blank_none=True)
    matadors: int | None = entries.entry_field(entries.WHOLE)
    cards: str | None = entries.entry_field(entries.CARDS, example="JC JH AH 10H KH 9H …")
    hand: bool = entries.entry_field(entries.FLAG, False)
    schneider_announced: bool = entries.entry_field(entries.FLAG, False)
    schwarz_announced: bool = entries.entry_field(entries.FLAG, False)
    ouvert: bool = entries.entry_field(entries.FLAG, False)
    card_points: int | None = entries.entry_field(entries.WHOLE)
    tricks: str | None = entries.entry_field(entries.TEXT, blank_none=True)
    cards_language: str = entries.entry_field(entries.LANGUAGE, "en")


@dataclass(frozen=True)
class Deal:
    """A deal as checked: the declarer, the bid, what was declared and what the declarer took."""

    declarer: str
    bid: int
    declared: Declared
    card_points: int | None
    tricks: str

    def valued(self) -> Valued:
        return value_of(self.declared, self.bid, self.card_points, self.tricks)


def sitting_out(seats: Sequence[str], dealer: str) -> str | None:
    """At a table of four the dealer sits the deal out; at three nobody does."""
    return dealer if len(seats) == 4 else None


# --- Checking a deal ----------------------------------------------------------------------------


def checked_deal(state: State, entry: SkatEntry) -> Deal | None:
    """The deal as entered, every problem found at once; None when all passed."""
    problems = Problems()
    if entry.declarer is None:
        _all_passed(entry, problems)
        problems.raise_found()
        return None
    declarer = _declarer(state, entry.declarer, problems)
    game = _game(entry.game, problems)
    bid = _bid(entry.bid, problems)
    if game is None:
        problems.raise_found()
    assert game is not None
    if game == NULL:
        declared, points, tricks = _null(entry, bid, problems)
    else:
        declared, points, tricks = _suit_or_grand(entry, game, problems)
    problems.raise_found()
    assert declarer is not None and bid is not None
    return Deal(declarer, bid, declared, points, tricks)


def _all_passed(entry: SkatEntry, problems: Problems) -> None:
    played = (
        entry.bid,
        entry.game,
        entry.matadors,
        entry.cards,
        entry.card_points,
        entry.tricks,
    )
    flags = (entry.hand, entry.schneider_announced, entry.schwarz_announced, entry.ouvert)
    if any(v is not None for v in played) or any(flags):
        problems.add(
            RuleError(
                "With all passed nothing is played: name the declarer, or leave the game out.",
                field="declarer",
            )
        )


def _declarer(state: State, name: str, problems: Problems) -> str | None:
    found = next((p for p in state.seats if p.casefold() == name.strip().casefold()), None)
    if found is None:
        problems.add(
            RuleError(
                "{player}, the declarer, is not seated in this session.",
                field="declarer",
                player=name,
            )
        )
        return None
    if found == sitting_out(state.seats, state.dealer):
        problems.add(
            RuleError(
                "{player} deals and sits out this deal.",
                field="declarer",
                player=found,
            )
        )
        return None
    return found


def _game(game: str | None, problems: Problems) -> str | None:
    if game is None:
        problems.add(
            RuleError(
                "Say which game was played: clubs, spades, hearts, diamonds, grand or null.",
                field="game",
            )
        )
        return None
    key = game.strip().lower()
    if key not in GAME_KEYS:
        problems.add(
            RuleError(
                "'{game}' is not a game of Skat: clubs, spades, hearts, diamonds, grand or null.",
                field="game",
                game=game[:20],
            )
        )
        return None
    return key


def _bid(bid: int | None, problems: Problems) -> int | None:
    if bid is None:
        problems.add(RuleError("Give the bid: 18 or more.", field="bid"))
        return None
    if bid not in BIDS:
        problems.add(
            RuleError(
                "{lowest} is the lowest bid; {bid} is no game's value.",
                field="bid",
                lowest=LOWEST_BID,
                bid=bid,
            )
        )
        return None
    return bid


def _null(entry: SkatEntry, bid: int | None, problems: Problems) -> tuple[Declared, None, str]:
    """A Null game: hand and ouvert, whether the declarer took a trick; nothing else."""
    if entry.matadors is not None or entry.cards is not None:
        field = "matadors" if entry.matadors is not None else "cards"
        problems.add(RuleError("A Null game has no matadors.", field=field))
    if entry.schneider_announced or entry.schwarz_announced:
        problems.add(
            RuleError(
                "A Null game has no schneider or schwarz to announce.",
                field="schneider_announced" if entry.schneider_announced else "schwarz_announced",
            )
        )
    if entry.card_points is not None:
        problems.add(
            RuleError(
                "A Null game counts no card points: say only whether the declarer took a trick.",
                field="card_points",
            )
        )
    tricks = _tricks(entry.tricks, problems, required=True)
    value = null_value(entry.hand, entry.ouvert)
    if bid is not None and bid > value:
        problems.add(
            RuleError(
                "A {game} game is worth {value}: after a bid of {bid}, declare a Null worth at "
                "least that.",
                field="bid",
                game=null_name(entry.hand, entry.ouvert),
                value=value,
                bid=bid,
            )
        )
    return Declared(NULL, hand=entry.hand, ouvert=entry.ouvert), None, tricks


def _suit_or_grand(
    entry: SkatEntry, game: str, problems: Problems
) -> tuple[Declared, int | None, str]:
    """A suit game or Grand: its matadors (given or counted), announcements, card points and
    tricks, each checked."""
    matadors = _matadors(entry, game, problems)
    _announcements(entry, problems)
    points = _card_points(entry.card_points, problems)
    tricks = _tricks(entry.tricks, problems, required=False)
    if points is not None and tricks == "all" and points != CARD_POINTS:
        problems.add(
            RuleError(
                "A declarer who took every trick has all 120 card points: {points} is not.",
                field="card_points",
                points=points,
            )
        )
    if points is not None and tricks == "none" and points > MOST_IN_SKAT:
        problems.add(
            RuleError(
                "A declarer who took no trick has only the skat's card points, at most 22: "
                "{points} is not.",
                field="card_points",
                points=points,
            )
        )
    declared = Declared(
        game,
        matadors=matadors,
        hand=entry.hand,
        schneider_announced=entry.schneider_announced,
        schwarz_announced=entry.schwarz_announced,
        ouvert=entry.ouvert,
    )
    return declared, points, tricks


def _matadors(entry: SkatEntry, game: str, problems: Problems) -> int | None:
    if entry.matadors is not None and entry.cards is not None:
        problems.add(
            RuleError("Give the matadors or the declarer's cards, not both.", field="cards")
        )
        return None
    if entry.cards is not None:
        return _counted(entry.cards, game, entry.cards_language, problems)
    most = most_matadors(game)
    if entry.matadors is None:
        problems.add(
            RuleError(
                "Give the matadors, with or without 1 to {most}, or the declarer's twelve cards.",
                field="matadors",
                most=most,
            )
        )
        return None
    count = abs(entry.matadors)
    if count == 0 or count > most:
        if game == GRAND:
            message = "Grand has at most 4 matadors: {count} is not."
        else:
            message = "A suit game has with or without 1 to 11 matadors: {count} is not."
        problems.add(RuleError(message, field="matadors", count=count))
        return None
    return entry.matadors


def _counted(text: str, game: str, language: str, problems: Problems) -> int | None:
    """The matadors counted from the declarer's twelve cards (hand and skat), as typed."""
    try:
        cards = parse_cards(
            text, suits_required=True, game_name=NAME, field="cards", language=language
        )
    except RuleError as error:
        problems.add(error)
        return None
    found = Problems()
    for card in cards:
        if card.rank not in SKAT_RANKS:
            found.add(
                RuleError(
                    "Skat is played with 7 to ace: {card} is not in the pack.",
                    field="cards",
                    card=shown_card(card.code, language),
                )
            )
    codes = [card.code for card in cards]
    twice = tuple(dict.fromkeys(code for code in codes if codes.count(code) > 1))  # as typed
    if twice:
        found.add(
            RuleError(
                "The declarer's cards hold {cards} twice: the pack has one of each.",
                field="cards",
                cards=Cards(twice, language=language, between=", "),
            )
        )
    if len(cards) != HAND_AND_SKAT:
        found.add(
            RuleError(
                "The declarer's cards are twelve, hand and skat: {count} were typed.",
                field="cards",
                count=len(cards),
            )
        )
    if found:
        for problem in found.found:
            problems.add(problem)
        return None
    return count_matadors(set(codes), game)


def _announcements(entry: SkatEntry, problems: Problems) -> None:
    """Schwarz announced needs schneider announced, both need a hand game; ouvert (in a suit
    game or Grand) is a hand game with schwarz announced."""
    if (entry.schwarz_announced and not entry.schneider_announced) or (
        entry.schneider_announced and not entry.hand
    ):
        problems.add(
            RuleError(
                "Schwarz announced needs schneider announced, and both need a hand game.",
                field="schwarz_announced" if entry.schwarz_announced else "schneider_announced",
            )
        )
    if entry.ouvert and not (entry.schwarz_announced and entry.hand):
        problems.add(
            RuleError(
                "Ouvert is a hand game with schwarz announced: announce schneider and schwarz "
                "with it.",
                field="ouvert",
            )
        )


def _card_points(points: int | None, problems: Problems) -> int | None:
    if points is None:
        problems.add(RuleError("Give the declarer's card points, 0 to 120.", field="card_points"))
        return None
    if not 0 <= points <= CARD_POINTS:
        problems.add(
            RuleError(
                "Card points are 0 to 120: {points} is not.", field="card_points", points=points
            )
        )
        return None
    return points


def _tricks(tricks: str | None, problems: Problems, *, required: bool) -> str:
    """All, none or some: the tricks the declarer took (a suit game's default: some)."""
    if tricks is None:
        if required:
            problems.add(
                RuleError(
                    "Say whether the declarer took a trick: tricks none (won) or some (lost).",
                    field="tricks",
                )
            )
        return SOME
    key = tricks.strip().lower()
    if key not in TRICKS:
        problems.add(
            RuleError(
                "The declarer's tricks are all, none or some: '{tricks}' is not.",
                field="tricks",
                tricks=tricks[:20],
            )
        )
        return SOME
    return key


def form_deal(core: HandEntry, posted: Mapping[str, Any], problems: Problems) -> SkatEntry:
    """A deal from the page's boxes: declarer ("" for all passed, none chosen refused), bid,
    game, with/without and the number (or the twelve cards), the flags, card points, tricks."""
    text = {k: str(v or "").strip() for k, v in posted.items() if not isinstance(v, list)}
    numbers: dict[str, int | None] = {}
    for box in ("bid", "matadors", "card_points"):
        numbers[box] = entries.typed_whole(text.get(box)) if text.get(box) else None
        if text.get(box) and numbers[box] is None:
            problems.add(RuleError("Give a whole number.", field=box))
    matadors = numbers["matadors"]
    if matadors is not None and text.get("with") == "without":
        matadors = -matadors
    if "declarer" not in posted:
        problems.add(RuleError("Say who declared, or that all passed.", field="declarer"))
    declarer = text.get("declarer") or None
    if declarer is None:  # all passed (the form's choice with no name)
        return SkatEntry(declarer=None, cards_language=core.cards_language)
    game = text.get("game") or None
    flags = {
        f: text.get(f) in ("1", "on", "true", "yes")
        for f in ("hand", "schneider_announced", "schwarz_announced", "ouvert")
    }
    cards = text.get("cards") or None if game not in (NULL, None) else None
    return SkatEntry(
        declarer=declarer,
        bid=numbers["bid"],
        game=game,
        matadors=None if game == NULL or cards else matadors,
        cards=cards,
        card_points=None if game == NULL else numbers["card_points"],
        tricks=text.get("tricks") or None,
        cards_language=core.cards_language,
        **flags,
    )
