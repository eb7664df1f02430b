"""Playing cards as players type them: parsing, spot values and the one-deck-per-hand check.

Cards are read in English or, where the entry is Dutch or German, with that deck's letters
too (RULES.md §1, §20); they are kept in one notation, the English codes ("QH", "10", "JK"), and
shown back with the letters of the page's language (``card_label``, ``cards_as_typed``).

The deck's words and a token read as a card are in deck.py (its names are importable from
here too); why a token is not a card, in misreads.py.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ledger.rules.deck import (
    _RANK_PLURALS,
    _THIS_GAME,
    CARD_LANGUAGES,
    DUTCH_RANKS,
    DUTCH_SUITS,
    GERMAN_RANKS,
    GERMAN_SUITS,
    JOKER,
    LETTERS,
    RANKS,
    SUIT_SYMBOLS,
    SUITS,
    AsTyped,
    Card,
    Cards,
    Letters,
    Ranks,
    _capitalized,
    _card_of,
    _count_word,
    _times,
    _Token,
    _tokens,
    card_label,
    card_letters,
    cards_as_typed,
    english_cards,
    rank_letter,
    shown_card,
    spot_total,
    spot_value,
    suit_letter,
    typed_card,
)
from ledger.rules.errors import Param, Phrase, Problems, RuleError, every_problem
from ledger.rules.misreads import _mistake, _refusal

__all__ = [
    "AsTyped",
    "CARD_LANGUAGES",
    "Card",
    "Cards",
    "CardsMisread",
    "DUTCH_RANKS",
    "DUTCH_SUITS",
    "GERMAN_RANKS",
    "GERMAN_SUITS",
    "JOKER",
    "LETTERS",
    "Letters",
    "RANKS",
    "Ranks",
    "SUITS",
    "SUIT_SYMBOLS",
    "card_label",
    "card_letters",
    "cards_as_typed",
    "cards_read",
    "check_deck",
    "english_cards",
    "parse_cards",
    "rank_letter",
    "shown_card",
    "spot_total",
    "spot_value",
    "suit_letter",
    "typed_card",
]


class _Bad(Exception):
    """A token that is not a card here, with the sentence shown (before the player's name)."""

    def __init__(self, phrase: Phrase) -> None:
        super().__init__(phrase.template)
        self.phrase = phrase


def parse_cards(
    text: str,
    *,
    jokers: bool = False,
    ranks: tuple[str, ...] = RANKS,
    suits_required: bool = False,
    game_name: Param = _THIS_GAME,
    player: str | None = None,
    field: str | None = None,
    language: str = "en",
) -> tuple[Card, ...]:
    """The cards in ``text``, in the order typed, or a RuleError naming every bad token (its
    ``problems``, in the order typed). ``language`` "nl" reads the Dutch letters too, "de" the
    German."""
    cards: list[Card] = []
    problems: list[CardsMisread] = []
    for token in _tokens(text):
        try:
            cards.append(
                _read_token(_Token(token, jokers, ranks, suits_required, game_name, language))
            )
        except _Bad as bad:
            problems.append(
                CardsMisread(
                    _for_player(bad.phrase, player),
                    field=field,
                    players=(player,) if player is not None else (),
                )
            )
    if problems:
        problems[0].read = tuple(cards)
        raise every_problem(problems)
    return tuple(cards)


class CardsMisread(RuleError):
    """A token typed that is not a card; the first of a row's carries the row's cards that did
    read (``read``), so the deck can still be checked over them (RULES.md §1, every mistake at
    once)."""

    read: tuple[Card, ...] = ()


def cards_read(error: RuleError) -> tuple[Card, ...]:
    """The cards that did read in the row ``error`` refused, if it was refused for a token that
    is no card; none for any other refusal."""
    return error.read if isinstance(error, CardsMisread) else ()


def _read_token(typed: _Token) -> Card:
    """The card ``typed`` names if the game allows it, else _Bad saying what the player meant."""
    card = _card_of(typed)
    if card is None:
        raise _Bad(_mistake(typed))
    refusal = _refusal(card, typed)
    if refusal is not None:
        raise _Bad(refusal)
    return card


def _for_player(message: Phrase, player: str | None) -> Phrase:
    if player is None:
        return message
    # "Give the suit…" reads as "Rex: give the suit…"; a card ("Q♠…") or a quote keeps its case.
    return Phrase("{player}: {message}", player=player, message=message.continued())


def check_deck(
    hands: Mapping[str, Sequence[Card]],
    *,
    packs: int = 1,
    jokers: int = 0,
    fields: Mapping[str, str] | None = None,
    language: str = "en",
) -> None:
    """Raise a RuleError if one hand's entries, all players together, need more than one deck.

    ``jokers`` is the number in the whole deck. Every breach is reported once (the error's
    ``problems``), in the order of the first card, scanning the hands in order, that takes
    part in it, so an entry always gets the same messages. A card is named in the letters of
    ``language``.
    """
    if packs < 1:
        raise ValueError("a deck has at least one pack")
    exact: dict[Card, dict[str, int]] = {}
    by_rank: dict[str, dict[str, int]] = {}
    joker_counts: dict[str, int] = {}
    for player, cards in hands.items():
        for card in cards:
            if card.rank is None:
                joker_counts[player] = joker_counts.get(player, 0) + 1
                continue
            if card.suit is not None:
                counts = exact.setdefault(card, {})
                counts[player] = counts.get(player, 0) + 1
            counts = by_rank.setdefault(card.rank, {})
            counts[player] = counts.get(player, 0) + 1

    problems = Problems()
    told: set[object] = set()  # the breaches reported already: a card, a rank, or the jokers

    def fail(key: object, message: Phrase, counts: Mapping[str, int]) -> None:
        if key in told:
            return
        told.add(key)
        # Counts were filled scanning the hands in order, so their keys are in that order too.
        players = tuple(counts)
        where = fields.get(players[0]) if fields is not None else None
        problems.add(RuleError(message, field=where, players=players))

    for cards in hands.values():
        for card in cards:
            if card.rank is None:
                if sum(joker_counts.values()) > jokers:
                    fail(None, _too_many_jokers(joker_counts, jokers), joker_counts)
                continue
            if card.suit is not None and sum(exact[card].values()) > packs:
                fail(card, _too_many_of_card(card, exact[card], packs, language), exact[card])
            if sum(by_rank[card.rank].values()) > 4 * packs:
                counts = by_rank[card.rank]
                fail(card.rank, _too_many_of_rank(card.rank, counts, 4 * packs), counts)
    problems.raise_found()


def _entered(counts: Mapping[str, int]) -> Phrase:
    total = sum(counts.values())
    listed = ", ".join(f"{player} {n}" for player, n in counts.items())
    if total == 1:
        return Phrase("{total} was entered ({listed})", total=total, listed=listed)
    return Phrase("{total} were entered ({listed})", total=total, listed=listed)


def _too_many_of_card(
    card: Card, counts: Mapping[str, int], limit: int, language: str = "en"
) -> Phrase:
    players = list(counts)
    shown = shown_card(card.code, language)
    if len(players) == 1:
        ((player, n),) = counts.items()
        if limit == 1:
            return Phrase(
                "{player} has the {card} {times}, but there is only one in the deck.",
                player=player,
                card=shown,
                times=_times(n),
            )
        return Phrase(
            "{player} has the {card} {times}, but there are only {limit} in the deck.",
            player=player,
            card=shown,
            times=_times(n),
            limit=_count_word(limit),
        )
    if all(n == 1 for n in counts.values()):
        names = ", ".join(players)
        if len(players) == 2 and limit == 1:
            return Phrase("Two players both have the {card} ({names}).", card=shown, names=names)
        count = _capitalized(_count_word(len(players)))
        if limit == 1:
            return Phrase(
                "{count} players have the {card} ({names}), but there is only one in the deck.",
                count=count,
                card=shown,
                names=names,
            )
        return Phrase(
            "{count} players have the {card} ({names}), but there are only {limit} in the deck.",
            count=count,
            card=shown,
            names=names,
            limit=_count_word(limit),
        )
    if limit == 1:
        return Phrase(
            "There is only one {card} in the deck, but {entered}.",
            card=shown,
            entered=_entered(counts),
        )
    return Phrase(
        "There are only {limit} {card} in the deck, but {entered}.",
        limit=_count_word(limit),
        card=shown,
        entered=_entered(counts),
    )


def _too_many_of_rank(rank: str, counts: Mapping[str, int], limit: int) -> Phrase:
    # ``limit`` is four cards a pack: never "only one".
    if len(counts) == 1:
        ((player, n),) = counts.items()
        return Phrase(
            "{player} has {count} {rank_plural}, but there are only {limit} in the deck.",
            player=player,
            count=_count_word(n),
            rank_plural=_RANK_PLURALS[rank],
            limit=_count_word(limit),
        )
    return Phrase(
        "There are only {limit} {rank_plural} in the deck, but {entered}.",
        limit=_count_word(limit),
        rank_plural=_RANK_PLURALS[rank],
        entered=_entered(counts),
    )


def _too_many_jokers(counts: Mapping[str, int], limit: int) -> Phrase:
    if len(counts) == 1:
        ((player, n),) = counts.items()
        has = Phrase("a joker") if n == 1 else Phrase("{count} jokers", count=_count_word(n))
        if limit == 0:
            return Phrase(
                "{player} has {jokers}, but there are none in the deck.", player=player, jokers=has
            )
        if limit == 1:
            return Phrase(
                "{player} has {jokers}, but there is only one in the deck.",
                player=player,
                jokers=has,
            )
        return Phrase(
            "{player} has {jokers}, but there are only {limit} in the deck.",
            player=player,
            jokers=has,
            limit=_count_word(limit),
        )
    if limit == 0:
        return Phrase("There are no jokers in the deck, but {entered}.", entered=_entered(counts))
    if limit == 1:
        return Phrase(
            "There is only one joker in the deck, but {entered}.", entered=_entered(counts)
        )
    return Phrase(
        "There are only {limit} jokers in the deck, but {entered}.",
        limit=_count_word(limit),
        entered=_entered(counts),
    )
