"""What a name may hold: one line. A leaf: it imports nothing, so the engine and the services
(a player's, a group's, a bank account's and Any game's names) ask the one question."""

from __future__ import annotations


def breaks_lines(text: str) -> bool:
    """Whether ``text`` holds a line break of any kind: a line feed or carriage return, NEL,
    the vertical tab and form feed, the file, group and record separators, and Unicode's line
    and paragraph separators (U+2028, U+2029), everything ``str.splitlines`` splits on. A
    name holds none: a reader that splits text on every line break (an EPC QR code's) would
    read one name as two lines."""
    return bool(text) and text.splitlines() != [text]
