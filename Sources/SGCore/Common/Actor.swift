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
