"""Templates compiled once per test process: a Jinja bytecode cache every test's app shares.

Each app has a Jinja environment of its own, and each environment compiled every template it
rendered from its source: parsed, turned into Python and compiled again in every test, some
60 ms of CPU for a page test that renders four or five templates (a fifth of tests/web's
CPU). Compiled code depends only on a template's source and the environment's settings, so
it is kept here for the whole pytest process and every app with the same settings takes it.
Each app still makes its own Template objects from it (with its own globals, filters and
translations): no rendered page, no state, is shared.
"""

from __future__ import annotations

from types import CodeType

from jinja2 import BytecodeCache, Environment
from jinja2.bccache import Bucket


def compile_settings(environment: Environment) -> str:
    """What an environment compiles a template with: its syntax, its extensions, how it
    escapes and finishes values, and the filters and tests a template may name. Two apps
    whose settings differ in any of these never share a template's code."""
    autoescape = environment.autoescape
    finalize = environment.finalize
    return repr(
        (
            environment.block_start_string,
            environment.block_end_string,
            environment.variable_start_string,
            environment.variable_end_string,
            environment.comment_start_string,
            environment.comment_end_string,
            environment.line_statement_prefix,
            environment.line_comment_prefix,
            environment.trim_blocks,
            environment.lstrip_blocks,
            environment.newline_sequence,
            environment.keep_trailing_newline,
            environment.optimized,
            environment.is_async,
            getattr(autoescape, "__qualname__", autoescape),
            getattr(finalize, "__qualname__", finalize),
            sorted(environment.extensions),
            getattr(environment, "newstyle_gettext", None),
            sorted(environment.filters),
            sorted(environment.tests),
        )
    )


class SharedTemplates(BytecodeCache):
    """The compiled code of every template this process loaded, by its settings, its name,
    its file and its source (a template changed on disk is compiled anew)."""

    def __init__(self) -> None:
        self.kept: dict[str, tuple[str, CodeType]] = {}

    def get_bucket(
        self, environment: Environment, name: str, filename: str | None, source: str
    ) -> Bucket:
        keyed = f"{compile_settings(environment)}\0{name}"
        return super().get_bucket(environment, keyed, filename, source)

    def load_bytecode(self, bucket: Bucket) -> None:
        kept = self.kept.get(bucket.key)
        if kept is not None and kept[0] == bucket.checksum:
            bucket.code = kept[1]

    def dump_bytecode(self, bucket: Bucket) -> None:
        if bucket.code is not None:
            self.kept[bucket.key] = (bucket.checksum, bucket.code)


SHARED_TEMPLATES = SharedTemplates()
