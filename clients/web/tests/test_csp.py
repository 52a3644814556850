"""A walk through every screen, with changes made on the way, under the server's Content-Security-Policy: no
violation is reported (securitypolicyviolation, listened to from before the page's own script) and nothing is
written to the console as an error."""
import re
from urllib.parse import urlparse

from playwright.sync_api import expect

from conftest import free_week, new_request
from pages import (AdminPage, AppPage, CompanyPage, ForgotPasswordPage, HolidaysPage, LoginPage, NoticesPage,
                   PeoplePage, ProfilePage, QueuePage, ResetPasswordPage, SettingsPage)


def test_no_csp_violation_and_no_console_error_on_a_walk(context, api):
    token = api.login("eva")
    week = free_week(api, token, weeks_ahead=8)
    page = context.new_page()

    LoginPage(page).open()
    ForgotPasswordPage(page).open()
    ResetPasswordPage(page).open()
    home = LoginPage(page).open().log_in("eva")
    page.wait_for_load_state("networkidle")

    holidays = home.go("Holidays", HolidaysPage)
    page.get_by_role("link", name=f"Year after: {int(holidays.heading.inner_text()[-4:]) + 1}").click()
    HolidaysPage(page).wait()
    form = holidays.new_request()
    form.fill(week[0].isoformat(), week[2].isoformat(), comment="Walk")
    form.expect_preview_days("3 days")
    holidays = form.send()
    detail = holidays.open_request(week[0].isoformat())
    detail.cancel()

    detail.go("Notices", NoticesPage)
    page.get_by_role("link", name="Welcome to SGEmployee").click()
    AppPage(page).wait()
    people = AppPage(page).go("People", PeoplePage)
    people.search("nunez")
    people.open_person("José Núñez")
    AppPage(page).go("Company", CompanyPage)
    profile = ProfilePage(page).open()
    profile.field("Position").fill("Designer")
    profile.save()
    expect(page.get_by_role("alert")).to_have_text("The profile is saved.")
    settings = SettingsPage(page).open()
    settings.choose_language("es")
    settings.choose_language("en")
    page.get_by_role("button", name="Create a calendar feed").click()
    expect(page.get_by_label("Address of the new feed")).to_be_visible()
    page.reload()
    SettingsPage(page).wait()
    page.wait_for_load_state("networkidle")
    AppPage(page).log_out()
    page.wait_for_load_state("networkidle")

    assert context.watch.violations == [], context.watch.violations
    assert context.watch.console_errors == [], context.watch.console_errors


def test_no_csp_violation_and_no_console_error_on_the_approvers_and_admins_screens(context, api):
    """A walk through Requests and Admin as an admin, deciding and changing on the way. The one failed answer
    expected is the API's 404 for "no delegation", which the browser reports on the console as it does every
    failed fetch; nothing else fails."""
    request = new_request(api, "hiro", weeks_ahead=28)
    page = context.new_page()
    failed = []
    page.on("response", lambda r: r.status >= 400 and failed.append((r.status, urlparse(r.url).path)))
    home = LoginPage(page).open().log_in("admin")
    queue = home.go("Requests", QueuePage)
    queue = queue.filter(status="Pending", team="Engineering")
    decision = queue.open_request("Hiro Tanaka", request["startDate"])
    decision.approve("Approved")
    page.get_by_role("navigation", name="Requests sections").get_by_role("link", name="Team calendar").click()
    AppPage(page).wait()
    page.get_by_role("link", name=re.compile("^Month after")).click()
    AppPage(page).wait()
    page.get_by_role("navigation", name="Requests sections").get_by_role("link", name="Delegation").click()
    AppPage(page).wait()
    admin = AppPage(page).go("Admin", AdminPage)
    for name in ["Employees", "Teams", "Leave types", "Company", "Public holidays", "Notices", "Webhooks", "Outbox", "Exports"]:
        admin = admin.section(name)
    with page.expect_download():
        page.get_by_role("button", name="Download the balances (CSV)").click()
    admin.section("Employees")
    page.get_by_role("link", name="Bob Builder").click()
    AppPage(page).wait()
    page.get_by_role("link", name=re.compile("^Year after")).click()
    AppPage(page).wait()
    page.reload()
    AppPage(page).wait()
    page.wait_for_load_state("networkidle")

    assert context.watch.violations == [], context.watch.violations
    assert failed == [(404, "/v1/me/delegation")], failed
    assert all(re.fullmatch(r".*Failed to load resource: the server responded with a status of 404 \(Not Found\)", e) for e in context.watch.console_errors), context.watch.console_errors
    assert len(context.watch.console_errors) <= 1, context.watch.console_errors
