"""The Admin section's other screens, each change checked against the server: leave types (what retiring one in
use does, said before), the company's settings, public holidays, a webhook's secret shown once, the outbox with
what failed and why, an employee deactivated (their sessions end at once) and reactivated, employment dates set
(never leaving a request outside them), and accrual plans (a request waits for what is earned)."""
import datetime
import re

from playwright.sync_api import expect

from conftest import PASSWORD, employee_id, free_week, new_request
from pages import AdminPage, EmployeePage, HolidaysPage, LoginPage, RequestFormPage


def admin_page(new_context):
    page = new_context().new_page()
    LoginPage(page).open().log_in("admin")
    return page


def test_leave_types_say_what_retiring_does_and_the_company_changes_at_once(new_context, api):
    token = api.login("admin")
    page = admin_page(new_context)
    screen = AdminPage(page).open("/admin/leave-types")
    form = page.get_by_role("region", name="A new leave type")
    form.get_by_label("Name", exact=True).fill("training")
    form.get_by_label("Yearly limit per employee (days)").fill("5")
    form.get_by_role("button", name="Add leave type").click()
    expect(screen.outcome("The leave type training is added.")).to_be_visible()
    training = [x for x in api.get("/v1/leave-types", token) if x["name"] == "training"][0]
    assert training["yearlyCap"] == 5 and training["needsApproval"] and not training["drawsOnAllowance"]
    card = page.get_by_role("region", name="training")
    expect(card).to_contain_text("No request uses this type: it can be deleted.")

    # In use: the screen says so before anything is tried, and offers retiring, not deleting.
    employee_token = api.login("ines")
    week = free_week(api, employee_token, 24)
    status, _ = api.call("POST", "/v1/me/holidays", employee_token, {"startDate": week[0].isoformat(), "endDate": week[0].isoformat(), "leaveTypeId": training["id"]})
    assert status == 201
    page.reload()
    AdminPage(page).wait()
    card = page.get_by_role("region", name="training")
    expect(card).to_contain_text("1 request uses this type: retiring it keeps them and takes no new ones; it cannot be deleted.")
    expect(card.get_by_role("button", name="Delete")).to_have_count(0)
    card.get_by_role("button", name="Retire").click()
    expect(page.get_by_role("region", name="training").get_by_role("button", name="Bring back")).to_be_focused()
    assert [x for x in api.get("/v1/leave-types", token) if x["name"] == "training"][0]["retired"] is True

    # The company: a default allowance and a working week, saved together.
    before = api.get("/v1/company", token)
    AdminPage(page).open("/admin/company")
    page.get_by_label("Default allowance (days a year)").fill(str(before["defaultAllowance"] + 1))
    page.get_by_label("Saturday").check()
    page.get_by_role("button", name="Save company").click()
    expect(AdminPage(page).outcome("The company is saved.")).to_be_visible()
    after = api.get("/v1/company", token)
    assert after["defaultAllowance"] == before["defaultAllowance"] + 1 and after["workingWeek"] == [1, 2, 3, 4, 5, 6]
    assert after["name"] == before["name"] and after["address"] == before["address"]
    # A time zone the server does not know changes nothing at all.
    page.get_by_label("Time zone").fill("Mars/Olympus")
    page.get_by_label("Saturday").uncheck()
    page.get_by_role("button", name="Save company").click()
    expect(page.get_by_label("Time zone")).to_have_attribute("aria-invalid", "true")
    assert api.get("/v1/company", token)["workingWeek"] == [1, 2, 3, 4, 5, 6]
    status, _ = api.call("PUT", "/v1/company", token, {k: before[k] for k in ["name", "address", "phone", "email", "website", "workingWeek", "defaultAllowance", "timeZone"]})
    assert status == 200


