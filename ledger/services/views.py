"""The old name of ledger/services/results.py, kept for the modules not yet moved to it.

Result objects live in ledger/services/results.py; import them from there.
"""

from __future__ import annotations

from ledger.services.results import *  # noqa: F403
