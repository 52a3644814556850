"""The walk of a client generated from the 2.1.0 contract (api-spec/releases/2.1.0.yaml), run against today's server:
what a client team built then, and never regenerated, keeps working. Kept as that client's code is, with the models
of 2.1.0 (SettingsChangeType0, the three PreviousStatus types): it must not follow the current contract.

Usage: walk.py BASE_URL, with the package generated from 2.1.0 as `sgemployee_client` on sys.path. Every step
checks what it got as the generated models; the first surprise ends the run with exit status 1, naming it.
"""
import datetime
import sys

from sgemployee_client import AuthenticatedClient, Client
from sgemployee_client.api.absences import list_absences
from sgemployee_client.api.company import get_health
from sgemployee_client.api.employees import list_employees
from sgemployee_client.api.holidays import approve_holiday, get_holiday, list_holidays, reject_holiday, revert_holiday
from sgemployee_client.api.me import create_my_holiday, get_home, get_me, list_my_holidays, set_my_settings
from sgemployee_client.api.notices import list_notices
from sgemployee_client.api.session import list_my_sessions, login, refresh_session
from sgemployee_client.api.teams import list_teams
from sgemployee_client.models import (
    AbsenceList,
    DirectoryList,
    Health,
    HolidayRequest,
    HolidayRequestDetail,
    HolidayRequestList,
    HolidayStatus,
    Home,
    LoginRequest,
    NewHolidayRequest,
    NoticeList,
    OverlapProblem,
    Profile,
    ProfileField,
    RefreshRequest,
    Rejection,
    SessionList,
    Settings,
    SettingsChangeType0,
    Token,
    UnauthenticatedProblem,
    ValidationProblem,
    WrongStateProblem,
    YearHolidays,
)

steps = 0


def expect(what, value, kind):
    global steps
    if not isinstance(value, kind):
        sys.exit(f"FAILED: {what}: expected {kind.__name__}, got {type(value).__name__}: {value!r}")
    steps += 1
    print(f"ok: {what}")
    return value


def check(what, condition):
    global steps
    if not condition:
        sys.exit(f"FAILED: {what}")
    steps += 1
    print(f"ok: {what}")


base = sys.argv[1]
anonymous = Client(base_url=base, raise_on_unexpected_status=True)

expect("the health answer reads as 2.1.0's Health", get_health.sync(client=anonymous), Health)
wrong = login.sync(client=anonymous, body=LoginRequest(username="alice", password="not-her-password"))
expect("a wrong password is an unauthenticated problem", wrong, UnauthenticatedProblem)


def session(username):
    token = expect(f"{username} logs in", login.sync(
        client=anonymous, body=LoginRequest(username=username, password=f"{username}-demo-2026")), Token)
    return token, AuthenticatedClient(base_url=base, token=token.token, raise_on_unexpected_status=True)


alice_token, alice = session("alice")
_, admin = session("admin")
renewed = expect("alice trades her refresh token", refresh_session.sync(
    client=anonymous, body=RefreshRequest(refresh_token=alice_token.refresh_token)), Token)
check("the refresh token comes back as a string", isinstance(renewed.refresh_token, str))
alice = AuthenticatedClient(base_url=base, token=renewed.token, raise_on_unexpected_status=True)

me = expect("alice reads her profile", get_me.sync(client=alice), Profile)
check("her editable fields are 2.1.0's", all(isinstance(field, ProfileField) for field in me.editable_fields))
expect("alice switches notifications with 2.1.0's settings type",
       set_my_settings.sync(client=alice, body=SettingsChangeType0(notifications=True)), Settings)
expect("alice lists her sessions", list_my_sessions.sync(client=alice), SessionList)
expect("alice reads the main screen", get_home.sync(client=alice), Home)

year = datetime.date.today().year + 1
first = datetime.date(year, 10, 1)
start = first + datetime.timedelta(days=(7 - first.weekday()) % 7 + 7)  # a Monday in October
created = expect("alice asks for three days", create_my_holiday.sync(
    client=alice, body=NewHolidayRequest(start_date=start, end_date=start + datetime.timedelta(days=2))), HolidayRequest)
check("the request is pending for three days", created.status == HolidayStatus.PENDING and created.working_days == 3)
clash = expect("the same days again are an overlap problem",
               create_my_holiday.sync(client=alice, body=NewHolidayRequest(start_date=start, end_date=start)), OverlapProblem)
check("the overlap names the request", clash.conflicting_request_id == created.id)
expect("alice reads her year", list_my_holidays.sync(client=alice, year=year), YearHolidays)

pending = expect("admin lists pending requests", list_holidays.sync(
    client=admin, status=HolidayStatus.PENDING, limit=200), HolidayRequestList)
check("the list holds the new request", created.id in [item.id for item in pending.items])
approved = expect("admin approves it", approve_holiday.sync(created.id, client=admin), HolidayRequest)
check("it is approved", approved.status == HolidayStatus.APPROVED)
expect("approving twice is a wrong-state problem", approve_holiday.sync(created.id, client=admin), WrongStateProblem)
reverted = expect("admin reverts it", revert_holiday.sync(created.id, client=admin), HolidayRequest)
check("it is pending again", reverted.status == HolidayStatus.PENDING)
refused = reject_holiday.sync(created.id, client=admin, body=Rejection(reason="   "))
expect("a blank reason is a validation problem", refused, ValidationProblem)
rejected = expect("admin rejects it with a reason",
                  reject_holiday.sync(created.id, client=admin, body=Rejection(reason="Team offsite")), HolidayRequest)
check("it is rejected", rejected.status == HolidayStatus.REJECTED)
detail = expect("admin reads the detail and its history", get_holiday.sync(created.id, client=admin), HolidayRequestDetail)
check("the history has every move",
      [event.to for event in detail.history]
      == [HolidayStatus.PENDING, HolidayStatus.APPROVED, HolidayStatus.PENDING, HolidayStatus.REJECTED])

expect("alice reads the notice board, her decisions on it", list_notices.sync(client=alice), NoticeList)
expect("admin reads the directory", list_employees.sync(client=admin, limit=50), DirectoryList)
teams = list_teams.sync(client=admin)
check("admin lists the teams", isinstance(teams, list) and len(teams) >= 2)
expect("admin reads who is away", list_absences.sync(
    client=admin, from_=start, to=start + datetime.timedelta(days=30)), AbsenceList)

print(f"python client of 2.1.0: {steps} steps ok")
