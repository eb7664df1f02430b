"""Playing cards as players type them: parsing, spot values and the one-deck-per-hand check.

Cards are read in English or, where the entry is Dutch, with the Dutch deck's letters too
(RULES.md §1); they are kept in one notation, the English codes ("QH", "10", "JK"), and
shown back with the letters of the page's language (``card_label``, ``cards_as_typed``).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from ledger.rules.errors import Param, Phrase, RuleError, every_problem

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS: tuple[str, ...] = ("S", "H", "D", "C")
SUIT_SYMBOLS: dict[str, str] = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
# The languages cards may be typed in (API.md "Hand entry" ``cards_language``).
CARD_LANGUAGES: tuple[str, ...] = ("en", "nl")
# The Dutch deck's letters (RULES.md §1): heer, vrouw, boer; harten, ruiten, klaveren, schoppen.
# The ace and the number cards are the same in both.
DUTCH_RANKS: dict[str, str] = {"K": "H", "Q": "V", "J": "B"}
DUTCH_SUITS: dict[str, str] = {"H": "h", "D": "r", "C": "k", "S": "s"}


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
# Dutch entry reads the Dutch suit letters too. The English S and H mean the same there; D
# and C clash with no Dutch letter, so a card copied from an English page still reads.
_DUTCH_SUIT_CHARS: dict[str, str] = {
    **_SUIT_CHARS, **{letter.upper(): suit for suit, letter in DUTCH_SUITS.items()},
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
_DUTCH_RANK_PREFIX = re.compile(r"10|[2-9]|[AJQKTHVB]")
_FROM_DUTCH: dict[str, str] = {dutch: rank for rank, dutch in DUTCH_RANKS.items()}
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
    ``problems``, in the order typed). ``language`` "nl" reads the Dutch letters too."""
    cards: list[Card] = []
    problems: list[CardsMisread] = []
    for token in _tokens(text):
        try:
            cards.append(
                _read_token(
                    _Token(token, jokers, ranks, suits_required, game_name, language == "nl")
                )
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


def _tokens(text: str) -> list[str]:
    """The tokens typed, one card each if typed well."""
    # NFKC folds full-width letters and digits (some phone keyboards) into plain ones.
    clean = unicodedata.normalize("NFKC", text).translate(_INVISIBLE)
    return [token for token in _SEPARATORS.split(clean) if token]


def english_cards(text: str, language: str) -> str:
    """Cards typed in ``language`` in the one notation kept, the English codes ("Vh Hk" as
    "QH KC"). English text is kept as typed; a token that is no card is kept as it is."""
    if language != "nl":
        return text
    return " ".join(_code_of(token, dutch=True) or token for token in _tokens(text))


def cards_as_typed(text: str, language: str) -> str:
    """Cards kept in English as a player of ``language`` would type them: "QH KC 10" as
    "Vh Hk 10" in Dutch. English is kept as it is; a token that is no card too."""
    if language != "nl":
        return text
    codes = [_code_of(token, dutch=False) for token in _tokens(text)]
    return " ".join(
        card_letters(code, language) if code else token
        for code, token in zip(codes, _tokens(text), strict=True)
    )


def card_letters(code: str, language: str) -> str:
    """A card code in the letters of ``language``, for typing: "QH", in Dutch "Vh"."""
    if language != "nl" or code == "JK":
        return code
    rank, suit = (code[:-1], code[-1]) if code[-1:] in SUIT_SYMBOLS else (code, "")
    return DUTCH_RANKS.get(rank, rank) + DUTCH_SUITS.get(suit, "")


def card_label(code: str, language: str = "en") -> str:
    """A card code as a page shows it: "QS" as "Q♠" (in Dutch "V♠"), "10" as "10", "JK"."""
    if not code or code == "JK":
        return code
    rank, suit = (code[:-1], code[-1]) if code[-1] in SUIT_SYMBOLS else (code, "")
    if language == "nl":
        rank = DUTCH_RANKS.get(rank, rank)
    return rank + SUIT_SYMBOLS.get(suit, "")


def rank_letter(rank: str, language: str) -> str:
    """A rank as ``language`` writes it: "Q", in Dutch "V"."""
    return DUTCH_RANKS.get(rank, rank) if language == "nl" else rank


def _code_of(token: str, *, dutch: bool) -> str | None:
    """The English code of a well-formed card token, or None."""
    card = _card_of(_Token(token, True, RANKS, False, _THIS_GAME, dutch))
    return card.code if card is not None else None


@dataclass(frozen=True)
class _Token:
    """One token as typed, with what the game allows: all that reading a token looks at."""

    text: str
    jokers: bool
    ranks: tuple[str, ...]
    suits_required: bool
    game_name: Param
    dutch: bool = False  # the Dutch letters are read too (RULES.md §1)

    @property
    def upper(self) -> str:
        # Every form is matched upper-cased; ``text`` keeps the player's own spelling for quotes.
        return self.text.upper()

    @property
    def quoted(self) -> str:
        return _quote(self.text)


def _read_token(typed: _Token) -> Card:
    """The card ``typed`` names if the game allows it, else _Bad saying what the player meant."""
    card = _card_of(typed)
    if card is None:
        raise _Bad(_mistake(typed))
    refusal = _refusal(card, typed)
    if refusal is not None:
        raise _Bad(refusal)
    return card


def _card_of(typed: _Token) -> Card | None:
    """The card a well-formed token names ("JK", "Q♠", "10", "th"), allowed here or not."""
    upper = typed.upper
    if upper in _JOKER_WORDS:
        return JOKER
    lead = _leading_rank(upper, dutch=typed.dutch)
    if lead is None:
        return None
    rank, end = lead
    rest = upper[end:]
    suit_chars = _DUTCH_SUIT_CHARS if typed.dutch else _SUIT_CHARS
    if rest and rest not in suit_chars:
        return None
    # A token with leading digits is only a card if the digits are the whole rank: "100".
    digits = _LEADING_DIGITS.match(upper)
    if digits is not None and digits.end() != end:
        return None
    return Card(rank, suit_chars[rest] if rest else None)


def _leading_rank(upper: str, *, dutch: bool = False) -> tuple[str, int] | None:
    """The rank a token starts with and where it ends ("10" and 2 in "10H"), or None."""
    prefix = (_DUTCH_RANK_PREFIX if dutch else _RANK_PREFIX).match(upper)
    if prefix is None:
        return None
    typed = prefix.group()
    return _FROM_DUTCH.get(typed) or _rank_of(typed), prefix.end()


def _refusal(card: Card, typed: _Token) -> Phrase | None:
    """Why this game does not take a card that is written well, or None if it takes it."""
    if card.rank is None:
        return None if typed.jokers else _no_jokers(typed)
    if card.rank not in typed.ranks:
        return Phrase(
            "{token} is not a card here — there are no {rank_plural} in {game}; ranks run {ranks}.",
            token=typed.quoted,
            rank_plural=_RANK_PLURALS[card.rank],
            game=typed.game_name,
            ranks=_describe(typed.ranks),
        )
    if typed.suits_required and card.suit is None:
        named: Param = _THE_FACE.get(card.rank, card.rank)
        if typed.upper == card.rank:
            return Phrase(
                "Give the suit of the {rank}, e.g. {code}H or {code}♥.",
                rank=named,
                code=card.rank,
            )
        return Phrase(
            "Give the suit of the {rank} ({token}), e.g. {code}H or {code}♥.",
            rank=named,
            token=typed.quoted,
            code=card.rank,
        )
    return None


def _no_jokers(typed: _Token) -> Phrase:
    if typed.upper == "JK":  # also what a jack and a king typed without a space look like
        return Phrase(
            "{token} is a joker, and {game} is played without jokers. "
            "For a jack and a king, put a space between them: J K.",
            token=typed.quoted,
            game=typed.game_name,
        )
    return Phrase(
        "{token} is a joker, and {game} is played without jokers.",
        token=typed.quoted,
        game=typed.game_name,
    )


# --- What a token that is not a card was meant to be ----------------------------------------
# Each reading below looks for one kind of slip and says how to write the card instead, or
# returns None if the token is not that slip. _mistake tries them in the order of _SLIPS, the
# first that fits speaks; none fits a well-formed card, so they are tried only after _card_of.


def _joker_with_suit(typed: _Token) -> Phrase | None:
    upper = typed.upper
    for word in _JOKER_WORDS:
        rest = upper[len(word) :]
        if upper.startswith(word) and rest and all(ch in _SUIT_CHARS for ch in rest):
            return Phrase(
                "{token} is not a card — a joker has no suit: write JK or *.", token=typed.quoted
            )
    return None


def _suit_alone(typed: _Token) -> Phrase | None:
    if typed.upper not in _SUIT_CHARS:
        return None
    return Phrase(
        "{token} is a suit without a rank — write the suit right after the rank, e.g. Q{suit}.",
        token=typed.quoted,
        suit=typed.text,
    )


def _suit_in_words(typed: _Token) -> Phrase | None:
    suit = _SUIT_WORDS.get(typed.upper)
    if suit is None:
        return None
    return Phrase(
        "{token} is not a card — write the suit as a letter or symbol right after the "
        "rank, e.g. Q{letter} or Q{symbol}.",
        token=typed.quoted,
        letter=suit,
        symbol=SUIT_SYMBOLS[suit],
    )


def _rank_in_words(typed: _Token) -> Phrase | None:
    meant = _RANK_WORDS.get(typed.upper)
    if meant is None:
        return None
    if meant not in typed.ranks:
        # "sevens" in a game without 7s: that there are none matters more than the spelling.
        return _refusal(Card(meant), typed)
    if meant == "10":
        return Phrase("{token} is not a card — write a ten as 10 or T.", token=typed.quoted)
    return Phrase(
        "{token} is not a card — write {a_rank} as {code}.",
        token=typed.quoted,
        a_rank=_A_RANK[meant],
        code=meant,
    )


def _of_between(typed: _Token) -> Phrase | None:
    # "queen of spades" typed as three words: each is refused in turn, "of" with this advice.
    if typed.upper != "OF":
        return None
    return Phrase(
        "{token} is not a card — write the rank then the suit, e.g. QS or Q♠.", token=typed.quoted
    )


def _suit_first(typed: _Token) -> Phrase | None:
    upper = typed.upper
    if upper[0] not in _SUIT_CHARS or not _RANK_PREFIX.fullmatch(upper[1:]):
        return None
    return Phrase(
        "{token} has the suit first — write the rank first, e.g. {swapped}.",
        token=typed.quoted,
        swapped=_rank_of(upper[1:]) + typed.text[0],
    )


def _ten_as_letters(typed: _Token) -> Phrase | None:
    upper = typed.upper
    if upper[:2] not in ("1O", "IO", "I0", "LO", "L0"):
        return None
    if len(upper) != 2 and upper[2:] not in _SUIT_CHARS:
        return None
    return Phrase("{token} is not a card — a ten is 10 (one, zero) or T.", token=typed.quoted)


def _number_not_a_rank(typed: _Token) -> Phrase | None:
    upper = typed.upper
    digits = _LEADING_DIGITS.match(upper)
    if digits is None or digits.group() in RANKS:
        return None
    tail = upper[digits.end() :]
    if digits.group() == "1" and "A" in typed.ranks and (not tail or tail in _SUIT_CHARS):
        if tail:
            return Phrase(
                "{token} is not a card — the ace is A, e.g. A{suit}.",
                token=typed.quoted,
                suit=typed.text[1:],
            )
        return Phrase("{token} is not a card — the ace is A.", token=typed.quoted)
    run = _split_run(upper)
    if run is not None and len(run) > 1:
        return Phrase(
            "{token} is not a card — ranks run {ranks}. "
            "For several cards, put a space between them: {cards}.",
            token=typed.quoted,
            ranks=_describe(typed.ranks),
            cards=_spaced(run),
        )
    return Phrase(
        "{token} is not a card — ranks run {ranks}.",
        token=typed.quoted,
        ranks=_describe(typed.ranks),
    )


def _cards_run_together(typed: _Token) -> Phrase | None:
    run = _split_run(typed.upper)
    if run is None or len(run) < 2:
        return None
    return Phrase(
        "{token} looks like {count} cards typed together — put a space between them: {cards}.",
        token=typed.quoted,
        count=_count_word(len(run)),
        cards=_spaced(run),
    )


def _dutch_rank(typed: _Token) -> Phrase | None:
    """H, V or B typed where the entry is English: the Dutch heer, vrouw and boer."""
    upper = typed.upper
    if typed.dutch or not upper or upper[0] not in _FROM_DUTCH:
        return None
    if upper == "H":  # a lone H is also the suit of hearts without its rank
        return Phrase(
            "{token} is not a card — in English H is the suit of hearts and needs a rank "
            "before it, e.g. QH. H, V and B are the Dutch letters (heer, vrouw, boer): "
            "in English write K, Q and J.",
            token=typed.quoted,
        )
    code = _code_of(typed.text, dutch=True)
    if code is None:
        return None
    return Phrase(
        "{token} is not a card — H, V and B are the Dutch letters (heer, vrouw, boer): "
        "in English write {code}.",
        token=typed.quoted,
        code=code,
    )


def _dutch_suit(typed: _Token) -> Phrase | None:
    """A rank followed by r or k where the entry is English: the Dutch ruiten and klaveren."""
    upper = typed.upper
    lead = _leading_rank(upper)
    if typed.dutch or lead is None or upper[lead[1] :] not in ("R", "K"):
        return None
    return Phrase(
        "{token} is not a card — r and k are the Dutch letters for diamonds and clubs "
        "(ruiten, klaveren): in English write {code}.",
        token=typed.quoted,
        code=lead[0] + _DUTCH_SUIT_CHARS[upper[lead[1] :]],
    )


def _rank_with_a_bad_suit(typed: _Token) -> Phrase | None:
    upper = typed.upper
    lead = _leading_rank(upper, dutch=typed.dutch)
    if lead is None or lead[1] == len(upper):
        return None
    rank, end = lead
    rest = upper[end:]
    suit_chars = _DUTCH_SUIT_CHARS if typed.dutch else _SUIT_CHARS
    if all(ch in suit_chars for ch in rest):
        suit = suit_chars[rest[0]]
        return Phrase(
            "{token} has more than one suit — a card has one, e.g. {code} or {symbol_code}.",
            token=typed.quoted,
            code=rank + suit,
            symbol_code=rank + SUIT_SYMBOLS[suit],
        )
    if len(rest) == 1 and not rest.isdigit():
        # Quote the player's own letter unless upper-casing changed the token's length ("ß").
        typed_rest = typed.text[end:] if len(typed.text) == len(upper) else rest
        if typed.dutch:
            return Phrase(
                "{token} is not a card — '{typed}' is not a suit; suits are h, r, k, s "
                "(harten, ruiten, klaveren, schoppen) or ♠ ♥ ♦ ♣.",
                token=typed.quoted,
                typed=typed_rest,
            )
        return Phrase(
            "{token} is not a card — '{typed}' is not a suit; suits are S, H, D, C or ♠ ♥ ♦ ♣.",
            token=typed.quoted,
            typed=typed_rest,
        )
    return None


_SLIPS: tuple[Callable[[_Token], Phrase | None], ...] = (
    _dutch_rank,
    _joker_with_suit,
    _suit_alone,
    _suit_in_words,
    _rank_in_words,
    _of_between,
    _suit_first,
    _ten_as_letters,
    _number_not_a_rank,
    _cards_run_together,
    _dutch_suit,
    _rank_with_a_bad_suit,
)


def _mistake(typed: _Token) -> Phrase:
    """What is wrong with a token that names no card: the first slip it fits, or how cards
    are written."""
    for slip in _SLIPS:
        found = slip(typed)
        if found is not None:
            return found
    if typed.dutch:
        return Phrase(
            "{token} is not a card — write a rank ({ranks}, or H, V, B for heer, vrouw, boer), "
            "optionally followed by a suit (h, r, k, s or ♠ ♥ ♦ ♣), e.g. Vh or 10r.",
            token=typed.quoted,
            ranks=_describe(typed.ranks),
        )
    if typed.jokers:
        return Phrase(
            "{token} is not a card — write a rank ({ranks}), optionally followed by "
            "a suit (S, H, D, C or ♠ ♥ ♦ ♣), or JK for a joker, e.g. Q♠ or 10h.",
            token=typed.quoted,
            ranks=_describe(typed.ranks),
        )
    return Phrase(
        "{token} is not a card — write a rank ({ranks}), optionally followed by "
        "a suit (S, H, D, C or ♠ ♥ ♦ ♣), e.g. Q♠ or 10h.",
        token=typed.quoted,
        ranks=_describe(typed.ranks),
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


def _for_player(message: Phrase, player: str | None) -> Phrase:
    if player is None:
        return message
    # "Give the suit…" reads as "Rex: give the suit…"; a card ("Q♠…") or a quote keeps its case.
    return Phrase("{player}: {message}", player=player, message=message.continued())


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
