"""The running-scores chart: inline SVG the strict CSP allows, with names kept as text."""

from __future__ import annotations

from ledger.web.chart import score_chart


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


def _points(svg: str, player: str) -> list[tuple[int, int]]:
    line = svg.split(f"<title>{player}</title>")[0].rsplit("<polyline", 1)[1]
    drawn = line.split('points="')[1].split('"')[0]
    return [(int(x), int(y)) for x, y in (p.split(",") for p in drawn.split())]


def test_lines_are_drawn_in_hands_and_scores_and_stretched_to_the_frame():
    svg = score_chart(
        ["Enda", "John"],
        [(1, {"Enda": -25, "John": 46}), (2, {"Enda": 44, "John": 25})],
        label="x",
    )
    # Across: the hand; up: the score (an SVG's y runs down, so minus the score).
    assert _points(svg, "Enda") == [(0, 0), (1, 25), (2, -44)]
    assert _points(svg, "John") == [(0, 0), (1, -46), (2, -25)]
    # The lines' frame runs from hand 0 to hand 2 and from the highest score (46) to the lowest.
    assert 'viewBox="0 -46 2 71" preserveAspectRatio="none"' in svg
    # Each line ends in a dot where its last point is drawn: hand 2 at the right edge.
    assert svg.count('cx="352.0"') == 2


def test_a_corrected_score_is_drawn_though_the_line_before_it_was_kept():
    night = [(n, {"Enda": n, "John": -n}) for n in range(1, 30)]
    before = score_chart(["Enda", "John"], night, label="x")
    night[4] = (5, {"Enda": 40, "John": -5})  # hand 5 corrected
    after = score_chart(["Enda", "John"], night, label="x")
    assert (5, -5) in _points(before, "Enda") and (5, -40) in _points(after, "Enda")
    assert _points(after, "John") == _points(before, "John")
    # A new hand adds one point to each line and keeps the others where they were.
    night.append((30, {"Enda": 31, "John": -30}))
    longer = score_chart(["Enda", "John"], night, label="x")
    assert _points(longer, "Enda") == [*_points(after, "Enda"), (30, -31)]


def test_a_player_missing_from_the_last_hand_drawn_ends_at_their_last_point():
    svg = score_chart(["Enda", "Rex"], [(1, {"Enda": 5, "Rex": 2}), (2, {"Enda": 3})], label="x")
    assert _points(svg, "Rex") == [(0, 0), (1, -2)]
    assert svg.count("<circle") == 2
