"""What the app does when the API does not simply answer: a 503 waits as Retry-After says and tries again, a
network failure shows the banner and tries again, a 401 refreshes the session once and repeats the call, and a
session that cannot be refreshed any more returns to the login screen, saying so."""
import json
import re

from playwright.sync_api import expect

from pages import CompanyPage, HolidaysPage, LoginPage, NoticesPage

BUSY = {"type": "urn:sgemployee:problem:unavailable", "title": "Unavailable", "status": 503, "detail": "The database is busy."}
UNAUTHENTICATED = {"type": "urn:sgemployee:problem:unauthenticated", "title": "Not authenticated", "status": 401, "detail": "Log in first."}


def once(page, pattern, handler):
    """Answers the first request matching `pattern` with `handler`, and lets the others through."""
    seen = []

    def route(r):
        if seen:
            return r.continue_()
        seen.append(r.request.url)
        handler(r)

    page.route(pattern, route)
    return seen


def problem(status, body, headers=None):
    return lambda r: r.fulfill(status=status, content_type="application/problem+json", body=json.dumps(body), headers=headers or {})


def test_the_app_waits_retries_and_refreshes(page):
    LoginPage(page).open().log_in("zoe")
    banner = page.locator(".banner")

    busy = once(page, re.compile(r"/v1/notices\?"), problem(503, BUSY, {"Retry-After": "1"}))
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Notices").click()
    expect(banner).to_have_text("The server is busy; trying again in 1 s.")
    NoticesPage(page).wait()
    expect(banner).to_be_hidden()
    assert busy

    dropped = once(page, re.compile(r"/v1/company$"), lambda r: r.abort("internetdisconnected"))
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Company").click()
    expect(banner).to_have_text("No connection to the server. Trying again…")
    CompanyPage(page).wait()
    expect(banner).to_be_hidden()
    assert dropped

    refreshes = []
    page.on("request", lambda r: r.url.endswith("/v1/auth/refresh") and refreshes.append(r.url))
    refused = once(page, re.compile(r"/v1/me/holidays"), problem(401, UNAUTHENTICATED, {"WWW-Authenticate": "Bearer"}))
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Holidays").click()
    HolidaysPage(page).wait()
    assert refused and len(refreshes) == 1

    # The session is gone on the server: the next refresh is refused, and the login screen says why.
    page.route(re.compile(r"/v1/auth/refresh$"), problem(401, UNAUTHENTICATED))
    page.route(re.compile(r"/v1/notices\?"), problem(401, UNAUTHENTICATED, {"WWW-Authenticate": "Bearer"}))
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Notices").click()
    login = LoginPage(page).wait()
    expect(page.get_by_text("Your session has ended. Log in again.")).to_be_visible()
    expect(login.username).to_be_visible()
