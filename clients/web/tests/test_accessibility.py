"""axe-core on every screen of the app, logged out and logged in: no serious or critical violation."""
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from conftest import employee_id, free_week, new_request
from pages import (AppPage, CompanyPage, ForgotPasswordPage, HolidaysPage, HomePage, LoginPage, NoticesPage, PeoplePage,
                   PersonPage, ProfilePage, RequestDetailPage, RequestFormPage, ResetPasswordPage, SettingsPage)

axe = Axe()


def serious_violations(page):
    results = axe.run(page)
    return [
        f"{v['id']} ({v['impact']}): {v['help']} — " + "; ".join(node["target"][0] if isinstance(node["target"][0], str) else str(node["target"]) for node in v["nodes"][:5])
        for v in results.response["violations"] if v["impact"] in ("serious", "critical")
    ]


def test_no_serious_violation_on_any_screen(page, api):
    token = api.login("dmitri")
    monday = free_week(api, token, weeks_ahead=6)[0].isoformat()
    status, created = api.call("POST", "/v1/me/holidays", token, {"startDate": monday, "endDate": monday, "comment": "Dentist"})
    assert status == 201, created
    jose = api.get("/v1/employees?q=nunez", token)["items"][0]["id"]
    found = {}

    def check(name, screen):
        screen.wait()
        found[name] = serious_violations(page)

    check("login", LoginPage(page).open())
    login = LoginPage(page)
    login.log_in_expecting_error("dmitri", "not-the-password")
    found["login with an error"] = serious_violations(page)
    check("forgot password", ForgotPasswordPage(page).open())
    check("reset password", ResetPasswordPage(page).open())

    LoginPage(page).open().log_in("dmitri")
    check("home", HomePage(page))
    check("holidays", HolidaysPage(page).open())
    form = RequestFormPage(page).open()
    form.fill(monday, monday)
    expect(form.preview).to_contain_text("overlap", timeout=10_000)
    found["request form with a problem"] = serious_violations(page)
    check("request detail", RequestDetailPage(page).open(f"/holidays/{created['id']}"))
    check("notices", NoticesPage(page).open())
    notice = api.get("/v1/notices", token)["items"][0]
    check("a notice", AppPage(page).open(f"/notices/{notice['id']}"))
    check("people", PeoplePage(page).open())
    check("a colleague", PersonPage(page, "José Núñez").open(f"/people/{jose}"))
    check("company", CompanyPage(page).open())
    check("profile", ProfilePage(page).open())
    check("settings", SettingsPage(page).open())
    check("not found", AppPage(page).open("/no-such-screen"))

    failures = {name: violations for name, violations in found.items() if violations}
    assert not failures, failures
    assert len(found) == 16


def test_no_serious_violation_in_dark_colours_on_a_phone(new_context):
    context = new_context(color_scheme="dark", viewport={"width": 360, "height": 740})
    page = context.new_page()
    found = {"login": serious_violations(LoginPage(page).open().page)}
    LoginPage(page).log_in("dmitri")
    found["home"] = serious_violations(page)
    for name, screen in [("holidays", HolidaysPage), ("request form", RequestFormPage), ("notices", NoticesPage),
                         ("settings", SettingsPage)]:
        screen(page).open()
        found[name] = serious_violations(page)
    failures = {name: violations for name, violations in found.items() if violations}
    assert not failures, failures


def all_violations(page):
    results = axe.run(page)
    return [
        f"{v['id']} ({v['impact']}): {v['help']} — " + "; ".join(str(node["target"]) for node in v["nodes"][:5])
        for v in results.response["violations"]
    ]


def test_no_violation_on_any_approver_or_admin_screen(page, api):
    """axe-core finds nothing at all, of any impact, on every screen of Requests and Admin."""
    request = new_request(api, "grace", weeks_ahead=20, comment="Axe")
    token = api.login("admin")
    status, _ = api.call("POST", "/v1/webhooks", token, {"url": "https://hooks.invalid/sgemployee", "events": ["notice.published"]})
    assert status == 201
    status, _ = api.call("POST", "/v1/notices", token, {"title": "Axe notice", "body": "For the check.", "pinned": True})
    assert status == 201
    bob = employee_id(api, token, "bob")
    team = api.get("/v1/teams?limit=1", token)[0]["id"]
    found = {}

    def check(name, path=None, prepare=None):
        if path:
            AppPage(page).open(path)
        if prepare:
            prepare()
        found[name] = all_violations(page)

    LoginPage(page).open().log_in("admin")
    check("queue", "/requests")
    check("queue with the filters open", prepare=lambda: page.locator("details.filters-box > summary").click())
    check("decision", f"/requests/{request['id']}")
    check("decision with the reason asked", prepare=lambda: page.get_by_role("button", name="Reject", exact=True).click())
    check("team calendar", "/requests/calendar")
    check("delegation", "/requests/delegation")
    check("admin", "/admin")
    check("employees", "/admin/employees")
    check("new employee", "/admin/employees/new")
    check("an employee", f"/admin/employees/{bob}")
    check("an employee, deactivation asked", prepare=lambda: page.get_by_role("button", name="Deactivate").click())
    check("teams", "/admin/teams")
    check("a team", f"/admin/teams/{team}")
    check("leave types", "/admin/leave-types")
    check("company", "/admin/company")
    check("public holidays", "/admin/public-holidays")
    check("notices", "/admin/notices")
    check("webhooks", "/admin/webhooks")
    check("outbox", "/admin/outbox")
    messages = api.get("/v1/outbox/messages?limit=1", token)["items"]
    assert messages, "the notice made a webhook message"
    check("an outbox message", f"/admin/outbox/{messages[0]['id']}")
    check("exports", "/admin/exports")

    failures = {name: violations for name, violations in found.items() if violations}
    assert not failures, failures


def test_no_violation_on_the_approvers_screens_in_dark_colours_on_a_phone(new_context, api):
    request = new_request(api, "ines", weeks_ahead=20)
    context = new_context(color_scheme="dark", viewport={"width": 360, "height": 740})
    page = context.new_page()
    LoginPage(page).open().log_in("jose")
    found = {}
    for name, path in [("queue", "/requests"), ("decision", f"/requests/{request['id']}"), ("team calendar", "/requests/calendar"),
                       ("delegation", "/requests/delegation")]:
        AppPage(page).open(path)
        found[name] = all_violations(page)
    failures = {name: violations for name, violations in found.items() if violations}
    assert not failures, failures
