"""A manager's morning: the approvers' queue and the decision screen, end to end against the server. Each test
makes the requests it decides through the API, and checks what the server holds after each decision."""
import datetime
import re

from playwright.sync_api import expect

from conftest import new_request, employee_id
from pages import AppPage, DecisionPage, DelegationPage, HolidaysPage, LoginPage, QueuePage


def test_a_managers_morning(new_context, api):
    zoe_request = new_request(api, "zoe", weeks_ahead=10, comment="Family visit")
    farid_request = new_request(api, "farid", weeks_ahead=10, comment="Moving house")
    year = zoe_request["startDate"][:4]

    # Zoë has her year open before the decision.
    zoe = new_context().new_page()
    LoginPage(zoe).open().log_in("zoe")
    zoe_year = HolidaysPage(zoe).open_year(year)
    expect(zoe_year.request_row(zoe_request["startDate"])).to_contain_text("Pending")

    page = new_context().new_page()
    home = LoginPage(page).open().log_in("jose")
    expect(home.nav_link("Admin")).to_have_count(0)
    queue = home.go("Requests", QueuePage)
    pending = api.get("/v1/holidays?status=pending&limit=1", api.login("jose"))["total"]
    expect(queue.count).to_have_text(f"{pending} requests")
    expect(queue.item("Zoë O'Brien", zoe_request["startDate"])).to_contain_text("Family visit")
    expect(queue.item("Farid Haddad", farid_request["startDate"])).to_contain_text("Moving house")

    # Zoë's request: everything in one look, then approved in one step.
    decision = queue.open_request("Zoë O'Brien", zoe_request["startDate"])
    expect(decision.status).to_have_text("Pending")
    expect(decision.history).to_contain_text("Requested: Pending")
    balance = api.get(f"/v1/employees/{zoe_request['employeeId']}/balance?year={year}", api.login("zoe"))
    expect(decision.balance).to_contain_text(f"Remaining{balance['remaining']:g} days")
    # Before and after: the pending request is counted in the server's remaining, and added back for "before".
    days = zoe_request["workingDays"]
    expect(decision.balance).to_contain_text(f"Remaining before this request{balance['remaining'] + days:g} days")
    expect(decision.balance).to_contain_text(f"Remaining once approved{balance['remaining']:g} days")
    expect(decision.away).to_contain_text("Farid Haddad")
    decision.approve("Approved")
    expect(decision.history).to_contain_text("Pending → Approved")
    expect(decision.history).to_contain_text("jose")
    assert api.get(f"/v1/holidays/{zoe_request['id']}", api.login("zoe"))["status"] == "approved"

    # Back in the queue Zoë's is gone; Farid's is rejected with a reason.
    page.get_by_role("link", name="Back to the requests").click()
    queue = QueuePage(page).wait()
    expect(queue.item("Zoë O'Brien", zoe_request["startDate"])).to_have_count(0)
    decision = queue.open_request("Farid Haddad", farid_request["startDate"])
    decision.button("Reject").click()
    decision.button("Send the rejection").click()
    expect(page.get_by_text("Give a reason for the rejection.")).to_be_visible()
    expect(decision.status).to_have_text("Pending")
    decision.reject("Inventory week; please pick another")
    expect(decision.history).to_contain_text("Inventory week; please pick another")
    farid_view = api.get(f"/v1/holidays/{farid_request['id']}", api.login("farid"))
    assert farid_view["status"] == "rejected"
    assert farid_view["history"][-1]["note"] == "Inventory week; please pick another"

    # Zoë's screen shows the decision after a reload.
    zoe.reload()
    zoe_year = HolidaysPage(zoe).wait()
    expect(zoe_year.request_row(zoe_request["startDate"])).to_contain_text("Approved")

    # An approved request can be reverted in one step, and is pending again.
    page.goto(f"/requests/{zoe_request['id']}")
    decision = DecisionPage(page).wait()
    decision.revert()
    assert api.get(f"/v1/holidays/{zoe_request['id']}", api.login("zoe"))["status"] == "pending"


