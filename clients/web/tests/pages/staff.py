"""The approvers' screens (the queue, one request's decision, the team calendar, the delegation) and the admins'
(one class per sub-section of Admin)."""
import re

from playwright.sync_api import expect

from .base import AppPage, short_date


def search_for(page, label, text):
    """Fills the employee search labelled `label` and presses its Search button."""
    picker = page.locator(".picker").filter(has=page.get_by_label(label))
    picker.get_by_label(label).fill(text)
    picker.get_by_role("button", name="Search", exact=True).click()


class QueuePage(AppPage):
    path = "/requests"
    title = "Requests"

    def _link(self, name, start_iso):
        return self.page.get_by_role("link", name=re.compile("^" + re.escape(f"{name}: {short_date(start_iso)}") + r"\b"))

    def link(self, name, start_iso):
        """The link of `name`'s request that starts on that day ("Bob Builder: Dec 14 – 18, 2026")."""
        return self.page.locator("ul.queue").locator(self._link(name, start_iso))

    def item(self, name, start_iso):
        return self.page.locator("ul.queue > li").filter(has=self._link(name, start_iso))

    def open_request(self, name, start_iso):
        self.link(name, start_iso).click()
        return DecisionPage(self.page).wait()

    @property
    def count(self):
        return self.page.locator(".results [role=status]")

    def filter(self, status=None, team=None, leave_type=None, year=None):
        summary = self.page.locator("details.filters-box > summary")
        if self.page.locator("details.filters-box[open]").count() == 0:
            summary.click()
        if status is not None:
            self.page.get_by_label("Status").select_option(label=status)
        if team is not None:
            self.page.get_by_label("Team").select_option(label=team)
        if leave_type is not None:
            self.page.get_by_label("Leave type").select_option(label=leave_type)
        if year is not None:
            self.page.get_by_label("Year").select_option(label=str(year))
        self.page.get_by_role("button", name="Show requests").click()
        return self.wait()


class DecisionPage(AppPage):
    def wait(self):
        super().wait()
        expect(self.page.get_by_role("region", name="Decision")).to_be_visible()
        return self

    @property
    def status(self):
        return self.page.get_by_role("region", name="The request").locator(".status")

    @property
    def history(self):
        return self.page.get_by_role("region", name="History")

    @property
    def balance(self):
        return self.page.get_by_role("region", name=re.compile("'s balance$"))

    @property
    def away(self):
        return self.page.get_by_role("region", name="Also away on these days")

    @property
    def error(self):
        return self.page.get_by_role("region", name="Decision").get_by_role("alert")

    def button(self, name):
        return self.page.get_by_role("region", name="Decision").get_by_role("button", name=name, exact=True)

    def approve(self, expected_status):
        self.button("Approve").click()
        expect(self.status).to_have_text(expected_status)
        return self.wait()

    def reject(self, reason):
        if self.button("Reject").get_attribute("aria-expanded") != "true":
            self.button("Reject").click()
        self.page.get_by_label("Reason").fill(reason)
        self.button("Send the rejection").click()
        expect(self.status).to_have_text("Rejected")
        return self.wait()

    def revert(self):
        self.button("Revert").click()
        expect(self.status).to_have_text("Pending")
        return self.wait()


class TeamCalendarPage(AppPage):
    path = "/requests/calendar"
    title = "Team calendar"

    @property
    def grid(self):
        return self.page.locator("table.month-grid")

    @property
    def caption(self):
        return self.grid.locator("caption")

    @property
    def team(self):
        """The team chooser's select (the teams read so far)."""
        return self.page.get_by_role("form", name="Choose the team").get_by_label("Team", exact=True)

    @property
    def more_teams(self):
        return self.page.get_by_role("form", name="Choose the team").get_by_role("button", name="More teams")

    def show_team(self, name):
        self.team.select_option(label=name)
        self.page.get_by_role("form", name="Choose the team").get_by_role("button", name="Show", exact=True).click()
        return self.wait()

    def row(self, name):
        return self.grid.locator("tbody tr").filter(has=self.page.get_by_role("rowheader", name=re.compile("^" + re.escape(name))))


class DelegationPage(AppPage):
    path = "/requests/delegation"
    title = "Delegation"

    @property
    def now(self):
        return self.page.get_by_role("region", name="Now")

    def hand_over(self, search, name, from_iso, until_iso):
        search_for(self.page, "Find a colleague", search)
        self.page.get_by_role("button", name=f"Choose as substitute: {name}").click()
        self.page.get_by_label("From", exact=True).fill(from_iso)
        self.page.get_by_label("Until (the last day)").fill(until_iso)
        self.page.get_by_role("button", name=re.compile("^(Hand over my approvals|Replace the delegation)$")).click()
        expect(self.now).to_contain_text(f"{name} decides for you")
        return self


