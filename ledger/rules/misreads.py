"""Why a token is not a card here, in one sentence: the slip it fits (a suit in words, cards run
together, another language's letter on an English page…) or how cards are written. Cards and
ranks in a sentence are facts (deck.py's ``Cards``, ``Ranks``), written in the reader's letters.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ledger.rules.deck import (
    _A_RANK,
    _JOKER_WORDS,
    _LEADING_DIGITS,
    _RANK_PLURALS,
    _RANK_PREFIX,
    _RANK_WORDS,
    _SUIT_CHARS,
    _SUIT_WORDS,
    _THE_FACE,
    LETTERS,
    RANKS,
    SUITS,
    Card,
    Cards,
    Letters,
    Ranks,
    _code_of,
    _count_word,
    _describe,
    _leading_rank,
    _rank_of,
    _Token,
    shown_card,
    suit_reads,
    typed_card,
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
            ranks=_ranks(typed),
        )
    if typed.suits_required and card.suit is None:
        named: Param = _THE_FACE.get(card.rank, card.rank)
        example = card.rank + "H"
        if typed.upper == card.rank:
            return Phrase(
                "Give the suit of the {rank}, e.g. {card} or {symbol}.",
                rank=named,
                card=typed_card(example, typed.language),
                symbol=shown_card(example, typed.language),
            )
        return Phrase(
            "Give the suit of the {rank} ({token}), e.g. {card} or {symbol}.",
            rank=named,
            token=typed.quoted,
            card=typed_card(example, typed.language),
            symbol=shown_card(example, typed.language),
        )
    return None


def _ranks(typed: _Token) -> Ranks:
    return Ranks(typed.ranks, typed.language)


def _typed(codes: Sequence[str], typed: _Token) -> Cards:
    """Cards for a sentence, as the player would type them: "Q K", in Dutch "V H"."""
    return Cards(tuple(codes[:10]) + (("…",) if len(codes) > 10 else ()), True, typed.language)


def _no_jokers(typed: _Token) -> Phrase:
    if typed.upper == "JK":  # also what a jack and a king typed without a space look like
        return Phrase(
            "{token} is a joker, and {game} is played without jokers. "
            "For a jack and a king, put a space between them: {cards}.",
            token=typed.quoted,
            game=typed.game_name,
            cards=_typed(("J", "K"), typed),
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
        queen=_typed(("Q",), typed),
        suit=typed.text,
    )


def _suit_in_words(typed: _Token) -> Phrase | None:
    suit = _SUIT_WORDS.get(typed.upper)
    if suit is None:
        return None
    return Phrase(
        "{token} is not a card — write the suit as a letter or symbol right after the "
        "rank, e.g. {card} or {symbol}.",
        token=typed.quoted,
        card=typed_card("Q" + suit, typed.language),
        symbol=shown_card("Q" + suit, typed.language),
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
        code=_typed((meant,), typed),
    )


def _of_between(typed: _Token) -> Phrase | None:
    # "queen of spades" typed as three words: each is refused in turn, "of" with this advice.
    if typed.upper != "OF":
        return None
    return Phrase(
        "{token} is not a card — write the rank then the suit, e.g. {card} or {symbol}.",
        token=typed.quoted,
        card=typed_card("QS", typed.language),
        symbol=shown_card("QS", typed.language),
    )


def _suit_first(typed: _Token) -> Phrase | None:
    upper = typed.upper
    if upper[0] not in _SUIT_CHARS or not _RANK_PREFIX.fullmatch(upper[1:]):
        return None
    code = _rank_of(upper[1:]) + _SUIT_CHARS[upper[0]]
    # Swapped as typed: a letter for a letter, a symbol for a symbol.
    symbol = upper[0] not in "SHDC"
    return Phrase(
        "{token} has the suit first — write the rank first, e.g. {swapped}.",
        token=typed.quoted,
        swapped=Cards((code,), not symbol, typed.language),
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
            ranks=_ranks(typed),
            cards=_typed(run, typed),
        )
    return Phrase(
        "{token} is not a card — ranks run {ranks}.",
        token=typed.quoted,
        ranks=_ranks(typed),
    )


def _cards_run_together(typed: _Token) -> Phrase | None:
    run = _split_run(typed.upper)
    if run is None or len(run) < 2:
        return None
    return Phrase(
        "{token} looks like {count} cards typed together — put a space between them: {cards}.",
        token=typed.quoted,
        count=_count_word(len(run)),
        cards=_typed(run, typed),
    )


def _and(items: Sequence[Param]) -> Param:
    """ "H, V and B", "clubs and spades" (each piece translated); one item as it is."""
    names = items[0]
    for item in items[1:-1]:
        names = Phrase("{first}, {rest}", first=names, rest=item)
    return names if len(items) == 1 else Phrase("{names} and {last}", names=names, last=items[-1])


def _foreign_rank(typed: _Token) -> Phrase | None:
    """A rank letter of another language typed where the entry is English: the Dutch heer,
    vrouw, boer (RULES.md §1), the German Dame, Bube (§20). Said in English codes: that is
    what this entry reads."""
    upper = typed.upper
    if typed.language != "en" or not upper:
        return None
    letter = upper[0]
    where = [code for code, own in LETTERS.items() if letter in own.ranks.values()]
    if not where:
        return None
    if upper == letter and letter in _SUIT_CHARS:  # a lone H or D: also a suit without its rank
        return _lone_letter(typed, LETTERS[where[0]])
    reads = {w: _code_of(typed.text, language=w) for w in where}
    where = [w for w, code in reads.items() if code is not None]
    if not where:
        return None
    code = str(reads[where[0]])
    own = LETTERS[where[0]]
    if len(where) > 1:  # the B: the jack in Dutch and in German
        return Phrase(
            "{token} is not a card — {letter} is the {rank} in {the_letters} ({words}): in "
            "English write {code}.",
            token=typed.quoted,
            letter=letter,
            rank=_THE_FACE[_rank_in(letter, where[0])],
            the_letters=_and([LETTERS[w].the_letters for w in where]),
            words=", ".join(_word_for(letter, LETTERS[w]) for w in where),
            code=code,
        )
    lead = _leading_rank(upper, language=where[0])
    rest = upper[lead[1] :] if lead is not None else ""
    if rest and rest not in _SUIT_CHARS:  # its suit is that language's too
        return Phrase(
            "{token} is not a card — {letters} are {the_letters} ({words}), {suits} "
            "{the_suits}: in English write {code}.",
            token=typed.quoted,
            **_own_ranks(own),
            suits=_and(list(own.suits.values())),
            the_suits=own.the_suits,
            code=code,
        )
    return Phrase(
        "{token} is not a card — {letters} are {the_letters} ({words}): in English write {code}.",
        token=typed.quoted,
        **_own_ranks(own),
        code=code,
    )


def _lone_letter(typed: _Token, own: Letters) -> Phrase:
    """A lone H or D on an English page: the suit without its rank, or the heer or Dame."""
    letter = typed.upper
    return Phrase(
        "{token} is not a card — in English {letter} is the suit of {suit} and needs a rank "
        "before it, e.g. Q{letter}. {letters} are {the_letters} ({words}): in English "
        "write {english}.",
        token=typed.quoted,
        letter=letter,
        suit=_SUIT_NAMES[_SUIT_CHARS[letter]],
        **_own_ranks(own),
        english=_and(list(own.ranks)),
    )


def _own_ranks(own: Letters) -> dict[str, Param]:
    """A language's rank letters and their words, for a sentence: "H, V and B", "the Dutch
    letters", "heer, vrouw, boer"."""
    return {
        "letters": _and(list(own.ranks.values())),
        "the_letters": own.the_letters,
        "words": ", ".join(own.rank_words),
    }


