"""A company of 10,000 employees (sgbench's synthetic company, on a second server that scripts/web-check.sh
starts): the admins' long lists read one page at a time through the API's cursor and never the whole table. The
requests each screen sends are counted with their `limit`, and so are the rows in the page, before and after
"Show more". The teams, whose answers hold every member, are never asked for whole: always a page (`limit`) or
the one team of an employee (`member`)."""
import re

import pytest
from playwright.sync_api import expect

from conftest import BIG_ADMIN, BIG_PASSWORD, BIG_URL, Api, listen
from pages import AppPage, DecisionPage, EmployeesPage, LoginPage, QueuePage

pytestmark = pytest.mark.skipif(not BIG_URL, reason="no second server with 10,000 employees (web-check.sh starts one with sgbench)")


def test_ten_thousand_employees_page_without_loading_them_all(new_context):
    api = Api(BIG_URL)
    token = api.login(BIG_ADMIN, BIG_PASSWORD)
    everyone = api.get("/v1/employees?limit=1", token)
    assert everyone["total"] == 10_000

    page = new_context(base_url=BIG_URL).new_page()
    teams_asked, _ = listen(page, "/v1/teams")
    LoginPage(page).open().log_in(BIG_ADMIN, BIG_PASSWORD)
    asked, answers = listen(page, "/v1/employees")
    AppPage(page).go("Admin")
    page.get_by_role("navigation", name="Admin sections").get_by_role("link", name="Employees", exact=True).click()
    employees = EmployeesPage(page).wait()

    # The first page: one request for 50, 50 rows, and the server's count of all of them.
    expect(employees.rows).to_have_count(50)
    expect(employees.count).to_have_text(f"10000 employees, {everyone['active']} active")
    assert asked == [{"limit": "50"}], asked
    first_cursor = answers[0]["nextAfter"]
    assert first_cursor is not None

    # "Show more": the next 50 through the cursor, no more.
    page.get_by_role("button", name="Show more").click()
    expect(employees.rows).to_have_count(100)
    assert asked == [{"limit": "50"}, {"limit": "50", "after": str(first_cursor)}], asked
    expect(employees.rows.nth(50).get_by_role("link")).to_be_focused()
    assert not {item["id"] for item in answers[0]["items"]} & {item["id"] for item in answers[1]["items"]}

    # The queue of a company this size: a page of 20 and the server's total.
    queued, queue_answers = listen(page, "/v1/holidays")
    employees.nav_link("Requests").click()
    queue = QueuePage(page).wait()
    pending = api.get("/v1/holidays?status=pending&limit=1", token)["total"]
    expect(queue.count).to_have_text(f"{pending} requests")
    # An admin's queue also asks how many wait for the second stage: one request of one row.
    assert sorted(queued, key=lambda q: q["status"]) == [{"limit": "1", "status": "approved-by-manager"}, {"limit": "20", "status": "pending"}], queued
    expect(page.locator("ul.queue > li")).to_have_count(min(20, pending))

    # The outbox and the calendar of everyone are paged the same way.
    outbox_asked, _ = listen(page, "/v1/outbox/messages")
    AppPage(page).open("/admin/outbox")
    assert outbox_asked == [{"limit": "50"}], outbox_asked
    absences_asked, _ = listen(page, "/v1/absences")
    AppPage(page).open("/requests/calendar?team=")
    expect(page.locator("table.month-grid caption")).to_have_text(re.compile("^Who is away, "))
    expect(page.locator("table.month-grid tbody tr")).to_have_count(50)
    assert len(absences_asked) == 1 and absences_asked[0]["limit"] == "50", absences_asked

    # The queue's team filter, the calendar's chooser and the admins' list of teams read a page of 50 teams.
    assert teams_asked and all(q == {"limit": "50"} for q in teams_asked), teams_asked
    before = len(teams_asked)
    AppPage(page).open("/admin/teams")
    expect(page.get_by_role("region", name="Teams").first).to_be_visible()
    assert teams_asked[before:] == [{"limit": "50"}], teams_asked

    # The decision screen reads the requester's own team (`member`), and who of that team is away.
    first = api.get("/v1/holidays?status=pending&limit=1", token)["items"]
    assert first, "sgbench seeds pending requests"
    asked_before = len(teams_asked)
    AppPage(page).open(f"/requests/{first[0]['id']}")
    decision = DecisionPage(page).wait()
    expect(decision.away).to_contain_text(re.compile(r"In the team |This employee is in no team\."))
    assert teams_asked[asked_before:] == [{"member": str(first[0]["employeeId"])}], teams_asked[asked_before:]

    # Not once, on any screen, were the teams asked for whole.
    whole = [q for q in teams_asked if "limit" not in q and "member" not in q]
    assert not whole, whole
