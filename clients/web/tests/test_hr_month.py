"""An HR admin's month: a new employee who logs in, an allowance changed with a reason and its log, a team with an
approver, a pinned notice, and the year's requests downloaded as CSV and read back. Every step is checked
against what the server holds."""
import csv
import io
import re

from playwright.sync_api import expect

from conftest import employee_id, new_request
from pages import (AdminPage, EmployeesPage, ExportsPage, LoginPage, NoticesAdminPage, NoticesPage,
                   TeamsPage)

PASSWORD = "maria-first-2026"


def test_an_hr_admins_month(new_context, api):
    page = new_context().new_page()
    home = LoginPage(page).open().log_in("admin")
    admin = home.go("Admin", AdminPage)
    expect(admin.heading).to_have_text("Admin")
    for name in ["Employees", "Teams", "Leave types", "Company", "Public holidays", "Notices", "Webhooks", "Outbox", "Exports"]:
        expect(admin.subnav.get_by_role("link", name=name, exact=True)).to_be_visible()

    # A new employee, who logs in with the first password.
    employees = admin.section("Employees", EmployeesPage)
    employee = employees.add("maria", "María", "Peña", "maria@example.com", PASSWORD)
    token = api.login("admin")
    maria_id = employee_id(api, token, "maria")
    assert api.get(f"/v1/employees/{maria_id}/record", token)["isAdmin"] is False
    maria = new_context().new_page()
    maria_home = LoginPage(maria).open().log_in("maria", PASSWORD)
    expect(maria_home.heading).to_have_text("Hello, María")
    expect(maria_home.nav_link("Admin")).to_have_count(0)
    expect(maria_home.nav_link("Requests")).to_have_count(0)

    # Two days more, with a reason: the balance and the log say so, and so does the server.
    before = api.get(f"/v1/employees/{maria_id}/balance", token)
    employee.adjust(2, "Overtime during the release")
    year = before["year"]
    expect(employee.log).to_contain_text("2 days added")
    expect(employee.log).to_contain_text("Overtime during the release")
    expect(employee.log).to_contain_text("admin")
    after = api.get(f"/v1/employees/{maria_id}/balance", token)
    assert after["adjusted"] == before["adjusted"] + 2 and after["remaining"] == before["remaining"] + 2
    expect(employee.allowance).to_contain_text(f"Remaining{after['remaining']:g} days")
    changes = api.get(f"/v1/employees/{maria_id}/allowances/{year}/changes", token)
    assert [(c["kind"], c["days"], c["reason"], c["actor"]) for c in changes] == [("adjust", 2, "Overtime during the release", "admin")]

    # A team with an approver and a member.
    teams = employee.section("Teams", TeamsPage)
    team = teams.create("Support")
    team.add("approvers", "ines", "Inês Gonçalves")
    team.add("members", "maria", "María Peña")
    support = [t for t in api.get("/v1/teams?limit=200", token) if t["name"] == "Support"]
    assert len(support) == 1
    assert [a["username"] for a in support[0]["approvers"]] == ["ines"]
    assert [m["username"] for m in support[0]["members"]] == ["maria"]

    # A pinned notice, first on everyone's board.
    notices = team.section("Notices", NoticesAdminPage)
    notices.post("Office closed on Friday", "The building is closed for maintenance.\nSee you on Monday.", pinned=True)
    expect(notices.notice("Office closed on Friday")).to_contain_text("Pinned")
    NoticesPage(maria).open()
    expect(maria.locator("ul.notices > li").first).to_contain_text("Office closed on Friday")
    first = api.get("/v1/notices", api.login("maria", PASSWORD))["items"][0]
    assert first["title"] == "Office closed on Friday" and first["pinned"] is True

    # The year's requests as CSV, read back as CSV: the same rows as the server's report.
    request = new_request(api, "hiro", weeks_ahead=16, comment="=SUM(A1)")
    year = int(request["startDate"][:4])
    exports = notices.section("Exports", ExportsPage)
    page.get_by_label("Year", exact=True).fill(str(year))
    with page.expect_download() as download:
        page.get_by_role("button", name="Download the year's requests (CSV)").click()
    assert download.value.suggested_filename == f"holidays-{year}.csv"
    rows = list(csv.DictReader(io.StringIO(open(download.value.path(), encoding="utf-8").read(), newline="")))
    report = api.get(f"/v1/reports/holidays?year={year}", token)
    assert [int(r["request_id"]) for r in rows] == [r["requestId"] for r in report]
    mine = [r for r in rows if int(r["request_id"]) == request["id"]]
    assert mine and mine[0]["username"] == "hiro" and mine[0]["status"] == "pending" and mine[0]["start"] == request["startDate"]
    expect(exports.outcome(f"The requests of {year} are downloaded.")).to_be_visible()

    with page.expect_download() as download:
        page.get_by_role("button", name="Download the balances (CSV)").click()
    assert download.value.suggested_filename == f"balances-{year}.csv"
    balances = list(csv.DictReader(io.StringIO(open(download.value.path(), encoding="utf-8").read(), newline="")))
    assert "maria" in [r["username"] for r in balances]
    assert re.fullmatch(r"\d+(\.5)?", [r for r in balances if r["username"] == "maria"][0]["remaining"])
