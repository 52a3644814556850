"""The notice board: each notice by its title, personal ones read or unread."""
from playwright.sync_api import expect

from .base import AppPage


class NoticesPage(AppPage):
    path = "/notices"
    title = "Notices"

    def notice(self, title):
        return self.page.get_by_role("listitem").filter(has=self.page.get_by_role("heading", name=title))

    def unread(self):
        """The notices marked unread, in the board's order."""
        return self.page.get_by_role("listitem").filter(has=self.page.locator(".read-state .tag-unread"))

    def title_of(self, item):
        return item.get_by_role("heading").inner_text()

    def state_of(self, title):
        return self.notice(title).locator(".read-state .tag")

    def mark_read(self, title):
        self.notice(title).get_by_role("button", name="Mark as read").click()
        expect(self.notice(title).get_by_role("button", name="Mark as unread")).to_be_visible()
        return self
