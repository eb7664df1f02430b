"""The suite passes or fails by the code alone (issue 37): its random tests draw the same
examples on every run, with no deadline to miss on a busy machine; the exploring profile
(``--hypothesis-profile=explore``, CI's second look) draws new ones."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st


def drawn() -> list[int]:
    """The examples one small random test draws, in order."""
    seen: list[int] = []

    @settings(max_examples=20)
    @given(st.integers(0, 10**12))
    def draw(n: int) -> None:
        seen.append(n)

    draw()
    return seen


def test_a_random_test_draws_the_same_examples_on_every_run():
    first = drawn()
    assert len(set(first)) > 10  # examples, not one value over and over
    assert drawn() == first


def test_no_random_test_fails_by_the_clock():
    assert settings.default.deadline is None


def test_the_exploring_profile_draws_anew():
    assert settings.get_profile("explore").derandomize is False
    assert settings.get_profile("steady").derandomize is True
