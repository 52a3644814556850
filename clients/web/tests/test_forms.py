"""Forms and their errors: the server's problems in the user's words, next to the field they name (aria-invalid,
aria-describedby) or announced (role=alert); the password pages; the photo previewed before it is uploaded."""
from pathlib import Path

from playwright.sync_api import expect

from pages import ForgotPasswordPage, LoginPage, ProfilePage, ResetPasswordPage, SettingsPage

ICON = Path(__file__).resolve().parents[1] / "icons" / "icon-192.png"


def expect_field_error(page, field, text):
    expect(field).to_have_attribute("aria-invalid", "true")
    described = field.get_attribute("aria-describedby").split()
    assert any(page.locator(f"#{i}").inner_text() == text for i in described), described


def test_errors_are_translated_and_tied_to_their_fields(page):
    login = LoginPage(page).open()
    assert login.log_in_expecting_error("alice", "not-her-password") == "The username or the password is wrong."
    login.username.fill("")
    login.submit.click()
    expect_field_error(page, login.username, "Enter your username.")

    ForgotPasswordPage(page).open()
    page.get_by_label("Username or e-mail").fill("alice")
    page.get_by_role("button", name="Send the link").click()
    expect(page.get_by_text("If the account exists, a link is on its way")).to_be_visible()

    reset = ResetPasswordPage(page).open()
    assert "token" not in page.url, "the token is taken out of the address"
    reset.new_password.fill("a-long-new-password")
    page.get_by_label("Repeat the new password").fill("another-password")
    page.get_by_role("button", name="Set the password").click()
    expect_field_error(page, page.get_by_label("Repeat the new password"), "The two passwords differ.")
    page.get_by_label("Repeat the new password").fill("a-long-new-password")
    page.get_by_role("button", name="Set the password").click()
    expect(page.get_by_role("alert")).to_have_text("This link has expired or was already used. Ask for a new one.")
    expect(page.get_by_role("link", name="Ask for a new link")).to_be_visible()

    LoginPage(page).open().log_in("zoe")
    SettingsPage(page).open()
    page.get_by_label("Current password").fill("not-the-password")
    page.get_by_label("New password", exact=True).fill("a-long-new-password")
    page.get_by_label("Repeat the new password").fill("a-long-new-password")
    page.get_by_role("button", name="Change password").click()
    expect_field_error(page, page.get_by_label("Current password"), "The current password is wrong.")
    expect(page.get_by_label("Current password")).to_be_focused()

    profile = ProfilePage(page).open()
    profile.field("Phone").fill("call me")
    profile.save()
    expect_field_error(page, profile.field("Phone"), "Enter a phone number: 5 to 15 digits, with + for the country.")
    expect(profile.field("Phone")).to_be_focused()


def test_a_photo_is_previewed_before_it_is_uploaded(page):
    LoginPage(page).open().log_in("jose")
    ProfilePage(page).open()
    page.get_by_label("Choose a photo").set_input_files(str(ICON))
    preview = page.get_by_role("img", name="The chosen photo")
    expect(preview).to_be_visible()
    assert preview.get_attribute("src").startswith("blob:")
    page.get_by_role("button", name="Upload photo").click()
    expect(page.get_by_text("The new photo is saved.")).to_be_visible()
    expect(page.locator(".photo-current img")).to_be_visible()
    assert page.locator(".photo-current img").get_attribute("src").startswith("blob:")
    expect(page.get_by_role("button", name="Remove photo")).to_be_visible()