def test_a_two_stage_request_passes_both_stages_by_two_people(new_context, api):
    request = new_request(api, "alice", weeks_ahead=12, comment="Two stages")

    eva = new_context().new_page()
    queue = LoginPage(eva).open().log_in("eva").go("Requests", QueuePage)
    decision = queue.open_request("Alice Example", request["startDate"])
    decision.approve("Approved by manager")
    # The first stage is the approver's: the second is not hers to take.
    expect(decision.button("Approve")).to_have_count(0)
    expect(decision.button("Revert")).to_be_visible()
    assert api.get(f"/v1/holidays/{request['id']}", api.login("alice"))["status"] == "approved-by-manager"

    admin = new_context().new_page()
    queue = LoginPage(admin).open().log_in("admin").go("Requests", QueuePage)
    # The admin's queue of pending requests says how many wait for the second stage, and links to them.
    queue.page.get_by_role("link", name=re.compile(r"approved by (its|their) managers? waits? for an admin")).click()
    queue = QueuePage(admin).wait()
    expect(queue.page.get_by_label("Status")).to_have_value("approved-by-manager")
    decision = queue.open_request("Alice Example", request["startDate"])
    expect(decision.status).to_have_text("Approved by manager")
    decision.approve("Approved")
    history = api.get(f"/v1/holidays/{request['id']}", api.login("alice"))["history"]
    assert [(e["from"], e["to"], e["actor"]) for e in history] == [
        (None, "pending", "alice"), ("pending", "approved-by-manager", "eva"), ("approved-by-manager", "approved", "admin")]


def test_a_delegate_decides_while_the_delegation_runs_and_not_after(new_context, api):
    bob_request = new_request(api, "bob", weeks_ahead=14)
    grace_request = new_request(api, "grace", weeks_ahead=14)
    eva_token = api.login("eva")
    today = datetime.date.fromisoformat(api.get("/v1/home", eva_token)["today"])

    # Eva hands her approvals to Dmitri for a week, from her screen.
    eva = new_context().new_page()
    delegation = LoginPage(eva).open().log_in("eva").go("Requests", QueuePage)
    eva.get_by_role("navigation", name="Requests sections").get_by_role("link", name="Delegation").click()
    delegation = DelegationPage(eva).wait()
    expect(delegation.now).to_contain_text("Your approvals are not handed to anyone.")
    delegation.hand_over("dmitri", "Dmitri Ivanov", today.isoformat(), (today + datetime.timedelta(days=7)).isoformat())
    dmitri_id = employee_id(api, eva_token, "dmitri")
    assert api.get("/v1/me/delegation", eva_token) == {"to": dmitri_id, "from": today.isoformat(), "until": (today + datetime.timedelta(days=7)).isoformat()}

    # While it runs, Dmitri decides Eva's team's requests.
    dmitri = new_context().new_page()
    home = LoginPage(dmitri).open().log_in("dmitri")
    queue = home.go("Requests", QueuePage)
    decision = queue.open_request("Bob Builder", bob_request["startDate"])
    decision.approve("Approved by manager")
    assert api.get(f"/v1/holidays/{bob_request['id']}", api.login("bob"))["status"] == "approved-by-manager"
    dmitri.goto(f"/requests/{grace_request['id']}")
    decision = DecisionPage(dmitri).wait()
    expect(decision.button("Approve")).to_be_visible()

    # The delegation ends (through the API): the same button is refused by the server, and nothing moves.
    status, _ = api.call("DELETE", "/v1/me/delegation", eva_token)
    assert status == 204
    decision.button("Approve").click()
    expect(decision.error).to_have_text(re.compile("^(You may not decide this request|This request does not exist)"))
    expect(decision.status).to_have_text("Pending")
    assert api.get(f"/v1/holidays/{grace_request['id']}", api.login("grace"))["status"] == "pending"

    # After a reload the section is gone, and its address says it is not for him.
    dmitri.reload()
    AppPage(dmitri).wait()
    expect(AppPage(dmitri).nav_link("Requests")).to_have_count(0)
    dmitri.goto("/requests")
    expect(AppPage(dmitri).wait().heading).to_have_text("Not for your account")
