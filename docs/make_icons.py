"""Draws the app icons in static/ (the home-screen icons, the apple-touch-icon, favicon.ico).

The same picture as static/icon.svg: a white card with a red heart, tilted, on the table's
green. Run it after changing the picture; it needs Pillow, which the app itself does not:

    .venv/bin/pip install pillow && .venv/bin/python docs/make_icons.py
"""

from __future__ import annotations

import math
from pathlib import Path

from PIL import Image, ImageDraw

STATIC = Path(__file__).resolve().parents[1] / "static"
GREEN = (31, 111, 74, 255)  # --accent of static/style.css, the manifest's theme colour
WHITE = (255, 255, 255, 255)
RED = (179, 38, 30, 255)  # --danger of static/style.css
SUPERSAMPLE = 4  # drawn large and scaled down, for smooth edges


def card(size: int, scale: float) -> Image.Image:
    """The tilted card with its heart, on a transparent square of ``size``; ``scale`` is the
    card's height as a share of the square."""
    big = size * SUPERSAMPLE
    layer = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(layer)
    height = big * scale
    width = height * 0.75
    left, top = (big - width) / 2, (big - height) / 2
    draw.rounded_rectangle((left, top, left + width, top + height), radius=width * 0.13, fill=WHITE)
    # The heart: the classic curve x = 16 sin³t, y = 13 cos t − 5 cos 2t − 2 cos 3t − cos 4t.
    unit = width * 0.022
    cx, cy = big / 2, big / 2 - unit * 2
    points = []
    for step in range(360):
        t = math.radians(step)
        x = 16 * math.sin(t) ** 3
        y = 13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t)
        points.append((cx + x * unit, cy - y * unit))
    draw.polygon(points, fill=RED)
    layer = layer.rotate(8, resample=Image.Resampling.BICUBIC)  # -8° in SVG's clockwise terms
    return layer.resize((size, size), Image.Resampling.LANCZOS)


def icon(size: int, *, rounded: bool, scale: float) -> Image.Image:
    """A square icon: green (rounded corners, transparent outside them, if ``rounded``)."""
    big = size * SUPERSAMPLE
    base = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(base)
    if rounded:
        draw.rounded_rectangle((0, 0, big - 1, big - 1), radius=big * 12 / 64, fill=GREEN)
    else:
        draw.rectangle((0, 0, big, big), fill=GREEN)
    base = base.resize((size, size), Image.Resampling.LANCZOS)
    return Image.alpha_composite(base, card(size, scale))


def main() -> None:
    # "any" icons, like icon.svg: the card fills most of a rounded green square.
    for size in (192, 512):
        icon(size, rounded=True, scale=0.625).save(STATIC / f"icon-{size}.png", optimize=True)
    # Maskable: the phone cuts its own shape out of it, keeping at least the middle 80%
    # circle, so the green runs to the edges and the card stays well inside.
    icon(512, rounded=False, scale=0.5).save(STATIC / "icon-maskable-512.png", optimize=True)
    # iOS rounds the corners itself and shows transparency as black: a full square.
    touch = icon(180, rounded=False, scale=0.6).convert("RGB")
    touch.save(STATIC / "apple-touch-icon.png", optimize=True)
    icon(64, rounded=True, scale=0.625).save(
        STATIC / "favicon.ico", sizes=[(16, 16), (32, 32), (48, 48), (64, 64)]
    )


if __name__ == "__main__":
    main()
