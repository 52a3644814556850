import Foundation

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
