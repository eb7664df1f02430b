"""The invite link as a QR code, drawn as inline SVG (no image request, no inline style)."""

from __future__ import annotations

import segno
from markupsafe import Markup, escape


def qr_svg(data: str, *, title: str) -> Markup:
    """An SVG QR code of ``data`` with ``title`` for screen readers.

    segno writes the modules as one path with presentation attributes only (no style),
    so the page's Content-Security-Policy allows it; the quiet zone is kept so phones read it
    on a dark background too.
    """
    qr = segno.make(data, error="m")
    svg = qr.svg_inline(scale=1, border=4, dark="#000", light="#fff", omitsize=True)
    # svg_inline has no title of its own: add it, with the role, after the opening tag.
    head, _, rest = svg.partition(">")
    labelled = f'{head} role="img" aria-label="{escape(title)}"><title>{escape(title)}</title>'
    return Markup(labelled + rest)
