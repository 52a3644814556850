import Foundation

public struct PublicHoliday: Sendable, Equatable {
    public var date: CalendarDate
    public var name: String

    public static let maximumNameLength = 100

    public init(date: CalendarDate, name: String) {
        self.date = date
        self.name = name
    }
}

/// A set of public holidays, such as an office's or a region's. Every employee belongs to one calendar, whose
/// public holidays their requests do not count; new employees start in the first (`defaultID`).
public struct HolidayCalendar: Sendable, Equatable {
    public static let defaultID: Int64 = 1
    public static let maximumNameLength = 60

    public var id: Int64
    public var name: String
    /// The employees (active or not) who belong to it.
    public var employeeCount: Int

    public init(id: Int64, name: String, employeeCount: Int) {
        self.id = id
        self.name = name
        self.employeeCount = employeeCount
    }
}
