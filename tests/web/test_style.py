"""The stylesheet's colours pass WCAG AA contrast in the light and the dark theme."""

from __future__ import annotations

import colorsys
import re
from pathlib import Path

import pytest

CSS = (Path(__file__).resolve().parents[2] / "static" / "style.css").read_text()

# (text, background): every pairing the pages use for words.
PAIRS = [
    ("text", "bg"),
    ("text", "surface"),
    ("text", "surface-2"),
    ("muted", "bg"),
    ("muted", "surface"),
    ("accent", "bg"),
    ("accent", "surface"),
    ("accent-text", "accent"),
    ("danger", "surface"),
    ("danger", "bg"),
    ("danger", "danger-bg"),
    ("plus", "surface"),
    ("minus", "surface"),
    ("minus", "surface-2"),
]


def variables(block: str) -> dict[str, str]:
    return dict(re.findall(r"--([\w-]+):\s*(#[0-9a-fA-F]{6})", block))


def themes() -> dict[str, dict[str, str]]:
    light = variables(CSS.split("@media (prefers-color-scheme: dark)")[0])
    dark_block = CSS.split("@media (prefers-color-scheme: dark)")[1].split("\n}\n")[0]
    return {"light": light, "dark": {**light, **variables(dark_block)}}


def luminance(hex_colour: str) -> float:
    channels = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_text_colours_have_aa_contrast(theme):
    colours = themes()[theme]
    weak = [
        (fg, bg, round(contrast(colours[fg], colours[bg]), 2))
        for fg, bg in PAIRS
        if contrast(colours[fg], colours[bg]) < 4.5
    ]
    assert weak == []


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_chart_lines_stand_out_from_the_card(theme):
    colours = themes()[theme]
    for n in range(8):
        assert contrast(colours[f"series-{n}"], colours["surface"]) >= 3, n


def test_buttons_and_inputs_are_big_enough_to_tap():
    assert re.search(r"\.button, button, input\[type=\"submit\"\] \{[^}]*min-height: 44px", CSS)
    assert re.search(r"input, select, textarea \{[^}]*min-height: 44px", CSS)
    assert re.search(r"\.check \{[^}]*min-height: 44px", CSS)


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_player_colours_are_not_the_plus_and_minus_colours(theme):
    """A red dot beside a green +25 reads as a sign: each player's colour is a grey or a hue
    well away from the plus green, the minus red and the accent green."""
    colours = themes()[theme]

    def hue_and_saturation(hex_colour: str) -> tuple[float, float]:
        hue, _light, saturation = colorsys.rgb_to_hls(
            *(int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5))
        )
        return hue * 360, saturation

    signs = [hue_and_saturation(colours[name])[0] for name in ("plus", "minus", "accent")]
    for n in range(8):
        hue, saturation = hue_and_saturation(colours[f"series-{n}"])
        if saturation < 0.3:
            continue  # a grey (or greyish brown) has no hue to mistake
        for sign in signs:
            apart = abs(hue - sign) % 360
            assert min(apart, 360 - apart) >= 30, (n, colours[f"series-{n}"], sign)


def test_a_phone_set_to_dark_gets_a_dark_bar_above_the_page(client):
    """Issue 37, "a dim pub": the phone's own bar (theme-color) was the bright accent green in
    the dark too; it is the page's dark background there, and the accent in the light."""
    page = client.get("/").get_data(as_text=True)
    bar = r'<meta name="theme-color" content="(#\w{6})" media="\(prefers-color-scheme: (\w+)\)">'
    bars = {media: colour for colour, media in re.findall(bar, page)}
    assert bars == {"light": themes()["light"]["accent"], "dark": themes()["dark"]["bg"]}
