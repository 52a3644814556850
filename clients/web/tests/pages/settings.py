"""Settings: language, notifications and this browser's push, sessions, calendar feeds, password."""
import re

from playwright.sync_api import expect

from .base import AppPage


class SettingsPage(AppPage):
    path = "/settings"

    def wait(self):
        super().wait()
        expect(self.heading).to_have_text(re.compile("^(Settings|Ajustes)$"))
        return self

    @property
    def language(self):
        return self.page.get_by_label(re.compile("^(Language of the app|Idioma de la app)"))

    def choose_language(self, code):
        self.language.select_option(code)
        expected = {"en": "Settings", "es": "Ajustes"}[code]
        expect(self.heading).to_have_text(expected)
        return self

    @property
    def browser_push_on(self):
        return self.page.get_by_role("button", name="Turn on notifications in this browser")

    @property
    def browser_push_off(self):
        return self.page.get_by_role("button", name="Turn off notifications in this browser")

    @property
    def devices(self):
        return self.page.locator("ul.devices")

    @property
    def log_out_elsewhere(self):
        return self.page.get_by_role("button", name="Log out everywhere else")
