"""The whole request flow by keyboard alone (Tab, Shift+Tab, Enter, Space and typing; no click): log in, go to
the holidays, open the form, fill it, see the server's count, send, open the request and cancel it. At every
step the element with the focus shows it (a visible outline)."""
from playwright.sync_api import expect

from conftest import free_week
from pages import DecisionPage, HolidaysPage, HomePage, LoginPage, QueuePage, RequestDetailPage, RequestFormPage

FOCUSED = """() => {
  const e = document.activeElement;
  if (!e || e === document.body) return null;
  const style = getComputedStyle(e);
  const label = e.labels && e.labels[0] ? e.labels[0].textContent : null;
  return {
    tag: e.tagName.toLowerCase(), type: e.type || null,
    name: (e.getAttribute('aria-label') || label || e.textContent || '').trim().replace(/\\s+/g, ' '),
    visible: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2,
  };
}"""


class Keyboard:
    def __init__(self, page):
        self.page = page
        self.steps = 0

    def focused(self):
        return self.page.evaluate(FOCUSED)

    def tab_to(self, name, backwards=False, tag=None, limit=40):
        """Presses Tab (Shift+Tab) until the focus is on the element named `name`, checking each stop shows it."""
        for _ in range(limit):
            self.page.keyboard.press("Shift+Tab" if backwards else "Tab")
            self.steps += 1
            now = self.focused()
            assert now is not None, "the focus went to the page itself"
            assert now["visible"], f"the focus on {now} is not visible"
            if now["name"].startswith(name) and (tag is None or now["tag"] == tag):
                return now
        raise AssertionError(f"{name!r} was not reached by keyboard")


def test_a_request_by_keyboard_alone(page, api):
    token = api.login("carmen")
    monday, tuesday = [d for d in free_week(api, token, weeks_ahead=4)[:2]]
    keys = Keyboard(page)
    LoginPage(page).open()

    keys.tab_to("Username", tag="input")
    page.keyboard.type("carmen")
    keys.tab_to("Password", tag="input")
    page.keyboard.type("carmen-demo-2026")
    page.keyboard.press("Enter")
    home = HomePage(page).wait()
    expect(home.heading).to_be_focused()

    keys.tab_to("Holidays", backwards=True, tag="a")
    page.keyboard.press("Enter")
    holidays = HolidaysPage(page).wait()
    expect(holidays.heading).to_be_focused()

    keys.tab_to("Request holiday", tag="button")
    page.keyboard.press("Enter")
    form = RequestFormPage(page).wait()
    expect(form.heading).to_be_focused()

    keys.tab_to("Leave type", tag="select")
    keys.tab_to("Start date", tag="input")
    page.keyboard.type(f"{monday.month:02d}{monday.day:02d}{monday.year}")
    keys.tab_to("End date", tag="input")
    page.keyboard.type(f"{tuesday.month:02d}{tuesday.day:02d}{tuesday.year}")
    expect(form.end_date).to_have_value(tuesday.isoformat())
    keys.tab_to("End at noon on the last day", tag="input")
    page.keyboard.press("Space")
    expect(form.end_at_noon).to_be_checked()
    form.expect_preview_days("1.5 days")
    page.keyboard.press("Space")
    expect(form.end_at_noon).not_to_be_checked()
    form.expect_preview_days("2 days")
    keys.tab_to("Comment", tag="textarea")
    page.keyboard.type("Requested with the keyboard")
    keys.tab_to("Send request", tag="button")
    page.keyboard.press("Enter")
    holidays = HolidaysPage(page).wait()
    expect(holidays.flash).to_have_text("Request sent: 2 days, Pending.")
    expect(holidays.heading).to_be_focused()

    keys.tab_to(f"{monday.strftime('%b')} {monday.day}", tag="a")
    page.keyboard.press("Enter")
    detail = RequestDetailPage(page).wait()
    expect(detail.status).to_have_text("Pending")
    keys.tab_to("Cancel request", tag="button")
    page.keyboard.press("Space")
    expect(page.get_by_role("button", name="Yes, cancel it")).to_be_focused()
    page.keyboard.press("Escape")
    expect(page.get_by_role("button", name="Cancel request")).to_be_focused()
    expect(detail.status).to_have_text("Pending")
    page.keyboard.press("Space")
    expect(page.get_by_role("button", name="Yes, cancel it")).to_be_focused()
    page.keyboard.press("Enter")
    expect(detail.status).to_have_text("Cancelled")
    expect(detail.heading).to_be_focused()
    assert keys.steps < 120


def test_a_decision_by_keyboard_alone(page, api):
    """An approver by keyboard alone: log in, open Requests, open a request from the queue, ask to reject it (the
    reason field takes the focus), give the reason and send it; the decision screen shows the rejection."""
    token = api.login("hiro")
    week = free_week(api, token, weeks_ahead=22)
    status, request = api.call("POST", "/v1/me/holidays", token, {"startDate": week[0].isoformat(), "endDate": week[1].isoformat()})
    assert status == 201, request
    keys = Keyboard(page)
    LoginPage(page).open()
    keys.tab_to("Username", tag="input")
    page.keyboard.type("eva")
    keys.tab_to("Password", tag="input")
    page.keyboard.type("eva-demo-2026")
    page.keyboard.press("Enter")
    expect(HomePage(page).wait().heading).to_be_focused()

    keys.tab_to("Requests", backwards=True, tag="a")
    page.keyboard.press("Enter")
    queue = QueuePage(page).wait()
    expect(queue.heading).to_be_focused()
    keys.tab_to(f"Hiro Tanaka: {week[0].strftime('%b')} {week[0].day}", tag="a")
    page.keyboard.press("Enter")
    decision = DecisionPage(page).wait()
    expect(decision.heading).to_be_focused()
    expect(decision.status).to_have_text("Pending")

    keys.tab_to("Reject", tag="button")
    page.keyboard.press("Enter")
    expect(page.get_by_label("Reason")).to_be_focused()
    page.keyboard.press("Escape")
    expect(decision.button("Reject")).to_be_focused()
    page.keyboard.press("Space")
    expect(page.get_by_label("Reason")).to_be_focused()
    page.keyboard.type("The release is that week")
    keys.tab_to("Send the rejection", tag="button")
    page.keyboard.press("Enter")
    expect(decision.status).to_have_text("Rejected")
    expect(decision.heading).to_be_focused()
    expect(decision.history).to_contain_text("The release is that week")
    assert api.get(f"/v1/holidays/{request['id']}", token)["status"] == "rejected"
    assert keys.steps < 120
