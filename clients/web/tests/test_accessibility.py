"""axe-core on every screen of the app, logged out and logged in: no serious or critical violation."""
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from conftest import free_week
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
