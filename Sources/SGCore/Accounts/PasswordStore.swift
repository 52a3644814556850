import Foundation

/// An employee with what decides whether the app keeps their password.
public struct PasswordAccount: Sendable, Equatable {
    public var employee: Employee
    /// The bcrypt hash; nil when the account has no local password.
    public var passwordHash: String?
    /// A company directory manages the account (it has a directory record): the directory holds the password.
    public var isDirectoryAccount: Bool

    public init(employee: Employee, passwordHash: String?, isDirectoryAccount: Bool) {
        self.employee = employee
        self.passwordHash = passwordHash
        self.isDirectoryAccount = isDirectoryAccount
    }

    /// An active local account with a password: the only kind that may ask for a reset.
    public var canReset: Bool { employee.isActive && !isDirectoryAccount && passwordHash != nil }
}

/// A password-reset token as stored: only its digest is kept.
public struct PasswordResetToken: Sendable, Equatable {
    public var employeeID: Int64
    public var createdAt: Date
    public var expiresAt: Date
    public var usedAt: Date?

    public init(employeeID: Int64, createdAt: Date, expiresAt: Date, usedAt: Date?) {
        self.employeeID = employeeID
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.usedAt = usedAt
    }

    /// Unused and not expired at `now`.
    public func isUsable(at now: Date) -> Bool { usedAt == nil && expiresAt > now }
}

public protocol PasswordReading {
    func account(employeeID: Int64) throws -> PasswordAccount?
    func account(username: String) throws -> PasswordAccount?
    /// The accounts a login names, as logins match: the one whose username it is (without regard to case), or
    /// else those whose e-mail address it is (without regard to case), at most `limit`; and, from the same
    /// statement, an account to stand in when none is named (nil when there are no employees at all).
    func accounts(login: String, limit: Int) throws -> (named: [PasswordAccount], standIn: PasswordAccount?)
    func resetToken(digest: Data) throws -> PasswordResetToken?
}

public protocol PasswordWriting: PasswordReading, OutboxWriting, AudienceReading {
    func setPasswordHash(employeeID: Int64, _ hash: String) throws
    /// Sets the hash only while the stored one is still `expected`; says whether it did.
    func replacePasswordHash(employeeID: Int64, expected: String, with hash: String) throws -> Bool
    func insertResetToken(digest: Data, employeeID: Int64, at: Date, expiresAt: Date) throws
    /// Marks the token used if it is still unused; says whether it did.
    func markResetTokenUsed(digest: Data, at: Date) throws -> Bool
    /// Deletes the employee's reset tokens that are not used yet.
    func deleteUnusedResetTokens(employeeID: Int64) throws
    /// Deletes reset tokens that expired before `date`, used or not, so the table stays small.
    func deleteResetTokens(expiredBefore date: Date) throws
    /// Ends the employee's sessions, except the one the access token stored under `keepingTokenDigest` belongs to
    /// (the caller's own).
    func endSessions(employeeID: Int64, keepingTokenDigest: Data?) throws
    /// Revokes the employee's calendar feeds: after a reset, whoever knew the password may have copied their addresses.
    func revokeCalendarFeeds(employeeID: Int64) throws
    /// Runs `body` in a savepoint, then keeps what it wrote or, with `undo`, takes it back and leaves the rest of
    /// the transaction as it was.
    func savepoint(undo: Bool, _ body: () throws -> Void) throws
}

public typealias PasswordStore = TransactionalStore<any PasswordReading, any PasswordWriting>

/// Slow, salted password hashing (bcrypt in the store). The core decides what may be hashed; this only hashes.
public protocol PasswordHashing: Sendable {
    func hash(_ password: String) async -> String
    func verify(_ password: String, hash: String) async -> Bool
}
