import Foundation

/// A team: its members (an employee is in one team at a time) and its approvers, who decide the members' requests
/// (`Approval`). Approvers need not be members. With `twoStage`, an approver's approval is the first of two: an
/// admin makes the request approved.
public struct Team: Sendable, Equatable {
    public static let maximumNameLength = 60

    public var id: Int64
    public var name: String
    public var twoStage: Bool
    /// Members and approvers, by surname, name and id.
    public var members: [Employee]
    public var approvers: [Employee]

    public init(id: Int64, name: String, twoStage: Bool, members: [Employee] = [], approvers: [Employee] = []) {
        self.id = id
        self.name = name
        self.twoStage = twoStage
        self.members = members
        self.approvers = approvers
    }
}

/// An approver's substitute from `from` through `until` (company dates): while it runs, the substitute decides
/// what the approver decides.
public struct Delegation: Sendable, Equatable {
    public var approverID: Int64
    public var substituteID: Int64
    public var from: CalendarDate
    public var until: CalendarDate

    public init(approverID: Int64, substituteID: Int64, from: CalendarDate, until: CalendarDate) {
        self.approverID = approverID
        self.substituteID = substituteID
        self.from = from
        self.until = until
    }

    public func runs(on day: CalendarDate) -> Bool { from <= day && day <= until }
}
