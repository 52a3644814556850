"""The company's details, working time and public holidays."""
import re

from playwright.sync_api import expect

from .base import AppPage


class CompanyPage(AppPage):
    path = "/company"

    def wait(self):
        super().wait()
        expect(self.page.get_by_role("region", name=re.compile(r"^(Public holidays in|Festivos de) \d{4}$"))).to_be_visible()
        return self
