"""Static files under versioned URLs kept for a year, and answers gzipped for clients that
take gzip: the same bytes once unpacked, never for what is already compressed."""

from __future__ import annotations

import gzip
import hashlib
import re
from pathlib import Path

import pytest

from tests.web.pages import Phone, html

STATIC = Path(__file__).resolve().parents[2] / "static"
YEAR = "max-age=31536000"
GZIP = {"Accept-Encoding": "gzip, deflate, br", "Sec-Fetch-Site": "same-origin"}


def closed(response):
    """The response, read and closed (a static file stays open until it is)."""
    response.get_data()
    response.close()
    return response


def stylesheet_url(client) -> str:
    page = html(client.get("/"))
    return re.search(r'<link rel="stylesheet" href="([^"]+)"', page).group(1)


def test_pages_link_static_files_by_a_hash_of_their_content(client):
    url = stylesheet_url(client)
    digest = hashlib.sha256((STATIC / "style.css").read_bytes()).hexdigest()
    path, version = url.split("?v=")
    assert path == "/static/style.css"
    assert digest.startswith(version) and len(version) >= 8


def test_a_versioned_static_file_is_kept_a_year_and_never_revalidated(client):
    response = closed(client.get(stylesheet_url(client)))
    assert response.status_code == 200
    control = response.headers["Cache-Control"]
    assert "public" in control and YEAR in control and "immutable" in control


@pytest.mark.parametrize("query", ["", "?v=0123456789ab"])
def test_an_unversioned_or_outdated_static_url_is_kept_only_briefly(client, query):
    # An old page may still ask for an old version: what it gets now must not stick a year.
    response = closed(client.get(f"/static/style.css{query}"))
    control = response.headers["Cache-Control"]
    assert "immutable" not in control and YEAR not in control
    assert (
        re.search(r"max-age=(\d+)", control)
        and int(re.search(r"max-age=(\d+)", control)[1]) <= 86400
    )


def test_a_changed_file_gets_a_new_url(app, tmp_path):
    from ledger.web.assets import StaticVersions

    versions = StaticVersions()
    (tmp_path / "x.css").write_text("a { color: red }")
    first = versions.version(str(tmp_path), "x.css")
    assert versions.version(str(tmp_path), "x.css") == first
    (tmp_path / "x.css").write_text("a { color: blue; }")
    assert versions.version(str(tmp_path), "x.css") != first
    assert versions.version(str(tmp_path), "../x.css") is None
    assert versions.version(str(tmp_path), "missing.css") is None


def test_a_static_file_is_gzipped_for_a_client_that_accepts_it(client):
    url = stylesheet_url(client)
    plain = closed(client.get(url))
    packed = closed(client.get(url, headers=GZIP))
    assert "Content-Encoding" not in plain.headers
    assert packed.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed.headers["Vary"]
    assert "Accept-Encoding" in plain.headers["Vary"]
    assert int(packed.headers["Content-Length"]) == len(packed.data) < len(plain.data)
    assert gzip.decompress(packed.data) == plain.data == (STATIC / "style.css").read_bytes()
    assert YEAR in packed.headers["Cache-Control"]


def test_a_static_file_in_waitress_file_wrapper_is_gzipped_and_closed(client):
    # `ledger serve` hands files to waitress's own wrapper, which (unlike werkzeug's) has a
    # length; the file is read through it, and closed (pytest fails on an unclosed file).
    from waitress.buffers import ReadOnlyFileBasedBuffer

    environ = {"wsgi.file_wrapper": ReadOnlyFileBasedBuffer}
    for method in ("GET", "HEAD"):
        response = client.open(
            "/static/style.css", method=method, headers=GZIP, environ_base=environ
        )
        assert response.status_code == 200
        assert response.headers["Content-Encoding"] == "gzip"
        if method == "GET":
            assert gzip.decompress(response.data) == (STATIC / "style.css").read_bytes()
        response.close()


def test_a_gzipped_static_file_is_still_revalidated_by_its_etag(client):
    packed = closed(client.get("/static/style.css", headers=GZIP))
    etag = packed.headers["ETag"]
    assert etag.startswith('W/"')  # the packed bytes are not the file's
    again = closed(client.get("/static/style.css", headers={**GZIP, "If-None-Match": etag}))
    assert again.status_code == 304
    assert again.data == b""


def test_a_client_that_does_not_take_gzip_gets_plain_bytes(client):
    for accept in ("identity", "gzip;q=0"):
        response = closed(client.get("/static/style.css", headers={"Accept-Encoding": accept}))
        assert "Content-Encoding" not in response.headers


def test_images_and_small_answers_are_left_alone(client):
    icon = closed(client.get("/static/icon-512.png", headers=GZIP))
    assert icon.status_code == 200 and "Content-Encoding" not in icon.headers
    health = client.get("/healthz", headers=GZIP)
    assert "Content-Encoding" not in health.headers and health.get_json() == {"status": "ok"}


def test_an_api_answer_unpacks_to_the_same_json(client):
    plain = client.get("/api/v1/games")
    packed = client.get("/api/v1/games", headers={"Accept-Encoding": "gzip"})
    assert packed.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(packed.data) == plain.data


def test_the_scoreboard_unpacks_to_the_same_page(client):
    phone = Phone(client)
    phone.create_group()
    phone.add_players("Enda", "John", "Rex", "Finn")
    phone.start()
    client.get(phone.board)  # the messages of the moves above, shown once
    plain = client.get(phone.board)
    packed = client.get(phone.board, headers=GZIP)  # the page cache's copy, this time
    assert packed.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(packed.data).decode() == html(plain)
    assert "Enda" in html(plain)


def test_a_page_asked_for_by_another_site_is_not_compressed(client):
    # Pages carry the browser's form token: compressed beside text another site can make the
    # page reflect, their lengths would leak it (BREACH). So only the site's own requests.
    for site in ("cross-site", "same-site", None):
        headers = {"Accept-Encoding": "gzip"} | ({"Sec-Fetch-Site": site} if site else {})
        response = client.get("/?q=csrf_token", headers=headers)
        assert "Content-Encoding" not in response.headers
        assert "Sec-Fetch-Site" in response.headers["Vary"]
    assert client.get("/", headers=GZIP).headers["Content-Encoding"] == "gzip"


def test_a_workbook_is_not_compressed_again(client):
    from tests.api.helpers import SEED_HAND_1, Table

    table = Table(client)
    sid = table.session()["id"]
    table.hand(sid, SEED_HAND_1)
    response = table.get(f"/sessions/{sid}/export.xlsx", headers={**table.headers, **GZIP})
    assert response.status_code == 200
    assert "Content-Encoding" not in response.headers
    assert response.data[:2] == b"PK"
