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
