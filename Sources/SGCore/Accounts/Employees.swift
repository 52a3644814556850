import Foundation

/// The fields of a new local account.
public struct NewEmployee: Sendable {
    public var username: String
    public var name: String
    public var surname: String
    public var email: String
    public var isAdmin: Bool
    /// Already hashed: plain passwords never reach the store or its callers' logs.
    public var passwordHash: String?
    public var employment = Employment()

    public init(username: String, name: String, surname: String, email: String, isAdmin: Bool, passwordHash: String?) {
        self.username = username
        self.name = name
        self.surname = surname
        self.email = email
        self.isAdmin = isAdmin
        self.passwordHash = passwordHash
    }
}

/// What an admin changes about an employee (`PATCH /v1/employees/{id}`, `sgadmin user set`, `admin`,
/// `reactivate`): `.keep` and nil leave a field as it is.
public struct EmployeeChange: Sendable, Equatable {
    /// The record's HR fields (`profileFields`); the birth date and the social links stay the employee's own.
    public var profile = ProfilePatch()
    public var isActive: Bool?
    public var isAdmin: Bool?
    public var employment = EmploymentChange()
    /// The employee's own accrual plan; `.clear` gives them the company's.
    public var accrual: Change<AccrualPlan> = .keep

    /// The profile fields an admin changes, in API order.
    public static let profileFields: [ProfileField] = [.name, .surname, .email, .position, .phone]

    public init(isActive: Bool? = nil, isAdmin: Bool? = nil) {
        self.isActive = isActive
        self.isAdmin = isAdmin
    }
}

public enum EmployeeRules {
    /// Trims and checks the fields of an account with the profile's rules; throws a field-level `SGError.invalid`.
    public static func validated(_ new: NewEmployee) throws -> NewEmployee {
        var new = new
        new.username = new.username.trimmingCharacters(in: .whitespaces)
        let usernameCharacters = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
        guard (1...64).contains(new.username.count), new.username.allSatisfy(usernameCharacters.contains) else {
            throw SGError.invalid(field: "username", message: "1 to 64 characters from letters, digits, '.', '_' and '-'")
        }
        new.name = try TextRules.line(new.name, field: "name", maximum: ProfileRules.maximumNameLength)
        new.surname = try TextRules.line(new.surname, field: "surname", maximum: ProfileRules.maximumNameLength)
        new.email = try TextRules.email(new.email, field: "email")
        if let start = new.employment.start, let end = new.employment.end, end < start {
            throw SGError.invalid(field: "employmentEnd", message: "\(end) is before the employment's start, \(start)")
        }
        return new
    }
}

/// What the company directory said about an employee at the last login or sync.
public struct DirectoryProfile: Sendable, Equatable {
    public var employeeID: Int64
    public var username: String
    public var distinguishedName: String
    public var displayName: String?
    public var title: String?
    public var phone: String?
    public var isActive: Bool
    public var syncedAt: Date?

    public init(
        employeeID: Int64, username: String, distinguishedName: String, displayName: String?, title: String?, phone: String?,
        isActive: Bool, syncedAt: Date?
    ) {
        self.employeeID = employeeID
        self.username = username
        self.distinguishedName = distinguishedName
        self.displayName = displayName
        self.title = title
        self.phone = phone
        self.isActive = isActive
        self.syncedAt = syncedAt
    }
}
