"""Why a token is not a card here, in one sentence: the slip it fits (a suit in words, cards run
together, a Dutch or German letter on an English page…) or how cards are written.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ledger.rules.deck import (
    _A_RANK,
    _DUTCH_SUIT_CHARS,
    _FROM_DUTCH,
    _FROM_GERMAN,
    _GERMAN_SUIT_CHARS,
    _JOKER_WORDS,
    _LEADING_DIGITS,
    _RANK_PLURALS,
    _RANK_PREFIX,
    _RANK_WORDS,
    _SUIT_CHARS,
    _SUIT_WORDS,
    _THE_FACE,
    RANKS,
    SUIT_SYMBOLS,
    Card,
    _code_of,
    _count_word,
    _describe,
    _leading_rank,
    _rank_of,
    _Token,
    rank_letter,
    suit_reads,
)
from ledger.rules.errors import Param, Phrase


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
    if typed.upper not in suit_reads(typed.language):
        return None
    return Phrase(
        "{token} is a suit without a rank — write the suit right after the rank, e.g. "
        "{queen}{suit}.",
        token=typed.quoted,
        queen=rank_letter("Q", typed.language),
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
    """H, V or B typed where the entry is English: the Dutch heer, vrouw and boer (B is the
    German Bube as well)."""
    upper = typed.upper
    if typed.language != "en" or not upper or upper[0] not in _FROM_DUTCH:
        return None
    if upper == "H":  # a lone H is also the suit of hearts without its rank
        return Phrase(
            "{token} is not a card — in English H is the suit of hearts and needs a rank "
            "before it, e.g. QH. H, V and B are the Dutch letters (heer, vrouw, boer): "
            "in English write K, Q and J.",
            token=typed.quoted,
        )
    code = _code_of(typed.text, language="nl")
    if code is None:
        return None
    if upper[0] == "B":
        return Phrase(
            "{token} is not a card — B is the jack in the Dutch and the German letters "
            "(boer, Bube): in English write {code}.",
            token=typed.quoted,
            code=code,
        )
    return Phrase(
        "{token} is not a card — H, V and B are the Dutch letters (heer, vrouw, boer): "
        "in English write {code}.",
        token=typed.quoted,
        code=code,
    )


def _german_rank(typed: _Token) -> Phrase | None:
    """D or B typed where the entry is English: the German Dame and Bube (RULES.md §20)."""
    upper = typed.upper
    if typed.language != "en" or not upper or upper[0] not in _FROM_GERMAN:
        return None
    if upper == "D":  # a lone D is also the suit of diamonds without its rank
        return Phrase(
            "{token} is not a card — in English D is the suit of diamonds and needs a rank "
            "before it, e.g. QD. D and B are the German letters (Dame, Bube): in English "
            "write Q and J.",
            token=typed.quoted,
        )
    code = _code_of(typed.text, language="de")
    if code is None:
        return None
    lead = _leading_rank(upper, language="de")
    if lead is not None and upper[lead[1] :] in _SUIT_CHARS:
        return Phrase(
            "{token} is not a card — D and B are the German letters (Dame, Bube): in English "
            "write {code}.",
            token=typed.quoted,
            code=code,
        )
    return Phrase(
        "{token} is not a card — D and B are the German letters (Dame, Bube), kr, pi, he "
        "and ka the German suits: in English write {code}.",
        token=typed.quoted,
        code=code,
    )


def _dutch_suit(typed: _Token) -> Phrase | None:
    """A rank followed by r or k where the entry is English: the Dutch ruiten and klaveren."""
    upper = typed.upper
    lead = _leading_rank(upper)
    if typed.language != "en" or lead is None or upper[lead[1] :] not in ("R", "K"):
        return None
    return Phrase(
        "{token} is not a card — r and k are the Dutch letters for diamonds and clubs "
        "(ruiten, klaveren): in English write {code}.",
        token=typed.quoted,
        code=lead[0] + _DUTCH_SUIT_CHARS[upper[lead[1] :]],
    )


def _german_suit(typed: _Token) -> Phrase | None:
    """A rank followed by kr, pi, he or ka where the entry is English: the German suits."""
    upper = typed.upper
    lead = _leading_rank(upper)
    if typed.language != "en" or lead is None or upper[lead[1] :] not in _GERMAN_SUIT_CHARS:
        return None
    if upper[lead[1] :] in _SUIT_CHARS:
        return None
    return Phrase(
        "{token} is not a card — kr, pi, he and ka are the German suits (Kreuz, Pik, Herz, "
        "Karo): in English write {code}.",
        token=typed.quoted,
        code=lead[0] + _GERMAN_SUIT_CHARS[upper[lead[1] :]],
    )


def _rank_with_a_bad_suit(typed: _Token) -> Phrase | None:
    upper = typed.upper
    lead = _leading_rank(upper, language=typed.language)
    if lead is None or lead[1] == len(upper):
        return None
    rank, end = lead
    rest = upper[end:]
    suit_chars = suit_reads(typed.language)
    if all(ch in suit_chars for ch in rest):
        suit = suit_chars[rest[0]]
        return Phrase(
            "{token} has more than one suit — a card has one, e.g. {code} or {symbol_code}.",
            token=typed.quoted,
            code=rank + suit,
            symbol_code=rank + SUIT_SYMBOLS[suit],
        )
    if len(rest) <= (2 if typed.german else 1) and not rest.isdigit():
        # Quote the player's own letter unless upper-casing changed the token's length ("ß").
        typed_rest = typed.text[end:] if len(typed.text) == len(upper) else rest
        if typed.german:
            return Phrase(
                "{token} is not a card — '{typed}' is not a suit; suits are kr, pi, he, ka "
                "(Kreuz, Pik, Herz, Karo) or ♠ ♥ ♦ ♣.",
                token=typed.quoted,
                typed=typed_rest,
            )
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
    _german_rank,
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
    _german_suit,
    _rank_with_a_bad_suit,
)


def _mistake(typed: _Token) -> Phrase:
    """What is wrong with a token that names no card: the first slip it fits, or how cards
    are written."""
    for slip in _SLIPS:
        found = slip(typed)
        if found is not None:
            return found
    if typed.german:
        return Phrase(
            "{token} is not a card — write a rank ({ranks}, or D, B for Dame, Bube), "
            "optionally followed by a suit (kr, pi, he, ka or ♠ ♥ ♦ ♣), e.g. Dhe or 10ka.",
            token=typed.quoted,
            ranks=_describe(typed.ranks),
        )
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
