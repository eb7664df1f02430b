"""A card and how it is written: ranks and suits, their letters in English, Dutch (RULES.md
§1) and German (§20), a token read as a card, the words for ranks and counts, a card's spot
value.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ledger.rules.errors import Param, Phrase, Written

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


SUITS: tuple[str, ...] = ("S", "H", "D", "C")


SUIT_SYMBOLS: dict[str, str] = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


# The languages cards may be typed in (API.md "Hand entry" ``cards_language``).
CARD_LANGUAGES: tuple[str, ...] = ("en", "nl", "de")


@dataclass(frozen=True)
class Letters:
    """One language's own letters for the cards and the words they stand for: the one table
    that reading, showing and the refusals take them from. A rank or suit it does not name is
    written as in English (the ace, the number cards)."""

    ranks: dict[str, str]  # English rank: its letter ("Q": "V")
    rank_words: tuple[str, ...]  # what those letters stand for, in the same order
    suits: dict[str, str]  # English suit: its letters after a rank ("D": "r")
    suit_words: tuple[str, ...]  # what those stand for, in the same order
    the_letters: Phrase  # "the Dutch letters", in a sentence about them
    the_suits: Phrase  # "the Dutch suits"


LETTERS: dict[str, Letters] = {
    # RULES.md §1: heer, vrouw, boer; harten, ruiten, klaveren, schoppen.
    "nl": Letters(
        ranks={"K": "H", "Q": "V", "J": "B"},
        rank_words=("heer", "vrouw", "boer"),
        suits={"H": "h", "D": "r", "C": "k", "S": "s"},
        suit_words=("harten", "ruiten", "klaveren", "schoppen"),
        the_letters=Phrase("the Dutch letters"),
        the_suits=Phrase("the Dutch suits"),
    ),
    # RULES.md §20: Dame, Bube (the König and the Ass keep K and A); Kreuz, Pik, Herz, Karo,
    # two letters each after the rank.
    "de": Letters(
        ranks={"Q": "D", "J": "B"},
        rank_words=("Dame", "Bube"),
        suits={"C": "kr", "S": "pi", "H": "he", "D": "ka"},
        suit_words=("Kreuz", "Pik", "Herz", "Karo"),
        the_letters=Phrase("the German letters"),
        the_suits=Phrase("the German suits"),
    ),
}


DUTCH_RANKS: dict[str, str] = LETTERS["nl"].ranks
DUTCH_SUITS: dict[str, str] = LETTERS["nl"].suits
GERMAN_RANKS: dict[str, str] = LETTERS["de"].ranks
GERMAN_SUITS: dict[str, str] = LETTERS["de"].suits


# Each language's letters for the ranks and the suits it writes its own way.
_RANK_LETTERS: dict[str, dict[str, str]] = {code: own.ranks for code, own in LETTERS.items()}
_SUIT_LETTERS: dict[str, dict[str, str]] = {code: own.suits for code, own in LETTERS.items()}


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


# Entry in another language reads its suit letters too. The English letters still read: in
# Dutch S and H mean the same, and D and C clash with no Dutch letter, so a card copied from an
# English page still reads; no German suit is one letter long ("QD" is still the queen of
# diamonds there, though a lone D is the Dame).
_SUIT_READS: dict[str, dict[str, str]] = {
    code: {**_SUIT_CHARS, **{letters.upper(): suit for suit, letters in own.suits.items()}}
    for code, own in LETTERS.items()
}


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


# What a token may start with in each language that reads letters of its own, and the rank
# each letter is.
_RANK_PREFIXES: dict[str, re.Pattern[str]] = {
    code: re.compile(r"10|[2-9]|[AJQKT" + "".join(own.ranks.values()) + "]")
    for code, own in LETTERS.items()
}
_FROM_LETTERS: dict[str, dict[str, str]] = {
    code: {letter: rank for rank, letter in own.ranks.items()} for code, own in LETTERS.items()
}


_LEADING_DIGITS = re.compile(r"[0-9]+")


# Spaces, commas and hyphens, plus the dashes a phone or a word processor puts in for a hyphen.
_SEPARATORS = re.compile(r"[\s,\-\u2010\u2011\u2012\u2013\u2014\u2212]+")


# Emoji presentation selectors follow a suit symbol on many phones ("♠️"); they carry no meaning.
_INVISIBLE = dict.fromkeys(map(ord, "\ufe0e\ufe0f\u200b\u200d"))


# A message's words for the ranks, each a Phrase so that a page shows it in its language.
# Letter ranks are named in words ("the ace", "four queens"); "four As" is hard to read.
_A_RANK: dict[str, Phrase] = {
    "A": Phrase("an ace"), "2": Phrase("a two"), "3": Phrase("a three"), "4": Phrase("a four"),
    "5": Phrase("a five"), "6": Phrase("a six"), "7": Phrase("a seven"), "8": Phrase("an eight"),
    "9": Phrase("a nine"), "10": Phrase("a ten"), "J": Phrase("a jack"), "Q": Phrase("a queen"),
    "K": Phrase("a king"),
}  # fmt: skip


_THE_FACE: dict[str, Phrase] = {
    "A": Phrase("ace"), "J": Phrase("jack"), "Q": Phrase("queen"), "K": Phrase("king"),
}  # fmt: skip


_RANK_PLURALS: dict[str, Phrase] = {
    "A": Phrase("aces"), "2": Phrase("2s"), "3": Phrase("3s"), "4": Phrase("4s"),
    "5": Phrase("5s"), "6": Phrase("6s"), "7": Phrase("7s"), "8": Phrase("8s"), "9": Phrase("9s"),
    "10": Phrase("10s"), "J": Phrase("jacks"), "Q": Phrase("queens"), "K": Phrase("kings"),
}  # fmt: skip


# A message names the game (its name stays as it is in any language); this when none is given.
_THIS_GAME = Phrase("this game")


def _tokens(text: str) -> list[str]:
    """The tokens typed, one card each if typed well."""
    # NFKC folds full-width letters and digits (some phone keyboards) into plain ones.
    clean = unicodedata.normalize("NFKC", text).translate(_INVISIBLE)
    return [token for token in _SEPARATORS.split(clean) if token]


def english_cards(text: str, language: str) -> str:
    """Cards typed in ``language`` in the one notation kept, the English codes ("Vh Hk" as
    "QH KC", "Dhe Bkr" as "QH JC"). English text is kept as typed; a token that is no card is
    kept as it is."""
    if language not in _RANK_LETTERS:
        return text
    return " ".join(_code_of(token, language=language) or token for token in _tokens(text))


def cards_as_typed(text: str, language: str) -> str:
    """Cards kept in English as a player of ``language`` would type them: "QH KC 10" as
    "Vh Hk 10" in Dutch, "Dhe Kkr 10" in German. English is kept as it is; a token that is
    no card too."""
    if language not in _RANK_LETTERS:
        return text
    codes = [_code_of(token) for token in _tokens(text)]
    return " ".join(
        card_letters(code, language) if code else token
        for code, token in zip(codes, _tokens(text), strict=True)
    )


def card_letters(code: str, language: str) -> str:
    """A card code in the letters of ``language``, for typing: "QH", in Dutch "Vh", in German
    "Dhe"."""
    if language not in _RANK_LETTERS or code == "JK":
        return code
    rank, suit = (code[:-1], code[-1]) if code[-1:] in SUIT_SYMBOLS else (code, "")
    return rank_letter(rank, language) + (suit_letter(suit, language) if suit else "")


def card_label(code: str, language: str = "en") -> str:
    """A card code as a page shows it: "QS" as "Q♠" (in Dutch "V♠", in German "D♠"), "10" as
    "10", "JK"."""
    if not code or code == "JK":
        return code
    rank, suit = (code[:-1], code[-1]) if code[-1] in SUIT_SYMBOLS else (code, "")
    return rank_letter(rank, language) + SUIT_SYMBOLS.get(suit, "")


def rank_letter(rank: str, language: str) -> str:
    """A rank as ``language`` writes it: "Q", in Dutch "V", in German "D"."""
    return _RANK_LETTERS.get(language, {}).get(rank, rank)


def suit_letter(suit: str, language: str) -> str:
    """The letters a suit is typed with in ``language``: "D", in Dutch "r", in German "ka"."""
    return _SUIT_LETTERS.get(language, {}).get(suit, suit)


@dataclass(frozen=True)
class Cards(Written):
    """Cards named in a sentence, kept as English codes and written in the reader's letters:
    as a page shows them ("V♥", ``typed`` False) or as they are typed ("Vh"). ``language`` is
    the one they were typed in, their letters where the sentence's reader names none."""

    codes: tuple[str, ...]
    typed: bool = False
    language: str = "en"
    between: str = " "

    def written(self, language: str | None = None) -> str:
        letters = language or self.language
        write = card_letters if self.typed else card_label
        return self.between.join(write(code, letters) for code in self.codes)


