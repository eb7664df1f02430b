"""The sentence after a hand is saved: who won, who pays what, and the pot."""

from __future__ import annotations

from ledger.words.hands import hand_summary, join_names
from ledger.words.money import transfer_text


def payments(*moves: tuple[str, str, int]) -> list[dict]:
    return [{"from": a, "to": b, "units": u} for a, b, u in moves]


def results(*names: str, **points: int) -> list[dict]:
    return [{"player": n, "points": points.get(n), "sitting_out": False} for n in names]


SEATS = ("Enda", "John", "Rex", "Finn")


def test_the_seed_hand_reads_as_the_table_would_say_it():
    hand = {
        "results": results(*SEATS),
        "out": None,
        "winners": ["John"],
        "payments": payments(("Enda", "John", 20), ("Rex", "John", 11), ("Finn", "John", 20)),
        "pot_before": 20,
        "pot_after": 20,
    }
    assert hand_summary(hand, money=True) == (
        "John wins 51: Enda pays 20, Rex 11, Finn 20. The pot stays at 20."
    )


def antes(*names: str, each: int = 5) -> list[dict]:
    return [{"from": n, "to": None, "units": each} for n in names]


def test_the_antes_that_took_the_pot_up_are_said_not_that_it_stayed():
    """Issue 29: "The pot stays at 16" when the antes took it from 8 to 16."""
    hand = {
        "results": results(*SEATS),
        "out": None,
        "winners": ["John"],
        "payments": payments(("Enda", "John", 20), ("Rex", "John", 11), ("Finn", "John", 20)),
        "movements": antes(*SEATS, each=2)
        + payments(("Enda", "John", 20), ("Rex", "John", 11), ("Finn", "John", 20)),
        "pot_before": 16,
        "pot_after": 16,
    }
    assert hand_summary(hand, money=True) == (
        "John wins 51: Enda pays 20, Rex 11, Finn 20. The antes raise the pot from 8 to 16."
    )
    first = {**hand, "movements": antes(*SEATS, each=4), "pot_before": 16, "pot_after": 16}
    assert hand_summary(first, money=True).endswith(" The antes put 16 in the pot.")
    # Without antes (none in the session) the pot did stay where it was.
    still = {**hand, "movements": hand["payments"]}
    assert hand_summary(still, money=True).endswith(" The pot stays at 16.")


def test_the_player_who_goes_out_collects_the_pot_and_the_payments_in_one_amount():
    """RULES.md §2's hand 2: Enda collects 40 + 16 + 10 + 8, and the sentence says 74."""
    hand = {
        "results": results(*SEATS),
        "out": "Enda",
        "winners": ["Enda"],
        "payments": payments(("John", "Enda", 16), ("Rex", "Enda", 10), ("Finn", "Enda", 8)),
        "pot_before": 40,
        "pot_after": 0,
    }
    assert hand_summary(hand, money=True) == (
        "Enda goes out and collects 74: the pot of 40, and John pays 16, Rex 10, Finn 8."
    )


def test_going_out_with_no_pot_says_the_payments_and_that_the_pot_is_empty():
    hand = {
        "results": results(*SEATS),
        "out": "Enda",
        "winners": ["Enda"],
        "payments": payments(("John", "Enda", 16), ("Rex", "Enda", 10)),
        "pot_before": 0,
        "pot_after": 0,
    }
    assert hand_summary(hand, money=True) == (
        "Enda goes out and collects 26: John pays 16, Rex 10. The pot is empty."
    )


def test_going_out_when_the_others_sit_out_collects_the_pot_alone():
    hand = {
        "results": results(*SEATS),
        "out": "Enda",
        "winners": ["Enda"],
        "payments": [],
        "pot_before": 25,
        "pot_after": 0,
    }
    assert hand_summary(hand, money=True) == "Enda goes out and collects the pot of 25."


def test_joint_winners_share_and_an_odd_unit_grows_the_pot():
    spots = {"Enda": 20, "John": 4, "Rex": 4, "Finn": 15}  # 35 shared by two: one left over
    hand = {
        "results": [{"player": n, "spots": spots[n], "sitting_out": False} for n in SEATS],
        "out": None,
        "winners": ["John", "Rex"],
        "payments": payments(
            ("Enda", "John", 10), ("Enda", "Rex", 10), ("Finn", "John", 7), ("Finn", "Rex", 7)
        ),
        "pot_before": 20,
        "pot_after": 21,
    }
    assert hand_summary(hand, money=True) == (
        "John and Rex win 17 each: Enda pays 20, Finn 15. "
        "The odd unit goes into the pot, which grows to 21."
    )


def test_when_everyone_ties_nobody_pays():
    hand = {
        "results": results("Enda", "John"),
        "out": None,
        "winners": ["Enda", "John"],
        "payments": [],
        "pot_before": 10,
        "pot_after": 10,
    }
    assert hand_summary(hand, money=True) == "Everyone ties: nobody pays. The pot stays at 10."


def test_a_points_hand_says_who_went_out_and_who_scores_what():
    hand = {
        "results": results("Anna", "Ben", "Cas", Anna=0, Ben=12, Cas=7),
        "out": "Anna",
        "winners": ["Anna"],
        "payments": [],
        "pot_before": None,
        "pot_after": None,
    }
    assert hand_summary(hand, money=False) == "Anna goes out. Ben scores 12, Cas 7."


def test_names_are_joined_with_and():
    assert join_names(["Enda"]) == "Enda"
    assert join_names(["Enda", "John"]) == "Enda and John"
    assert join_names(["Enda", "John", "Rex"]) == "Enda, John and Rex"


def test_a_transfer_reads_as_who_pays_whom():
    assert transfer_text({"from": "Finn", "to": "Enda", "amount": "0.38"}, "EUR") == (
        "Finn pays Enda €0.38"
    )
    assert transfer_text({"from": "Rex", "to": None, "amount": "0.05"}, "EUR") == (
        "Rex pays €0.05 into the pot"
    )
    assert transfer_text({"from": None, "to": "John", "amount": "1.20"}, "GBP") == (
        "The pot pays John £1.20"
    )


def test_the_player_out_who_scores_alone_is_named_once():
    hand = {
        "results": results("Anna", "Ben", Anna=56, Ben=0),
        "out": "Anna",
        "winners": ["Anna"],
        "payments": [],
        "pot_before": None,
        "pot_after": None,
    }
    assert hand_summary(hand, money=False) == "Anna goes out and scores 56."


def test_a_spin_rummy_round_is_won_as_a_round():
    hand = {
        "results": results("Aoife", "Cian", Aoife=15, Cian=16),
        "out": None,
        "winners": ["Cian"],
        "payments": [],
        "pot_before": None,
        "pot_after": None,
    }
    assert hand_summary(hand, money=False, rounds=True) == (
        "Aoife scores 15, Cian 16. Cian wins the round."
    )
    assert hand_summary(hand, money=False).endswith("Cian wins the hand.")
