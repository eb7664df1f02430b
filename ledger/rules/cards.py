"""Playing cards as players type them: parsing, spot values and the one-deck-per-hand check."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from ledger.rules.errors import RuleError

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS: tuple[str, ...] = ("S", "H", "D", "C")
SUIT_SYMBOLS: dict[str, str] = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


@dataclass(frozen=True)
class Card:
    """One card: a rank and, if the player gave one, a suit. A joker has neither."""

    rank: str | None
    suit: str | None = None

    def __post_init__(self) -> None:
        # A bad Card is a programming error, not a player's: parse_cards never builds one.
        if self.rank is not None and self.rank not in RANKS:
            raise ValueError(f"not a rank: {self.rank!r}")
        if self.suit is not None and (self.suit not in SUITS or self.rank is None):
            raise ValueError(f"not a suit for this card: {self.suit!r}")

    @property
    def is_joker(self) -> bool:
        return self.rank is None

    @property
    def code(self) -> str:
        """ASCII, and parse_cards reads it back: "QS", "10H", "7", "JK"."""
        if self.rank is None:
            return "JK"
        return self.rank + (self.suit or "")

    def __str__(self) -> str:
        if self.rank is None:
            return "joker"
        return self.rank + (SUIT_SYMBOLS[self.suit] if self.suit else "")


JOKER = Card(None, None)

# Every way a suit may be typed, read after the token is upper-cased. The outline symbols and
# the heart emoji come from phone keyboards, where the solid symbols are hard to find.
_SUIT_CHARS: dict[str, str] = {
    "S": "S", "H": "H", "D": "D", "C": "C",
    "♠": "S", "♥": "H", "♦": "D", "♣": "C",
    "♤": "S", "♡": "H", "♢": "D", "♧": "C",
    "❤": "H",
}  # fmt: skip
_SUIT_WORDS: dict[str, str] = {
    "SPADE": "S", "SPADES": "S", "HEART": "H", "HEARTS": "H",
    "DIAMOND": "D", "DIAMONDS": "D", "CLUB": "C", "CLUBS": "C",
}  # fmt: skip
_JOKER_WORDS: tuple[str, ...] = ("JOKER", "JK", "*", "🃏")
_RANK_NAMES: dict[str, str] = {
    "A": "ace", "2": "two", "3": "three", "4": "four", "5": "five", "6": "six", "7": "seven",
    "8": "eight", "9": "nine", "10": "ten", "J": "jack", "Q": "queen", "K": "king",
}  # fmt: skip
_RANK_WORDS: dict[str, str] = {
    **{name.upper(): rank for rank, name in _RANK_NAMES.items()},
    **{name.upper() + "S": rank for rank, name in _RANK_NAMES.items() if not name.endswith("x")},
    "SIXES": "6",
}
# Longest first, so "10" is read before anything shorter could claim its "1".
_RANK_PREFIX = re.compile(r"10|[2-9]|[AJQKT]")
_LEADING_DIGITS = re.compile(r"[0-9]+")
# Spaces, commas and hyphens, plus the dashes a phone or a word processor puts in for a hyphen.
_SEPARATORS = re.compile(r"[\s,\-\u2010\u2011\u2012\u2013\u2014\u2212]+")
# Emoji presentation selectors follow a suit symbol on many phones ("♠️"); they carry no meaning.
_INVISIBLE = dict.fromkeys(map(ord, "\ufe0e\ufe0f\u200b\u200d"))
_SUITS_IN_WORDS = "S, H, D, C or ♠ ♥ ♦ ♣"
# Letter ranks are named in words ("the ace", "four queens"); "four As" is hard to read.
_FACES = ("A", "J", "Q", "K")


class _Bad(Exception):
    """A token that is not a card here; the text is the sentence shown, before the player."""


def parse_cards(
    text: str,
    *,
    jokers: bool = False,
    ranks: tuple[str, ...] = RANKS,
    suits_required: bool = False,
    game_name: str = "this game",
    player: str | None = None,
    field: str | None = None,
) -> tuple[Card, ...]:
    """The cards in ``text``, in the order typed, or a RuleError naming the first bad token."""
    # NFKC folds full-width letters and digits (some phone keyboards) into plain ones.
    clean = unicodedata.normalize("NFKC", text).translate(_INVISIBLE)
    cards: list[Card] = []
    for token in _SEPARATORS.split(clean):
        if not token:
            continue
        try:
            cards.append(
                _read_token(
                    token,
                    jokers=jokers,
                    ranks=ranks,
                    suits_required=suits_required,
                    game_name=game_name,
                )
            )
        except _Bad as bad:
            raise RuleError(
                _for_player(str(bad), player),
                field=field,
                players=(player,) if player is not None else (),
            ) from None
    return tuple(cards)


def _read_token(
    token: str, *, jokers: bool, ranks: tuple[str, ...], suits_required: bool, game_name: str
) -> Card:
    upper = token.upper()
    quoted = _quote(token)

    def allowed(card: Card) -> Card:
        if card.rank is None:
            if not jokers:
                # "JK" is also what a jack and a king typed without a space look like.
                hint = (
                    " For a jack and a king, put a space between them: J K."
                    if upper == "JK"
                    else ""
                )
                raise _Bad(f"{quoted} is a joker, and {game_name} is played without jokers.{hint}")
            return card
        if card.rank not in ranks:
            raise _Bad(
                f"{quoted} is not a card here — there are no {_plural(card.rank)} in "
                f"{game_name}; ranks run {_describe(ranks)}."
            )
        if suits_required and card.suit is None:
            named = _RANK_NAMES[card.rank] if card.rank in _FACES else card.rank
            typed = "" if upper == card.rank else f" ({quoted})"
            raise _Bad(f"Give the suit of the {named}{typed}, e.g. {card.rank}H or {card.rank}♥.")
        return card

    if upper in _JOKER_WORDS:
        return allowed(JOKER)
    for word in _JOKER_WORDS:
        rest = upper[len(word) :]
        if upper.startswith(word) and rest and all(ch in _SUIT_CHARS for ch in rest):
            raise _Bad(f"{quoted} is not a card — a joker has no suit: write JK or *.")

    if upper in _SUIT_CHARS:
        raise _Bad(
            f"{quoted} is a suit without a rank — write the suit right after the rank, "
            f"e.g. Q{token}."
        )
    if upper in _SUIT_WORDS:
        suit = _SUIT_WORDS[upper]
        raise _Bad(
            f"{quoted} is not a card — write the suit as a letter or symbol right after the "
            f"rank, e.g. Q{suit} or Q{SUIT_SYMBOLS[suit]}."
        )
    if upper in _RANK_WORDS:
        meant = _RANK_WORDS[upper]
        if meant not in ranks:
            allowed(Card(meant))
        name = _RANK_NAMES[meant]
        article = "an" if name[0] in "ae" else "a"
        spelled = "10 or T" if meant == "10" else meant
        raise _Bad(f"{quoted} is not a card — write {article} {name} as {spelled}.")
    if upper == "OF":
        raise _Bad(f"{quoted} is not a card — write the rank then the suit, e.g. QS or Q♠.")

    prefix = _RANK_PREFIX.match(upper)
    rank = _rank_of(prefix.group()) if prefix else None
    rest = upper[prefix.end() :] if prefix else upper
    if rank is not None and prefix is not None and (not rest or rest in _SUIT_CHARS):
        # A token with leading digits is only a card if the digits are the whole rank: "100".
        digits = _LEADING_DIGITS.match(upper)
        if digits is None or digits.end() == prefix.end():
            return allowed(Card(rank, _SUIT_CHARS[rest] if rest else None))

    if upper[0] in _SUIT_CHARS and _RANK_PREFIX.fullmatch(upper[1:]):
        swapped = _rank_of(upper[1:]) + token[0]
        raise _Bad(f"{quoted} has the suit first — write the rank first, e.g. {swapped}.")
    if upper[:2] in ("1O", "IO", "I0", "LO", "L0") and (
        len(upper) == 2 or upper[2:] in _SUIT_CHARS
    ):
        raise _Bad(f"{quoted} is not a card — a ten is 10 (one, zero) or T.")

    run = _split_run(upper)
    digits = _LEADING_DIGITS.match(upper)
    if digits is not None and digits.group() not in RANKS:
        tail = upper[digits.end() :]
        if digits.group() == "1" and "A" in ranks and (not tail or tail in _SUIT_CHARS):
            example = f", e.g. A{token[1:]}" if tail else ""
            raise _Bad(f"{quoted} is not a card — the ace is A{example}.")
        message = f"{quoted} is not a card — ranks run {_describe(ranks)}."
        if run is not None and len(run) > 1:
            message += f" For several cards, put a space between them: {_spaced(run)}."
        raise _Bad(message)
    if run is not None and len(run) > 1:
        raise _Bad(
            f"{quoted} looks like {_count_word(len(run))} cards typed together — "
            f"put a space between them: {_spaced(run)}."
        )

    if rank is not None and prefix is not None and rest:
        typed_rest = token[prefix.end() :] if len(token) == len(upper) else rest
        if all(ch in _SUIT_CHARS for ch in rest):
            suit = _SUIT_CHARS[rest[0]]
            raise _Bad(
                f"{quoted} has more than one suit — a card has one, "
                f"e.g. {rank}{suit} or {rank}{SUIT_SYMBOLS[suit]}."
            )
        if len(rest) == 1 and not rest.isdigit():
            raise _Bad(
                f"{quoted} is not a card — '{typed_rest}' is not a suit; "
                f"suits are {_SUITS_IN_WORDS}."
            )

    joker = ", or JK for a joker" if jokers else ""
    raise _Bad(
        f"{quoted} is not a card — write a rank ({_describe(ranks)}), optionally followed by "
        f"a suit ({_SUITS_IN_WORDS}){joker}, e.g. Q♠ or 10h."
    )


def _split_run(upper: str) -> list[str] | None:
    """The cards in a token typed without separators ("QK", "5H6"), or None if it is not that."""
    # Memoised by position: without it a long garbage token could take exponential time. The
    # length cap keeps the recursion shallow; nobody types sixty cards without a space by mistake.
    if len(upper) > 60:
        return None
    failed: set[int] = set()

    def from_(i: int) -> list[str] | None:
        if i == len(upper):
            return []
        if i in failed:
            return None
        for word in _JOKER_WORDS:
            if upper.startswith(word, i):
                after = from_(i + len(word))
                if after is not None:
                    return ["JK", *after]
        prefix = _RANK_PREFIX.match(upper, i)
        if prefix is not None:
            rank, j = _rank_of(prefix.group()), prefix.end()
            if j < len(upper) and upper[j] in _SUIT_CHARS:
                after = from_(j + 1)
                if after is not None:
                    return [rank + _SUIT_CHARS[upper[j]], *after]
            after = from_(j)
            if after is not None:
                return [rank, *after]
        failed.add(i)
        return None

    return from_(0)


def _spaced(codes: Sequence[str]) -> str:
    return " ".join(codes[:10]) + (" …" if len(codes) > 10 else "")


def _rank_of(typed: str) -> str:
    return "10" if typed == "T" else typed


def _quote(token: str) -> str:
    # A pasted paragraph should not become a paragraph-long error message.
    return f"'{token[:20]}…'" if len(token) > 20 else f"'{token}'"


def _for_player(message: str, player: str | None) -> str:
    if player is None:
        return message
    # "Give the suit…" reads as "Rex: give the suit…"; a card ("Q♠…") or a quote keeps its case.
    if len(message) > 1 and message[0].isupper() and message[1].islower():
        message = message[0].lower() + message[1:]
    return f"{player}: {message}"


def _describe(ranks: Sequence[str]) -> str:
    """The ranks for a sentence, number runs shortened: "A, 2–10, J, Q, K"."""
    parts: list[str] = []
    run: list[str] = []

    def flush() -> None:
        if len(run) >= 3:
            parts.append(f"{run[0]}–{run[-1]}")
        else:
            parts.extend(run)
        run.clear()

    for rank in ranks:
        if rank.isdigit() and run and int(rank) == int(run[-1]) + 1:
            run.append(rank)
            continue
        flush()
        if rank.isdigit():
            run.append(rank)
        else:
            parts.append(rank)
    flush()
    return ", ".join(parts)


def _plural(rank: str) -> str:
    return _RANK_NAMES[rank] + "s" if rank in _FACES else rank + "s"


_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def _count_word(n: int) -> str:
    return _WORDS[n] if 0 <= n < len(_WORDS) else str(n)


def _times(n: int) -> str:
    return {1: "once", 2: "twice"}.get(n, f"{_count_word(n)} times")


def _only(n: int) -> str:
    return "is only one" if n == 1 else f"are only {_count_word(n)}"


def spot_value(card: Card, *, ace: int = 1, joker: int = 15) -> int:
    """What a card left in hand costs: A = ``ace``, 2–10 face value, J Q K = 10."""
    if card.rank is None:
        return joker
    if card.rank == "A":
        return ace
    if card.rank in ("J", "Q", "K"):
        return 10
    return int(card.rank)


def spot_total(cards: Iterable[Card], *, ace: int = 1, joker: int = 15) -> int:
    return sum(spot_value(card, ace=ace, joker=joker) for card in cards)


def check_deck(
    hands: Mapping[str, Sequence[Card]],
    *,
    packs: int = 1,
    jokers: int = 0,
    fields: Mapping[str, str] | None = None,
) -> None:
    """Raise a RuleError if one hand's entries, all players together, need more than one deck.

    ``jokers`` is the number in the whole deck. The first card, scanning the hands in order,
    that takes part in a breach is the one reported, so an entry always gets the same message.
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

    def fail(message: str, counts: Mapping[str, int]) -> RuleError:
        # Counts were filled scanning the hands in order, so their keys are in that order too.
        players = tuple(counts)
        where = fields.get(players[0]) if fields is not None else None
        return RuleError(message, field=where, players=players)

    for cards in hands.values():
        for card in cards:
            if card.rank is None:
                if sum(joker_counts.values()) > jokers:
                    raise fail(_too_many_jokers(joker_counts, jokers), joker_counts)
                continue
            if card.suit is not None and sum(exact[card].values()) > packs:
                raise fail(_too_many_of_card(card, exact[card], packs), exact[card])
            if sum(by_rank[card.rank].values()) > 4 * packs:
                counts = by_rank[card.rank]
                raise fail(_too_many_of_rank(card.rank, counts, 4 * packs), counts)