@dataclass(frozen=True)
class AsTyped(Written):
    """Cards kept as typed (in English codes, or as an English page typed them), for a
    sentence in the reader's letters: "QH KC 10", in Dutch "Vh Hk 10"."""

    text: str

    def written(self, language: str | None = None) -> str:
        return cards_as_typed(self.text, language or "en")


@dataclass(frozen=True)
class Ranks(Written):
    """The ranks a game plays with, for a sentence, in the reader's letters: "A, 2–10, J, Q,
    K", in Dutch "A, 2–10, B, V, H"."""

    ranks: tuple[str, ...]
    language: str = "en"

    def written(self, language: str | None = None) -> str:
        letters = language or self.language
        return _describe([rank_letter(rank, letters) for rank in self.ranks])


def typed_card(code: str, language: str) -> Cards:
    """One card as a player of ``language`` types it, for a sentence: "QH", in Dutch "Vh"."""
    return Cards((code,), typed=True, language=language)


def shown_card(code: str, language: str) -> Cards:
    """One card as a page shows it, for a sentence: "Q♥", in Dutch "V♥"."""
    return Cards((code,), language=language)


def _code_of(token: str, *, language: str = "en") -> str | None:
    """The English code of a well-formed card token read in ``language``, or None."""
    card = _card_of(_Token(token, True, RANKS, False, _THIS_GAME, language))
    return card.code if card is not None else None


