import Foundation

/// Who performs an operation: an employee through the API, or an operator of `sgadmin`.
public struct Actor: Sendable, Equatable {
    /// The employee acting, or nil for a server operator who is not an employee.
    public let employeeID: Int64?
    /// Recorded in the history: the employee's username, or the operator's name.
    public let name: String
    public let isAdmin: Bool

    public init(employeeID: Int64?, name: String, isAdmin: Bool) {
        self.employeeID = employeeID
        self.name = name
        self.isAdmin = isAdmin
    }
}

public struct Employee: Sendable, Equatable {
    public var id: Int64
    public var username: String
    public var name: String
    public var surname: String
    public var email: String
    public var isAdmin: Bool
    public var isActive: Bool

    public init(id: Int64, username: String, name: String, surname: String, email: String, isAdmin: Bool, isActive: Bool) {
        self.id = id
        self.username = username
        self.name = name
        self.surname = surname
        self.email = email
        self.isAdmin = isAdmin
        self.isActive = isActive
    }

    public var fullName: String { "\(name) \(surname)" }

    public var actor: Actor { Actor(employeeID: id, name: username, isAdmin: isAdmin) }
}

public struct CompanySettings: Sendable, Equatable {
    public var name: String
    public var workingWeek: WorkingWeek
    public var defaultAllowance: Int
    public var timeZoneIdentifier: String {
        didSet { timeZone = TimeZone(identifier: timeZoneIdentifier) ?? .gmt }
    }
    /// The zone of `timeZoneIdentifier` (UTC if the identifier is unknown), made once rather than at each "today".
    public private(set) var timeZone: TimeZone

    public init(name: String, workingWeek: WorkingWeek, defaultAllowance: Int, timeZoneIdentifier: String) {
        self.name = name
        self.workingWeek = workingWeek
        self.defaultAllowance = defaultAllowance
        self.timeZoneIdentifier = timeZoneIdentifier
        self.timeZone = TimeZone(identifier: timeZoneIdentifier) ?? .gmt
    }
}

public struct HolidayRequest: Sendable, Equatable {
    public var id: Int64
    public var employeeID: Int64
    public var startDate: CalendarDate
    public var endDate: CalendarDate
    public var workingDays: Int
    public var status: HolidayStatus
    public var comment: String
    public var createdAt: Date
    public var updatedAt: Date
    public var decidedBy: String?
    public var decidedAt: Date?

    public init(
        id: Int64, employeeID: Int64, startDate: CalendarDate, endDate: CalendarDate, workingDays: Int,
        status: HolidayStatus, comment: String, createdAt: Date, updatedAt: Date, decidedBy: String?, decidedAt: Date?
    ) {
        self.id = id
        self.employeeID = employeeID
        self.startDate = startDate
        self.endDate = endDate
        self.workingDays = workingDays
        self.status = status
        self.comment = comment
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.decidedBy = decidedBy
        self.decidedAt = decidedAt
    }
}

/// One transition in a request's history. `from` is nil for the creation of the request.
public struct HolidayEvent: Sendable, Equatable {
    public var id: Int64
    public var requestID: Int64
    public var from: HolidayStatus?
    public var to: HolidayStatus
    public var actor: String
    public var actorEmployeeID: Int64?
    public var at: Date
    public var note: String

    public init(id: Int64, requestID: Int64, from: HolidayStatus?, to: HolidayStatus, actor: String, actorEmployeeID: Int64?, at: Date, note: String) {
        self.id = id
        self.requestID = requestID
        self.from = from
        self.to = to
        self.actor = actor
        self.actorEmployeeID = actorEmployeeID
        self.at = at
        self.note = note
    }
}

public struct Balance: Sendable, Equatable {
    public var year: Int
    public var allowance: Int
    public var approved: Int
    public var pending: Int
    public var remaining: Int { allowance - approved - pending }

    public init(year: Int, allowance: Int, approved: Int, pending: Int) {
        self.year = year
        self.allowance = allowance
        self.approved = approved
        self.pending = pending
    }
}

public struct PublicHoliday: Sendable, Equatable {
    public var date: CalendarDate
    public var name: String

    public static let maximumNameLength = 100

    public init(date: CalendarDate, name: String) {
        self.date = date
        self.name = name
    }
}
