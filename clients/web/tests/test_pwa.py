"""The installable app, as the server serves it: the manifest (name, start URL, standalone, theme colour, an
SVG icon and PNG icons of 192 and 512 px that are really those sizes), the service worker at the root, and the
page's own headers (a Content-Security-Policy, revalidated)."""
import json
import struct
import urllib.request

from conftest import BASE_URL


def fetch(path):
    with urllib.request.urlopen(BASE_URL + path, timeout=10) as response:
        return response.headers, response.read()


def test_the_app_is_installable():
    headers, body = fetch("/manifest.webmanifest")
    assert headers["Content-Type"].startswith("application/manifest+json")
    manifest = json.loads(body)
    assert manifest["name"] == "SGEmployee" and manifest["start_url"] == "/" and manifest["display"] == "standalone"
    assert manifest["theme_color"].startswith("#")
    sizes = {}
    for icon in manifest["icons"]:
        headers, image = fetch(icon["src"])
        assert headers["Content-Type"] == icon["type"], icon
        if icon["type"] == "image/png":
            assert image[:8] == b"\x89PNG\r\n\x1a\n"
            width, height = struct.unpack(">II", image[16:24])
            assert icon["sizes"] == f"{width}x{height}", icon
            sizes[width] = icon
    assert {192, 512} <= set(sizes), sizes
    assert any(icon["type"] == "image/svg+xml" for icon in manifest["icons"])

    headers, script = fetch("/sw.js")
    assert headers["Content-Type"].startswith("text/javascript") and headers["Cache-Control"] == "no-cache"
    assert b"{{assets}}" not in script and b'addEventListener("push"' in script and b'addEventListener("notificationclick"' in script

    headers, page = fetch("/holidays/42")
    assert headers["Content-Type"].startswith("text/html") and headers["Cache-Control"] == "no-cache"
    assert "script-src 'self'" in headers["Content-Security-Policy"]
    assert b'rel="manifest"' in page and b"{{assets}}" not in page
