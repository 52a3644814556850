"""A phone (360 × 740): the main screen and the request form fit the width (no sideways scrolling), and the
navigation links and buttons are touch targets of at least 44 × 44 px."""
from playwright.sync_api import expect

from conftest import employee_id, new_request, save_screenshot
from pages import AppPage, HolidaysPage, LoginPage

PHONE = {"width": 360, "height": 740}


def small_targets(page, selector):
    """The visible elements of `selector` smaller than 44 px either way, as "name: w×h"."""
    return page.eval_on_selector_all(selector, """elements => elements
        .filter(e => e.offsetParent !== null)
        .map(e => [e.textContent.trim() || e.getAttribute('aria-label'), e.getBoundingClientRect()])
        .filter(([, r]) => r.width < 44 || r.height < 44)
        .map(([name, r]) => `${name}: ${Math.round(r.width)}×${Math.round(r.height)}`)""")


def test_the_main_screen_and_the_request_form_on_a_phone(new_context):
    context = new_context(viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=1)
    page = context.new_page()
    login = LoginPage(page).open()
    assert login.scroll_width() <= 360
    assert small_targets(page, "button") == []

    home = login.log_in("bob")
    expect(home.balance).to_be_visible()
    assert home.scroll_width() <= 360, f"the main screen is {home.scroll_width()} px wide"
    assert small_targets(page, "nav.sections a") == []
    assert small_targets(page, "button") == []
    links = page.get_by_role("navigation", name="Main").get_by_role("link")
    expect(links).to_have_count(6)
    save_screenshot(page, "home-phone.png")

    holidays = home.go("Holidays", HolidaysPage)
    assert holidays.scroll_width() <= 360
    assert small_targets(page, "button") == []
    form = holidays.new_request()
    form.start_date.tap()
    assert form.scroll_width() <= 360, f"the form is {form.scroll_width()} px wide"
    assert small_targets(page, "button, nav.sections a, .actions a") == []
    for control in [form.leave_type, form.start_date, form.end_date, form.comment]:
        box = control.bounding_box()
        assert box["height"] >= 44 and box["x"] >= 0 and box["x"] + box["width"] <= 360, box

    # Spanish labels are longer: they still fit.
    page.goto("/settings")
    page.get_by_label("Language of the app and of your notifications").select_option("es")
    expect(page.get_by_role("heading", level=1)).to_have_text("Ajustes")
    page.goto("/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Hola, Bob")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert small_targets(page, "nav.sections a") == []
    page.goto("/holidays/new")
    expect(page.get_by_role("heading", level=1)).to_have_text("Solicitar vacaciones")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert small_targets(page, "button") == []


def test_the_approvers_and_admins_screens_on_a_phone(new_context, api):
    """Every screen of Requests and Admin fits 360 px (the month's grid scrolls inside its own region) with touch
    targets of 44 px."""
    request = new_request(api, "carmen", weeks_ahead=26)
    token = api.login("admin")
    bob = employee_id(api, token, "bob")
    team = api.get("/v1/teams?limit=1", token)[0]["id"]
    context = new_context(viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=1)
    page = context.new_page()
    LoginPage(page).open().log_in("admin")
    too_wide, too_small = {}, {}
    for path in ["/requests", f"/requests/{request['id']}", "/requests/calendar", "/requests/delegation", "/admin",
                 "/admin/employees", "/admin/employees/new", f"/admin/employees/{bob}", "/admin/teams", f"/admin/teams/{team}",
                 "/admin/leave-types", "/admin/company", "/admin/public-holidays", "/admin/notices", "/admin/webhooks",
                 "/admin/outbox", "/admin/exports"]:
        AppPage(page).open(path)
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > 360:
            too_wide[path] = width
        small = small_targets(page, "button, nav.sections a, nav.subnav a, .actions a")
        if small:
            too_small[path] = small
    assert too_wide == {}, too_wide
    assert too_small == {}, too_small
    AppPage(page).open("/requests/calendar")
    grid = page.locator(".table-scroll")
    assert grid.evaluate("e => e.scrollWidth > e.clientWidth"), "the month's grid scrolls inside its region"