def _entered(counts: Mapping[str, int]) -> str:
    total = sum(counts.values())
    listed = ", ".join(f"{player} {n}" for player, n in counts.items())
    return f"{total} {'was' if total == 1 else 'were'} entered ({listed})"


def _too_many_of_card(card: Card, counts: Mapping[str, int], limit: int) -> str:
    players = list(counts)
    if len(players) == 1:
        ((player, n),) = counts.items()
        return f"{player} has the {card} {_times(n)}, but there {_only(limit)} in the deck."
    if all(n == 1 for n in counts.values()):
        names = ", ".join(players)
        if len(players) == 2 and limit == 1:
            return f"Two players both have the {card} ({names})."
        return (
            f"{_count_word(len(players)).capitalize()} players have the {card} ({names}), "
            f"but there {_only(limit)} in the deck."
        )
    return f"There {_only(limit)} {card} in the deck, but {_entered(counts)}."


def _too_many_of_rank(rank: str, counts: Mapping[str, int], limit: int) -> str:
    if len(counts) == 1:
        ((player, n),) = counts.items()
        return (
            f"{player} has {_count_word(n)} {_plural(rank)}, "
            f"but there are only {_count_word(limit)} in the deck."
        )
    return (
        f"There are only {_count_word(limit)} {_plural(rank)} in the deck, but {_entered(counts)}."
    )


def _too_many_jokers(counts: Mapping[str, int], limit: int) -> str:
    if len(counts) == 1:
        ((player, n),) = counts.items()
        has = "a joker" if n == 1 else f"{_count_word(n)} jokers"
        if limit == 0:
            return f"{player} has {has}, but there are none in the deck."
        return f"{player} has {has}, but there {_only(limit)} in the deck."
    if limit == 0:
        return f"There are no jokers in the deck, but {_entered(counts)}."
    jokers = "joker" if limit == 1 else "jokers"
    return f"There {_only(limit)} {jokers} in the deck, but {_entered(counts)}."
