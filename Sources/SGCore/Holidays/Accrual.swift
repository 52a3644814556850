import Foundation

/// How a year's allowance is earned: all at once (`year`, the default), or in monthly or quarterly steps credited at
/// the start or the end of each period, with how much of what is not yet earned an employee may already request.
/// The company has one plan; an employee may have their own.
public struct AccrualPlan: Sendable, Equatable, CustomStringConvertible {
    public enum Period: String, Sendable, CaseIterable {
        case year, quarter, month

        var months: Int {
            switch self {
            case .year: 12
            case .quarter: 3
            case .month: 1
            }
        }
    }

    public enum Credited: String, Sendable, CaseIterable {
        case start, end
    }

    /// How much of the year's allowance not yet earned may be requested ahead.
    public enum Advance: Sendable, Equatable {
        case none
        case days(Int)
        case year
    }

    public var period: Period
    public var credited: Credited
    public var advance: Advance

    public static let advanceDays = 1...HolidayService.maximumAllowance

    /// Nil for an advance of days out of `advanceDays`. The yearly plan credits everything on its first day, so it
    /// has no advance.
    public init?(period: Period, credited: Credited = .start, advance: Advance = .none) {
        if case .days(let days) = advance, !Self.advanceDays.contains(days) { return nil }
        self.period = period
        self.credited = credited
        self.advance = period == .year && credited == .start ? .none : advance
    }

    /// The whole allowance on the first day of the year (or of the employment): what a company without a plan has.
    public static let yearly = AccrualPlan(period: .year)!

    public var isYearly: Bool { period == .year && credited == .start }

    /// "year", "month:start:none", "quarter:end:5", "month:start:year": as stored and as sgadmin takes it.
    public var code: String {
        if isYearly { return "year" }
        let ahead = switch advance {
        case .none: "none"
        case .days(let days): String(days)
        case .year: "year"
        }
        return "\(period.rawValue):\(credited.rawValue):\(ahead)"
    }

    public var description: String { code }

    /// Reads `code`'s form; nil for anything else.
    public init?(code: String) {
        let parts = code.trimmingCharacters(in: .whitespaces).split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        if parts == ["year"] {
            self = .yearly
            return
        }
        guard parts.count == 3, let plan = try? Self.parse(period: parts[0], credited: parts[1], advance: parts[2], field: "") else { return nil }
        self = plan
    }

    /// The day each period of `year` that overlaps `employment` is credited: its first or its last day employed.
    public func creditDays(in year: Int, employment: Employment) -> [CalendarDate] {
        var days: [CalendarDate] = []
        for firstMonth in stride(from: 1, through: 12, by: period.months) {
            let lastMonth = firstMonth + period.months - 1
            let start = CalendarDate(year: year, month: firstMonth, day: 1)!
            let end = CalendarDate(year: year, month: lastMonth, day: CalendarDate.daysInMonth(year: year, month: lastMonth))!
            let from = max(start, employment.start ?? start), to = min(end, employment.end ?? end)
            guard from <= to else { continue }
            days.append(credited == .start ? from : to)
        }
        return days
    }

    /// What of `total` (the year's allowance) is earned on `day`: an equal share for each period credited by then,
    /// rounded down to half days, so that the last credit makes up the total exactly.
    public func earned(of total: HalfDays, in year: Int, employment: Employment, on day: CalendarDate) -> HalfDays {
        let credits = creditDays(in: year, employment: employment)
        guard !credits.isEmpty, total > .zero else { return total }
        let credited = credits.filter { $0 <= day }.count
        return HalfDays(halves: total.halves * credited / credits.count)
    }

    /// What of `total` may not yet be requested on `day`: the part not earned beyond the advance.
    public func withheld(of total: HalfDays, in year: Int, employment: Employment, on day: CalendarDate) -> HalfDays {
        withheld(notEarned: total - earned(of: total, in: year, employment: employment, on: day))
    }

    func withheld(notEarned: HalfDays) -> HalfDays {
        switch advance {
        case .none: notEarned
        case .days(let days): max(.zero, notEarned - .days(days))
        case .year: .zero
        }
    }

    /// The balance with what is earned of its allowance on `today` and what may not yet be requested.
    public func apply(to balance: Balance, employment: Employment, on today: CalendarDate) -> Balance {
        guard !isYearly else { return balance }
        var balance = balance
        let earned = earned(of: balance.allowance, in: balance.year, employment: employment, on: today)
        balance.accrual = AccrualState(plan: self, earned: earned, withheld: withheld(notEarned: balance.allowance - earned))
        return balance
    }

    /// The first day after `today` from which `balance` would leave `needed` half days requestable, once the
    /// credits then earned are counted; nil when no later credit of its year does.
    public func firstDay(
        fitting needed: HalfDays, in balance: Balance, employment: Employment, after today: CalendarDate
    ) -> CalendarDate? {
        creditDays(in: balance.year, employment: employment).first { day in
            day > today && balance.remaining - withheld(of: balance.allowance, in: balance.year, employment: employment, on: day) >= needed
        }
    }
}

/// What a balance's accrual plan has credited of its allowance as of the balance's day.
public struct AccrualState: Sendable, Equatable {
    public var plan: AccrualPlan
    /// Earned of the allowance to date.
    public var earned: HalfDays
    /// Of the allowance not yet earned, what may not be requested yet (beyond the plan's advance).
    public var withheld: HalfDays

    public init(plan: AccrualPlan, earned: HalfDays, withheld: HalfDays) {
        self.plan = plan
        self.earned = earned
        self.withheld = withheld
    }
}

extension AccrualPlan {
    /// A plan from its parts as a client names them, `advance` being "none", "year" or a number of days; a 422
    /// naming the part under `field` (`accrual.period`) for anything else.
    public static func parse(period: String, credited: String?, advance: String?, field: String) throws -> AccrualPlan {
        guard let period = Period(rawValue: period) else {
            throw SGError.invalid(field: field + ".period", message: "period '\(period)' is not one of year, quarter, month")
        }
        guard let credited = Credited(rawValue: credited ?? "start") else {
            throw SGError.invalid(field: field + ".credited", message: "credited '\(credited ?? "")' is not one of start, end")
        }
        let ahead: Advance
        switch advance ?? "none" {
        case "none": ahead = .none
        case "year": ahead = .year
        case let text:
            guard text.allSatisfy({ $0.isASCII && $0.isNumber }), let days = Int(text), Self.advanceDays.contains(days) else {
                throw SGError.invalid(
                    field: field + ".advance",
                    message: "advance '\(text)' is not none, year or a number of days from 1 to \(Self.advanceDays.upperBound)")
            }
            ahead = .days(days)
        }
        return AccrualPlan(period: period, credited: credited, advance: ahead)!
    }

    /// Reads `code`'s form, or a 422 naming `field` that says what the form is.
    public static func parse(code: String, field: String) throws -> AccrualPlan {
        guard let plan = AccrualPlan(code: code) else {
            throw SGError.invalid(
                field: field,
                message: "'\(code)' is not a plan: year, or period:credited:advance such as month:start:none, quarter:end:5 or month:start:year")
        }
        return plan
    }
}
