import Foundation

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
