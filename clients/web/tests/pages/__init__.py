"""Page objects: one class per screen of the web app, which knows its labels and roles, so that a test reads as
a user's steps. Controls are found as a user finds them: by role and accessible name, or by label."""
from .base import AppPage
from .login import LoginPage
from .home import HomePage
from .holidays import HolidaysPage, RequestFormPage, RequestDetailPage
from .notices import NoticesPage
from .people import PeoplePage, PersonPage
from .company import CompanyPage
from .profile import ProfilePage
from .settings import SettingsPage
from .reset import ForgotPasswordPage, ResetPasswordPage
from .staff import (AdminPage, DecisionPage, DelegationPage, EmployeePage, EmployeesPage, ExportsPage, NoticesAdminPage,
                    QueuePage, TeamCalendarPage, TeamPage, TeamsPage)

__all__ = ["AppPage", "LoginPage", "HomePage", "HolidaysPage", "RequestFormPage", "RequestDetailPage", "NoticesPage",
           "PeoplePage", "PersonPage", "CompanyPage", "ProfilePage", "SettingsPage", "ForgotPasswordPage",
           "ResetPasswordPage", "AdminPage", "DecisionPage", "DelegationPage", "EmployeePage", "EmployeesPage", "ExportsPage",
           "NoticesAdminPage", "QueuePage", "TeamCalendarPage", "TeamPage", "TeamsPage"]
