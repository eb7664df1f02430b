"""Whether one hand's cards fit in the deck: every card, rank and joker typed no more often than
the packs hold, each refusal naming the players who hold it (RULES.md §1)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ledger.rules.cards import (
    _RANK_PLURALS,
    Card,
    _capitalized,
    _count_word,
    _times,
    card_label,
)
from ledger.rules.errors import Phrase, Problems, RuleError


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


# The sentences below are whole for each count a player may see ("there is only one", "there
# are only two"), so a translation never has to agree with a piece of English.


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
    shown = card_label(card.code, language)
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
