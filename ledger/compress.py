"""Gzip for answers a client accepts compressed: text larger than a few hundred bytes.

An after_request hook, so every page, API answer and static file goes through one place.
Left as they are: what is already compressed (PNG, workbooks, anything with a
Content-Encoding), answers streamed by a view, partial and empty answers, and anything
marked ``no-transform``.

Pages are compressed only for requests a page of this site made or a person typed
(``Sec-Fetch-Site: same-origin`` or ``none``). Every page carries the browser's form token;
compressing it beside text another site can make it reflect (a query string) would let an
eavesdropper on the network guess the token from the answers' lengths (BREACH). A request
started by another site gets the page uncompressed.
"""

from __future__ import annotations

import gzip
from collections.abc import Iterable
from typing import cast

from flask import Flask, Response, request

# Below this, the gzip header and the extra work are not worth it.
MIN_SIZE = 512
# A static file is read whole to compress it; larger ones go out as they are.
MAX_FILE_SIZE = 1024 * 1024
# Level 3 packs JSON and HTML nearly as small as 6 in a third of the time (2 MB of a long
# session's hands: 10 ms against 34 ms, 52 KB against 44 KB).
LEVEL = 3

COMPRESSIBLE = {
    "application/json",
    "application/javascript",
    "application/manifest+json",
    "application/xml",
    "image/svg+xml",
}
# Types that carry the browser's secrets (see the module's docstring).
WITH_SECRETS = {"text/html"}
TRUSTED_FETCH_SITES = {"same-origin", "none"}
# Answers that have no body, or only part of one.
NO_BODY = {204, 206, 304}


def init_app(app: Flask) -> None:
    app.after_request(compress)


def compressible(response: Response) -> bool:
    mimetype = response.mimetype or ""
    return mimetype.startswith("text/") or mimetype in COMPRESSIBLE


def compress(response: Response) -> Response:
    if response.status_code < 200 or response.status_code in NO_BODY:
        return response
    if not compressible(response) or "Content-Encoding" in response.headers:
        return response
    if "no-transform" in response.headers.get("Cache-Control", ""):
        return response
    # The answer depends on what the client accepts, whether it is compressed or not.
    response.vary.add("Accept-Encoding")
    if response.mimetype in WITH_SECRETS:
        response.vary.add("Sec-Fetch-Site")
        if request.headers.get("Sec-Fetch-Site") not in TRUSTED_FETCH_SITES:
            return response
    if request.accept_encodings["gzip"] <= 0:
        return response
    data = _body(response)
    if data is None or len(data) < MIN_SIZE:
        return response
    packed = gzip.compress(data, compresslevel=LEVEL, mtime=0)
    if len(packed) >= len(data):
        return response
    response.set_data(packed)
    response.headers["Content-Encoding"] = "gzip"
    # The compressed bytes differ from the file's, so its ETag can only be a weak one; a
    # phone revalidating with it is still answered 304 (If-None-Match compares weakly).
    etag, weak = response.get_etag()
    if etag and not weak:
        response.set_etag(etag, weak=True)
    return response


def _body(response: Response) -> bytes | None:
    """The whole body, or None for one a view streams (it is left to stream)."""
    if not response.direct_passthrough:
        return None if response.is_streamed else response.get_data()
    # A file sent by send_file (a static file), in the server's file wrapper (waitress's has
    # a length, werkzeug's has none): read it whole if it is small, and close it.
    length = response.content_length
    if length is None or length > MAX_FILE_SIZE:
        return None
    source = response.response
    try:
        data = b"".join(cast("Iterable[bytes]", source))
    finally:
        close = getattr(source, "close", None)
        if callable(close):
            close()
    response.direct_passthrough = False
    response.response = [data]
    return data
