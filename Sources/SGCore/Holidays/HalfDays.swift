/// A length of leave counted in half days, exactly: durations, balances and adjustments are whole numbers of
/// halves, shown as days in 0.5 steps ("1.5"). No floating point anywhere, so sums never drift.
public struct HalfDays: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var halves: Int

    public init(halves: Int) { self.halves = halves }

    public static func days(_ days: Int) -> HalfDays { HalfDays(halves: 2 * days) }

    public static let zero = HalfDays(halves: 0)

    /// Days as a number, for JSON: whole days as integers, halves as x.5 (both exact in binary).
    public var days: Double { Double(halves) / 2 }

    /// "3", "2.5", "-0.5".
    public var description: String {
        let sign = halves < 0 ? "-" : ""
        let magnitude = halves.magnitude
        return sign + String(magnitude / 2) + (magnitude % 2 == 1 ? ".5" : "")
    }

    /// "3 days", "0.5 days", "1 day".
    public var inWords: String { halves == 2 ? "1 day" : "\(self) days" }

    /// "3 working days", "0.5 working days", "1 working day".
    public var inWorkingDays: String { halves == 2 ? "1 working day" : "\(self) working days" }

    /// Parses days in 0.5 steps as people write them: "3", "+2", "-1.5", "0.5". Anything else is nil.
    public init?(days text: String) {
        var rest = Substring(text)
        var negative = false
        if let first = rest.first, first == "+" || first == "-" {
            negative = first == "-"
            rest = rest.dropFirst()
        }
        var half = 0
        if rest.hasSuffix(".5") {
            half = 1
            rest = rest.dropLast(2)
        } else if rest.hasSuffix(".0") {
            rest = rest.dropLast(2)
        }
        guard !rest.isEmpty, rest.count <= 6, rest.allSatisfy({ $0.isASCII && $0.isNumber }), let whole = Int(rest) else { return nil }
        self.halves = (negative ? -1 : 1) * (2 * whole + half)
    }

    /// A number of days from JSON: a multiple of 0.5 (within `limit` days either way), else nil.
    public init?(days value: Double, limit: Int = 100_000) {
        let doubled = value * 2
        guard doubled.isFinite, doubled == doubled.rounded(), abs(doubled) <= Double(2 * limit) else { return nil }
        self.halves = Int(doubled)
    }

    public static func < (lhs: HalfDays, rhs: HalfDays) -> Bool { lhs.halves < rhs.halves }
    public static func + (lhs: HalfDays, rhs: HalfDays) -> HalfDays { HalfDays(halves: lhs.halves + rhs.halves) }
    public static func - (lhs: HalfDays, rhs: HalfDays) -> HalfDays { HalfDays(halves: lhs.halves - rhs.halves) }
    public static func += (lhs: inout HalfDays, rhs: HalfDays) { lhs.halves += rhs.halves }
    public static func -= (lhs: inout HalfDays, rhs: HalfDays) { lhs.halves -= rhs.halves }
    public static prefix func - (value: HalfDays) -> HalfDays { HalfDays(halves: -value.halves) }
}

/// The half of a day a request starts or ends in.
public enum DayHalf: String, Sendable, CaseIterable, Codable {
    case morning, afternoon

    public static func parse(_ text: String, field: String) throws -> DayHalf {
        guard let half = DayHalf(rawValue: text) else {
            throw SGError.invalid(field: field, message: "'\(text)' is not one of morning, afternoon")
        }
        return half
    }
}

/// The days a request covers: from the start date's `startHalf` to the end date's `endHalf`, both included.
/// A whole-day request runs from a morning to an afternoon; it may start with an afternoon and end with a
/// morning, and a one-day request may be a morning (morning to morning) or an afternoon (afternoon to afternoon).
public struct LeavePeriod: Hashable, Sendable, CustomStringConvertible {
    public let start: CalendarDate
    public let end: CalendarDate
    public let startHalf: DayHalf
    public let endHalf: DayHalf

    /// Checks the order of the dates and halves; `maximumSpanDays` bounds the calendar days covered.
    public init(start: CalendarDate, end: CalendarDate, startHalf: DayHalf = .morning, endHalf: DayHalf = .afternoon) throws {
        guard start <= end else {
            throw SGError.invalid(field: "endDate", message: "the end date \(end) is before the start date \(start)")
        }
        if start == end && startHalf == .afternoon && endHalf == .morning {
            throw SGError.invalid(
                field: "endHalf",
                message: "a one-day request is a morning (startHalf and endHalf morning), an afternoon (both afternoon) or the whole day")
        }
        self.init(unchecked: start, end: end, startHalf: startHalf, endHalf: endHalf)
    }

    /// For rows the store has already checked.
    public init(unchecked start: CalendarDate, end: CalendarDate, startHalf: DayHalf, endHalf: DayHalf) {
        self.start = start
        self.end = end
        self.startHalf = startHalf
        self.endHalf = endHalf
    }

    /// Half-day slots on one line: a day's morning is `2 × dayNumber`, its afternoon the next slot.
    public var firstSlot: Int { 2 * start.dayNumber + (startHalf == .afternoon ? 1 : 0) }
    public var lastSlot: Int { 2 * end.dayNumber + (endHalf == .morning ? 0 : 1) }

    /// Whether the two share a half day: a morning and an afternoon of the same day do not.
    public func overlaps(_ other: LeavePeriod) -> Bool {
        firstSlot <= other.lastSlot && other.firstSlot <= lastSlot
    }

    /// The halves of `date` this period covers: 0, 1 or 2.
    public func halves(on date: CalendarDate) -> Int {
        guard start <= date && date <= end else { return 0 }
        var halves = 2
        if date == start && startHalf == .afternoon { halves -= 1 }
        if date == end && endHalf == .morning { halves -= 1 }
        return halves
    }

    public var isWholeDays: Bool { startHalf == .morning && endHalf == .afternoon }

    /// "2026-08-10", "2026-08-10 (morning)", "2026-08-10 (afternoon) to 2026-08-12 (morning)".
    public var description: String {
        if start == end {
            if startHalf == endHalf { return "\(start) (\(startHalf.rawValue))" }
            return start.description
        }
        let from = startHalf == .afternoon ? "\(start) (afternoon)" : start.description
        let to = endHalf == .morning ? "\(end) (morning)" : end.description
        return "\(from) to \(to)"
    }
}
