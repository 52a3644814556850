"""A short run of the Python client generated from api-spec/openapi.yaml against a live demo server.

Usage: smoke.py BASE_URL, with the generated package `sgemployee_client` on sys.path. Every step checks what it got,
errors included, as the generated models; the first surprise ends the run with exit status 1, naming it.
"""
import datetime
import sys

from sgemployee_client import AuthenticatedClient, Client
from sgemployee_client.api.holidays import approve_holiday, cancel_holiday, get_holiday, list_holidays
from sgemployee_client.api.me import create_my_holiday, get_me, list_my_holidays
from sgemployee_client.api.notices import list_notices
from sgemployee_client.api.session import login
from sgemployee_client.models import (
    HolidayRequest,
    HolidayRequestDetail,
    HolidayRequestList,
    HolidayStatus,
    LoginRequest,
    NewHolidayRequest,
    NoticeList,
    OverlapProblem,
    Profile,
    Token,
    UnauthenticatedProblem,
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


base = sys.argv[1]
anonymous = Client(base_url=base, raise_on_unexpected_status=True)

wrong = login.sync(client=anonymous, body=LoginRequest(username="alice", password="not-her-password"))
expect("a wrong password is an unauthenticated problem", wrong, UnauthenticatedProblem)


def session(username):
    token = expect(f"{username} logs in", login.sync(
        client=anonymous, body=LoginRequest(username=username, password=f"{username}-demo-2026")), Token)
    return AuthenticatedClient(base_url=base, token=token.token, raise_on_unexpected_status=True)


alice = session("alice")
admin = session("admin")

me = expect("alice reads her profile", get_me.sync(client=alice), Profile)
if me.username != "alice":
    sys.exit(f"FAILED: the profile is {me.username}'s")

year = datetime.date.today().year + 1
first = datetime.date(year, 9, 1)
start = first + datetime.timedelta(days=(7 - first.weekday()) % 7 + 14)  # a Monday in September
end = start + datetime.timedelta(days=2)
created = expect("alice asks for three days", create_my_holiday.sync(
    client=alice, body=NewHolidayRequest(start_date=start, end_date=end, comment="from the Python client")),
    HolidayRequest)
if created.status != HolidayStatus.PENDING or created.working_days != 3:
    sys.exit(f"FAILED: the new request is {created.status} for {created.working_days} days")

again = create_my_holiday.sync(client=alice, body=NewHolidayRequest(start_date=start, end_date=start))
clash = expect("the same days again are an overlap problem", again, OverlapProblem)
if clash.conflicting_request_id != created.id:
    sys.exit(f"FAILED: the overlap names request {clash.conflicting_request_id}, not {created.id}")

year_view = expect("alice reads her year", list_my_holidays.sync(client=alice, year=year), YearHolidays)
if created.id not in [r.id for r in year_view.requests]:
    sys.exit("FAILED: the year does not list the new request")

pending = expect("admin lists pending requests", list_holidays.sync(
    client=admin, status=HolidayStatus.PENDING, limit=200), HolidayRequestList)
if created.id not in [r.id for r in pending.items]:
    sys.exit("FAILED: the pending list does not hold the new request")

expect("admin approves it", approve_holiday.sync(created.id, client=admin), HolidayRequest)
expect("approving twice is a wrong-state problem", approve_holiday.sync(created.id, client=admin), WrongStateProblem)
detail = expect("admin reads the detail", get_holiday.sync(created.id, client=admin), HolidayRequestDetail)
if [event.to for event in detail.history] != [HolidayStatus.PENDING, HolidayStatus.APPROVED]:
    sys.exit(f"FAILED: the history is {[event.to for event in detail.history]}")

expect("alice cancels it", cancel_holiday.sync(created.id, client=alice), HolidayRequest)
expect("alice reads the notice board", list_notices.sync(client=alice), NoticeList)

print(f"python client: {steps} steps ok")
