"""The running-scores chart: inline SVG the strict CSP allows, with names kept as text."""

from __future__ import annotations

from ledger.pictures.chart import score_chart


def test_one_line_per_player_through_every_hand():
    svg = score_chart(
        ["Enda", "John"],
        [(1, {"Enda": -25, "John": 46}), (2, {"Enda": 44, "John": 25})],
        label="Running scores",
    )
    assert svg.startswith('<svg class="chart"')
    assert svg.count("<polyline") == 2
    assert 'aria-label="Running scores"' in svg
    assert "style" not in svg  # colours come from classes in style.css


def test_a_player_who_joins_later_starts_where_they_joined():
    svg = score_chart(
        ["Enda", "Aoife"], [(1, {"Enda": 5}), (2, {"Enda": 3, "Aoife": 2})], label="x"
    )
    aoife = svg.split("<title>Aoife</title>")[0].rsplit("<polyline", 1)[1]
    assert aoife.count(",") == 2  # two points: joining at 0, then after hand 2


def test_names_are_escaped_and_nothing_is_drawn_before_the_first_hand():
    svg = score_chart(["<b>Rex</b>"], [(1, {"<b>Rex</b>": 3})], label="<i>")
    assert "<b>" not in svg and "&lt;b&gt;Rex&lt;/b&gt;" in svg
    assert "&lt;i&gt;" in svg
    assert score_chart(["Enda"], [], label="x") == ""


def test_a_long_night_drawn_from_spread_hands_ends_at_its_last_hand():
    # Hands 50, 100 … 2000 stand for a 2,000-hand night: the axis runs to hand 2000.
    history = [(n, {"Enda": n, "John": -n}) for n in range(50, 2001, 50)]
    svg = score_chart(["Enda", "John"], history, label="x")
    assert ">2000</text>" in svg
    enda = svg.split("<title>Enda</title>")[0].rsplit("<polyline", 1)[1]
    assert enda.count(",") == len(history) + 1  # the start at 0, then one point per hand drawn
