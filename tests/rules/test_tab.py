"""The tab's arithmetic (RULES.md §6a), the IBAN check and the EPC QR code's text (§6b)."""

from __future__ import annotations

from datetime import datetime, timedelta
from decimal import Decimal

import pytest
import segno
import zxingcpp
from hypothesis import given, settings
from hypothesis import strategies as st

from ledger.rules.epc import epc_payload, remittance
from ledger.rules.errors import RuleError
from ledger.rules.iban import check_account_name, check_iban
from ledger.rules.tab import TabNight, TabPaid, check_payment, night_part, tab_cents, work_out

START = datetime(2026, 11, 5, 20)
PLAYERS = ["Ann", "Bob", "Cas", "Dee"]


def thursday(week: int, parts: dict[str, int], session: int | None = None) -> TabNight:
    return TabNight(session or week + 1, START + timedelta(weeks=week), parts)


def cents(tab, player: str) -> int:
    return int(tab.outstanding[player].scaleb(2))


def test_nights_at_different_unit_values_add_up_exactly():
    assert night_part(3, Decimal("0.005")) == 15_000  # 1.5 cents, in millionths
    first = thursday(
        0, {"Ann": night_part(44, Decimal("0.01")), "Bob": night_part(-44, Decimal("0.01"))}
    )
    second = thursday(
        1, {"Ann": night_part(3, Decimal("0.005")), "Bob": night_part(-3, Decimal("0.005"))}
    )
    tab = work_out("EUR", [first, second], [])
    assert tab is not None
    assert tab.exact == {"Ann": 455_000, "Bob": -455_000}
    # 0.455 in cents: one of the two gets the half cent, so no money is made or lost.
    assert sum(tab.settled.values()) == 0
    assert {abs(v) for v in tab.settled.values()} <= {Decimal("0.45"), Decimal("0.46")}
    ((transfer, paid),) = tab.transfers
    assert (transfer.source, transfer.target) == ("Bob", "Ann") and paid == tab.settled["Ann"]


def test_a_settled_tab_stays_until_the_next_night_starts_a_new_one():
    night = thursday(0, {"Ann": 380_000, "Bob": -380_000})
    paid = TabPaid(1, START + timedelta(days=1), "Bob", "Ann", 38)
    tab = work_out("EUR", [night], [paid])
    assert tab is not None and tab.transfers == () and tab.payments == (paid,)
    later = thursday(1, {"Ann": -100_000, "Bob": 100_000})
    tab = work_out("EUR", [night, later], [paid])
    assert tab is not None
    assert tab.nights == (later,) and tab.payments == ()
    assert tab.outstanding == {"Ann": Decimal("-0.10"), "Bob": Decimal("0.10")}


def test_over_payment_is_refused_naming_what_is_due():
    tab = work_out("EUR", [thursday(0, {"Ann": 380_000, "Bob": -200_000, "Cas": -180_000})], [])
    check_payment(tab, "Bob", "Ann", 20)
    with pytest.raises(RuleError, match="Only €0.20 is still due from Bob to Ann") as refused:
        check_payment(tab, "Bob", "Ann", 21)
    assert refused.value.field == "amount"
    with pytest.raises(RuleError, match="Nothing is still due"):
        check_payment(tab, "Bob", "Cas", 1)


def test_in_francs_a_payment_may_pass_what_is_owed_by_less_than_a_coin():
    tab = work_out("CHF", [thursday(0, {"Ann": 330_000, "Bob": -330_000})], [])
    assert tab is not None and tab.outstanding["Ann"] == Decimal("0.35")  # to the 5 centimes
    check_payment(tab, "Bob", "Ann", 35)
    with pytest.raises(RuleError):
        check_payment(tab, "Bob", "Ann", 40)


@pytest.mark.parametrize(
    ("typed", "expected"), [("0.38", 38), ("0,38", 38), (" 12 ", 1200), (5, 500)]
)
def test_an_amount_paid_is_read_in_cents(typed, expected):
    assert tab_cents(typed, "EUR") == expected


@pytest.mark.parametrize("typed", ["0.001", "-1", "0", "nan", "1e9", 0.38, None, True, "x" * 50])
def test_an_amount_that_is_no_amount_is_refused_naming_it(typed):
    with pytest.raises(RuleError) as refused:
        tab_cents(typed, "EUR")
    assert refused.value.field == "amount"


balances = st.lists(st.integers(-5_000, 5_000), min_size=2, max_size=len(PLAYERS))
unit_values = st.sampled_from(["0.01", "0.005", "0.05", "0.25", "1"])


