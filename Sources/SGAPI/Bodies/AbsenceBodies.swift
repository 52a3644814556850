import Foundation
import SGCore

extension DTO {
    /// GET /v1/absences: a page of employees with their absences in the range, and their calendars' public holidays.
    struct AbsenceList: JSONBody {
        let overview: AbsenceOverview

        init(_ overview: AbsenceOverview) {
            self.overview = overview
        }

        func write(to json: inout JSONWriter) {
            json.object { json in
                json.key("from"); json.value(overview.from)
                // The holiday calendars of this page's employees, each with its public holidays in the range.
                json.key("holidayCalendars"); json.array(overview.calendars) { json, calendar in json.value(CalendarHolidaysBody(calendar)) }
                json.key("items"); json.array(overview.rows) { json, row in json.value(AbsenceRow(row)) }
                // Pass as `after` to read the next page; null on the last page.
                json.key("nextAfter"); json.value(overview.nextAfterID)
                json.key("to"); json.value(overview.to)
            }
        }
    }

    /// An employee with their absences. `holidayCalendarId` names the calendar whose public holidays apply to them.
    struct AbsenceRow: JSONBody {
        let row: AbsenceOverview.Row

        init(_ row: AbsenceOverview.Row) {
            self.row = row
        }

        func write(to json: inout JSONWriter) {
            let employee = row.employee.employee
            json.object { json in
                json.key("absences"); json.array(row.absences) { json, entry in json.value(AbsenceBody(entry)) }
                json.key("employee")
                json.object { json in
                    json.key("id"); json.value(employee.id)
                    json.key("name"); json.value(employee.name)
                    json.key("photoUrl"); json.value(row.employee.photo.map { DTO.photoURL(employeeID: employee.id, version: $0) })
                    json.key("surname"); json.value(employee.surname)
                    json.key("username"); json.value(employee.username)
                }
                json.key("holidayCalendarId"); json.value(row.employee.holidayCalendarID)
            }
        }
    }

    /// `status` is confirmed (approved) or tentative (pending); `leaveType` is null when the type is private and the
    /// caller a colleague; `requestId` is for admins and the employee themself, null for colleagues.
    struct AbsenceBody: JSONBody {
        let entry: AbsenceOverview.Entry

        init(_ entry: AbsenceOverview.Entry) {
            self.entry = entry
        }

        func write(to json: inout JSONWriter) {
            json.object { json in
                json.key("endDate"); json.value(entry.period.end)
                json.key("endHalf"); json.value(entry.period.endHalf.rawValue)
                json.key("leaveType"); json.value(entry.leaveTypeName)
                json.key("requestId"); json.value(entry.requestID)
                json.key("startDate"); json.value(entry.period.start)
                json.key("startHalf"); json.value(entry.period.startHalf.rawValue)
                json.key("status"); json.value(entry.certainty.rawValue)
            }
        }
    }

    struct CalendarHolidaysBody: JSONBody {
        let calendar: CalendarHolidays

        init(_ calendar: CalendarHolidays) {
            self.calendar = calendar
        }

        func write(to json: inout JSONWriter) {
            json.object { json in
                json.key("id"); json.value(calendar.calendarID)
                json.key("name"); json.value(calendar.calendarName)
                json.key("publicHolidays")
                json.array(calendar.holidays) { json, holiday in
                    json.object { json in
                        json.key("date"); json.value(holiday.date)
                        json.key("name"); json.value(holiday.name)
                    }
                }
            }
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
