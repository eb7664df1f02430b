"""What a game's table looks like to a form and a summary: facts the engine gives, by game."""

from __future__ import annotations

from ledger.rules.base import Movement, PlayerResult
from ledger.rules.registry import get_game
from ledger.rules.spin import contract_misfits
from ledger.rules.table import RummyReward, pot_story


def test_spot_lets_a_player_sit_out_and_takes_totals_when_the_session_says_so() -> None:
    form = get_game("spot").entry_form({"entry": "totals"}, 4)
    assert (form.sitting_out, form.totals, form.nobody_out, form.rummy) == (True, True, True, False)
    assert form.values["A"] == 1 and form.values["K"] == 10 and "JK" not in form.ranks
    assert not get_game("spot").entry_form({}, 4).totals


def test_spots_deals_the_dealer_out_with_five_players_only() -> None:
    spots = get_game("spots")
    assert spots.entry_form({}, 5).dealer_sits_out
    assert spots.entry_form({}, 5).dealt_in(("A", "B", "C", "D", "E"), "C") == ("A", "B", "D", "E")
    assert not spots.entry_form({}, 4).dealer_sits_out
    assert not spots.entry_form({}, 5).sitting_out


def test_rummy_needs_someone_out_may_go_rummy_and_counts_aces_and_jokers_as_chosen() -> None:
    form = get_game("rummy").entry_form({"ace_value": 11, "jokers": 2}, 3)
    assert (form.nobody_out, form.rummy) == (False, True)
    assert form.values["A"] == 11 and form.values["JK"] == 15 and form.ranks[-1] == "JK"


def test_spin_scores_melds_with_its_own_ranks_and_calls_its_hands_rounds() -> None:
    spin = get_game("spin")
    form = spin.entry_form({}, 2)
    assert form.suits_required and not form.show_total and not form.out_folds
    assert "2" not in form.ranks and form.values["A"] == 14
    assert spin.rounds and not get_game("spot").rounds


def test_only_a_money_game_has_choices_for_the_pot_left_at_the_end() -> None:
    assert get_game("spot").pot_choices() == ("carry", "refund")
    assert get_game("spot").pot_choice({"leftover_pot": "refund"}) == "refund"
    assert get_game("spot").pot_choice({}) == "carry"
    assert get_game("rummy").pot_choices() == ()


def result(name: str, spots: int | None = None) -> PlayerResult:
    return PlayerResult(player=name, spots=spots)


def test_the_player_out_takes_the_pot_and_the_payments() -> None:
    story = pot_story(
        [result("Enda"), result("John", 16), result("Rex", 10)],
        "Enda",
        ["Enda"],
        [Movement("John", "Enda", 16), Movement("Rex", "Enda", 10), Movement(None, "Enda", 40)],
        40,
        0,
    )
    assert story.out_wins_alone and story.taken == 40 and story.odd_units == 0
    assert story.received == {"Enda": 26}
    assert story.paid == (("John", 16), ("Rex", 10))


def test_a_tie_puts_its_odd_units_in_the_pot_and_each_loser_paid_their_whole_total() -> None:
    """35 spots shared by two winners: 17 each, and the odd unit goes into the pot."""
    seats = [result("Enda", 20), result("John", 4), result("Rex", 4), result("Finn", 15)]
    paid = [Movement("Enda", "John", 10), Movement("Enda", "Rex", 10)]
    paid += [Movement("Finn", "John", 7), Movement("Finn", "Rex", 7)]
    story = pot_story(seats, None, ["John", "Rex"], paid, 20, 21)
    assert (story.taken, story.odd_units, story.pot_after) == (0, 1, 21)
    assert story.paid == (("Enda", 20), ("Finn", 15))
    assert story.received == {"John": 17, "Rex": 17}


def test_rummy_names_its_target_and_what_going_rummy_is_worth() -> None:
    rummy = get_game("rummy")
    assert rummy.target({"target": 250}) == 250
    assert rummy.went_rummy({"rummy_bonus": "double"}) == RummyReward(factor=2)
    assert rummy.went_rummy({"rummy_bonus": "bonus10"}) == RummyReward(bonus=10)
    assert get_game("spot").target({}) is None
    assert get_game("spot").went_rummy({}) is None


def test_spin_lays_melds_out_in_two_boxes_and_asks_nobody_who_went_out() -> None:
    assert get_game("spin").meld_boxes == 2
    assert not get_game("spin").entry_form({}, 2).out_choice
    assert get_game("spot").entry_form({}, 4).out_choice


def test_a_meld_laid_out_that_the_rounds_contract_has_no_room_for_is_named() -> None:
    # Round 1, two melds of any kind: both fit.
    assert contract_misfits(1, "Ann", 0, ["7S 7H 7D", "3C 4C 5C"]) == []
    # Round 2, two runs: the set does not.
    (problem,) = contract_misfits(2, "Ann", 1, ["7S 7H 7D", "3C 4C 5C"])
    assert (problem.field, problem.players) == ("results[1].melds[0]", ("Ann",))
    assert problem.message == "Ann's meld 1 (7♠ 7♥ 7♦) does not fit round 2's contract: two runs."
    # Round 3, one run and one set: the second run does not; a meld that is none is left to
    # the scoring, which names it.
    (problem,) = contract_misfits(3, "Ann", 0, ["3C 4C 5C", "6H 7H 8H", "2S 2H"])
    assert problem.field == "results[0].melds[1]"


def test_the_story_counts_the_antes_and_what_the_player_out_collects() -> None:
    """Four players ante 5 into a pot of 20 (40 after the antes); Enda goes out, takes the
    pot and is paid 16 and 10: the story says the antes, the pot before them and the 66."""
    antes = [Movement(p, None, 5) for p in ("Enda", "John", "Rex", "Finn")]
    moved = [*antes, Movement("John", "Enda", 16), Movement("Rex", "Enda", 10)]
    seats = [result("Enda"), result("John", 16), result("Rex", 10), result("Finn", 0)]
    story = pot_story(seats, "Enda", ["Enda"], moved, 40, 0)
    assert (story.antes, story.pot_before_antes, story.collected) == (20, 20, 66)


def test_a_tie_s_odd_units_are_not_counted_as_antes() -> None:
    """35 spots shared by two winners, after antes of 2 each into an empty pot: the odd unit
    goes in too, and only the 8 of the antes are antes."""
    seats = [result("Enda", 20), result("John", 4), result("Rex", 4), result("Finn", 15)]
    moved = [Movement(p, None, 2) for p in ("Enda", "John", "Rex", "Finn")]
    moved += [Movement("Enda", "John", 10), Movement("Enda", "Rex", 10)]
    moved += [Movement("Finn", "John", 7), Movement("Finn", "Rex", 7), Movement("Finn", None, 1)]
    story = pot_story(seats, None, ["John", "Rex"], moved, 8, 9)
    assert (story.odd_units, story.antes, story.pot_before_antes) == (1, 8, 0)
