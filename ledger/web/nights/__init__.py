"""A night's pages, one module a job. The "sessions" blueprint's pages: start.py (a new
night), scoreboard.py (the scoreboard, its hands, undo, delete, the workbook) and settle.py
(the settle-up, payments, the end of the night). Beside it, a blueprint each: hands.py (a
hand entered, shown, corrected; its form: entry.py), seats.py (players between hands) and
rounds.py (rounds of drinks and food). pagecache.py keeps the scoreboards built."""

from __future__ import annotations

from flask import Blueprint

bp = Blueprint("sessions", __name__, url_prefix="/g/<slug>/s")

# The blueprint's pages, in their modules: importing them puts their routes on it.
from ledger.web.nights import scoreboard, settle, start  # noqa: E402

__all__ = ["bp", "scoreboard", "settle", "start"]
