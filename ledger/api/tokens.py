"""Access tokens (docs/api.md, "Access tokens"): made with the passphrase, revoked alone."""

from __future__ import annotations

from flask import g, jsonify, request

from ledger import services
from ledger.api import bp
from ledger.api.auth import own_group, with_group
from ledger.api.parse import json_object
from ledger.services import auth
from ledger.services.views.groups import GroupRef


@bp.post("/groups/<slug>/tokens")
@with_group
def create_token(group: GroupRef, slug: str):
    """A new token for a client that calls often, or must keep working during a lockout."""
    own_group(group, slug)
    json_object()  # no fields, but sent as JSON ({}) like every other write: else 415
    if request.authorization is None or request.authorization.type != "basic":
        # Only the passphrase makes tokens: a token leaked once cannot breed more of itself.
        raise services.Unauthorized("A new access token needs the group's name and passphrase.")
    return jsonify({"token": auth.grant(group.id, auth.API)}), 201


@bp.delete("/groups/<slug>/tokens/current")
@with_group
def revoke_token(group: GroupRef, slug: str):
    """Revoke the token this call was made with."""
    own_group(group, slug)
    token = g.get("ledger_token")
    if token is None:
        raise services.NotFound("This call was made without an access token: none to revoke.")
    auth.revoke(token)
    return "", 204
