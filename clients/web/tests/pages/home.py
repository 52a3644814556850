"""The main screen: balance, next time off, who is away this week, the notice board, the company's news."""
import re

from playwright.sync_api import expect

from .base import AppPage


class HomePage(AppPage):
    path = "/"

    def wait(self):
        super().wait()
        expect(self.heading).to_have_text(re.compile(r"^(Hello|Hola), "))
        return self

    def region(self, name):
        return self.page.get_by_role("region", name=re.compile(name))

    @property
    def balance(self):
        return self.region("^(Your days in|Tus días en) ")

    @property
    def away(self):
        return self.region("^(Away this week|Ausentes esta semana)")

    @property
    def notices(self):
        return self.region("^(Notice board|Tablón de avisos)$")

    @property
    def request_button(self):
        return self.page.get_by_role("button", name="Request holiday")
