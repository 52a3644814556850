import Foundation

/// When an employee is employed: from `start` (nil: since before the first year on record) through `end` (nil: no
/// end known). No request may hold a day outside it.
public struct Employment: Sendable, Equatable, CustomStringConvertible {
    public var start: CalendarDate?
    public var end: CalendarDate?

    public init(start: CalendarDate? = nil, end: CalendarDate? = nil) {
        self.start = start
        self.end = end
    }

    /// "from 2027-01-04 to 2027-06-30", "from 2027-01-04", "until 2027-06-30", "without dates".
    public var description: String {
        switch (start, end) {
        case let (start?, end?): "from \(start) to \(end)"
        case let (start?, nil): "from \(start)"
        case let (nil, end?): "until \(end)"
        case (nil, nil): "without dates"
        }
    }

    public func contains(_ day: CalendarDate) -> Bool {
        (start.map { day >= $0 } ?? true) && (end.map { day <= $0 } ?? true)
    }
}

/// A change to an employee's employment dates, as an admin sends it.
public struct EmploymentChange: Sendable, Equatable {
    public var start: Change<CalendarDate> = .keep
    public var end: Change<CalendarDate> = .keep

    public init(start: Change<CalendarDate> = .keep, end: Change<CalendarDate> = .keep) {
        self.start = start
        self.end = end
    }

    /// The dates after the change, not yet checked (`EmploymentRules.apply` checks them).
    public func applied(to current: Employment) -> Employment {
        Employment(start: start.applied(to: current.start), end: end.applied(to: current.end))
    }
}

public enum EmploymentRules {
    /// The employment after `change`: the end, when there is one, is not before the start, and no request that
    /// holds days (pending or approved) of the employee in `held` falls outside it.
    public static func apply(
        _ change: EmploymentChange, to current: Employment, username: String, held: [HolidayRequest]
    ) throws -> Employment {
        let updated = change.applied(to: current)
        if let start = updated.start, let end = updated.end, end < start {
            throw SGError.invalid(field: "employmentEnd", message: "\(end) is before the employment's start, \(start)")
        }
        if let outside = held.filter({ $0.status.holdsDays }).first(where: {
            !updated.contains($0.startDate) || !updated.contains($0.endDate)
        }) {
            throw SGError.conflict(
                "\(username) holds request \(outside.id) (\(outside.startDate) to \(outside.endDate), \(outside.status.rawValue)), "
                    + "which would fall outside an employment \(updated): cancel or reject it first.")
        }
        return updated
    }

    /// Refuses a request with a day outside the employee's employment, naming the field that falls outside.
    public static func check(_ period: LeavePeriod, within employment: Employment, username: String) throws {
        if let start = employment.start, period.start < start {
            throw SGError.invalid(field: "startDate", message: "\(period.start) is before \(username)'s employment starts, on \(start)")
        }
        if let end = employment.end, period.end > end {
            throw SGError.invalid(field: "endDate", message: "\(period.end) is after \(username)'s employment ends, on \(end)")
        }
    }
}
