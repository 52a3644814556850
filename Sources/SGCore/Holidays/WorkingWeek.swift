import Foundation

/// The company's working days of the week, as ISO weekdays (1 = Monday ... 7 = Sunday).
public struct WorkingWeek: Hashable, Sendable, CustomStringConvertible {
    /// Bit `d` set for ISO weekday `d`: durations ask for every day of a request and every year of a balance, and a
    /// set of numbers would make each of them a hash lookup (and each parse of a stored week several allocations).
    private let mask: UInt8

    public var weekdays: Set<Int> { Set((1...7).filter { mask & (1 << $0) != 0 }) }

    public static let mondayToFriday = WorkingWeek(mask: 0b0011_1110)

    private init(mask: UInt8) { self.mask = mask }

    /// At least one day, each 1...7.
    public init?(weekdays: Set<Int>) {
        guard !weekdays.isEmpty, weekdays.allSatisfy({ (1...7).contains($0) }) else { return nil }
        self.mask = weekdays.reduce(0) { $0 | UInt8(1 << $1) }
    }

    /// Parses the stored form, e.g. "12345".
    public init?(code: String) {
        var mask: UInt8 = 0
        for byte in code.utf8 {
            guard (UInt8(ascii: "1")...UInt8(ascii: "7")).contains(byte) else { return nil }
            mask |= 1 << (byte - UInt8(ascii: "0"))
        }
        guard mask != 0 else { return nil }
        self.mask = mask
    }

    /// The stored form, e.g. "12345".
    public var code: String { weekdays.sorted().map(String.init).joined() }

    public var description: String {
        let names = ["", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
        return weekdays.sorted().map { names[$0] }.joined(separator: ",")
    }

    public func isWorkingDay(_ date: CalendarDate) -> Bool { mask & (1 << date.isoWeekday) != 0 }
}

/// One employee's own working week from a day on (part time); nil `week` goes back to the company's.
public struct WorkingWeekChange: Sendable, Equatable {
    public var employeeID: Int64
    public var startsOn: CalendarDate
    public var week: WorkingWeek?
    public var setBy: String
    public var setAt: Date

    public init(employeeID: Int64, startsOn: CalendarDate, week: WorkingWeek?, setBy: String, setAt: Date) {
        self.employeeID = employeeID
        self.startsOn = startsOn
        self.week = week
        self.setBy = setBy
        self.setAt = setAt
    }
}

/// The working week on each day for one employee: the company's, but from each change on, the change's.
public struct WorkingSchedule: Sendable, Equatable {
    public let company: WorkingWeek
    /// By `startsOn`, ascending.
    public let changes: [WorkingWeekChange]

    public init(company: WorkingWeek, changes: [WorkingWeekChange] = []) {
        self.company = company
        self.changes = changes.sorted { $0.startsOn < $1.startsOn }
    }

    public func week(on date: CalendarDate) -> WorkingWeek {
        guard let change = changes.last(where: { $0.startsOn <= date }) else { return company }
        return change.week ?? company
    }

    /// "Mon,Tue,Wed,Thu,Fri", or each week with the day it starts when it changes within `start...end`.
    public func description(from start: CalendarDate, to end: CalendarDate) -> String {
        let within = changes.filter { $0.startsOn > start && $0.startsOn <= end }
        return ([week(on: start).description] + within.map { "\(($0.week ?? company).description) from \($0.startsOn)" })
            .joined(separator: "; ")
    }
}

/// Counts the working days of a date range: days of the employee's working week on each day that are not public
/// holidays, split by calendar year so that a request across 31 December draws on each year's allowance.
public struct WorkingDayCounter: Sendable {
    public let schedule: WorkingSchedule
    public let publicHolidays: Set<CalendarDate>

    public init(schedule: WorkingSchedule, publicHolidays: Set<CalendarDate>) {
        self.schedule = schedule
        self.publicHolidays = publicHolidays
    }

    /// The company's week, for everyone alike.
    public init(week: WorkingWeek, publicHolidays: Set<CalendarDate>) {
        self.init(schedule: WorkingSchedule(company: week), publicHolidays: publicHolidays)
    }

    /// A day of the working week on that day that is not a public holiday.
    public func isWorkingDay(_ date: CalendarDate) -> Bool {
        schedule.week(on: date).isWorkingDay(date) && !publicHolidays.contains(date)
    }

    /// Working half days per year in `period` (both ends included, a half-day start or end counted as one
    /// half). Years with no working half day are absent.
    public func halvesByYear(in period: LeavePeriod) -> [Int: HalfDays] {
        var result: [Int: HalfDays] = [:]
        var dayNumber = period.start.dayNumber
        let last = period.end.dayNumber
        while dayNumber <= last {
            if let date = CalendarDate(dayNumber: dayNumber), isWorkingDay(date) {
                result[date.year, default: .zero] += HalfDays(halves: period.halves(on: date))
            }
            dayNumber += 1
        }
        return result.filter { $0.value.halves > 0 }
    }
}
