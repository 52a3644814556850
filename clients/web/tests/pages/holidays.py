"""The year view, the new request's form and one request's detail."""
import re

from playwright.sync_api import expect

from .base import AppPage, short_date


class HolidaysPage(AppPage):
    path = "/holidays"

    def wait(self):
        super().wait()
        expect(self.heading).to_have_text(re.compile(r"^(Your holidays in|Tus vacaciones en) \d{4}$"))
        return self

    def open_year(self, year):
        return self.open(f"/holidays?year={year}")

    @property
    def request_button(self):
        return self.page.get_by_role("button", name=re.compile("^(Request holiday|Solicitar vacaciones)$"))

    def new_request(self):
        self.request_button.click()
        return RequestFormPage(self.page).wait()

    @property
    def flash(self):
        return self.page.locator("main").get_by_role("status").filter(has_text=re.compile("^(Request sent|Solicitud enviada)"))

    @property
    def balance(self):
        return self.page.get_by_role("region", name=re.compile(r"^(Balance|Saldo) \d{4}$"))

    def request_row(self, start_iso):
        """The link of the request that starts on that day (its name starts with the date, as shown)."""
        return self.page.get_by_role("link", name=re.compile("^" + re.escape(short_date(start_iso)) + r"\b"))

    def open_request(self, start_iso):
        self.request_row(start_iso).click()
        return RequestDetailPage(self.page).wait()


class RequestFormPage(AppPage):
    path = "/holidays/new"
    title = "Request holiday"

    @property
    def leave_type(self):
        return self.page.get_by_label("Leave type")

    @property
    def start_date(self):
        return self.page.get_by_label("Start date")

    @property
    def end_date(self):
        return self.page.get_by_label("End date")

    @property
    def start_at_noon(self):
        return self.page.get_by_label("Start at noon on the first day")

    @property
    def end_at_noon(self):
        return self.page.get_by_label("End at noon on the last day")

    @property
    def comment(self):
        return self.page.get_by_label("Comment")

    @property
    def send_button(self):
        return self.page.get_by_role("button", name="Send request")

    @property
    def preview(self):
        """What the server would count, as the form shows it before sending."""
        return self.page.locator(".preview")

    def fill(self, start, end, comment=None, end_at_noon=False, leave_type=None):
        if leave_type:
            self.leave_type.select_option(label=leave_type)
        self.start_date.fill(start)
        self.end_date.fill(end)
        if end_at_noon:
            self.end_at_noon.check()
        if comment:
            self.comment.fill(comment)
        return self

    def expect_preview_days(self, text):
        expect(self.preview.locator(".preview-days")).to_have_text(text, timeout=10_000)

    def send(self):
        self.send_button.click()
        screen = HolidaysPage(self.page).wait()
        expect(screen.flash).to_be_visible()
        return screen


class RequestDetailPage(AppPage):
    def wait(self):
        super().wait()
        expect(self.page.get_by_role("region", name=re.compile("^(The request|La solicitud)$"))).to_be_visible()
        return self

    @property
    def status(self):
        return self.page.locator(".summary .status")

    @property
    def history(self):
        return self.page.get_by_role("region", name=re.compile("^(History|Historial)$"))

    def cancel(self):
        self.page.get_by_role("button", name="Cancel request").click()
        self.page.get_by_role("button", name="Yes, cancel it").click()
        expect(self.status).to_have_text("Cancelled")
        return self
