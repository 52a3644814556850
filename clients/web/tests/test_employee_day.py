"""An employee's day, as alice: the main screen, two whole days and a half day requested (each pending with the
days the server counted), one cancelled, a notice read, a colleague found, then the same screens in Spanish."""
import re

from playwright.sync_api import expect

from conftest import free_week, save_screenshot
from pages import HolidaysPage, HomePage, LoginPage, NoticesPage, PeoplePage, RequestDetailPage, SettingsPage


def test_an_employees_day(page, api):
    token = api.login("alice")
    week = free_week(api, token, weeks_ahead=2)
    monday, tuesday, thursday = week[0].isoformat(), week[1].isoformat(), week[3].isoformat()

    home = LoginPage(page).open().log_in("alice")
    expect(home.heading).to_have_text("Hello, Alice")
    expect(home.balance).to_contain_text("days")
    expect(home.notices).to_contain_text("Welcome to SGEmployee")
    for section in ["Home", "Holidays", "Notices", "People", "Company", "Settings"]:
        expect(home.nav_link(section)).to_be_visible()

    # Two whole days: the form shows what the server counts before sending.
    holidays = home.go("Holidays", HolidaysPage)
    form = holidays.new_request()
    form.fill(monday, tuesday, comment="Two days off")
    form.expect_preview_days("2 days")
    expect(form.preview).to_contain_text("Pending")
    holidays = form.send()
    expect(holidays.flash).to_have_text("Request sent: 2 days, Pending.")
    expect(holidays.request_row(monday)).to_contain_text("2 days")
    expect(holidays.request_row(monday)).to_contain_text("Pending")

    # A half day: the morning of Thursday.
    form = holidays.new_request()
    form.fill(thursday, thursday, end_at_noon=True)
    form.expect_preview_days("0.5 days")
    holidays = form.send()
    expect(holidays.request_row(thursday)).to_contain_text("0.5 days")
    expect(holidays.request_row(thursday)).to_contain_text("Pending")
    expect(holidays.request_row(thursday)).to_contain_text("morning only")

    # The days shown are the server's.
    year = api.get(f"/v1/me/holidays?year={monday[:4]}", token)
    counted = {r["startDate"]: r["workingDays"] for r in year["requests"] if r["status"] == "pending"}
    assert counted[monday] == 2 and counted[thursday] == 0.5
    expect(holidays.balance).to_contain_text("2.5 days")
    save_screenshot(page, "holidays-desktop.png")

    # Cancel the two days; the half day stays pending.
    detail = holidays.open_request(monday)
    expect(detail.status).to_have_text("Pending")
    expect(detail.history).to_contain_text("Requested: Pending")
    detail.cancel()
    expect(detail.history).to_contain_text("Pending → Cancelled")
    page.get_by_role("link", name="Back to the year").click()
    holidays = HolidaysPage(page).wait()
    expect(holidays.request_row(monday)).to_contain_text("Cancelled")
    expect(holidays.request_row(thursday)).to_contain_text("Pending")

    # A personal notice turns read.
    notices = holidays.go("Notices", NoticesPage)
    unread = [n for n in api.get("/v1/notices", token)["items"] if n["kind"] == "personal" and n["read"] is False]
    assert unread, "alice has an unread personal notice in the demo company"
    title = notices.title_of(notices.unread().first)
    assert title.startswith("Approved: "), title
    expect(notices.state_of(title)).to_have_text("Unread")
    notices.mark_read(title)
    expect(notices.state_of(title)).to_have_text("Read")
    status, notice = api.call("GET", f"/v1/notices/{unread[0]['id']}", token)
    assert notice["read"] is True

    # "nunez" finds José Núñez.
    people = notices.go("People", PeoplePage)
    people.search("nunez")
    expect(people.person("José Núñez")).to_be_visible()
    person = people.open_person("José Núñez")
    expect(person.page.get_by_text("Jefe de ventas")).to_be_visible()

    # Spanish: the same screens, in Spanish, at once.
    settings = person.go("Settings", SettingsPage)
    settings.choose_language("es")
    expect(page.locator("html")).to_have_attribute("lang", "es")
    for section in ["Inicio", "Vacaciones", "Avisos", "Personas", "Empresa", "Ajustes"]:
        expect(settings.nav_link(section)).to_be_visible()
    expect(settings.logout_button).to_have_text("Cerrar sesión")
    expect(page.get_by_label("Notificaciones por correo")).to_be_visible()

    holidays = settings.go("Vacaciones", HolidaysPage)
    expect(holidays.heading).to_have_text(re.compile(r"^Tus vacaciones en \d{4}$"))
    holidays.open_year(thursday[:4])
    expect(holidays.heading).to_have_text(f"Tus vacaciones en {thursday[:4]}")
    expect(holidays.request_button).to_be_visible()
    row = page.locator("a.request-row").filter(has_text="0,5 días")
    expect(row).to_contain_text("Pendiente")
    expect(row).to_contain_text("solo la mañana")
    expect(page.locator("a.request-row").filter(has_text="Cancelada")).to_contain_text("2 días")
    expect(holidays.balance).to_contain_text("Quedan")
    expect(holidays.balance).to_contain_text("0,5 días")

    holidays.request_button.click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Solicitar vacaciones")
    expect(page.get_by_label("Fecha de inicio")).to_be_visible()
    expect(page.get_by_label("Tipo de ausencia")).to_be_visible()
    expect(page.get_by_role("button", name="Enviar solicitud")).to_be_visible()

    page.get_by_role("navigation", name="Principal").get_by_role("link", name="Avisos").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Avisos")
    expect(page.get_by_role("heading", name=re.compile("^Aprobada: ")).first).to_be_visible()
    expect(page.get_by_role("button", name="Marcar como no leído").first).to_be_visible()

    page.get_by_role("navigation", name="Principal").get_by_role("link", name="Inicio").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Hola, Alice")
    expect(page.get_by_role("region", name="Tablón de avisos")).to_be_visible()

    # The language is the employee's: it holds after a reload.
    page.reload()
    expect(page.get_by_role("heading", level=1)).to_have_text("Hola, Alice")
    settings = SettingsPage(page).open()
    settings.choose_language("en")
    expect(page.locator("html")).to_have_attribute("lang", "en")


def test_carried_days_show_as_due_to_expire_until_the_day(page, api):
    """Next year's carried days are the server's: due to expire until the expiry day, nothing expired yet."""
    token = api.login("alice")
    next_year = int(api.get("/v1/home", token)["today"][:4]) + 1
    balance = api.get(f"/v1/me/holidays?year={next_year}", token)["balance"]
    assert balance["carriedOver"] > 0 and balance["expiring"] > 0 and balance["expired"] == 0, balance

    LoginPage(page).open().log_in("alice")
    holidays = HolidaysPage(page).open_year(next_year)
    shown = holidays.balance
    due = shown.locator("dt", has_text="Due to expire unused")
    expect(due).to_be_visible()
    days = "1 day" if balance["expiring"] == 1 else f"{balance['expiring']:g} days"
    expect(shown.locator("dt:has-text('Due to expire unused') + dd")).to_have_text(days)
    expect(shown.locator("dt", has_text=re.compile("^Expired$"))).to_have_count(0)
    expect(shown.locator(".balance-total dd")).to_have_text(f"{balance['remaining']:g} days")
