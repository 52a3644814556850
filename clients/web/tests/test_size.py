"""The first screen is small: everything a fresh browser transfers to show the login screen, and then the main
screen after logging in, stays under 150 KB (bodies as sent, gzip, and headers). Nothing comes from another
origin."""
from urllib.parse import urlparse

from pages import LoginPage

LIMIT = 150 * 1024


def transferred(responses):
    total = 0
    for response in responses:
        sizes = response.request.sizes()
        total += sizes["responseBodySize"] + sizes["responseHeadersSize"]
    return total


def test_the_first_screen_transfers_under_150_kb(new_context, api):
    # Measured as the server sends it: no header rewritten on the way (that would hand the page decoded bodies).
    context = new_context(extra_http_headers={"Accept-Encoding": "gzip"}, service_workers="block")
    page = context.new_page()
    responses = []
    page.on("response", lambda response: responses.append(response))
    LoginPage(page).open()
    page.wait_for_load_state("networkidle")
    login_bytes = transferred(list(responses))
    scripts = [r for r in responses if r.url.endswith(".js")]
    assert scripts and all(r.headers.get("content-encoding") == "gzip" for r in scripts), [(r.url, r.headers) for r in scripts]

    LoginPage(page).log_in("hiro")
    page.wait_for_load_state("networkidle")
    total = transferred([r for r in responses if urlparse(r.url).scheme in ("http", "https")])
    print(f"first screen: {login_bytes} bytes (login), {total} bytes with the main screen, {len(responses)} responses")
    # Photos are shown through blob: URLs made in the page; every response from the network is this origin's.
    origins = {urlparse(r.url).netloc for r in responses if urlparse(r.url).scheme in ("http", "https")}
    assert origins == {urlparse(page.url).netloc}, origins
    assert login_bytes < LIMIT, login_bytes
    assert total < LIMIT, total