def _rank_in(letter: str, language: str) -> str:
    return next(rank for rank, own in LETTERS[language].ranks.items() if own == letter)


def _word_for(letter: str, own: Letters) -> str:
    return own.rank_words[list(own.ranks.values()).index(letter)]


_SUIT_NAMES: dict[str, Phrase] = {
    "S": Phrase("spades"), "H": Phrase("hearts"), "D": Phrase("diamonds"), "C": Phrase("clubs"),
}  # fmt: skip


def _foreign_suit(typed: _Token) -> Phrase | None:
    """An English rank followed by another language's suit letters where the entry is English:
    the Dutch ruiten and klaveren, the German Kreuz, Pik, Herz, Karo."""
    upper = typed.upper
    lead = _leading_rank(upper)
    if typed.language != "en" or lead is None:
        return None
    rest = upper[lead[1] :]
    if rest in _SUIT_CHARS:
        return None
    for own in LETTERS.values():
        # Only the letters English does not read the same (the Dutch h and s are hearts and
        # spades in English too).
        theirs = {s: t for s, t in own.suits.items() if t.upper() not in _SUIT_CHARS}
        meant = [suit for suit, letters in theirs.items() if letters.upper() == rest]
        if not meant:
            continue
        return Phrase(
            "{token} is not a card — {letters} are {the_letters} for {suits} ({words}): in "
            "English write {code}.",
            token=typed.quoted,
            letters=_and(list(theirs.values())),
            the_letters=own.the_letters,
            suits=_and([_SUIT_NAMES[s] for s in theirs]),
            words=", ".join(own.suit_words[list(own.suits).index(s)] for s in theirs),
            code=lead[0] + meant[0],
        )
    return None


