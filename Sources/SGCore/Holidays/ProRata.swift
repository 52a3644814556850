import Foundation

/// How the company's yearly allowance follows each employee's contract: pro-rated for a year they are not employed
/// whole (they join or leave in it), and by their working week against the company's (part time), period by period
/// when the week changes in the year. An allowance an admin sets for an employee-year is taken as it is.
public struct ProRataPolicy: Sendable, Equatable {
    public enum Method: String, Sendable, CaseIterable {
        /// Everyone gets the whole allowance.
        case off
        /// By the days of the year employed (of 365, or 366).
        case calendarDays = "calendar-days"
        /// By the calendar months employed from their first to their last day, in twelfths; each such month counts
        /// with the working week in force on its first day.
        case wholeMonths = "whole-months"
    }

    /// How the pro-rated figure becomes half days.
    public enum Rounding: String, Sendable, CaseIterable {
        case up, down
        /// To the nearest half day; a quarter goes up.
        case nearest
    }

    public var method: Method
    public var rounding: Rounding

    public init(method: Method = .off, rounding: Rounding = .nearest) {
        self.method = method
        self.rounding = rounding
    }

    public static let off = ProRataPolicy()
}

/// A year's allowance as granted to one employee, and how it was made when it is not the whole figure.
public struct AllowanceGrant: Sendable, Equatable {
    public var days: HalfDays
    /// "23 × 4/12 = 7.67 → 7.5": the whole allowance, the shares of the year employed (each with its working week
    /// against the company's, "× 4/5", when they differ), the exact result and the rounded one; nil for the whole
    /// allowance.
    public var formula: String?

    public init(days: HalfDays, formula: String? = nil) {
        self.days = days
        self.formula = formula
    }
}

/// Extra days for years of service, counted from the employment's start: the highest tier whose years are complete.
/// From the year in which they are complete (`year`), or from the anniversary itself, the year's allowance then
/// counting each part of the year with its tier (`anniversary`).
public struct SeniorityPolicy: Sendable, Equatable {
    public struct Tier: Sendable, Equatable {
        public var years: Int
        public var days: Int

        public init(years: Int, days: Int) {
            self.years = years
            self.days = days
        }
    }

    public enum From: String, Sendable, CaseIterable {
        case year, anniversary
    }

    /// By years, ascending, no two alike.
    public private(set) var tiers: [Tier]
    public var from: From

    public static let yearRange = 1...60
    public static let dayRange = 1...HolidayService.maximumAllowance
    public static let maximumTiers = 10

    /// Nil for tiers that repeat a number of years, or are out of range or too many.
    public init?(tiers: [Tier] = [], from: From = .year) {
        let sorted = tiers.sorted { $0.years < $1.years }
        guard sorted.count <= Self.maximumTiers, Set(sorted.map(\.years)).count == sorted.count,
              sorted.allSatisfy({ Self.yearRange.contains($0.years) && Self.dayRange.contains($0.days) })
        else { return nil }
        self.tiers = sorted
        self.from = from
    }

    public static let none = SeniorityPolicy()!

    /// "5:1,10:2" (years:days), as stored and as sgadmin takes it; "" for none.
    public var code: String { tiers.map { "\($0.years):\($0.days)" }.joined(separator: ",") }

    /// Reads `code`'s form (spaces allowed around each tier); nil for anything else.
    public static func tiers(code: String) -> [Tier]? {
        let text = code.trimmingCharacters(in: .whitespaces)
        if text.isEmpty { return [] }
        var tiers: [Tier] = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let pair = item.split(separator: ":", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2, pair.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
                  let years = Int(pair[0]), let days = Int(pair[1])
            else { return nil }
            tiers.append(Tier(years: years, days: days))
        }
        return tiers
    }

    /// The extra days of an employee with `years` complete years of service.
    public func extraDays(years: Int) -> Int {
        tiers.last { $0.years <= years }?.days ?? 0
    }

    /// Complete years of service on `day` for an employment that started on `start`.
    static func completedYears(since start: CalendarDate, on day: CalendarDate) -> Int {
        day.year - start.year - ((day.month, day.day) < (start.month, start.day) ? 1 : 0)
    }
}

