"""Who may do what: the one place that decides whether a request may act for a group.

The rules (tests/api/test_access_rules.py reads them back one by one):

- **Passphrase** (API Basic auth, the web's open form, a passphrase change): stored only as
  a slow hash (werkzeug's scrypt). After one successful check its HMAC-SHA256 digest, keyed
  with the app's secret over the slug, the passphrase and the group's auth epoch, is
  remembered in the database for ``CREDENTIAL_LIFETIME``, so every worker accepts the same
  credentials with one indexed lookup. A passphrase change bumps the epoch and forgets them.
- **Lockout**: wrong passphrases are counted per group in the database. After
  ``MAX_FAILURES`` within ``FAILURE_WINDOW`` (from the first of them) every passphrase for the
  group is answered 429 with Retry-After until the window has passed, *before* anything is
  looked up or checked: a right passphrase, remembered or not, looks exactly like a wrong one.
  A name no group has (a made-up slug) is counted and locked exactly as a group would be, so
  no answer tells which groups exist.
- **Address throttle**: wrong guesses are counted per client address too (any group, made-up
  slugs, bad tokens: ``ADDRESS_MAX_FAILURES`` in ``ADDRESS_WINDOW``) and per address and
  group (``ADDRESS_GROUP_MAX_FAILURES`` in ``FAILURE_WINDOW``, fewer than a lockout takes), so
  one address is refused before it alone can lock a table out. Refused like a lockout: 429.
- **Slow checks** run at most ``hash_slots`` at once per process; as many requests again
  may wait for a slot, up to ``LEDGER_HASH_WAIT`` seconds; any other, or one that finds no
  slot in time, is answered 503 with Retry-After, not queued.
- **Grants** (``AccessGrant``): a browser's sign-in (the cookie holds a random token) and an
  API access token (``Authorization: Bearer``) are random tokens of which only the SHA-256 is
  stored. They keep working during a lockout and an address throttle (holding one is proof
  enough), until revoked (sign-out, "sign out every phone", DELETE tokens/current) or the
  passphrase changes. A wrong bearer token is 401 and counts against its address.
- **Invite links** carry the group, its auth and invite epochs and the time they were made,
  signed with the app's secret; they open the group for ``LEDGER_INVITE_LIFETIME_DAYS`` unless
  the passphrase changed or every phone was signed out since. A club evening's check-in code
  is one with the evening it lands on and a sooner end signed in.

The package, one concern a module:

- ``passphrases``: what a passphrase may be; its slow hash and the slots it runs in;
- ``groups``: a new group (its name, slug and passphrase) and a passphrase changed;
- ``lockout``: wrong guesses counted per group, per address, per address and group;
- ``signin``: a passphrase checked, its credentials remembered;
- ``grants``: browsers' sign-ins and API tokens;
- ``invites``: invite links.
"""

from __future__ import annotations

from ledger.services.auth.grants import (
    API,
    MOST_SIGN_INS,
    MOST_TOKENS,
    WEB,
    grant,
    group_for_token,
    revoke,
    sign_out_everywhere,
    token_hash,
    touch,
    web_grant_holds,
)
from ledger.services.auth.groups import change_passphrase, check_group_name, create_group, slugify
from ledger.services.auth.invites import (
    INVITE_LIFETIME_DAYS,
    INVITE_LIFETIME_SETTING,
    INVITE_SALT,
    Invite,
    InviteExpired,
    invite_lifetime,
    invite_token,
    read_invite,
)
from ledger.services.auth.lockout import (
    ADDRESS_GROUP_MAX_FAILURES,
    ADDRESS_MAX_FAILURES,
    ADDRESS_WINDOW,
    FAILURE_WINDOW,
    MAX_FAILURES,
    WRONG,
    client_of,
)
from ledger.services.auth.passphrases import (
    FLIGHT_WAIT,
    HASH_METHOD_SETTING,
    HASH_SLOTS_SETTING,
    HASH_WAIT,
    HASH_WAIT_SETTING,
    MAX_PASSPHRASE,
    MIN_PASSPHRASE,
    REFUSED,
    UNCHECKED,
    WRONG_FOR_ALL,
    check_passphrase,
    hash_slots,
)
from ledger.services.auth.signin import CREDENTIAL_LIFETIME, authenticate, authenticate_any

__all__ = [
    "ADDRESS_GROUP_MAX_FAILURES",
    "ADDRESS_MAX_FAILURES",
    "ADDRESS_WINDOW",
    "API",
    "CREDENTIAL_LIFETIME",
    "FAILURE_WINDOW",
    "FLIGHT_WAIT",
    "HASH_METHOD_SETTING",
    "HASH_SLOTS_SETTING",
    "HASH_WAIT",
    "HASH_WAIT_SETTING",
    "INVITE_LIFETIME_DAYS",
    "INVITE_LIFETIME_SETTING",
    "INVITE_SALT",
    "Invite",
    "InviteExpired",
    "MAX_FAILURES",
    "MAX_PASSPHRASE",
    "MIN_PASSPHRASE",
    "MOST_SIGN_INS",
    "MOST_TOKENS",
    "REFUSED",
    "UNCHECKED",
    "WEB",
    "WRONG",
    "WRONG_FOR_ALL",
    "authenticate",
    "authenticate_any",
    "change_passphrase",
    "check_group_name",
    "check_passphrase",
    "client_of",
    "create_group",
    "grant",
    "group_for_token",
    "hash_slots",
    "invite_lifetime",
    "invite_token",
    "read_invite",
    "revoke",
    "sign_out_everywhere",
    "slugify",
    "token_hash",
    "touch",
    "web_grant_holds",
]
