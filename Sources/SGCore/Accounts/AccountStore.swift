import Foundation

public protocol AccountReading: CompanyReading {
    func employee(id: Int64) throws -> Employee?
    /// The employee with their profile's fields; nil for an unknown id.
    func profile(employeeID: Int64) throws -> Profile?
    /// Employees who are both active and admins.
    func activeAdminCount() throws -> Int
    func employee(username: String) throws -> Employee?
    /// By surname, name and id.
    func employees(includeInactive: Bool) throws -> [Employee]
    /// The bcrypt hash of a local account's password; nil for an unknown username or a directory account.
    func passwordHash(username: String) throws -> String?
    /// The highest bcrypt cost among the stored password hashes; nil when there are none.
    func highestPasswordCost() throws -> Int?
    /// The directory's record of one employee; nil for a local account.
    func directoryProfile(username: String) throws -> DirectoryProfile?
    /// Every employee a directory manages, active or not, by username.
    func directoryProfiles() throws -> [DirectoryProfile]
}

public protocol AccountWriting: AccountReading, TeamAssigning, FoldedCopiesWriting {
    func insertEmployee(_ new: NewEmployee, at: Date) throws -> Int64
    /// Writes what a directory says of an existing employee: name, surname, e-mail and the admin flag.
    func updateIdentity(employeeID: Int64, from account: DirectoryAccount, isAdmin: Bool) throws
    /// Sets the profile fields a directory holds (position from the entry's title, phone) as the entry has them.
    func setDirectoryHeldFields(employeeID: Int64, _ fields: Set<ProfileField>, from account: DirectoryAccount) throws
    /// Remembers where the directory keeps the account and what else it said (directory accounts only).
    func saveDirectoryRecord(employeeID: Int64, _ account: DirectoryAccount, at: Date) throws
    /// Writes what an admin edits of an employee: the profile's fields, the e-mail address and the admin flag.
    func saveEmployee(_ profile: Profile) throws
    func setEmployment(employeeID: Int64, _ employment: Employment) throws
    /// Sets the employee's own accrual plan; nil gives them the company's.
    func setAccrual(employeeID: Int64, _ plan: AccrualPlan?) throws
    /// This transaction as the holiday rules read it: a change of employment is checked against the balances.
    var holidays: any HolidayReading { get }
    func deactivate(employeeID: Int64, at: Date) throws
    func reactivate(employeeID: Int64) throws
    /// Ends every session of the employee, and with them their tokens.
    func endSessions(employeeID: Int64) throws
    /// Revokes every calendar feed of the employee: a secret address must not come back to life with the account.
    func revokeCalendarFeeds(employeeID: Int64) throws
    /// Ends the delegations the employee gave as an approver or holds as a substitute.
    func endDelegations(involving employeeID: Int64) throws
}

public typealias AccountStore = TransactionalStore<any AccountReading, any AccountWriting>

/// Sessions and their tokens, stored as digests. Every authenticated request asks `session(accessDigest:at:)`, so a
/// store may keep what it found until anything commits a change to the database.
public protocol SessionStore: Sendable {
    /// Starts a session with its first access and refresh tokens. Expired sessions and tokens are swept at the same
    /// time, and the employee's oldest sessions beyond the `keeping` newest end, so the tables stay small.
    func startSession(_ session: NewSession, keeping: Int) async throws -> Int64
    /// The live access token's session and its active employee, at `now`.
    func session(accessDigest: Data, at now: Date) async throws -> AuthenticatedSession?
    /// Trades the session's live refresh token for `next`, in one transaction; see `RefreshOutcome`.
    func refresh(_ refresh: RefreshClaim, to next: NextTokens) async throws -> RefreshOutcome
    /// The employee's live sessions at `now`, most recently used first.
    func sessions(employeeID: Int64, at now: Date) async throws -> [SessionSummary]
    /// Ends one of the employee's sessions; false when they have no such session.
    func endSession(id: Int64, employeeID: Int64) async throws -> Bool
    /// Ends the session an access token belongs to.
    func endSession(accessDigest: Data) async throws
    /// Ends every session of the employee but `keeping`; returns how many ended.
    func endSessions(employeeID: Int64, keeping: Int64?) async throws -> Int
}
