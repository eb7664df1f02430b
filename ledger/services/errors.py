"""What a service refuses, each with a sentence for the player and the input it concerns.

A rule of the game broken by what was typed is the engine's RuleError (422); the others
are about the request itself: nothing there (404), a clash with what is stored (409), the
wrong passphrase (401), too many of them (429), or too many slow checks at once (503).
"""

from __future__ import annotations

from ledger.rules.errors import Phrase, PhrasedError, RuleError

__all__ = [
    "Busy",
    "Conflict",
    "GroupFull",
    "NotFound",
    "RuleError",
    "ServiceError",
    "TooManyAttempts",
    "TooManyNewGroups",
    "Unauthorized",
]


class ServiceError(PhrasedError):
    """A refused request. ``status`` is the HTTP status the API answers with.

    Like RuleError: ``phrase`` is the sentence as a template and its params, for a page to
    translate; ``message`` is the English the API answers with.
    """

    status = 400


class NotFound(ServiceError):
    """Nothing of that name or number in this group (another group's things included)."""

    status = 404


class Conflict(ServiceError):
    """The request clashes with what is stored: a duplicate name, a finished game, a stale edit."""

    status = 409


class Unauthorized(ServiceError):
    """The group's name and passphrase did not match."""

    status = 401


class TooManyAttempts(ServiceError):
    """Too many wrong passphrases for one group lately; ``retry_after`` is in seconds."""

    status = 429

    def __init__(self, retry_after: int) -> None:
        self.retry_after = retry_after
        if retry_after == 1:
            super().__init__(
                Phrase("Too many wrong passphrases for this group; try again in 1 second.")
            )
        else:
            super().__init__(
                Phrase(
                    "Too many wrong passphrases for this group; try again in {seconds} seconds.",
                    seconds=retry_after,
                )
            )


class TooManyNewGroups(TooManyAttempts):
    """This client address made or restored as many groups as an hour allows
    (LEDGER_GROUP_LIMIT); ``retry_after`` is in seconds. Answered 429 like a lockout."""

    def __init__(self, retry_after: int) -> None:
        self.retry_after = retry_after
        minutes = max(1, -(-retry_after // 60))
        if minutes == 1:
            phrase = Phrase(
                "Too many groups were made or restored from this address in the last hour; "
                "try again in 1 minute."
            )
        else:
            phrase = Phrase(
                "Too many groups were made or restored from this address in the last hour; "
                "try again in {minutes} minutes.",
                minutes=minutes,
            )
        ServiceError.__init__(self, phrase)


class GroupFull(Conflict):
    """The group holds as much as this server keeps for one group (LEDGER_GROUP_HANDS)."""

    def __init__(self, most: int) -> None:
        super().__init__(
            Phrase(
                "This group is full: it holds the {most} hands this server keeps for a group. "
                "Ask whoever runs the server to make room.",
                most=most,
            )
        )


class Busy(ServiceError):
    """Every slot for a slow passphrase check is taken: try again in ``retry_after`` seconds.

    Answered at once rather than queued, so a flood of guesses cannot make the phones that
    are already signed in wait behind it.
    """

    status = 503

    def __init__(self, retry_after: int = 1) -> None:
        self.retry_after = retry_after
        super().__init__(Phrase("The server is busy checking passphrases; try again in a moment."))
