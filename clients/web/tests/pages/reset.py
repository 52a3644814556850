"""The pages of a forgotten password: asking for a link, and the page the link opens."""
from .base import AppPage


class ForgotPasswordPage(AppPage):
    path = "/forgot-password"
    title = "Forgot your password?"


class ResetPasswordPage(AppPage):
    path = "/reset-password?token=sgr_not-a-real-token"
    title = "Choose a new password"

    @property
    def new_password(self):
        return self.page.get_by_label("New password", exact=True)
