"""Offline: the last main screen and year view read stay readable, clearly marked as not current; with the
service worker the app even opens again without a network. Logging out leaves nothing behind."""
import re

from playwright.sync_api import expect

from pages import AppPage, HolidaysPage, HomePage, LoginPage

STALE = re.compile("^Not current: the copy read on ")


def test_the_last_screens_seen_stay_readable_offline(new_context):
    context = new_context(service_workers="allow")
    page = context.new_page()
    home = LoginPage(page).open().log_in("ines")
    expect(home.balance).to_be_visible()
    holidays = home.go("Holidays", HolidaysPage)
    expect(holidays.balance).to_be_visible()
    page.wait_for_function("navigator.serviceWorker.ready.then(() => !!navigator.serviceWorker.controller)")
    page.reload()
    HolidaysPage(page).wait()

    context.set_offline(True)
    home = holidays.go("Home", HomePage)
    expect(page.get_by_text(STALE)).to_be_visible()
    expect(home.balance).to_be_visible()
    holidays = home.go("Holidays", HolidaysPage)
    expect(page.get_by_text(STALE)).to_be_visible()
    expect(holidays.balance).to_contain_text("Remaining")
    expect(page.get_by_role("status").filter(has_text="You are offline")).to_be_visible()

    # The page itself comes from the service worker; the session cannot be checked, the kept copies show.
    page.reload()
    HolidaysPage(page).wait()
    expect(page.get_by_text(STALE)).to_be_visible()
    home = HolidaysPage(page).go("Home", HomePage)
    expect(page.get_by_text(STALE)).to_be_visible()
    expect(home.heading).to_have_text("Hello, Inês")
    expect(home.logout_button).to_be_visible()

    context.set_offline(False)
    page.goto("/holidays")
    HolidaysPage(page).wait()
    expect(page.get_by_text(STALE)).to_have_count(0)
    AppPage(page).log_out()
    assert page.evaluate("caches.keys()") == []