def test_public_holidays_webhooks_and_the_outbox(new_context, api):
    token = api.login("admin")
    page = admin_page(new_context)
    year = datetime.date.fromisoformat(api.get("/v1/home", token)["today"]).year + 1
    taken = {d["date"] for calendar in (1, 2) for d in api.get(f"/v1/public-holidays?year={year}&calendar={calendar}", token)}
    day = next(d for d in (datetime.date(year, 6, 1) + datetime.timedelta(days=i) for i in range(60)) if d.isoformat() not in taken).isoformat()
    AdminPage(page).open(f"/admin/public-holidays?calendar=2&year={year}")
    expect(page.get_by_role("heading", level=2, name="Calendar Barcelona office")).to_be_visible()
    expect(page.get_by_role("region", name="Calendar Barcelona office")).to_contain_text("2 employees belong to it")
    page.get_by_label("Date").fill(day)
    page.get_by_label("Name of the day").fill("Office day off")
    page.get_by_role("button", name="Add public holiday").click()
    expect(AdminPage(page).outcome("Office day off")).to_be_visible()
    assert {"date": day, "name": "Office day off"} in api.get(f"/v1/public-holidays?year={year}&calendar=2", token)
    assert {"date": day, "name": "Office day off"} not in api.get(f"/v1/public-holidays?year={year}&calendar=1", token)
    # The same day again is refused by the server, and said so next to the form.
    page.get_by_label("Date").fill(day)
    page.get_by_label("Name of the day").fill("Twice")
    page.get_by_role("button", name="Add public holiday").click()
    expect(page.get_by_role("alert").filter(has_text="That day already is a public holiday in this calendar.")).to_be_visible()
    page.get_by_role("button", name=re.compile("^Remove: Office day off")).click()
    expect(AdminPage(page).outcome("is no longer a public holiday")).to_be_visible()
    assert {"date": day, "name": "Office day off"} not in api.get(f"/v1/public-holidays?year={year}&calendar=2", token)

    # A webhook: its secret is shown once, in the answer to the creation, and never listed.
    AdminPage(page).open("/admin/webhooks")
    page.get_by_label("Address (https)").fill("https://hooks.invalid/hr")
    page.get_by_label("Notice posted").check()
    page.get_by_role("button", name="Add webhook").click()
    secret = page.get_by_label("Signing secret")
    expect(secret).to_be_focused()
    shown = secret.input_value()
    assert shown.startswith("whsec_")
    hooks = api.get("/v1/webhooks", token)["items"]
    assert any(h["url"] == "https://hooks.invalid/hr" for h in hooks) and all("secret" not in h for h in hooks)
    page.get_by_role("button", name="Done").click()
    AdminPage(page).wait()
    expect(page.get_by_label("Signing secret")).to_have_count(0)
    expect(page.get_by_role("heading", name="https://hooks.invalid/hr")).to_be_visible()
    assert shown not in page.content()

    # A notice makes a message for it; the outbox lists it with why it failed, and counts what the server counts.
    status, _ = api.call("POST", "/v1/notices", token, {"title": "For the hook", "body": "Hello."})
    assert status == 201
    page.get_by_role("navigation", name="Admin sections").get_by_role("link", name="Outbox").click()
    AdminPage(page).wait()
    counts = api.get("/v1/outbox/messages?limit=1", token)["counts"]
    expect(page.locator("main [role=status]").filter(has_text="waiting")).to_have_text(
        f"{counts.get('pending', 0)} waiting, {counts.get('sent', 0)} sent, {counts.get('dead', 0)} failed for good.")
    messages = [m for m in api.get("/v1/outbox/messages?limit=200", token)["items"] if m["to"] == "https://hooks.invalid/hr"]
    assert messages
    page.get_by_role("link", name=f"Message {messages[0]['id']}").click()
    AdminPage(page).wait()
    expect(page.get_by_text("https://hooks.invalid/hr")).to_be_visible()
    expect(page.get_by_role("region", name="What it says")).to_contain_text("For the hook")


def test_a_deactivation_says_what_it_does_and_ends_the_sessions(new_context, api):
    token = api.login("admin")
    zoe_token = api.login("zoe")
    zoe = employee_id(api, token, "zoe")
    sessions = len(api.get(f"/v1/employees/{zoe}/sessions", token)["items"])
    page = admin_page(new_context)
    screen = EmployeePage(page, "Zoë O'Brien").open(f"/admin/employees/{zoe}")
    page.get_by_role("button", name="Deactivate").click()
    said = "Their 1 session ends at once." if sessions == 1 else f"Their {sessions} sessions end at once."
    expect(page.get_by_text(f"Deactivate Zoë O'Brien? {said}")).to_be_visible()
    page.get_by_role("button", name="No, keep it").first.click()
    expect(page.get_by_role("button", name="Deactivate")).to_be_focused()
    assert api.call("GET", "/v1/me", zoe_token)[0] == 200
    page.get_by_role("button", name="Deactivate").click()
    page.get_by_role("button", name="Yes, deactivate").click()
    expect(screen.outcome("Deactivated: their sessions have ended.")).to_be_visible()
    expect(page.get_by_role("button", name="Reactivate")).to_be_focused()
    assert api.call("GET", "/v1/me", zoe_token)[0] == 401
    assert api.call("POST", "/v1/auth/login", body={"username": "zoe", "password": PASSWORD.format("zoe")})[0] == 403
    page.get_by_role("button", name="Reactivate").click()
    expect(screen.outcome("Reactivated: they can log in again.")).to_be_visible()
    assert api.get(f"/v1/employees/{zoe}/record", token)["isActive"] is True
    api.login("zoe")


