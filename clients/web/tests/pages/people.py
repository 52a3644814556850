"""The directory and a colleague's profile."""
from playwright.sync_api import expect

from .base import AppPage


class PeoplePage(AppPage):
    path = "/people"
    title = "People"

    @property
    def search_box(self):
        return self.page.get_by_label("Search people")

    def search(self, text):
        self.search_box.fill(text)
        self.page.get_by_role("button", name="Search", exact=True).click()
        return self

    def person(self, name):
        return self.page.get_by_role("link", name=name, exact=True)

    def open_person(self, name):
        self.person(name).click()
        return PersonPage(self.page, name).wait()


class PersonPage(AppPage):
    def __init__(self, page, name=None):
        super().__init__(page)
        self.title = name

    @property
    def time_off(self):
        return self.page.get_by_role("region", name="Time off in the coming year")

    def wait(self):
        super().wait()
        expect(self.time_off).to_be_visible()
        return self
