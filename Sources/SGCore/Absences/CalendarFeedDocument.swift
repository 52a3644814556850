import Foundation

/// What a calendar feed says, as iCalendar text. Every event is all-day (`DTSTART;VALUE=DATE` and the day after the
/// last as `DTEND`), so it shows on the same days in every time zone; a half day stays a date-only event and says
/// which half in its summary. Nothing here depends on the time of the request: the same data gives the same bytes,
/// which the feed's ETag relies on.
public enum CalendarFeedDocument {
    /// How often calendar apps are asked to fetch the feed again.
    public static let refreshInterval = "PT1H"
    /// Cancelled or rejected requests stay in a personal feed this long after the move, as CANCELLED, so that
    /// calendars that kept them drop them.
    public static let cancelledKeptDays = 30
    /// A personal feed holds requests that ended at most this many days ago.
    public static let personalPastDays = 366
    /// The company feed holds absences and public holidays from this many days ago …
    public static let companyPastDays = 30
    /// … to this many days ahead.
    public static let companyFutureDays = 366

    static let uidDomain = "sgemployee"

    /// The employee's own requests: pending (and approved by the manager) as TENTATIVE, approved as CONFIRMED, cancelled or rejected as CANCELLED.
    public static func personal(companyName: String, owner: Employee, requests: [FeedRequest]) -> [UInt8] {
        var ics = header(name: "\(companyName): \(owner.fullName)'s leave")
        for request in requests {
            let absence = request.absence
            var summary = HolidayRequest.kindInWords(leaveTypeID: absence.leaveTypeID, leaveTypeName: absence.leaveTypeName)
            switch absence.status {
            case .pending: summary += " (pending)"
            case .approvedByManager: summary += " (approved by the manager)"
            case .rejected: summary += " (rejected)"
            case .cancelled: summary += " (cancelled)"
            case .approved: break
            }
            event(
                &ics, uid: "request-\(absence.requestID)@\(uidDomain)", request: request, summary: summary + halvesNote(absence.period),
                description: "\(absence.period), \(request.duration.inWorkingDays), \(absence.status.rawValue)",
                status: status(absence.status), transparent: false)
        }
        return footer(ics, empty: requests.isEmpty)
    }

    /// Everyone's approved absences (the name, and the type unless it is private) and the public holidays of the
    /// owner's holiday calendar.
    public static func company(
        companyName: String, requests: [FeedRequest], calendar: CalendarHolidays
    ) -> [UInt8] {
        var ics = header(name: "\(companyName): who is off")
        for request in requests {
            let absence = request.absence
            let what = absence.isPrivateType ? "away" : absence.leaveTypeName
            event(
                &ics, uid: "absence-\(absence.requestID)@\(uidDomain)", request: request,
                summary: "\(request.employeeName): \(what)" + halvesNote(absence.period), description: absence.period.description,
                status: "CONFIRMED", transparent: true)
        }
        for holiday in calendar.holidays {
            let day = ICalendarWriter.basic(holiday.date)
            // A public holiday has no history: its date stands for when it was written.
            event(
                &ics, uid: "public-holiday-\(calendar.calendarID)-\(day)@\(uidDomain)", stamp: day + "T000000Z", history: nil,
                sequence: 0, start: holiday.date, end: holiday.date, summary: holiday.name,
                description: "Public holiday (\(calendar.calendarName))", status: "CONFIRMED", transparent: true)
        }
        return footer(ics, empty: requests.isEmpty && calendar.holidays.isEmpty)
    }

    private static func header(name: String) -> ICalendarWriter {
        var ics = ICalendarWriter()
        ics.append(line: "BEGIN:VCALENDAR")
        ics.raw("VERSION", "2.0")
        ics.raw("PRODID", "-//SGEmployee//Holidays//EN")
        ics.raw("CALSCALE", "GREGORIAN")
        ics.text("NAME", name)
        ics.text("X-WR-CALNAME", name)
        ics.raw("REFRESH-INTERVAL;VALUE=DURATION", refreshInterval)
        ics.raw("X-PUBLISHED-TTL", refreshInterval)
        return ics
    }

    /// A calendar holds at least one component (RFC 5545 §3.6), and strict readers refuse one without: a feed with no
    /// event carries a time zone definition that no event uses, UTC.
    private static func footer(_ ics: ICalendarWriter, empty: Bool) -> [UInt8] {
        var ics = ics
        if empty {
            for line in [
                "BEGIN:VTIMEZONE", "TZID:UTC", "BEGIN:STANDARD", "DTSTART:19700101T000000", "TZOFFSETFROM:+0000",
                "TZOFFSETTO:+0000", "END:STANDARD", "END:VTIMEZONE",
            ] {
                ics.append(line: line)
            }
        }
        ics.append(line: "END:VCALENDAR")
        return ics.bytes
    }

    private static func event(
        _ ics: inout ICalendarWriter, uid: String, request: FeedRequest, summary: String, description: String, status: String,
        transparent: Bool
    ) {
        // Without METHOD, DTSTAMP is when the event was last revised (RFC 5545 §3.8.7.2): the feed stays byte for
        // byte the same until a request changes. The creation is the first entry of the history; every move adds one.
        event(
            &ics, uid: uid, stamp: ICalendarWriter.basic(request.updatedAt), history: (request.createdAt, request.updatedAt),
            sequence: max(request.changes - 1, 0), start: request.absence.period.start, end: request.absence.period.end,
            summary: summary, description: description, status: status, transparent: transparent)
    }

    /// An all-day event from `start` to `end`, both included; `history` gives CREATED and LAST-MODIFIED.
    private static func event(
        _ ics: inout ICalendarWriter, uid: String, stamp: String, history: (created: Date, modified: Date)?, sequence: Int,
        start: CalendarDate, end: CalendarDate, summary: String, description: String, status: String, transparent: Bool
    ) {
        ics.append(line: "BEGIN:VEVENT")
        ics.raw("UID", uid)
        ics.raw("DTSTAMP", stamp)
        if let history {
            ics.instant("CREATED", history.created)
            ics.instant("LAST-MODIFIED", history.modified)
        }
        ics.raw("SEQUENCE", String(sequence))
        ics.date("DTSTART", start)
        ics.date("DTEND", end.adding(days: 1) ?? end)
        ics.text("SUMMARY", summary)
        ics.text("DESCRIPTION", description)
        ics.raw("STATUS", status)
        ics.raw("TRANSP", transparent ? "TRANSPARENT" : "OPAQUE")
        ics.append(line: "END:VEVENT")
    }

    static func status(_ status: HolidayStatus) -> String {
        switch status {
        case .pending, .approvedByManager: "TENTATIVE"
        case .approved: "CONFIRMED"
        case .rejected, .cancelled: "CANCELLED"
        }
    }

    /// " (morning)", " (afternoon)", " (from the afternoon)", " (until noon)", " (from the afternoon, until noon)",
    /// or nothing for whole days.
    public static func halvesNote(_ period: LeavePeriod) -> String {
        if period.isWholeDays { return "" }
        if period.start == period.end { return " (\(period.startHalf.rawValue))" }
        var notes: [String] = []
        if period.startHalf == .afternoon { notes.append("from the afternoon") }
        if period.endHalf == .morning { notes.append("until noon") }
        return " (" + notes.joined(separator: ", ") + ")"
    }
}
