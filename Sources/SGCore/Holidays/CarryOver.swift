import Foundation

/// How unused allowance moves into the next year: at most `cap` of a year's remaining days carry into the next,
/// usable until `expiry` (a day of that next year, 31 March by default); what is not used by then expires.
/// A cap of zero turns carry-over off.
public struct CarryOverPolicy: Sendable, Equatable {
    public var cap: HalfDays
    public var expiryMonth: Int
    public var expiryDay: Int

    public static let standard = CarryOverPolicy(cap: .days(5), expiryMonth: 3, expiryDay: 31)!
    public static let caps = HalfDays.zero...HalfDays.days(366)

    public init?(cap: HalfDays, expiryMonth: Int, expiryDay: Int) {
        // 29 February is refused: in most years it is not a day.
        guard Self.caps.contains(cap), let day = CalendarDate(year: 2001, month: expiryMonth, day: expiryDay) else { return nil }
        self.cap = cap
        self.expiryMonth = day.month
        self.expiryDay = day.day
    }

    /// "MM-DD", as stored and as the API and sgadmin write it.
    public var expiryCode: String {
        (expiryMonth < 10 ? "0" : "") + String(expiryMonth) + "-" + (expiryDay < 10 ? "0" : "") + String(expiryDay)
    }

    /// Reads "MM-DD" (e.g. "03-31"); nil for anything else or a day that is not in every year.
    public static func expiry(code: String) -> (month: Int, day: Int)? {
        // "MM-DD", read as bytes: every read of the company's settings parses it.
        let bytes = Array(code.utf8)
        func digit(_ index: Int) -> Int? {
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) ? Int(bytes[index] - UInt8(ascii: "0")) : nil
        }
        guard bytes.count == 5, bytes[2] == UInt8(ascii: "-"), let m1 = digit(0), let m2 = digit(1), let d1 = digit(3),
              let d2 = digit(4), CalendarDate(year: 2001, month: m1 * 10 + m2, day: d1 * 10 + d2) != nil
        else { return nil }
        return (m1 * 10 + m2, d1 * 10 + d2)
    }

    /// The last day carried days may be used in `year`.
    public func expiry(in year: Int) -> CalendarDate {
        CalendarDate(year: year, month: expiryMonth, day: expiryDay)!
    }
}

/// What the store knows of one employee-year, for the balance over the years.
public struct YearRecord: Sendable, Equatable {
    /// The allowance set for the year, or nil for the company default.
    public var override: Int?
    public var adjusted: HalfDays
    /// Held (pending and approved) half days of types drawing on the allowance.
    public var held: HeldDays
    /// The part of `held` on days up to the year's carry-over expiry: carried days are used on those first.
    public var heldByExpiry: HalfDays

    public init(override: Int? = nil, adjusted: HalfDays = .zero, held: HeldDays = HeldDays(), heldByExpiry: HalfDays = .zero) {
        self.override = override
        self.adjusted = adjusted
        self.held = held
        self.heldByExpiry = heldByExpiry
    }
}

/// Balances over consecutive years, each year's unused days carrying into the next. A pure function of the
/// records, so that every reader and every check computes a balance the same way.
public enum BalanceLedger {
    /// The balances of `years` as of `today`, the first of which carries nothing in (the year the employee's record
    /// starts). A year's allowance is the admin's own for it, else what `granted` says (pro rata), else the company
    /// default; years without a record hold nothing. Carried days that requests do not
    /// use by the expiry are `expiring` up to that day and `expired` from the day after: `remaining` is the same.
    public static func balances(
        years: ClosedRange<Int>, records: [Int: YearRecord], defaultAllowance: Int, granted: [Int: AllowanceGrant] = [:],
        policy: CarryOverPolicy, today: CalendarDate
    ) -> [Balance] {
        var balances: [Balance] = []
        balances.reserveCapacity(years.count)
        var previous: Balance?
        for year in years {
            let record = records[year] ?? YearRecord()
            var carried = HalfDays.zero
            if let previous { carried = min(policy.cap, max(.zero, previous.remaining)) }
            let unused = max(.zero, carried - record.heldByExpiry)
            let expiry = policy.expiry(in: year)
            let grant = record.override.map { AllowanceGrant(days: .days($0)) } ?? granted[year] ?? AllowanceGrant(days: .days(defaultAllowance))
            let balance = Balance(
                year: year, allowance: grant.days, allowanceFormula: grant.formula, carriedOver: carried,
                expired: today > expiry ? unused : .zero, expiring: today > expiry ? .zero : unused,
                carryOverExpiresOn: carried > .zero ? expiry : nil, adjusted: record.adjusted,
                approved: record.held.approved, pending: record.held.pending)
            balances.append(balance)
            previous = balance
        }
        return balances
    }
}
