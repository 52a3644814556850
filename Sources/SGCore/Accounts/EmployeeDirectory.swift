/// What a directory says about a person who has just proved who they are.
public struct DirectoryAccount: Sendable, Equatable {
    public var username: String
    public var name: String
    public var surname: String
    public var email: String
    public var isAdmin: Bool
    /// False when the directory is not configured to decide who is an admin: the employee's current role is
    /// kept (and managed with `sgadmin`) instead of being overwritten with `isAdmin`.
    public var decidesAdmin: Bool
    /// Where the account lives in the directory (an LDAP distinguished name); nil for local accounts.
    public var directoryName: String?
    /// Profile details the directory holds beside the name, kept with the employee; nil when absent.
    public var displayName: String?
    public var title: String?
    public var phone: String?
    /// The team the directory names (empty: none); nil when the directory does not decide teams.
    public var team: String?
    /// The employment dates the directory holds: set, cleared (the entry has none), or kept where it holds none.
    public var employment: EmploymentChange

    public init(
        username: String, name: String, surname: String, email: String, isAdmin: Bool, decidesAdmin: Bool = true,
        directoryName: String? = nil, displayName: String? = nil, title: String? = nil, phone: String? = nil, team: String? = nil,
        employment: EmploymentChange = EmploymentChange()
    ) {
        self.username = username
        self.name = name
        self.surname = surname
        self.email = email
        self.isAdmin = isAdmin
        self.decidesAdmin = decidesAdmin
        self.directoryName = directoryName
        self.displayName = displayName
        self.title = title
        self.phone = phone
        self.team = team
        self.employment = employment
    }
}

/// Where logins are checked: local accounts in our database, or a company directory such as LDAP.
public protocol EmployeeDirectory: Sendable {
    /// "local", "ldap", ...
    var kind: String { get }
    /// True when the directory is the source of employee records: a login creates or refreshes the employee.
    var provisionsEmployees: Bool { get }
    /// Profile fields the directory holds, which employees cannot change through the API.
    var ownedFields: Set<ProfileField> { get }
    /// Whether a login sets the employment's first and last day from the directory: admins do not change those.
    var holdsEmploymentStart: Bool { get }
    var holdsEmploymentEnd: Bool { get }
    /// True when the directory keeps the passwords: the app neither resets nor changes them.
    var holdsPasswords: Bool { get }
    /// The company's own page for changing a password the directory keeps, if it has one.
    var passwordPage: String? { get }
    /// Returns the account, or throws `SGError.unauthenticated` (wrong username or password, the same message
    /// for both) or `SGError.unavailable` (the directory cannot be reached).
    func authenticate(username: String, password: String) async throws -> DirectoryAccount
    /// Why logins cannot be checked now (the directory is down), for the readiness check; nil when they can.
    func readinessProblem() async -> String?
    /// Whether the directory still lists `username`, asked when a session is refreshed: false when it says the
    /// account is gone, nil when it cannot tell (unreachable, or no way to look without the password).
    func stillLists(username: String) async -> Bool?
}

extension EmployeeDirectory {
    /// A directory that provisions employees overwrites name, surname and e-mail at each login, so it holds
    /// those unless it says otherwise; local accounts hold none.
    public var ownedFields: Set<ProfileField> {
        provisionsEmployees ? [.name, .surname, .email] : []
    }

    public var holdsEmploymentStart: Bool { false }
    public var holdsEmploymentEnd: Bool { false }

    /// A directory that vouches for employees checks their passwords itself; local accounts are ours.
    public var holdsPasswords: Bool { provisionsEmployees }

    public var passwordPage: String? { nil }

    /// Local accounts are in the database, which the readiness check looks at itself.
    public func readinessProblem() async -> String? { nil }

    /// Local accounts end with their deactivation, which ends their sessions: nothing to ask.
    public func stillLists(username: String) async -> Bool? { nil }
}