public enum ProRata {
    /// The allowance of `year` for an employee employed over `employment` on `schedule`'s working weeks, out of the
    /// company's `whole` allowance and the seniority tiers reached.
    public static func grant(
        of whole: Int, year: Int, employment: Employment, schedule: WorkingSchedule, policy: ProRataPolicy,
        seniority: SeniorityPolicy = .none
    ) -> AllowanceGrant {
        let companyDays = schedule.company.weekdays.count
        guard companyDays > 0, let first = CalendarDate.firstOfYear(year), let last = CalendarDate.lastOfYear(year)
        else { return AllowanceGrant(days: .days(whole)) }
        /// A whole year on the company's week: the allowance and its seniority, said only when there is some.
        func wholeYear(_ bonus: Int) -> AllowanceGrant {
            AllowanceGrant(days: .days(whole + bonus), formula: bonus == 0 ? nil : "\(whole) + \(bonus) = \(whole + bonus)")
        }
        let extra: (CalendarDate) -> Int = { day in
            guard let start = employment.start, !seniority.tiers.isEmpty else { return 0 }
            return seniority.extraDays(
                years: seniority.from == .year ? day.year - start.year : SeniorityPolicy.completedYears(since: start, on: day))
        }
        // Where a tier starts within the year (anniversary): the part of the year before it keeps the tier before.
        var anniversaries: [CalendarDate] = []
        if seniority.from == .anniversary, let start = employment.start, !seniority.tiers.isEmpty {
            let day = CalendarDate(year: year, month: start.month, day: min(start.day, CalendarDate.daysInMonth(year: year, month: start.month)))!
            if day > first, extra(day) != extra(first) { anniversaries = [day] }
        }
        let parts: [Part]
        let denominator: Int
        switch policy.method {
        case .off where anniversaries.isEmpty:
            return wholeYear(extra(last))
        case .off:
            // No pro rata: the whole year on the company's week, split where a tier starts.
            denominator = first.days(to: last) + 1
            parts = periods(from: first, to: last, splits: anniversaries) { day in (companyDays, extra(day)) }
        case .calendarDays:
            denominator = first.days(to: last) + 1
            let from = max(first, employment.start ?? first), to = min(last, employment.end ?? last)
            parts = from > to ? [] : periods(from: from, to: to, splits: schedule.changes.map(\.startsOn) + anniversaries) { day in
                (schedule.week(on: day).weekdays.count, extra(day))
            }
        case .wholeMonths:
            denominator = 12
            let from = max(first, employment.start ?? first), to = min(last, employment.end ?? last)
            parts = months(of: year, from: from, to: to) { day in (schedule.week(on: day).weekdays.count, extra(day)) }
        }
        if parts.count == 1, parts[0].share == denominator, parts[0].weekDays == companyDays {
            return wholeYear(parts[0].extra)
        }
        // halves = 2 × Σ(share × weekDays × (whole + extra)) / (denominator × companyDays), rounded in integers.
        let weighted = parts.reduce(0) { $0 + $1.share * $1.weekDays * (whole + $1.extra) }
        let numerator = 2 * weighted, divisor = denominator * companyDays
        let halves = switch policy.rounding {
        case .down: numerator / divisor
        case .up: (numerator + divisor - 1) / divisor
        case .nearest: (2 * numerator + divisor) / (2 * divisor)
        }
        func allowance(_ extra: Int) -> String { extra == 0 ? "\(whole)" : "(\(whole) + \(extra))" }
        func share(_ part: Part) -> String {
            "\(part.share)/\(denominator)" + (part.weekDays == companyDays ? "" : " × \(part.weekDays)/\(companyDays)")
        }
        let sum: String
        if Set(parts.map(\.extra)).count > 1 {
            sum = parts.map { "\(allowance($0.extra)) × \(share($0))" }.joined(separator: " + ")
        } else {
            let terms = parts.map(share)
            let shares = terms.isEmpty ? "0/\(denominator)" : terms.count == 1 ? terms[0] : "(" + terms.joined(separator: " + ") + ")"
            sum = "\(allowance(parts.first?.extra ?? 0)) × \(shares)"
        }
        let exact = Double(weighted) / Double(divisor)
        let granted = HalfDays(halves: halves)
        let shown = twoDecimals(exact)
        let result = shown == "\(granted)" ? shown : "\(shown) → \(granted)"
        return AllowanceGrant(days: granted, formula: "\(sum) = \(result)")
    }

    /// A share of the year (days or months) worked on a week of `weekDays` days, with `extra` days of seniority.
    struct Part: Equatable {
        var share: Int
        var weekDays: Int
        var extra: Int
    }

    /// The days of `from...to`, split at `splits` (days where the week or the tier may change); neighbours alike merged.
    static func periods(
        from: CalendarDate, to: CalendarDate, splits: [CalendarDate], on: (CalendarDate) -> (weekDays: Int, extra: Int)
    ) -> [Part] {
        var parts: [Part] = []
        var cursor = from
        let starts = Set(splits.filter { $0 > from && $0 <= to }).sorted() + [to.adding(days: 1)!]
        for next in starts where next > cursor {
            let (weekDays, extra) = on(cursor)
            append(Part(share: cursor.days(to: next), weekDays: weekDays, extra: extra), to: &parts)
            cursor = next
        }
        return parts
    }

    /// The months of `year` employed from their first to their last day, each as on its first day.
    static func months(of year: Int, from: CalendarDate, to: CalendarDate, on: (CalendarDate) -> (weekDays: Int, extra: Int)) -> [Part] {
        var parts: [Part] = []
        for month in 1...12 {
            let start = CalendarDate(year: year, month: month, day: 1)!
            let end = CalendarDate(year: year, month: month, day: CalendarDate.daysInMonth(year: year, month: month))!
            guard start >= from, end <= to else { continue }
            let (weekDays, extra) = on(start)
            append(Part(share: 1, weekDays: weekDays, extra: extra), to: &parts)
        }
        return parts
    }

    private static func append(_ part: Part, to parts: inout [Part]) {
        if let lastIndex = parts.indices.last, parts[lastIndex].weekDays == part.weekDays, parts[lastIndex].extra == part.extra {
            parts[lastIndex].share += part.share
        } else {
            parts.append(part)
        }
    }

    /// 7.666… as "7.67", 12.5 as "12.5".
    private static func twoDecimals(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        let whole = hundredths / 100, rest = hundredths % 100
        if rest == 0 { return "\(whole)" }
        return rest % 10 == 0 ? "\(whole).\(rest / 10)" : "\(whole).\(rest < 10 ? "0" : "")\(rest)"
    }
}
