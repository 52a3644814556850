"""The login screen: "Username", "Password", "Log in"."""
from playwright.sync_api import expect

from .base import AppPage

PASSWORD = "{}-demo-2026"


class LoginPage(AppPage):
    path = "/"
    title = "Log in"

    @property
    def username(self):
        return self.page.get_by_label("Username")

    @property
    def password(self):
        return self.page.get_by_label("Password", exact=True)

    @property
    def submit(self):
        return self.page.get_by_role("button", name="Log in")

    @property
    def alert(self):
        return self.page.get_by_role("alert")

    def log_in(self, username, password=None):
        from .home import HomePage
        self.username.fill(username)
        self.password.fill(password or PASSWORD.format(username))
        self.submit.click()
        return HomePage(self.page).wait()

    def log_in_expecting_error(self, username, password):
        self.username.fill(username)
        self.password.fill(password)
        self.submit.click()
        expect(self.alert).to_be_visible()
        return self.alert.inner_text()