class AdminPage(AppPage):
    """Any screen of the Admin section, with its sub-navigation."""

    @property
    def subnav(self):
        return self.page.get_by_role("navigation", name="Admin sections")

    def section(self, name, page_class=None):
        self.subnav.get_by_role("link", name=name, exact=True).click()
        screen = (page_class or AdminPage)(self.page)
        screen.wait()
        return screen

    def outcome(self, text):
        return self.page.locator(".outcome.ok").filter(has_text=text)


class EmployeesPage(AdminPage):
    path = "/admin/employees"
    title = "Employees"

    @property
    def rows(self):
        return self.page.locator("ul.people-list > li")

    @property
    def count(self):
        return self.page.locator("main [role=status]").filter(has_text=re.compile(r"employees?, \d+ active$"))

    def add(self, username, name, surname, email, password, admin=False):
        self.page.get_by_role("link", name="Add an employee").click()
        AppPage(self.page).wait()
        expect(self.heading).to_have_text("Add an employee")
        self.page.get_by_label("Username").fill(username)
        self.page.get_by_label("Name", exact=True).fill(name)
        self.page.get_by_label("Surname").fill(surname)
        self.page.get_by_label("E-mail").fill(email)
        self.page.get_by_label("First password").fill(password)
        if admin:
            self.page.get_by_label(re.compile("^Admin")).check()
        self.page.get_by_role("button", name="Add the employee").click()
        screen = EmployeePage(self.page, f"{name} {surname}").wait()
        expect(self.page.get_by_role("status").filter(has_text=f"{username} can log in now.")).to_be_visible()
        return screen


class EmployeePage(AdminPage):
    def __init__(self, page, name=None):
        super().__init__(page)
        self.title = name

    def wait(self):
        super().wait()
        expect(self.page.get_by_role("region", name="Role and access")).to_be_visible()
        return self

    @property
    def allowance(self):
        return self.page.get_by_role("region", name=re.compile(r"^Allowance and balance \d{4}$"))

    @property
    def log(self):
        return self.page.get_by_role("table", name=re.compile(r"^Allowance changes in \d{4}$"))

    def adjust(self, days, reason):
        self.page.get_by_label("Days to add (negative to remove)").fill(str(days))
        self.page.get_by_label("Reason for the change").fill(reason)
        self.page.get_by_role("button", name="Adjust", exact=True).click()
        expect(self.outcome("Adjusted by")).to_be_visible()
        return self.wait()


class TeamsPage(AdminPage):
    path = "/admin/teams"
    title = "Teams"

    def create(self, name, two_stage=False):
        self.page.get_by_label("Team name").fill(name)
        if two_stage:
            self.page.get_by_label(re.compile("^Two stages")).check()
        self.page.get_by_role("button", name="Create team").click()
        return TeamPage(self.page, name).wait()


class TeamPage(AdminPage):
    def __init__(self, page, name=None):
        super().__init__(page)
        self.title = f"Team {name}" if name else None

    def add(self, kind, search, name):
        """Adds `name` (found by `search`) as one of the team's "approvers" or "members"."""
        label = {"approvers": "Find an approver", "members": "Find a member"}[kind]
        action = {"approvers": "Make approver", "members": "Add to the team"}[kind]
        search_for(self.page, label, search)
        self.page.get_by_role("button", name=f"{action}: {name}").click()
        region = self.page.get_by_role("region", name={"approvers": "Approvers", "members": "Members"}[kind])
        expect(region.get_by_role("link", name=name)).to_be_visible()
        return self


class NoticesAdminPage(AdminPage):
    path = "/admin/notices"
    title = "Notices"

    def post(self, title, body, pinned=False):
        self.page.get_by_label("Title").fill(title)
        self.page.get_by_label("Text").fill(body)
        if pinned:
            self.page.get_by_label("Pin it to the top").check()
        self.page.get_by_role("button", name="Post notice").click()
        expect(self.outcome(f"Posted: {title}.")).to_be_visible()
        return self.wait()

    def notice(self, title):
        return self.page.locator("ul.notices > li").filter(has=self.page.get_by_role("heading", name=title, exact=True))


class ExportsPage(AdminPage):
    path = "/admin/exports"
    title = "Exports"
