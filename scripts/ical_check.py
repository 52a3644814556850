"""Parses an iCalendar feed with the icalendar package (as a calendar app would) and prints what it read as JSON.

Usage: ical_check.py FILE. Exits 1, naming the problem, when the feed is not what calendar apps need: every event
all-day (DTSTART and DTEND as dates, DTEND after DTSTART), with UID, DTSTAMP and SEQUENCE; the calendar named and
refreshed. The API tests run it on the feeds the server serves and assert on its output.
"""
import datetime
import json
import sys

import icalendar


def fail(message):
    print(message, file=sys.stderr)
    sys.exit(1)


def main(path):
    data = open(path, "rb").read()
    if b"\n" in data.replace(b"\r\n", b""):
        fail("a line ends without CR LF")
    for number, line in enumerate(data.split(b"\r\n"), 1):
        if len(line) > 75:
            fail(f"line {number} is {len(line)} octets long")
    calendar = icalendar.Calendar.from_ical(data)
    if calendar.name != "VCALENDAR":
        fail(f"the top component is {calendar.name}")
    events = []
    for event in calendar.walk("VEVENT"):
        for required in ("UID", "DTSTAMP", "DTSTART", "DTEND", "SEQUENCE", "SUMMARY", "STATUS"):
            if required not in event:
                fail(f"an event has no {required}: {event.get('UID')}")
        start, end = event.decoded("DTSTART"), event.decoded("DTEND")
        for name, value in (("DTSTART", start), ("DTEND", end)):
            if isinstance(value, datetime.datetime) or not isinstance(value, datetime.date):
                fail(f"{event['UID']}: {name} is not a date: {value!r}")
        if end <= start:
            fail(f"{event['UID']}: DTEND {end} is not after DTSTART {start}")
        events.append({
            "uid": str(event["UID"]),
            "summary": str(event["SUMMARY"]),
            "description": str(event.get("DESCRIPTION", "")),
            "status": str(event["STATUS"]),
            "start": start.isoformat(),
            "end": end.isoformat(),
            "sequence": int(event["SEQUENCE"]),
            "dtstamp": event.decoded("DTSTAMP").isoformat(),
            "lastModified": event.decoded("LAST-MODIFIED").isoformat() if "LAST-MODIFIED" in event else None,
        })
    refresh = calendar.get("REFRESH-INTERVAL")
    print(json.dumps({
        "name": str(calendar.get("X-WR-CALNAME", "")),
        "refresh": refresh.to_ical().decode() if refresh is not None else None,
        "version": str(calendar.get("VERSION", "")),
        "events": events,
    }, ensure_ascii=False))


if __name__ == "__main__":
    main(sys.argv[1])
