"""A company of 10,000 employees (sgbench's synthetic company, on a second server that scripts/web-check.sh
starts): the admins' long lists read one page at a time through the API's cursor and never the whole table. The
requests each screen sends are counted with their `limit`, and so are the rows in the page, before and after
"Show more"."""
from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import expect

from conftest import BIG_ADMIN, BIG_PASSWORD, BIG_URL, Api
from pages import AppPage, EmployeesPage, LoginPage, QueuePage

pytestmark = pytest.mark.skipif(not BIG_URL, reason="no second server with 10,000 employees (web-check.sh starts one with sgbench)")


def listen(page, path):
    """Every GET of `path` the page sends, as its query, and the `nextAfter` of each answer, in order."""
    asked, answers = [], []

    def on_request(request):
        url = urlparse(request.url)
        if request.method == "GET" and url.path == path:
            asked.append({k: v[0] for k, v in parse_qs(url.query, keep_blank_values=True).items()})

    def on_response(response):
        url = urlparse(response.url)
        if response.request.method == "GET" and url.path == path and response.ok:
            answers.append(response.json())

    page.on("request", on_request)
    page.on("response", on_response)
    return asked, answers


def test_ten_thousand_employees_page_without_loading_them_all(new_context):
    api = Api(BIG_URL)
    token = api.login(BIG_ADMIN, BIG_PASSWORD)
    everyone = api.get("/v1/employees?limit=1", token)
    assert everyone["total"] == 10_000

    page = new_context(base_url=BIG_URL).new_page()
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
    AppPage(page).open("/requests/calendar")
    expect(page.locator("table.month-grid tbody tr")).to_have_count(50)
    assert len(absences_asked) == 1 and absences_asked[0]["limit"] == "50", absences_asked
