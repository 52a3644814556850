import Foundation

/// The current instant, injected so that rules about "today" can be tested without waiting for a date.
public protocol NowProvider: Sendable {
    func now() -> Date
}

public struct SystemClock: NowProvider {
    public init() {}
    public func now() -> Date { Date() }
}

/// A clock that stays where a test puts it.
public final class FixedClock: NowProvider, @unchecked Sendable {
    private let lock = NSLock()
    private var instant: Date

    public init(_ instant: Date) { self.instant = instant }

    /// Noon UTC of `date`, so the day is the same in every time zone within ±11 hours.
    public convenience init(today date: CalendarDate) {
        self.init(Date(timeIntervalSince1970: Double(date.dayNumber) * 86_400 + 43_200))
    }

    public func now() -> Date { lock.withLock { instant } }
    public func set(_ instant: Date) { lock.withLock { self.instant = instant } }
}

extension CalendarDate {
    /// Whether this is the date of `instant` in `timeZone`.
    public func isToday(at instant: Date, in timeZone: TimeZone) -> Bool {
        CalendarDate(instant, in: timeZone) == self
    }

    /// The instant this date begins in `timeZone` (taken at the zone's offset at that midnight).
    public func start(in timeZone: TimeZone) -> Date {
        let midnightUTC = Date(timeIntervalSince1970: Double(dayNumber) * 86_400)
        return midnightUTC.addingTimeInterval(-Double(timeZone.secondsFromGMT(for: midnightUTC)))
    }

    /// The calendar date of `instant` in `timeZone`: where holidays meet instants.
    public init(_ instant: Date, in timeZone: TimeZone) {
        // The local date is the day of the instant shifted by the zone's offset at that instant.
        let seconds = Int(instant.timeIntervalSince1970.rounded(.down)) + timeZone.secondsFromGMT(for: instant)
        let (days, remainder) = seconds.quotientAndRemainder(dividingBy: 86_400)
        // Dates outside years 1...9999 are clamped; no instant the server meets is near them.
        self = CalendarDate(dayNumber: remainder < 0 ? days - 1 : days)
            ?? (seconds < 0 ? CalendarDate(year: 1, month: 1, day: 1)! : CalendarDate(year: 9999, month: 12, day: 31)!)
    }
}