@dataclass(frozen=True)
class _Token:
    """One token as typed, with what the game allows: all that reading a token looks at."""

    text: str
    jokers: bool
    ranks: tuple[str, ...]
    suits_required: bool
    game_name: Param
    language: str = "en"  # "nl", "de": the Dutch (RULES.md §1) or German (§20) letters too

    @property
    def dutch(self) -> bool:
        return self.language == "nl"

    @property
    def german(self) -> bool:
        return self.language == "de"

    @property
    def upper(self) -> str:
        # Every form is matched upper-cased; ``text`` keeps the player's own spelling for quotes.
        return self.text.upper()

    @property
    def quoted(self) -> str:
        return _quote(self.text)


def _card_of(typed: _Token) -> Card | None:
    """The card a well-formed token names ("JK", "Q♠", "10", "th"), allowed here or not."""
    upper = typed.upper
    if upper in _JOKER_WORDS:
        return JOKER
    lead = _leading_rank(upper, language=typed.language)
    if lead is None:
        return None
    rank, end = lead
    rest = upper[end:]
    suit_chars = suit_reads(typed.language)
    if rest and rest not in suit_chars:
        return None
    # A token with leading digits is only a card if the digits are the whole rank: "100".
    digits = _LEADING_DIGITS.match(upper)
    if digits is not None and digits.end() != end:
        return None
    return Card(rank, suit_chars[rest] if rest else None)


def suit_reads(language: str) -> dict[str, str]:
    """Every way a suit may be typed after a rank in ``language``, upper-cased, and its suit."""
    return _SUIT_READS.get(language, _SUIT_CHARS)


def _leading_rank(upper: str, *, language: str = "en") -> tuple[str, int] | None:
    """The rank a token starts with and where it ends ("10" and 2 in "10H"), or None."""
    prefix = _RANK_PREFIXES.get(language, _RANK_PREFIX).match(upper)
    if prefix is None:
        return None
    typed = prefix.group()
    return _FROM_LETTERS.get(language, {}).get(typed) or _rank_of(typed), prefix.end()


def _rank_of(typed: str) -> str:
    return "10" if typed == "T" else typed


def _quote(token: str) -> str:
    # A pasted paragraph should not become a paragraph-long error message.
    return f"'{token[:20]}…'" if len(token) > 20 else f"'{token}'"


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


_WORDS = (
    Phrase("no"), Phrase("one"), Phrase("two"), Phrase("three"), Phrase("four"), Phrase("five"),
    Phrase("six"), Phrase("seven"), Phrase("eight"), Phrase("nine"), Phrase("ten"),
)  # fmt: skip


def _count_word(n: int) -> Param:
    return _WORDS[n] if 0 <= n < len(_WORDS) else n


def _capitalized(words: Param) -> Param:
    return words.capitalized() if isinstance(words, Phrase) else words


def _times(n: int) -> Phrase:
    if n == 1:
        return Phrase("once")
    if n == 2:
        return Phrase("twice")
    return Phrase("{count} times", count=_count_word(n))


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
