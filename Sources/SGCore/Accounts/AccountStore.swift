import Foundation

public protocol AccountReading {
    func employee(id: Int64) throws -> Employee?
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

public protocol AccountWriting: AccountReading, TeamAssigning {
    func insertEmployee(_ new: NewEmployee, at: Date) throws -> Int64
    /// Writes what a directory says of an existing employee: name, surname, e-mail and the admin flag.
    func updateIdentity(employeeID: Int64, from account: DirectoryAccount, isAdmin: Bool) throws
    /// Sets the profile fields a directory holds (position from the entry's title, phone) as the entry has them.
    func setDirectoryHeldFields(employeeID: Int64, _ fields: Set<ProfileField>, from account: DirectoryAccount) throws
    /// Remembers where the directory keeps the account and what else it said (directory accounts only).
    func saveDirectoryRecord(employeeID: Int64, _ account: DirectoryAccount, at: Date) throws
    func deactivate(employeeID: Int64, at: Date) throws
    /// Revokes every bearer token of the employee.
    func deleteTokens(employeeID: Int64) throws
}

public typealias AccountStore = TransactionalStore<any AccountReading, any AccountWriting>

/// Bearer tokens, stored as digests. Every authenticated request asks `employee(tokenDigest:at:)`, so a store
/// may keep what it found until anything commits a change to the database.
public protocol SessionStore: Sendable {
    /// Stores a new token's digest; expired tokens are swept at the same time, and the employee's oldest beyond
    /// the `keeping` newest are revoked, so the table stays small.
    func saveToken(digest: Data, employeeID: Int64, at: Date, expiresAt: Date, keeping: Int) async throws
    /// The active employee a token not expired at `now` belongs to.
    func employee(tokenDigest: Data, at now: Date) async throws -> Employee?
    func deleteToken(digest: Data) async throws
}
