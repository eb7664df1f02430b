"""One resend mechanism in the services: a request id kept with what the request made.

A session, a hand and a correction sent again with the same request id are answered with
what the first send made; the JSON API's answers stay as API.md says (a correction with an
old version and no request id answers 409).
"""

from __future__ import annotations

import pytest

from ledger import services
from ledger.api.parse import hand_entry
from ledger.rules import GAMES
from ledger.services import exports
from ledger.services.request_ids import minted_request_id, new_request_id
from tests.api.helpers import SEED_HAND_1

SPOT = GAMES["spot"]  # the seeded night's game


def _corrected(entry: dict) -> dict:
    results = [dict(r) for r in entry["results"]]
    results[0]["cards"] = "J-9"
    return {**entry, "results": results}


@pytest.fixture
def night(table, app):
    sid = table.session()["id"]
    table.hand(sid, SEED_HAND_1)
    with app.app_context():
        group = services.authenticate(table.slug, table.passphrase)
    return sid, group


def _corrections(group, sid) -> int:
    return sum(c.kind == "hand.corrected" for c in services.hand_history(group, sid, 1))


def test_a_correction_sent_again_with_its_request_id_is_saved_once(night, app):
    sid, group = night
    with app.app_context():
        loaded = services.session_view(group, sid).version
        typed = hand_entry(SPOT, _corrected(SEED_HAND_1))
        first = services.correct_hand(group, sid, 1, typed, loaded, "tap-1")
        again = services.correct_hand(group, sid, 1, typed, loaded, "tap-1")

        assert again == first
        assert _corrections(group, sid) == 1
        assert services.session_view(group, sid).version == loaded + 1


def test_the_same_request_id_with_another_entry_is_refused_as_a_stale_version(night, app):
    sid, group = night
    with app.app_context():
        loaded = services.session_view(group, sid).version
        services.correct_hand(group, sid, 1, hand_entry(SPOT, _corrected(SEED_HAND_1)), loaded, "t")
        other = hand_entry(SPOT, SEED_HAND_1)
        with pytest.raises(services.Conflict) as refused:
            services.correct_hand(group, sid, 1, other, loaded, "t")
        assert refused.value.field == "version"
        assert _corrections(group, sid) == 1


def test_a_correction_after_the_resent_one_makes_the_resend_a_stale_version(night, app):
    sid, group = night
    with app.app_context():
        loaded = services.session_view(group, sid).version
        typed = hand_entry(SPOT, _corrected(SEED_HAND_1))
        services.correct_hand(group, sid, 1, typed, loaded, "first")
        services.correct_hand(group, sid, 1, hand_entry(SPOT, SEED_HAND_1), loaded + 1, "second")
        with pytest.raises(services.Conflict):
            services.correct_hand(group, sid, 1, typed, loaded, "first")
        assert _corrections(group, sid) == 2


def test_the_api_still_answers_409_for_a_correction_with_an_old_version(table):
    sid = table.session()["id"]
    table.hand(sid, SEED_HAND_1)
    version = table.ok("GET", f"/sessions/{sid}")["version"]
    body = {**_corrected(SEED_HAND_1), "version": version}
    assert table.put(f"/sessions/{sid}/hands/1", body).status_code == 200
    assert table.put(f"/sessions/{sid}/hands/1", body).status_code == 409


def test_request_ids_are_minted_fresh_and_only_minted_ones_are_taken_from_a_form():
    one, two = new_request_id(), new_request_id()
    assert one != two
    assert minted_request_id(one) == one
    assert minted_request_id("") is None
    assert minted_request_id("' OR 1=1 --") is None
    assert minted_request_id(one.upper()) is None


def test_the_export_service_gives_the_refunds_from_the_pot_and_the_winners(table, app):
    sid = table.session()["id"]
    played = table.hand(sid, SEED_HAND_1)
    finished = table.ok("POST", f"/sessions/{sid}/finish", {"leftover_pot": "refund"})
    with app.app_context():
        group = services.authenticate(table.slug, table.passphrase)
        export = exports.session_export(group, sid)

    assert export.session.version == finished["version"]
    assert [h.number for h in export.hands] == [1]
    assert all(m.source is None for m in export.refunds)
    assert sum(m.units for m in export.refunds) == played["pot_after"]
    after = played["scores_after"]
    assert {m.target: after[m.target] + m.units for m in export.refunds} == {
        m.target: finished["scores"][m.target] for m in export.refunds
    }
    # A money night has no winner, as on the pages (issue 14): being up the most is money.
    assert export.winners == tuple(finished["winners"]) == ()


def test_a_group_whose_hand_was_corrected_from_a_page_backs_up_and_restores(night, app):
    """A page's correction keeps its request id in the history; a backup carries it over."""
    from ledger.backup import backup_group, restore_group

    sid, group = night
    with app.app_context():
        loaded = services.session_view(group, sid).version
        corrected = hand_entry(SPOT, _corrected(SEED_HAND_1))
        services.correct_hand(group, sid, 1, corrected, loaded, "tap-1")
        copy = restore_group(backup_group(group.slug), slug="the-local-copy")
        restored = backup_group(copy.slug)

    corrected = [c for c in restored["changes"] if c["kind"] == "hand.corrected"]
    assert [c["after"]["request_id"] for c in corrected] == ["tap-1"]
