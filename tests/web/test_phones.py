"""What a phone needs to add Pub Ledger to its home screen: the manifest, its icons, the
apple-touch-icon and /favicon.ico, all linked from every page."""

from __future__ import annotations

import json
import re
import struct
from urllib.parse import urljoin, urlsplit

import pytest

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
THEME_COLOUR = "#1f6f4a"


def fetch(client, url: str) -> tuple[str, bytes]:
    """The content type and body at ``url``, the response closed (static files are open
    files until then)."""
    response = client.get(url)
    try:
        assert response.status_code == 200, url
        return response.mimetype, response.get_data()
    finally:
        response.close()


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height from a PNG's header chunk (IHDR), which must come first."""
    assert data[:8] == PNG_SIGNATURE, "not a PNG"
    assert data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def ico_sizes(data: bytes) -> set[tuple[int, int]]:
    """The images an .ico holds: a header, then a 16-byte entry per image (0 means 256)."""
    reserved, kind, count = struct.unpack("<HHH", data[:6])
    assert (reserved, kind) == (0, 1), "not an icon file"
    sizes = set()
    for i in range(count):
        width, height = data[6 + 16 * i], data[7 + 16 * i]
        sizes.add((width or 256, height or 256))
    return sizes


def links(page: str) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for tag in re.findall(r"<link [^>]+>", page):
        rel = re.search(r'rel="([^"]+)"', tag)
        href = re.search(r'href="([^"]+)"', tag)
        if rel and href:
            found.setdefault(rel.group(1), []).append(href.group(1).replace("&amp;", "&"))
    return found


@pytest.fixture
def page_links(client) -> dict[str, list[str]]:
    return links(client.get("/").get_data(as_text=True))


def test_every_page_links_the_manifest_the_icons_and_the_theme_colour(client, page_links):
    page = client.get("/").get_data(as_text=True)
    # The accent in the light; the page's own dark on a phone set to dark (issue 37).
    light = 'media="(prefers-color-scheme: light)"'
    assert f'<meta name="theme-color" content="{THEME_COLOUR}" {light}>' in page
    assert len(page_links["manifest"]) == 1
    assert len(page_links["apple-touch-icon"]) == 1
    assert len(page_links["icon"]) >= 1
    for href in [*page_links["manifest"], *page_links["apple-touch-icon"], *page_links["icon"]]:
        fetch(client, href)


def test_the_manifest_names_the_app_and_opens_like_one(client, page_links):
    url = page_links["manifest"][0]
    mimetype, body = fetch(client, url)
    assert mimetype == "application/manifest+json"
    manifest = json.loads(body)
    assert manifest["name"] == "Pub Ledger"
    assert manifest["start_url"] == "/"
    assert manifest["display"] == "standalone"
    # The same green as the page's theme-color and the stylesheet's accent.
    assert manifest["theme_color"] == THEME_COLOUR
    _, css = fetch(client, "/static/style.css")
    assert f"--accent: {THEME_COLOUR};".encode() in css


def test_the_manifests_icons_are_served_as_images_of_the_sizes_it_states(client, page_links):
    url = urlsplit(page_links["manifest"][0]).path
    manifest = json.loads(fetch(client, url)[1])
    pngs = [icon for icon in manifest["icons"] if icon["type"] == "image/png"]
    stated = {(icon["sizes"], icon.get("purpose", "any")) for icon in pngs}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= stated
    for icon in manifest["icons"]:
        mimetype, body = fetch(client, urljoin(url, icon["src"]))
        assert mimetype == icon["type"], icon
        if icon["type"] == "image/png":
            width, height = png_size(body)
            assert f"{width}x{height}" == icon["sizes"], icon


def test_the_apple_touch_icon_is_a_180_pixel_png_at_the_root_too(client, page_links):
    for url in (page_links["apple-touch-icon"][0], "/apple-touch-icon.png"):
        mimetype, body = fetch(client, url)
        assert mimetype == "image/png"
        assert png_size(body) == (180, 180)


def test_favicon_ico_is_a_real_icon_file(client):
    mimetype, body = fetch(client, "/favicon.ico")
    assert mimetype in ("image/vnd.microsoft.icon", "image/x-icon")
    assert {(16, 16), (32, 32)} <= ico_sizes(body)
