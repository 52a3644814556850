import Foundation
import SGCore
import SGSQLite

/// Public holidays by calendar, the calendars, and who belongs to which.
extension SQLHolidayTransaction {
    func publicHolidayList(calendarID: Int64, from start: CalendarDate, to end: CalendarDate) throws -> [PublicHoliday] {
        try connection.with(
            "SELECT date, name FROM public_holidays WHERE calendar_id = ? AND date BETWEEN ? AND ? ORDER BY date"
        ) { statement in
            statement.bind(1, calendarID)
            statement.bind(2, start)
            statement.bind(3, end)
            var holidays: [PublicHoliday] = []
            while try statement.step() { holidays.append(PublicHoliday(date: try statement.date(0), name: statement.text(1))) }
            return holidays
        }
    }

    func insertPublicHoliday(_ holiday: PublicHoliday, calendarID: Int64) throws {
        try connection.execute("INSERT INTO public_holidays (calendar_id, date, name) VALUES (?, ?, ?)") { statement in
            statement.bind(1, calendarID)
            statement.bind(2, holiday.date)
            statement.bind(3, holiday.name)
        }
    }

    func deletePublicHoliday(date: CalendarDate, calendarID: Int64) throws {
        try connection.execute("DELETE FROM public_holidays WHERE calendar_id = ? AND date = ?") { statement in
            statement.bind(1, calendarID)
            statement.bind(2, date)
        }
    }

    // MARK: Holiday calendars

    private static let calendarColumns =
        "c.id, c.name, (SELECT COUNT(*) FROM employees e WHERE e.holiday_calendar_id = c.id) FROM holiday_calendars c"

    private func calendars(where condition: String, _ bind: (SQLStatement) -> Void) throws -> [HolidayCalendar] {
        try connection.with("SELECT \(Self.calendarColumns) \(condition) ORDER BY c.id") { statement in
            bind(statement)
            var calendars: [HolidayCalendar] = []
            while try statement.step() {
                calendars.append(HolidayCalendar(id: statement.int64(0), name: statement.text(1), employeeCount: statement.int(2)))
            }
            return calendars
        }
    }

    func holidayCalendars() throws -> [HolidayCalendar] {
        try calendars(where: "") { _ in }
    }

    func holidayCalendar(id: Int64) throws -> HolidayCalendar? {
        try calendars(where: "WHERE c.id = ?") { $0.bind(1, id) }.first
    }

    func holidayCalendar(named name: String) throws -> HolidayCalendar? {
        try calendars(where: "WHERE c.name = ?") { $0.bind(1, name) }.first
    }

    func holidayCalendarID(employeeID: Int64) throws -> Int64? {
        try connection.with("SELECT holiday_calendar_id FROM employees WHERE id = ?") { statement in
            statement.bind(1, employeeID)
            return try statement.step() ? statement.int64(0) : nil
        }
    }

    func insertHolidayCalendar(name: String) throws -> HolidayCalendar {
        try connection.execute("INSERT INTO holiday_calendars (name) VALUES (?)") { $0.bind(1, name) }
        return HolidayCalendar(id: try connection.lastInsertedRowID, name: name, employeeCount: 0)
    }

    func renameHolidayCalendar(id: Int64, to name: String) throws {
        try connection.execute("UPDATE holiday_calendars SET name = ? WHERE id = ?") { statement in
            statement.bind(1, name)
            statement.bind(2, id)
        }
    }

    func deleteHolidayCalendar(id: Int64) throws {
        try connection.execute("DELETE FROM public_holidays WHERE calendar_id = ?") { $0.bind(1, id) }
        try connection.execute("DELETE FROM holiday_calendars WHERE id = ?") { $0.bind(1, id) }
    }

    func setHolidayCalendar(employeeID: Int64, calendarID: Int64) throws {
        try connection.execute("UPDATE employees SET holiday_calendar_id = ? WHERE id = ?") { statement in
            statement.bind(1, calendarID)
            statement.bind(2, employeeID)
        }
    }
}
