"""The running-scores chart: inline SVG the strict CSP allows, with names kept as text."""

from __future__ import annotations

from ledger.web.chart import score_chart


def test_one_line_per_player_through_every_hand():
    svg = score_chart(
        ["Enda", "John"],
        [{"Enda": -25, "John": 46}, {"Enda": 44, "John": 25}],
        label="Running scores",
    )
    assert svg.startswith('<svg class="chart"')
    assert svg.count("<polyline") == 2
    assert 'aria-label="Running scores"' in svg
    assert "style" not in svg  # colours come from classes in style.css


def test_a_player_who_joins_later_starts_where_they_joined():
    svg = score_chart(["Enda", "Aoife"], [{"Enda": 5}, {"Enda": 3, "Aoife": 2}], label="x")
    aoife = svg.split("<title>Aoife</title>")[0].rsplit("<polyline", 1)[1]
    assert aoife.count(",") == 2  # two points: joining at 0, then after hand 2


def test_names_are_escaped_and_nothing_is_drawn_before_the_first_hand():
    svg = score_chart(["<b>Rex</b>"], [{"<b>Rex</b>": 3}], label="<i>")
    assert "<b>" not in svg and "&lt;b&gt;Rex&lt;/b&gt;" in svg
    assert "&lt;i&gt;" in svg
    assert score_chart(["Enda"], [], label="x") == ""
