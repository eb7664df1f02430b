"""A bank account as a player keeps it with the group (RULES.md §6b): the IBAN checked by
ISO 13616 (country, length, mod-97 check digits) and the name on the account."""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from ledger.rules.errors import RuleError
from ledger.rules.names import breaks_lines, code_point, hidden_character

# The IBAN's length in each country that has one (the SWIFT IBAN registry).
IBAN_LENGTHS: Mapping[str, int] = MappingProxyType(
    {
        "AD": 24, "AE": 23, "AL": 28, "AT": 20, "AZ": 28, "BA": 20, "BE": 16, "BG": 22,
        "BH": 22, "BI": 27, "BR": 29, "BY": 28, "CH": 21, "CR": 22, "CY": 28, "CZ": 24,
        "DE": 22, "DJ": 27, "DK": 18, "DO": 28, "EE": 20, "EG": 29, "ES": 24, "FI": 18,
        "FK": 18, "FO": 18, "FR": 27, "GB": 22, "GE": 22, "GI": 23, "GL": 18, "GR": 27,
        "GT": 28, "HR": 21, "HU": 28, "IE": 22, "IL": 23, "IQ": 23, "IS": 26, "IT": 27,
        "JO": 30, "KW": 30, "KZ": 20, "LB": 28, "LC": 32, "LI": 21, "LT": 20, "LU": 20,
        "LV": 21, "LY": 25, "MC": 27, "MD": 24, "ME": 22, "MK": 19, "MN": 20, "MR": 27,
        "MT": 31, "MU": 30, "NI": 28, "NL": 18, "NO": 15, "OM": 23, "PK": 24, "PL": 28,
        "PS": 29, "PT": 25, "QA": 29, "RO": 24, "RS": 22, "RU": 33, "SA": 24, "SC": 31,
        "SD": 18, "SE": 24, "SI": 19, "SK": 24, "SM": 27, "SO": 23, "ST": 25, "SV": 28,
        "TL": 23, "TN": 24, "TR": 26, "UA": 29, "VA": 22, "VG": 24, "XK": 20, "YE": 30,
    }
)  # fmt: skip
LONGEST_IBAN = 34
ACCOUNT_NAME_LENGTH = 70
_ALNUM = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")


def check_iban(text: Any) -> str:
    """The IBAN as kept: spaces dropped, letters upper-cased, checked (RuleError on ``iban``)."""
    if not isinstance(text, str) or not text.strip():
        raise RuleError("Give the IBAN of the account, like NL91 ABNA 0417 1643 00.", field="iban")
    if len(text) > 2 * LONGEST_IBAN:
        raise RuleError("An IBAN has at most 34 letters and digits.", field="iban")
    iban = text.replace(" ", "").upper()
    if not set(iban) <= _ALNUM:
        raise RuleError("An IBAN holds only letters, digits and spaces.", field="iban")
    country = iban[:2]
    length = IBAN_LENGTHS.get(country)
    if length is None or not country.isalpha():
        raise RuleError(
            "An IBAN starts with the code of a country that has IBANs, not “{start}”.",
            field="iban",
            start=country,
        )
    if len(iban) != length:
        raise RuleError(
            "An IBAN of {country} has {length} letters and digits, not {count}.",
            field="iban",
            country=country,
            length=length,
            count=len(iban),
        )
    if not iban[2:4].isdigit() or _mod97(iban) != 1:
        raise RuleError(
            "The check digits of this IBAN do not match: a letter or digit is mistyped.",
            field="iban",
        )
    return iban


def check_account_name(text: Any) -> str:
    """The name on the account, 1 to 70 characters, without control characters."""
    if not isinstance(text, str) or not text.strip():
        raise RuleError("Give the name on the account.", field="name")
    if breaks_lines(text.strip()):
        # Each line of the QR code is a field: a line break would start another.
        raise RuleError("The name on the account cannot hold a line break.", field="name")
    name = text.strip()
    if len(name) > ACCOUNT_NAME_LENGTH:
        raise RuleError("The name on an account has at most 70 characters.", field="name")
    if any(unicodedata.category(c) in ("Cc", "Cs") for c in name):
        raise RuleError(
            "The name on the account cannot hold control characters or broken characters.",
            field="name",
        )
    hidden = hidden_character(name)
    if hidden is not None:
        raise RuleError(
            "The name on the account cannot hold {character}, a character that shows nothing "
            "or turns the text around it.",
            field="name",
            character=code_point(hidden),
        )
    return name


def _mod97(iban: str) -> int:
    """ISO 13616's check: the first four characters moved to the end, letters as 10–35."""
    moved = iban[4:] + iban[:4]
    return int("".join(str(int(c, 36)) for c in moved)) % 97
