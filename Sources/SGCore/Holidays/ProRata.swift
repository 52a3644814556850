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

public enum ProRata {
    /// The allowance of `year` for an employee employed over `employment` on `schedule`'s working weeks, out of the
    /// company's `whole` allowance.
    public static func grant(
        of whole: Int, year: Int, employment: Employment, schedule: WorkingSchedule, policy: ProRataPolicy
    ) -> AllowanceGrant {
        let companyDays = schedule.company.weekdays.count
        guard policy.method != .off, companyDays > 0,
              let first = CalendarDate.firstOfYear(year), let last = CalendarDate.lastOfYear(year)
        else { return AllowanceGrant(days: .days(whole)) }
        let from = max(first, employment.start ?? first), to = min(last, employment.end ?? last)
        let parts: [Part]
        let denominator: Int
        switch policy.method {
        case .off:
            return AllowanceGrant(days: .days(whole))
        case .calendarDays:
            denominator = first.days(to: last) + 1
            parts = from > to ? [] : periods(from: from, to: to, schedule: schedule)
        case .wholeMonths:
            denominator = 12
            parts = months(of: year, from: from, to: to, schedule: schedule)
        }
        if parts.count == 1, parts[0].share == denominator, parts[0].weekDays == companyDays {
            return AllowanceGrant(days: .days(whole))
        }
        // halves = 2 × whole × Σ(share × weekDays) / (denominator × companyDays), rounded in integers.
        let weighted = parts.reduce(0) { $0 + $1.share * $1.weekDays }
        let numerator = 2 * whole * weighted, divisor = denominator * companyDays
        let halves = switch policy.rounding {
        case .down: numerator / divisor
        case .up: (numerator + divisor - 1) / divisor
        case .nearest: (2 * numerator + divisor) / (2 * divisor)
        }
        let terms = parts.map { part in
            "\(part.share)/\(denominator)" + (part.weekDays == companyDays ? "" : " × \(part.weekDays)/\(companyDays)")
        }
        let shares = terms.isEmpty ? "0/\(denominator)" : terms.count == 1 ? terms[0] : "(" + terms.joined(separator: " + ") + ")"
        let exact = Double(whole * weighted) / Double(divisor)
        let granted = HalfDays(halves: halves)
        let result = abs(exact - granted.days) < 0.000_001 ? "\(granted)" : "\(twoDecimals(exact)) → \(granted)"
        return AllowanceGrant(days: granted, formula: "\(whole) × \(shares) = \(result)")
    }

    /// A share of the year (days or months) worked on a week of `weekDays` days.
    struct Part: Equatable {
        var share: Int
        var weekDays: Int
    }

    /// The days of `from...to`, split where the working week changes; neighbours with weeks of as many days merged.
    static func periods(from: CalendarDate, to: CalendarDate, schedule: WorkingSchedule) -> [Part] {
        var parts: [Part] = []
        var cursor = from
        let starts = schedule.changes.map(\.startsOn).filter { $0 > from && $0 <= to } + [to.adding(days: 1)!]
        for next in starts where next > cursor {
            append(Part(share: cursor.days(to: next), weekDays: schedule.week(on: cursor).weekdays.count), to: &parts)
            cursor = next
        }
        return parts
    }

    /// The months of `year` employed from their first to their last day, each with the week of its first day.
    static func months(of year: Int, from: CalendarDate, to: CalendarDate, schedule: WorkingSchedule) -> [Part] {
        var parts: [Part] = []
        for month in 1...12 {
            let start = CalendarDate(year: year, month: month, day: 1)!
            let end = CalendarDate(year: year, month: month, day: CalendarDate.daysInMonth(year: year, month: month))!
            guard start >= from, end <= to else { continue }
            append(Part(share: 1, weekDays: schedule.week(on: start).weekdays.count), to: &parts)
        }
        return parts
    }

    private static func append(_ part: Part, to parts: inout [Part]) {
        if let lastIndex = parts.indices.last, parts[lastIndex].weekDays == part.weekDays {
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
