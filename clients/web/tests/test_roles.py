"""Each section for the role the server allows: an employee who decides nobody's requests sees neither "Requests"
nor "Admin", their addresses say they are not for them, and the API refuses the routes behind them (403) when
tried by hand; an approver sees "Requests" but not "Admin", and reads only the teams they decide for. Hiding is not the permission: the server decides."""
from playwright.sync_api import expect

from conftest import new_request
from pages import AppPage, LoginPage, QueuePage


def test_an_employee_who_decides_nothing_sees_neither_section_and_the_api_refuses(page, api):
    home = LoginPage(page).open().log_in("farid")
    for section in ["Home", "Holidays", "Notices", "People", "Company", "Settings"]:
        expect(home.nav_link(section)).to_be_visible()
    expect(home.nav_link("Requests")).to_have_count(0)
    expect(home.nav_link("Admin")).to_have_count(0)
    for path in ["/requests", "/requests/calendar", "/admin", "/admin/employees", "/admin/outbox", "/admin/exports"]:
        page.goto(path)
        expect(AppPage(page).wait().heading).to_have_text("Not for your account")
    expect(page.get_by_role("button", name="Approve")).to_have_count(0)

    token = api.login("farid")
    someone_elses = new_request(api, "carmen", weeks_ahead=18)
    year = someone_elses["startDate"][:4]
    refused = {
        ("GET", "/v1/holidays?status=pending"): None,
        ("POST", f"/v1/holidays/{someone_elses['id']}/approve"): {},
        ("POST", f"/v1/holidays/{someone_elses['id']}/reject"): {"reason": "No"},
        ("POST", f"/v1/holidays/{someone_elses['id']}/revert"): {},
        ("GET", "/v1/teams"): None,
        ("GET", "/v1/teams?limit=50"): None,
        ("GET", f"/v1/teams?member={someone_elses['employeeId']}"): None,
        ("POST", "/v1/teams"): {"name": "Mine"},
        ("GET", "/v1/outbox/messages"): None,
        ("POST", "/v1/outbox/retry-dead"): None,
        ("GET", "/v1/webhooks"): None,
        ("POST", "/v1/employees"): {"username": "x1", "name": "X", "surname": "Y", "email": "x@example.com", "password": "long-enough-pass"},
        ("GET", f"/v1/employees/{someone_elses['employeeId']}/record"): None,
        ("GET", f"/v1/employees/{someone_elses['employeeId']}/sessions"): None,
        ("PATCH", f"/v1/employees/{someone_elses['employeeId']}"): {"isAdmin": True},
        ("POST", "/v1/notices"): {"title": "Mine", "body": "Mine"},
        ("POST", "/v1/leave-types"): {"name": "mine"},
        ("GET", f"/v1/reports/holidays.csv?year={year}"): None,
        ("GET", f"/v1/reports/balances.csv?year={year}"): None,
        ("PUT", "/v1/me/delegation"): {"to": someone_elses["employeeId"], "from": someone_elses["startDate"], "until": someone_elses["startDate"]},
    }
    answers = {}
    for (method, path), body in refused.items():
        if method == "GET":
            request = api.call(method, path, token)
        else:
            request = api.call(method, path, token, body if body is not None else {})
        answers[f"{method} {path}"] = request[0]
    assert answers == {key: 403 for key in answers}, answers
    assert api.get(f"/v1/holidays/{someone_elses['id']}", api.login("carmen"))["status"] == "pending"


def test_an_approver_sees_requests_but_not_admin(page, api):
    username = "jose"
    home = LoginPage(page).open().log_in(username)
    expect(home.nav_link("Requests")).to_be_visible()
    expect(home.nav_link("Admin")).to_have_count(0)
    home.go("Requests", QueuePage)
    page.goto("/admin/teams")
    expect(AppPage(page).wait().heading).to_have_text("Not for your account")
    # The teams he decides for are his to read (Sales), and no other; an admin's own screen stays closed.
    token = api.login(username)
    assert [team["name"] for team in api.get("/v1/teams?limit=50", token)] == ["Sales"]
    assert api.call("GET", "/v1/teams/1", token)[0] == 403
    assert api.call("GET", "/v1/outbox/messages", api.login(username))[0] == 403