def _suits(typed: _Token) -> str:
    """The suits an entry reads, for a sentence: "S, H, D, C", in Dutch "h, r, k, s (harten,
    ruiten, klaveren, schoppen)"."""
    own = LETTERS.get(typed.language)
    if own is None:
        return ", ".join(SUITS)
    return f"{', '.join(own.suits.values())} ({', '.join(own.suit_words)})"


def _rank_with_a_bad_suit(typed: _Token) -> Phrase | None:
    upper = typed.upper
    lead = _leading_rank(upper, language=typed.language)
    if lead is None or lead[1] == len(upper):
        return None
    rank, end = lead
    rest = upper[end:]
    suit_chars = suit_reads(typed.language)
    if all(ch in suit_chars for ch in rest):
        code = rank + suit_chars[rest[0]]
        return Phrase(
            "{token} has more than one suit — a card has one, e.g. {code} or {symbol_code}.",
            token=typed.quoted,
            code=typed_card(code, typed.language),
            symbol_code=shown_card(code, typed.language),
        )
    if len(rest) <= (2 if typed.german else 1) and not rest.isdigit():
        # Quote the player's own letter unless upper-casing changed the token's length ("ß").
        typed_rest = typed.text[end:] if len(typed.text) == len(upper) else rest
        return Phrase(
            "{token} is not a card — '{typed}' is not a suit; suits are {suits} or ♠ ♥ ♦ ♣.",
            token=typed.quoted,
            typed=typed_rest,
            suits=_suits(typed),
        )
    return None


_SLIPS: tuple[Callable[[_Token], Phrase | None], ...] = (
    _foreign_rank,
    _joker_with_suit,
    _suit_alone,
    _suit_in_words,
    _rank_in_words,
    _of_between,
    _suit_first,
    _ten_as_letters,
    _number_not_a_rank,
    _cards_run_together,
    _foreign_suit,
    _rank_with_a_bad_suit,
)


def _mistake(typed: _Token) -> Phrase:
    """What is wrong with a token that names no card: the first slip it fits, or how cards
    are written."""
    for slip in _SLIPS:
        found = slip(typed)
        if found is not None:
            return found
    own = LETTERS.get(typed.language)
    if own is not None:
        # Both the English letters and the language's own read here: the ranks list both.
        return Phrase(
            "{token} is not a card — write a rank ({ranks}, or {letters} for {words}), "
            "optionally followed by a suit ({suits} or ♠ ♥ ♦ ♣), e.g. {card} or {other}.",
            token=typed.quoted,
            ranks=_describe(typed.ranks),
            letters=", ".join(own.ranks.values()),
            words=", ".join(own.rank_words),
            suits=", ".join(own.suits.values()),
            card=typed_card("QH", typed.language),
            other=typed_card("10D", typed.language),
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
