"""The mark on the engine's own texts a page shows (game names, descriptions, option help).

The engine speaks English and knows nothing of gettext: ``N_`` only marks a text where it is
written, so ``pybabel extract -k N_`` finds it (ledger/web/i18n.py); a page translates it
where it shows it. A leaf: it imports nothing, so any module may mark its texts.
"""

from __future__ import annotations


def N_(text: str) -> str:  # noqa: N802  (the name gettext's tools look for)
    """Marks ``text`` for translation where it is defined; it is translated where shown."""
    return text
