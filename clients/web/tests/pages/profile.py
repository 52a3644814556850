"""The employee's own profile and photo."""
from .base import AppPage


class ProfilePage(AppPage):
    path = "/profile"
    title = "Your profile"

    def field(self, label):
        return self.page.get_by_label(label, exact=True)

    def save(self):
        self.page.get_by_role("button", name="Save profile").click()
        return self
