import Foundation
import SGCore

extension DTO {
    /// GET /v1/absences: a page of employees with their absences in the range, and their calendars' public holidays.
    struct AbsenceList: Encodable {
        let from: String
        let to: String
        let items: [AbsenceRow]
        /// The holiday calendars of this page's employees, each with its public holidays in the range.
        let holidayCalendars: [CalendarHolidaysBody]
        /// Pass as `after` to read the next page; null on the last page.
        @Nullable var nextAfter: Int64?

        init(_ overview: AbsenceOverview) {
            from = overview.from.description
            to = overview.to.description
            items = overview.rows.map(AbsenceRow.init)
            holidayCalendars = overview.calendars.map(CalendarHolidaysBody.init)
            nextAfter = overview.nextAfterID
        }
    }

    struct AbsenceRow: Encodable {
        let employee: AbsentEmployeeBody
        /// The calendar whose public holidays apply to this employee (see `holidayCalendars`).
        let holidayCalendarId: Int64
        let absences: [AbsenceBody]

        init(_ row: AbsenceOverview.Row) {
            employee = AbsentEmployeeBody(row.employee)
            holidayCalendarId = row.employee.holidayCalendarID
            absences = row.absences.map(AbsenceBody.init)
        }
    }

    struct AbsentEmployeeBody: Encodable {
        let id: Int64
        let username: String
        let name: String
        let surname: String
        @Nullable var photoUrl: String?

        init(_ employee: AbsentEmployee) {
            id = employee.employee.id
            username = employee.employee.username
            name = employee.employee.name
            surname = employee.employee.surname
            photoUrl = employee.photo.map { DTO.photoURL(employeeID: employee.employee.id, version: $0) }
        }
    }

    struct AbsenceBody: Encodable {
        let startDate: String
        let endDate: String
        let startHalf: DayHalf
        let endHalf: DayHalf
        /// confirmed (approved) or tentative (pending).
        let status: AbsenceOverview.Certainty
        /// The leave type's name; null when it is private and the caller is a colleague.
        @Nullable var leaveType: String?
        /// For admins and the employee themself; null for colleagues.
        @Nullable var requestId: Int64?

        init(_ entry: AbsenceOverview.Entry) {
            startDate = entry.period.start.description
            endDate = entry.period.end.description
            startHalf = entry.period.startHalf
            endHalf = entry.period.endHalf
            status = entry.certainty
            leaveType = entry.leaveTypeName
            requestId = entry.requestID
        }
    }

    struct CalendarHolidaysBody: Encodable {
        let id: Int64
        let name: String
        let publicHolidays: [PublicHolidayBody]

        init(_ calendar: CalendarHolidays) {
            id = calendar.calendarID
            name = calendar.calendarName
            publicHolidays = calendar.holidays.map(PublicHolidayBody.init)
        }
    }

    struct CalendarFeedBody: Encodable {
        let id: Int64
        let kind: CalendarFeed.Kind
        let createdAt: String

        init(_ feed: CalendarFeed) {
            id = feed.id
            kind = feed.kind
            createdAt = Timestamp.format(feed.createdAt)
        }
    }

    /// A new feed, with its address: shown this once, since only the secret's digest is kept.
    struct NewCalendarFeedBody: Encodable {
        let id: Int64
        let kind: CalendarFeed.Kind
        let createdAt: String
        /// The feed's path on this server, secret included.
        let path: String
        /// `path` under the server's public URL; null when the server has none configured.
        @Nullable var url: String?
    }
}
