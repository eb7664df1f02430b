"""The engine's refusals as templates: English as the API answers it, any language for a page."""

from __future__ import annotations

import pytest

from ledger.rules.cards import check_deck, parse_cards
from ledger.rules.errors import Phrase, RuleError

# A catalog as a page's gettext would use it (the last entry has a slip in its blank).
CATALOG = {
    "{player} is seated twice.": "{player} zit twee keer aan tafel.",
    "{player}: {message}": "{player}: {message}",
    "Give the suit of the {rank}, e.g. {card} or {symbol}.": "Kleur van de {rank}: {card}.",
    "queen": "vrouw",
    "three": "drie",
    "This correction would make hand {number} impossible: {reason}": "Spel {number}: {reason}",
    "The dealer {dealer} is not one of the players.": "De gever {gever} speelt niet mee.",
}


def translate(template: str) -> str:
    return CATALOG.get(template, template)


def test_the_message_is_the_template_filled_in_english() -> None:
    error = RuleError("{player} is seated twice.", field="players", players=("Rex",), player="Rex")
    assert error.message == str(error) == "Rex is seated twice."
    assert error.template == "{player} is seated twice."
    assert error.params == {"player": "Rex"}
    assert (error.field, error.players) == ("players", ("Rex",))


def test_a_translation_fills_the_same_blanks() -> None:
    error = RuleError("{player} is seated twice.", player="Rex")
    assert error.phrase.render(translate) == "Rex zit twee keer aan tafel."


def test_a_piece_of_a_sentence_is_translated_before_it_fills_a_blank() -> None:
    with pytest.raises(RuleError) as refused:
        parse_cards("Q", suits_required=True, player="Rex")
    assert refused.value.message == "Rex: give the suit of the queen, e.g. QH or Q♥."
    # The sentence after the name starts in lower case in any language.
    assert refused.value.phrase.render(translate) == "Rex: kleur van de vrouw: QH."


def test_the_cards_in_a_refusal_are_written_in_the_letters_the_reader_names() -> None:
    """The engine gives the card as a fact; the page says it in its letters (RULES.md §1,
    §20): a Dutch page "Vh", a German one "Dhe", the API as typed."""
    with pytest.raises(RuleError) as refused:
        parse_cards("Q", suits_required=True, player="Rex", language="nl")
    assert refused.value.phrase.render(translate, "nl") == "Rex: kleur van de vrouw: Vh."
    assert refused.value.phrase.render(translate, "de") == "Rex: kleur van de vrouw: Dhe."
    assert refused.value.message == "Rex: give the suit of the queen, e.g. Vh or V♥."


def test_a_refusal_wrapping_another_translates_both() -> None:
    inner = RuleError("{player} is seated twice.", player="Rex")
    outer = RuleError(
        "This correction would make hand {number} impossible: {reason}",
        number=3,
        reason=inner.phrase,
    )
    assert outer.message == "This correction would make hand 3 impossible: Rex is seated twice."
    assert outer.phrase.render(translate) == "Spel 3: Rex zit twee keer aan tafel."


def test_a_count_that_starts_a_sentence_is_capitalized_after_translation() -> None:
    (queen,) = parse_cards("QS")
    with pytest.raises(RuleError) as refused:
        check_deck({"Enda": [queen], "John": [queen], "Rex": [queen]})
    assert refused.value.message.startswith("Three players have the Q♠ (Enda, John, Rex)")
    assert refused.value.phrase.render(translate).startswith("Drie players have the Q♠")


def test_a_translation_with_the_wrong_blanks_falls_back_to_the_english() -> None:
    error = RuleError("The dealer {dealer} is not one of the players.", dealer="Rex")
    assert error.phrase.render(translate) == "The dealer Rex is not one of the players."


def test_a_percent_sign_is_just_a_character() -> None:
    assert str(Phrase("{share}% of the pot", share=50)) == "50% of the pot"


def test_a_made_phrase_is_given_whole_not_with_more_params() -> None:
    with pytest.raises(TypeError):
        RuleError(Phrase("{player} went out.", player="Rex"), player="Finn")
