"""What a name may hold: one line, and nothing hidden. A leaf: it imports only the standard
library, so the engine and the services (a player's, a group's, a bank account's and Any
game's names, what a round was) ask the one question."""

from __future__ import annotations

import unicodedata


def breaks_lines(text: str) -> bool:
    """Whether ``text`` holds a line break of any kind: a line feed or carriage return, NEL,
    the vertical tab and form feed, the file, group and record separators, and Unicode's line
    and paragraph separators (U+2028, U+2029), everything ``str.splitlines`` splits on. A
    name holds none: a reader that splits text on every line break (an EPC QR code's) would
    read one name as two lines."""
    return bool(text) and text.splitlines() != [text]


# Characters that show nothing, or turn the text around them, so that one name can pass for
# another on a page or a PDF ("Ann" and "An\u200bn", "\u202eennA" shown as "Anne"): every
# format character (Unicode's Cf: the bidi marks, embeddings, overrides and isolates U+200E,
# U+200F, U+202A–U+202E, U+2066–U+2069, U+061C; the zero-width space, joiners and non-joiner
# U+200B–U+200D; the word joiner, U+FEFF, the soft hyphen, the tag characters
# U+E0000–U+E007F…), and the few letters and marks that draw as nothing: the Hangul fillers,
# the blank Braille pattern, the combining grapheme joiner, and a variation selector that
# selects nothing. Emoji stay whole (``_emoji_part``): a zero-width joiner between two emoji
# (woman, ZWJ, laptop: a woman technologist), a variation selector after a symbol (a red
# heart, a keycap 1), a skin tone, a flag of regional indicators, and the tag characters of
# a subdivision flag (U+1F3F4, then tag letters and digits, then the cancel tag: Scotland's
# flag); and an ideographic variation selector after a CJK ideograph (a name's variant form).
# The joiners of Persian and Indic writing are refused with the rest: a name reads without.
_DRAWS_NOTHING = frozenset("\u115f\u1160\u3164\uffa0\u2800\u034f")
_ZWJ = "\u200d"
_BLACK_FLAG = "\U0001f3f4"
_CANCEL_TAG = "\U000e007f"


def _is_tag(ch: str) -> bool:
    return "\U000e0000" <= ch <= "\U000e007f"


def _is_selector(ch: str) -> bool:
    return "\ufe00" <= ch <= "\ufe0f"


def _is_ideographic_selector(ch: str) -> bool:
    return "\U000e0100" <= ch <= "\U000e01ef"


def _is_skin_tone(ch: str) -> bool:
    return "\U0001f3fb" <= ch <= "\U0001f3ff"


def _symbol(ch: str) -> bool:
    """An emoji or another symbol an emoji sequence is made of (Unicode's So)."""
    return unicodedata.category(ch) == "So"


def _emoji_before(text: str, i: int) -> bool:
    """Whether an emoji ends just before ``i``, its variation selector and skin tone aside."""
    while i > 0 and (_is_selector(text[i - 1]) or _is_skin_tone(text[i - 1])):
        i -= 1
    return i > 0 and _symbol(text[i - 1])


def _flag_tags(text: str, i: int) -> bool:
    """Whether the tag character at ``i`` is part of a subdivision flag: a black flag, then
    tag letters and digits (small letters: "gbsct"), then the cancel tag (🏴󠁧󠁢󠁳󠁣󠁴󠁿, Scotland)."""
    start, end = i, i
    while start > 0 and _is_tag(text[start - 1]):
        start -= 1
    while end < len(text) and _is_tag(text[end]):
        end += 1
    spelled = "".join(chr(ord(t) - 0xE0000) for t in text[start : end - 1])
    return (
        start > 0
        and text[start - 1] == _BLACK_FLAG
        and text[end - 1] == _CANCEL_TAG
        and 2 <= len(spelled) <= 7
        and all(c in _TAG_SPELLING for c in spelled)
    )


_TAG_SPELLING = frozenset("abcdefghijklmnopqrstuvwxyz0123456789")


def _emoji_part(text: str, i: int) -> bool:
    """Whether the invisible character at ``i`` belongs to an emoji sequence (see above)."""
    ch = text[i]
    if ch == _ZWJ:
        return _emoji_before(text, i) and i + 1 < len(text) and _symbol(text[i + 1])
    if _is_selector(ch):
        previous = text[i - 1] if i > 0 else ""
        return ch in "\ufe0e\ufe0f" and (_symbol(previous) or previous in "0123456789#*")
    if _is_ideographic_selector(ch):
        return i > 0 and unicodedata.name(text[i - 1], "").startswith("CJK ")
    if _is_tag(ch):
        return _flag_tags(text, i)
    return False


def hidden_character(text: str) -> str | None:
    """The first character of ``text`` that shows nothing or turns the text around (see
    ``_DRAWS_NOTHING``), outside an emoji sequence; None when there is none."""
    for i, ch in enumerate(text):
        hidden = ch in _DRAWS_NOTHING or _is_selector(ch) or _is_ideographic_selector(ch)
        if (hidden or unicodedata.category(ch) == "Cf") and not _emoji_part(text, i):
            return ch
    return None


def code_point(ch: str) -> str:
    """A character as Unicode names its code point: U+202E."""
    return f"U+{ord(ch):04X}"
