"""Rounds of drinks and food (RULES.md §6c): the split to the cent, the refusals, the worked
example, and the properties that hold for any rounds and any game money."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ledger.rules.errors import RuleError
from ledger.rules.rounds import Round, parse_amount, parts, read_round, settle_night, split
from ledger.rules.tab import night_part

SEATS = ["Enda", "John", "Rex", "Finn"]
CENT = Decimal("0.01")


def game_money(units: dict[str, int], unit_value: str = "0.01") -> dict[str, int]:
    return {p: night_part(u, Decimal(unit_value)) for p, u in units.items()}


def test_the_worked_example_of_rules_6c():
    pints = read_round(SEATS, paid_by="John", people=SEATS, amount="18.40", currency="EUR")
    crisps = read_round(
        SEATS, paid_by="Rex", people=["John", "Rex", "Finn"], amount="7.50", currency="EUR"
    )
    assert parts(pints) == dict.fromkeys(SEATS, 460)
    assert parts(crisps) == {"John": 250, "Rex": 250, "Finn": 250}
    night = settle_night(
        "EUR",
        game_money({"Enda": 120, "John": -30, "Rex": -50, "Finn": -40}),
        [pints, crisps],
        SEATS,
    )
    assert night.rounds == {
        "Enda": -460,
        "John": 1840 - 460 - 250,
        "Rex": -460 + 750 - 250,
        "Finn": -710,
    }
    assert night.settled == {
        "Enda": Decimal("-3.40"),
        "John": Decimal("11.00"),
        "Rex": Decimal("-0.10"),
        "Finn": Decimal("-7.50"),
    }
    said = {(t.source, t.target, money) for t, money in night.transfers}
    assert said == {
        ("Finn", "John", Decimal("7.50")),
        ("Enda", "John", Decimal("3.40")),
        ("Rex", "John", Decimal("0.10")),
    }


def test_shares_leave_the_odd_cent_to_the_first_seat():
    assert split(1000, {"Ann": 2, "Bob": 1}, ["Ann", "Bob"]) == {"Ann": 667, "Bob": 333}
    # Seating order, not the order typed or the size of the share, decides the odd cents.
    assert split(1000, {"Bob": 1, "Ann": 2}, ["Bob", "Ann"]) == {"Bob": 334, "Ann": 666}
    assert split(100, dict.fromkeys("ABC", 1), ["C", "A", "B"]) == {"C": 34, "A": 33, "B": 33}


def test_the_payer_need_not_be_among_those_the_round_was_for():
    one = Round("Ann", 600, {"Bob": 1, "Cas": 1})
    night = settle_night("EUR", {}, [one], ["Ann", "Bob", "Cas"])
    assert night.rounds == {"Ann": 600, "Bob": -300, "Cas": -300}


def test_a_points_night_without_money_settles_its_rounds_alone():
    one = Round("Ann", 1001, {"Ann": 1, "Bob": 1})
    night = settle_night("EUR", {}, [one], ["Ann", "Bob"])
    ((transfer, money),) = night.transfers
    assert (transfer.source, transfer.target, money) == ("Bob", "Ann", Decimal("5.00"))


def test_payments_in_cents_are_taken_off_what_is_outstanding():
    one = Round("Ann", 1000, {"Ann": 1, "Bob": 1})
    night = settle_night("EUR", {}, [one], ["Ann", "Bob"], [("Bob", "Ann", 300)])
    assert night.outstanding == {"Ann": Decimal("2.00"), "Bob": Decimal("-2.00")}


def test_a_pot_carried_on_with_nobody_to_keep_it_is_still_paid_into():
    game = {"Ann": night_part(30, CENT), "Bob": night_part(-50, CENT), None: night_part(20, CENT)}
    night = settle_night("EUR", game, [Round("Bob", 400, {"Ann": 1, "Bob": 1})], ["Ann", "Bob"])
    # Ann 0.30 − 2.00, Bob −0.50 + 4.00 − 2.00; the pot is paid its 0.20 all the same.
    assert night.settled == {"Ann": Decimal("-1.70"), "Bob": Decimal("1.50"), None: Decimal("0.20")}
    assert {(t.source, t.target, m) for t, m in night.transfers} == {
        ("Ann", "Bob", Decimal("1.50")),
        ("Ann", None, Decimal("0.20")),
    }


@pytest.mark.parametrize(
    ("body", "field", "message"),
    [
        ({"paid_by": None}, "paid_by", "Say who paid for the round."),
        (
            {"paid_by": "Ann"},
            "paid_by",
            "Ann is not playing tonight: a round is paid by and for the night's players.",
        ),
        ({"people": []}, "for", "Say who the round was for."),
        (
            {"people": ["Rex", "Ann"]},
            "for[1]",
            "Ann is not playing tonight: a round is paid by and for the night's players.",
        ),
        (
            {"amount": "12.345"},
            "amount",
            "The amount must be more than 0 and at most 10,000.00, in whole cents: 12.345 is not.",
        ),
        (
            {"amount": "0"},
            "amount",
            "The amount must be more than 0 and at most 10,000.00, in whole cents: 0 is not.",
        ),
        (
            {"amount": "10000.01"},
            "amount",
            "The amount must be more than 0 and at most 10,000.00, in whole cents: "
            "10000.01 is not.",
        ),
        (
            {"amount": "1e3"},
            "amount",
            "The amount must be more than 0 and at most 10,000.00, in whole cents: 1e3 is not.",
        ),
        (
            {"amount": "1_000"},
            "amount",
            "The amount must be more than 0 and at most 10,000.00, in whole cents: 1_000 is not.",
        ),
        (
            {"amount": 18.4},
            "amount",
            'Give the amount as text, like "18.40", so it is kept exactly.',
        ),
        (
            {"shares": {"Rex": 0}},
            "shares.Rex",
            "Shares are whole numbers of at least 1: Rex's is 0.",
        ),
        ({"what": "x" * 61}, "what", "Say what the round was in at most 60 characters."),
    ],
)
def test_refusals_name_the_field(body, field, message):
    typed = {"paid_by": "John", "people": SEATS, "amount": "18.40"} | body
    with pytest.raises(RuleError) as refused:
        read_round(SEATS, currency="EUR", **typed)
    assert (refused.value.field, refused.value.message) == (field, message)


def test_every_mistake_at_once():
    with pytest.raises(RuleError) as refused:
        read_round(SEATS, paid_by="", people=[], amount="-1", currency="EUR")
    assert [p.field for p in refused.value.problems] == ["paid_by", "for", "amount"]


@pytest.mark.parametrize(
    ("typed", "cents"),
    [
        ("18.40", 1840),
        ("18,40", 1840),
        ("1.840,00", 184000),
        ("1,840.00", 184000),
        (18, 1800),
        (" 7,5 ", 750),
        ("10000", 1_000_000),
        (".5", 50),
        ("4.", 400),
    ],
)
def test_amounts_as_typed(typed, cents):
    assert parse_amount(typed, "EUR") == cents


def test_names_are_matched_whatever_their_case_and_kept_once_in_seating_order():
    one = read_round(
        SEATS,
        paid_by="john",
        people=["finn", "ENDA", "Finn"],
        amount="3",
        currency="EUR",
        shares={"finn": 2},
        what="  a   round ",
    )
    assert one == Round("John", 300, {"Enda": 1, "Finn": 2}, "a round")


# ---- properties ------------------------------------------------------------------------------

PLAYERS = ["Ann", "Bob", "Cas", "Dee", "Eve"]

rounds_ = st.lists(
    st.builds(
        Round,
        paid_by=st.sampled_from(PLAYERS),
        cents=st.integers(1, 1_000_000),
        shares=st.dictionaries(st.sampled_from(PLAYERS), st.integers(1, 5), min_size=1),
    ),
    max_size=6,
)


@st.composite
def games(draw):
    """Game money in units adding up to zero (a pot carried on with nobody keeping it as
    None), at a unit value of whole cents or finer."""
    units = draw(st.lists(st.integers(-5000, 5000), min_size=len(PLAYERS), max_size=6))
    balances: dict[str | None, int] = dict(zip(PLAYERS, units, strict=False))
    balances[None] = -sum(balances.values())
    value = Decimal(draw(st.sampled_from(["0.01", "0.05", "0.005", "0.10", "1"])))
    return {p: night_part(u, value) for p, u in balances.items() if p is not None or u >= 0}


@settings(max_examples=300, deadline=None)
@given(
    rounds_,
    st.integers(1, 1_000_000),
    st.dictionaries(st.sampled_from(PLAYERS), st.integers(1, 9), min_size=1),
)
def test_the_parts_add_up_to_each_amount(made, cents, shares):
    assert sum(split(cents, shares, PLAYERS).values()) == cents
    for one in made:
        assert sum(parts(one).values()) == one.cents
        # Each part is the exact share rounded down, or one cent more.
        total = sum(one.shares.values())
        for person, part in parts(one).items():
            assert part - one.cents * one.shares[person] // total in (0, 1)


@settings(max_examples=300, deadline=None)
@given(games(), rounds_, st.sampled_from(["EUR", "CHF", "JPY", "SEK"]))
def test_the_totals_add_up_to_zero_and_the_transfers_settle_them(game, made, currency):
    if sum(game.values()) != 0:  # a pot owed by nobody: drop it to keep the game whole
        game = {p: v for p, v in game.items() if p is not None}
        game[PLAYERS[0]] -= sum(game.values())
    night = settle_night(currency, game, made, PLAYERS)
    assert sum(night.rounds.values()) == 0
    assert sum(night.total(p) for p in night.settled) == 0
    assert sum(night.settled.values()) == 0
    for party, settled in night.settled.items():
        exact = Decimal(night.total(party)).scaleb(-6)
        assert abs(settled - exact) < Decimal(1)  # within a coin of exact (SEK's coin is 1)
    left = dict(night.settled)
    for transfer, money in night.transfers:
        assert money > 0
        left[transfer.source] += money
        left[transfer.target] -= money
    assert all(v == 0 for v in left.values())
    assert len(night.transfers) < max(2, len([v for v in night.settled.values() if v]))
