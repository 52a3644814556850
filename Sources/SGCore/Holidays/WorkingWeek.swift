/// The company's working days of the week, as ISO weekdays (1 = Monday ... 7 = Sunday).
public struct WorkingWeek: Hashable, Sendable, CustomStringConvertible {
    public let weekdays: Set<Int>

    public static let mondayToFriday = WorkingWeek(unchecked: [1, 2, 3, 4, 5])

    private init(unchecked weekdays: Set<Int>) { self.weekdays = weekdays }

    /// At least one day, each 1...7.
    public init?(weekdays: Set<Int>) {
        guard !weekdays.isEmpty, weekdays.allSatisfy({ (1...7).contains($0) }) else { return nil }
        self.weekdays = weekdays
    }

    /// Parses the stored form, e.g. "12345".
    public init?(code: String) {
        var days = Set<Int>()
        for character in code {
            guard let value = character.wholeNumberValue, (1...7).contains(value), character.isASCII else { return nil }
            days.insert(value)
        }
        self.init(weekdays: days)
    }

    /// The stored form, e.g. "12345".
    public var code: String { weekdays.sorted().map(String.init).joined() }

    public var description: String {
        let names = ["", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
        return weekdays.sorted().map { names[$0] }.joined(separator: ",")
    }

    public func isWorkingDay(_ date: CalendarDate) -> Bool { weekdays.contains(date.isoWeekday) }
}

/// Counts the working days of a date range: days of the working week that are not public holidays,
/// split by calendar year so that a request across 31 December draws on each year's allowance.
public struct WorkingDayCounter: Sendable {
    public let week: WorkingWeek
    public let publicHolidays: Set<CalendarDate>

    public init(week: WorkingWeek, publicHolidays: Set<CalendarDate>) {
        self.week = week
        self.publicHolidays = publicHolidays
    }

    /// A day of the working week that is not a public holiday.
    public func isWorkingDay(_ date: CalendarDate) -> Bool {
        week.isWorkingDay(date) && !publicHolidays.contains(date)
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