@settings(max_examples=150, deadline=None)
@given(
    nights=st.lists(st.tuples(balances, unit_values), min_size=1, max_size=6),
    currency=st.sampled_from(["EUR", "CHF", "JPY"]),
    picks=st.lists(st.tuples(st.integers(0, 10), st.integers(1, 100)), max_size=12),
)
def test_the_tab_sums_to_zero_and_payments_never_exceed_what_is_owed(nights, currency, picks):
    """However the nights fall and whatever is paid, every outstanding balance adds up to
    zero, a payment accepted never makes anyone owe or be owed more than a coin beyond what
    they did, and paying every transfer settles the tab."""
    made: list[TabNight] = []
    for week, (units, value) in enumerate(nights):
        units = [*units[:-1], -sum(units[:-1])]
        made.append(
            thursday(
                week,
                {p: night_part(u, Decimal(value)) for p, u in zip(PLAYERS, units, strict=False)},
            )
        )
    paid: list[TabPaid] = []
    at = START + timedelta(weeks=len(nights))
    for i, (pick, percent) in enumerate(picks):
        tab = work_out(currency, made, paid)
        assert tab is not None and sum(tab.outstanding.values()) == 0
        if not tab.transfers:
            break
        transfer, amount = tab.transfers[pick % len(tab.transfers)]
        whole = int(amount.scaleb(2 if currency != "JPY" else 0))
        part = max(1, whole * percent // 100)
        check_payment(tab, transfer.source, transfer.target, part)
        places = 0 if currency == "JPY" else 2
        due = min(-tab.outstanding[transfer.source], tab.outstanding[transfer.target])
        slack = 4 if currency == "CHF" else 0  # less than one coin of 5 centimes
        with pytest.raises(RuleError, match="still due"):
            check_payment(
                tab, transfer.source, transfer.target, int(due.scaleb(places)) + slack + 1
            )
        before = (tab.outstanding[transfer.source], tab.outstanding[transfer.target])
        paid.append(TabPaid(i, at + timedelta(minutes=i), transfer.source, transfer.target, part))
        after = work_out(currency, made, paid)
        assert after is not None and sum(after.outstanding.values()) == 0
        coin = Decimal("0.05") if currency == "CHF" else Decimal(1 if currency == "JPY" else "0.01")
        assert before[0] - coin < after.outstanding[transfer.source] <= 0 or after.transfers == ()
        assert 0 <= after.outstanding[transfer.target] < before[1] + coin or after.transfers == ()
    tab = work_out(currency, made, paid)
    assert tab is not None
    for n, (transfer, amount) in enumerate(tab.transfers):
        whole = int(amount.scaleb(2 if currency != "JPY" else 0))
        paid.append(
            TabPaid(
                100 + n, at + timedelta(days=1, minutes=n), transfer.source, transfer.target, whole
            )
        )
    settled = work_out(currency, made, paid)
    assert settled is not None and settled.transfers == ()
    assert set(settled.outstanding.values()) == {0}


@pytest.mark.parametrize(
    ("typed", "kept"),
    [
        ("NL91 ABNA 0417 1643 00", "NL91ABNA0417164300"),
        ("de89 3704 0044 0532 0130 00", "DE89370400440532013000"),
        ("BE68539007547034", "BE68539007547034"),
        ("IE29AIBK93115212345678", "IE29AIBK93115212345678"),
    ],
)
def test_a_sound_iban_is_kept_without_spaces_in_capitals(typed, kept):
    assert check_iban(typed) == kept


@pytest.mark.parametrize(
    "typed",
    ["NL92ABNA0417164300", "NL91ABNA041716430", "XX91ABNA0417164300", "NL91ABNA0417164300\x00",
     "NL91-ABNA-0417-1643-00", "1" * 10_000, "", "   ", 42, None, "NLxxABNA0417164300"],
)  # fmt: skip
def test_a_bad_iban_is_refused_naming_the_field(typed):
    with pytest.raises(RuleError) as refused:
        check_iban(typed)
    assert refused.value.field == "iban"


@pytest.mark.parametrize("typed", ["", "x" * 71, "Ann\nB", "Ann\x07", "A\ud800", None])
def test_a_bad_account_name_is_refused(typed):
    with pytest.raises(RuleError) as refused:
        check_account_name(typed)
    assert refused.value.field == "name"


EXPECTED = (
    "BCD\n002\n1\nSCT\n\nAnn Byrne\nNL91ABNA0417164300\nEUR0.38\n\n\nPub Ledger The Local Spot #7"
)


def test_the_epc_payload_is_exactly_the_lines_of_the_rules():
    text = epc_payload(
        "Ann Byrne", "NL91ABNA0417164300", Decimal("0.38"), remittance("The Local", "Spot #7")
    )
    assert text == EXPECTED
    assert remittance("x" * 200) == ("Pub Ledger " + "x" * 200)[:140]
    assert epc_payload("A", "NL91ABNA0417164300", Decimal("12"), "r").split("\n")[7] == "EUR12.00"
    with pytest.raises(ValueError):
        epc_payload("A", "NL91ABNA0417164300", Decimal("0.00"), "r")


def decoded(code: segno.QRCode) -> list[str]:
    """What a scanner reads from ``code``: its modules drawn as a grey image (4 pixels a
    module, the quiet zone kept) and decoded by ZXing."""
    matrix, border, scale = code.matrix, 4, 4
    side = (len(matrix) + 2 * border) * scale
    pixels = bytearray()
    for y in range(side):
        row = y // scale - border
        for x in range(side):
            col = x // scale - border
            dark = 0 <= row < len(matrix) and 0 <= col < len(matrix) and matrix[row][col]
            pixels.append(0 if dark else 255)
    return [
        found.text
        for found in zxingcpp.read_barcodes(memoryview(bytes(pixels)).cast("B", (side, side)))
    ]


def test_the_qr_code_scans_to_exactly_the_payload():
    """The code as the pages make it (ledger/pictures/qr.py: segno, error level M) scans back to
    the payload of RULES.md §6b, accents in the name included."""
    text = epc_payload(
        "Séan Ó Briain", "IE29AIBK93115212345678", Decimal("12.05"), remittance("The Local")
    )
    assert decoded(segno.make(text, error="m")) == [text]
    assert decoded(segno.make(EXPECTED, error="m")) == [EXPECTED]