def test_employment_dates_are_set_and_never_leave_a_request_outside(new_context, api):
    token = api.login("admin")
    dmitri = employee_id(api, token, "dmitri")
    held = new_request(api, "dmitri", weeks_ahead=7, days=2)
    day_before = (datetime.date.fromisoformat(held["startDate"]) - datetime.timedelta(days=1)).isoformat()
    page = admin_page(new_context)
    EmployeePage(page, "Dmitri Ivanov").open(f"/admin/employees/{dmitri}")
    employment = page.get_by_role("region", name="Employment")
    expect(employment).to_contain_text("No employment dates are set")

    employment.get_by_label("First day of employment").fill("2020-01-06")
    employment.get_by_role("button", name="Save the dates").click()
    employment = page.get_by_role("region", name="Employment")
    expect(employment.locator(".outcome.ok")).to_have_text("Employment dates saved.")
    expect(employment).to_contain_text("Employed since")
    assert api.get(f"/v1/employees/{dmitri}/record", token)["employmentStart"] == "2020-01-06"

    # An end before a held request is refused in the admin's language, and nothing changes.
    employment.get_by_label("Last day of employment").fill(day_before)
    employment.get_by_role("button", name="Save the dates").click()
    expect(employment.get_by_role("alert")).to_have_text(
        "These dates would leave a pending or approved request outside them, or a year with fewer days than its "
        "requests hold: cancel or reject requests first.")
    employment.get_by_label("Last day of employment").fill("2019-12-31")
    employment.get_by_role("button", name="Save the dates").click()
    expect(employment.get_by_text("The last day cannot be before the first day.")).to_be_visible()
    expect(employment.get_by_label("Last day of employment")).to_be_focused()
    assert api.get(f"/v1/employees/{dmitri}/record", token)["employmentEnd"] is None

    employment.get_by_label("Last day of employment").fill("")
    employment.get_by_label("First day of employment").fill("")
    employment.get_by_role("button", name="Save the dates").click()
    expect(page.get_by_role("region", name="Employment")).to_contain_text("No employment dates are set")
    assert api.get(f"/v1/employees/{dmitri}/record", token)["employmentStart"] is None
    status, _ = api.call("POST", f"/v1/holidays/{held['id']}/cancel", api.login("dmitri"))
    assert status == 200


def test_pro_rata_is_the_companys_rule_and_the_balance_says_how_it_was_made(new_context, api):
    token = api.login("admin")
    farid = employee_id(api, token, "farid")
    year = int(api.get("/v1/home", token)["today"][:4]) + 2
    status, _ = api.call("PATCH", f"/v1/employees/{farid}", token, {"employmentEnd": f"{year}-03-15"})
    assert status == 200
    page = admin_page(new_context)
    AdminPage(page).open("/admin/company")
    page.get_by_label("Pro-rate allowances").select_option(label="by the whole months employed")
    page.get_by_label("Rounding").select_option(label="down to a half day")
    # A tier the app cannot read is refused before anything is sent.
    page.get_by_label("Extra days by years of service").fill("5 years: 1")
    page.get_by_role("button", name="Save company").click()
    expect(page.get_by_text("Write each tier as years:days, separated by commas")).to_be_visible()
    expect(page.get_by_label("Extra days by years of service")).to_be_focused()
    assert api.get("/v1/company", token)["proRata"] == "off"
    page.get_by_label("Extra days by years of service").fill("5:1, 10:2")
    page.get_by_label("Extra days count from").select_option(label="the anniversary")
    page.get_by_role("button", name="Save company").click()
    expect(AdminPage(page).outcome("The company is saved.")).to_be_visible()
    company = api.get("/v1/company", token)
    assert company["proRata"] == "whole-months" and company["proRataRounding"] == "down"
    assert company["seniority"] == [{"years": 5, "days": 1}, {"years": 10, "days": 2}] and company["seniorityFrom"] == "anniversary"
    try:
        balance = api.get(f"/v1/employees/{farid}/balance?year={year}", token)
        assert balance["allowanceFormula"].startswith(f"{company['defaultAllowance']} × 2/12 = "), balance
        screen = EmployeePage(page, "Farid Haddad").open(f"/admin/employees/{farid}?year={year}")
        expect(screen.allowance).to_contain_text(f"pro-rated: {balance['allowanceFormula']}")
        page.goto("/company")
        expect(page.get_by_text("Allowances are pro-rated by the whole months employed, rounded down to a half day.")).to_be_visible()
        expect(page.get_by_text("1 day more from 5 years and 2 days more from 10 years, from the anniversary on.")).to_be_visible()
    finally:
        status, _ = api.call("PUT", "/v1/company", token, {k: company[k] for k in ["name", "address", "phone", "email", "website", "workingWeek", "defaultAllowance", "timeZone"]} | {"proRata": "off", "seniority": []})
        assert status == 200
        status, _ = api.call("PATCH", f"/v1/employees/{farid}", token, {"employmentEnd": None})
        assert status == 200


