"""Every address the app builds is the one werkzeug would build, with builders shared across apps.

tests/shared_routes.py compiles each route's address builder once per process and gives it to every
app's rule of the same shape (the suite makes an app per test). Werkzeug's own compiling is the
reference: a builder shared by mistake (two routes alike in the key but not in what the builder
does) would build one route's address for another.
"""

from __future__ import annotations

from flask import Flask, url_for
from werkzeug.routing import BaseConverter
from werkzeug.routing import Rule as WerkzeugRule

from ledger import create_app
from tests.shared_routes import Rule


def werkzeugs_own(rule: WerkzeugRule, append_unknown: bool):
    """The builder werkzeug compiles for ``rule`` anew, sharing nothing."""
    return WerkzeugRule._compile_builder(rule, append_unknown)


def _identity(rule: WerkzeugRule) -> tuple[str, str, tuple[str, ...]]:
    return rule.rule, rule.endpoint, tuple(sorted(rule.methods or ()))


def test_every_routes_builder_is_the_one_werkzeug_compiles(app, tmp_path):
    second = create_app({**app.config, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path}/b.db"})
    rules = list(app.url_map.iter_rules())
    assert len(rules) > 100 and all(isinstance(r, Rule) for r in rules)
    others = {_identity(r): r for r in second.url_map.iter_rules()}
    shared = 0
    for rule in rules:
        other = others[_identity(rule)]
        for mine, theirs, append_unknown in (
            (rule._build, other._build, False),
            (rule._build_unknown, other._build_unknown, True),
        ):
            reference = werkzeugs_own(rule, append_unknown)
            assert mine.__func__.__code__ == reference.__code__, rule.rule
            assert mine.__func__.__defaults__ == reference.__defaults__, rule.rule
            assert mine.__self__ is rule and theirs.__self__ is other  # each bound to its own
            shared += mine.__func__ is theirs.__func__
    assert shared == 2 * len(rules)  # every builder, static's too


def test_the_addresses_of_the_pages_are_built_alike_in_two_apps(app, tmp_path):
    second = create_app({**app.config, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path}/b.db"})
    built = []
    for one in (app, second):
        with one.test_request_context():
            built.append(
                [
                    url_for("groups.show", slug="Thursday crowd"),
                    url_for("sessions.show", slug="a", session_id=7, page=2),
                    url_for("seasons.paper_file", slug="a", season_id=3),
                    url_for("seasons.paper_file", slug="a", session_id=7, what="blank"),
                    url_for("rounds.form", slug="a", session_id=7),
                    url_for("rounds.form", slug="a", session_id=7, round_id=2),
                ]
            )
    assert (
        built[0]
        == built[1]
        == [
            "/g/Thursday%20crowd",
            "/g/a/s/7?page=2",
            "/g/a/seasons/3/table.pdf",
            "/g/a/s/7/blank.pdf",
            "/g/a/s/7/rounds/new",
            "/g/a/s/7/rounds/2",
        ]
    )


class Upper(BaseConverter):
    def to_url(self, value: str) -> str:
        return value.upper()


class Lower(BaseConverter):
    def to_url(self, value: str) -> str:
        return value.lower()


def test_a_shared_builder_writes_each_value_with_its_own_apps_converter():
    built = []
    for converter in (Upper, Lower):
        one = Flask(__name__)
        one.url_rule_class = Rule
        one.url_map.converters["word"] = converter
        one.add_url_rule("/routing-probe/<word:w>", "probe", lambda w: w)
        with one.test_request_context():
            built.append(url_for("probe", w="MiXed"))
    assert built == ["/routing-probe/MIXED", "/routing-probe/mixed"]
