"""The web pages, by area: a group's pages (ledger/web/group/), a night's (ledger/web/nights/),
each area's blueprints in their modules; beside them what every page shares (access, forms,
errors, the language, the templates' filters)."""

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
    from ledger.web import access, display, evenings, i18n, nights, phone
    from ledger.web.errors import service_error_page
    from ledger.web.group import history, home, page, seasons, tab
    from ledger.web.limits import refuse_unkeepable_text
    from ledger.web.nights import hands, rounds, seats

    app_wide = (home.bp, i18n.bp, display.bp, phone.bp)
    group_pages = (page.bp, history.bp, tab.bp, seasons.bp)  # ledger/web/group/
    night_pages = (nights.bp, seats.bp, hands.bp, rounds.bp)  # ledger/web/nights/
    evening_pages = (evenings.bp,)  # ledger/web/evenings/
    for blueprint in (*app_wide, *group_pages, *night_pages, *evening_pages):
        app.register_blueprint(blueprint)
    app.register_error_handler(ServiceError, service_error_page)
    app.before_request(access.renew_daily)
    app.before_request(refuse_unkeepable_text)