def test_an_accrual_plan_is_the_companys_or_an_employees_and_requests_wait_for_what_is_earned(new_context, api):
    token = api.login("admin")
    hiro = employee_id(api, token, "hiro")
    hiro_token = api.login("hiro")
    today = datetime.date.fromisoformat(api.get("/v1/home", token)["today"])
    # Next year's March: nothing of that year is credited yet, whatever today is.
    week = free_week(api, hiro_token, (datetime.date(today.year + 1, 3, 1) - today).days // 7)
    # Two weeks: more than the days carried over from this year (at most the company's cap of 5), which are earned.
    two_weeks = {"startDate": week[0].isoformat(), "endDate": (week[4] + datetime.timedelta(days=7)).isoformat()}
    company = api.get("/v1/company", token)
    assert company["accrual"] == {"period": "year", "credited": "start", "advance": "none"}
    page = admin_page(new_context)
    try:
        screen = AdminPage(page).open("/admin/company")
        page.get_by_label("Earned", exact=True).select_option(label="Each month")
        page.get_by_label("Credited at the").select_option(label="Start of each period")
        page.get_by_label("Requests ahead of what is earned").select_option(label="Up to a number of days")
        # A number of days ahead the app cannot read is refused before anything is sent.
        page.get_by_role("button", name="Save company").click()
        expect(page.get_by_text("Enter a whole number of days from 1 to 366.")).to_be_visible()
        expect(page.get_by_label("Days ahead")).to_be_focused()
        assert api.get("/v1/company", token)["accrual"]["period"] == "year"
        page.get_by_label("Requests ahead of what is earned").select_option(label="None")
        expect(page.get_by_label("Days ahead")).to_be_disabled()
        page.get_by_role("button", name="Save company").click()
        expect(screen.outcome("The company is saved.")).to_be_visible()
        assert api.get("/v1/company", token)["accrual"] == {"period": "month", "credited": "start", "advance": "none"}
        page.goto("/company")
        expect(page.get_by_text("Earned monthly, at the start of each period; nothing not yet earned may be requested.")).to_be_visible()

        # Two weeks in March need credits of the next year: the form says from when they fit, and the year shows why.
        status, refused = api.call("POST", "/v1/me/holidays/preview", hiro_token, two_weeks)
        assert status == 409 and refused["type"] == "urn:sgemployee:problem:balance-exceeded" and refused["fitsFrom"].startswith(f"{today.year + 1}-"), refused
        employee = new_context().new_page()
        LoginPage(employee).open().log_in("hiro")
        form = RequestFormPage(employee).open()
        form.fill(two_weeks["startDate"], two_weeks["endDate"])
        expect(form.preview).to_contain_text("You have not earned enough days for this yet. It would fit from", timeout=10_000)
        employee.goto("/")
        expect(employee.get_by_text(re.compile(r"may be requested now \(.* earned so far\)\."))).to_be_visible()
        holidays = HolidaysPage(employee).open_year(today.year + 1)
        expect(holidays.balance).to_contain_text("Earned so far")
        expect(holidays.balance).to_contain_text("May be requested now")

        # His own plan, the whole year ahead, wins over the company's; then the request fits.
        screen = EmployeePage(page, "Hiro Tanaka").open(f"/admin/employees/{hiro}")
        expect(page.get_by_text("The company's plan applies.")).to_be_visible()
        page.get_by_label("Earned", exact=True).select_option(label="Each month")
        page.get_by_label("Requests ahead of what is earned").select_option(label="The whole year")
        page.get_by_role("button", name="Save plan").click()
        expect(screen.outcome("Accrual plan saved.")).to_be_visible()
        expect(page.get_by_text("Own plan: Earned monthly, at the start of each period; the whole year may be requested ahead.")).to_be_visible()
        assert api.get(f"/v1/employees/{hiro}/record", token)["accrual"] == {"period": "month", "credited": "start", "advance": "year"}
        status, preview = api.call("POST", "/v1/me/holidays/preview", hiro_token, two_weeks)
        assert status == 200, preview
    finally:
        status, _ = api.call("PATCH", f"/v1/employees/{hiro}", token, {"accrual": None})
        assert status == 200
        status, _ = api.call("PUT", "/v1/company", token, {k: company[k] for k in ["name", "address", "phone", "email", "website", "workingWeek", "defaultAllowance", "timeZone"]} | {"accrual": {"period": "year"}})
        assert status == 200
