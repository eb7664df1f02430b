"""The service layer: the only code that reads and writes rows and calls the rules engine.

The JSON API, the web pages and the workbooks call these functions and get frozen views
back (ledger/services/views/); they never touch a row. Refusals are exceptions with a
sentence for the player: RuleError (422), NotFound (404), Conflict (409; GroupFull),
Unauthorized (401), TooManyAttempts (429; TooManyNewGroups), Busy (503).
"""

from __future__ import annotations

from ledger.services.auth import authenticate, change_passphrase, create_group
from ledger.services.buy_ins import buy_in, take_back_buy_in
from ledger.services.calls import game_call
from ledger.services.errors import (
    Busy,
    Conflict,
    GroupFull,
    NotFound,
    RuleError,
    ServiceError,
    TooManyAttempts,
    TooManyNewGroups,
    Unauthorized,
)
from ledger.services.groups import add_player, group_view, list_games, rename_player
from ledger.services.hands import (
    add_hand,
    correct_hand,
    get_hand,
    hand_history,
    iter_hands,
    list_hands,
    preview_hand,
    recent_hands,
    score_history,
    scoreboard,
    undo_hand,
)
from ledger.services.loading import game_of
from ledger.services.night import night_settlement, night_under, night_view
from ledger.services.payments import (
    delete_payment,
    list_payments,
    past_payments,
    record_payment,
)
from ledger.services.plans import (
    remembered_options,
    reopen_refusal,
    reopen_session,
    set_pot_plan,
    waiting_pots,
)
from ledger.services.sessions import (
    create_session,
    delete_session,
    finish_session,
    join_session,
    leave_session,
    only_open_session,
    remembered_table,
    session_history,
    session_numbers,
    session_view,
)
from ledger.services.settlement import settlement

__all__ = [
    "Busy",
    "game_call",
    "game_of",
    "Conflict",
    "GroupFull",
    "NotFound",
    "RuleError",
    "ServiceError",
    "TooManyAttempts",
    "TooManyNewGroups",
    "Unauthorized",
    "add_hand",
    "add_player",
    "authenticate",
    "buy_in",
    "change_passphrase",
    "correct_hand",
    "create_group",
    "create_session",
    "delete_payment",
    "delete_session",
    "finish_session",
    "get_hand",
    "group_view",
    "hand_history",
    "iter_hands",
    "join_session",
    "leave_session",
    "past_payments",
    "list_games",
    "list_hands",
    "preview_hand",
    "list_payments",
    "night_settlement",
    "night_under",
    "night_view",
    "only_open_session",
    "recent_hands",
    "record_payment",
    "remembered_options",
    "remembered_table",
    "reopen_refusal",
    "reopen_session",
    "rename_player",
    "score_history",
    "scoreboard",
    "session_history",
    "session_numbers",
    "session_view",
    "set_pot_plan",
    "settlement",
    "take_back_buy_in",
    "waiting_pots",
    "undo_hand",
]
