"""What every screen has: the frame (navigation, "Log out") and a heading that takes the focus."""
import datetime
import re

from playwright.sync_api import Page, expect

SECTIONS = ["Home", "Holidays", "Notices", "People", "Company", "Settings"]


def short_date(iso):
    """How the app writes a date in English (en-US): "Dec 14" (the start of a request's row)."""
    day = datetime.date.fromisoformat(iso)
    return f"{day.strftime('%b')} {day.day}"


class AppPage:
    path = "/"
    title = None

    def __init__(self, page: Page):
        self.page = page

    @property
    def heading(self):
        return self.page.get_by_role("heading", level=1)

    @property
    def nav(self):
        return self.page.get_by_role("navigation", name=re.compile("^(Main|Principal)$"))

    def nav_link(self, name):
        return self.nav.get_by_role("link", name=name, exact=True)

    @property
    def logout_button(self):
        return self.page.get_by_role("button", name=re.compile("^(Log out|Cerrar sesión)$"))

    def open(self, path=None):
        self.page.goto(path or self.path)
        self.wait()
        return self

    def wait(self):
        """Waits until the screen is shown: its heading is there and the main landmark no longer busy."""
        expect(self.heading).to_be_visible()
        expect(self.page.locator("main[aria-busy]")).to_have_count(0)
        if self.title:
            expect(self.heading).to_have_text(self.title)
        return self

    def go(self, section, page_class=None):
        self.nav_link(section).click()
        screen = (page_class or AppPage)(self.page)
        screen.wait()
        return screen

    def log_out(self):
        from .login import LoginPage
        self.logout_button.click()
        return LoginPage(self.page).wait()

    def scroll_width(self):
        return self.page.evaluate("document.documentElement.scrollWidth")
