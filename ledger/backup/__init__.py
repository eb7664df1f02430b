"""A group's backup as one JSON document, and the restore that gives the whole group back.

The backup holds every row of the group: the group (its passphrase as the stored hash), its
players, sessions, seats, hands, the change history, the payments made at the table, the
payments against the tab and the bank accounts players keep (RULES.md §6a, §6b),
column by column as the models have them, all read at one moment.

A restore trusts nothing in the file (anyone may craft one, and the restore form needs no
sign-in). It accepts only what this app could itself have made, and refuses anything else
with one sentence saying what is wrong, storing nothing (ledger/backup/check.py): every key
and type as the app writes it, names, times and the passphrase hash as the app makes them,
every number within the database's range, each session's game and options as starting a
session checks them, every hand played again through the engine and each stored result
compared with the replay, pots carried between sessions that match, the history's versions,
and no name, hand number or request id twice.

Every restored row gets a new id, whatever ids the file holds, and every link follows: the
rows' references, a session's ``carried_into_id``, and the session ids inside the history.
The file's ids only keep the rows' order. So a restored group answers every API call as
before, but for its ids, which on a server with other groups differ (on an empty server
they come out the same). One transaction: all of the group or, on any refusal, nothing.

The package: ``files`` (the file: its envelope, JSON text, a backup made and restored),
``check`` (what a restore accepts, the rows read and checked), ``values`` (what a value may
be, the refusals' words), ``links`` (references, unique keys, numbers, payments, the tab),
``replay`` (every session played again through the engine), ``shapes`` (the history's
changes). The rows are read and written by ledger/services/backups.py.
"""

from __future__ import annotations

from ledger.backup.check import FORMAT, VERSION, Checked, check_backup, passphrase_hash_is_sound
from ledger.backup.files import backup_group, dumps, loads, restore_group, restore_sent
from ledger.services.backups import NOT_BACKED_UP, TABLES, BackupError, find_group

__all__ = [
    "FORMAT",
    "NOT_BACKED_UP",
    "TABLES",
    "VERSION",
    "BackupError",
    "Checked",
    "backup_group",
    "check_backup",
    "dumps",
    "find_group",
    "loads",
    "passphrase_hash_is_sound",
    "restore_group",
    "restore_sent",
]
