"""The web pages: one blueprint module per area, with its WTForms beside it."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from flask import Flask


def register_pages(app: Flask) -> None:
    """The page blueprints; a service's refusal a page did not catch becomes a friendly page.

    (The API blueprint answers the same refusals as JSON with handlers of its own, which
    Flask prefers to this app-wide one.)
    """
    from ledger.services.errors import ServiceError
    from ledger.web import access, display, groups, hands, history, home, i18n, seats, sessions, tab
    from ledger.web import rounds as round_pages
    from ledger.web.errors import service_error_page
    from ledger.web.limits import refuse_unkeepable_text
    from ledger.web.seasons import bp as seasons_bp

    for blueprint in (
        home.bp,
        i18n.bp,
        display.bp,
        groups.bp,
        sessions.bp,
        seats.bp,
        hands.bp,
        round_pages.bp,
        history.bp,
        tab.bp,
        seasons_bp,
    ):
        app.register_blueprint(blueprint)
    app.register_error_handler(ServiceError, service_error_page)
    app.before_request(access.renew_daily)
    app.before_request(refuse_unkeepable_text)
