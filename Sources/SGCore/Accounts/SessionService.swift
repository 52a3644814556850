import Foundation

/// A bearer token as handed to a client, with its expiry.
public struct IssuedToken: Sendable {
    public let token: String
    public let expiresAt: Date
    public let employee: Employee
}

/// Login, bearer tokens (random, stored as SHA-256 digests, with expiry) and logout.
public struct SessionService: Sendable {
    public let store: any SessionStore
    /// Creates and refreshes the employees a provisioning directory vouches for.
    public let accounts: AccountService
    /// Where logins are checked.
    public let directory: any EmployeeDirectory
    public let tokenLifetime: TimeInterval
    public let clock: any NowProvider
    /// Refuses logins after repeated failures for a username or a client address; nil turns that off.
    public let throttle: LoginThrottle?
    /// Bounds the password checks under way at once; nil leaves them unbounded.
    public let checks: PasswordCheckLimit?

    public init(
        store: any SessionStore, accounts: AccountService, directory: any EmployeeDirectory,
        tokenLifetime: TimeInterval = 12 * 3600, clock: any NowProvider = SystemClock(), throttle: LoginThrottle? = nil,
        checks: PasswordCheckLimit? = nil
    ) {
        self.store = store
        self.accounts = accounts
        self.directory = directory
        self.tokenLifetime = tokenLifetime
        self.clock = clock
        self.throttle = throttle
        self.checks = checks
    }

    /// Checks the credentials with the directory and issues a token. `clientAddress` is where the attempt
    /// comes from (the API passes the peer address), so failures can be throttled per address too.
    public func login(username: String, password: String, clientAddress: String? = nil) async throws -> IssuedToken {
        let username = username.trimmingCharacters(in: .whitespaces)
        // Many directories take an empty password as an anonymous bind that "succeeds": refuse before asking.
        // Directories are C libraries (bcrypt, libldap) that stop at a NUL: "bob\u{0}x" logged in as bob.
        // Refused before the throttle, which would otherwise keep every such username (up to a whole body) as a key.
        guard !username.isEmpty, !password.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty,
              username.utf8.count <= 256, password.utf8.count <= 1024,
              !username.unicodeScalars.contains("\u{0}"), !password.unicodeScalars.contains("\u{0}") else {
            throw SGError.unauthenticated("Wrong username or password.")
        }
        // Counted before the check, in one step with the test of the limit: see `LoginThrottle.reserve`.
        let attempt = try await throttle?.reserve(username: username, address: clientAddress)
        let account: DirectoryAccount
        do {
            account = try await checks.run(address: clientAddress) {
                try await directory.authenticate(username: username, password: password)
            }
        } catch {
            // A wrong password stays counted; an attempt never judged (unreachable directory, too busy) does not.
            if let attempt, !Self.isWrongCredentials(error) { await throttle?.release(attempt) }
            throw error
        }
        if let attempt { await throttle?.succeeded(attempt) }
        let employee: Employee
        if directory.provisionsEmployees {
            employee = try await accounts.provision(account, owned: directory.ownedFields)
        } else if let found = try await accounts.employee(username: account.username) {
            employee = found
        } else {
            throw SGError.unauthenticated("Wrong username or password.")
        }
        guard employee.isActive else {
            throw SGError.forbidden("This account is deactivated. Ask an administrator if that is a mistake.")
        }
        return try await issue(for: employee)
    }

    static func isWrongCredentials(_ error: any Error) -> Bool {
        if case .unauthenticated? = error as? SGError { return true }
        return false
    }

    /// Sessions kept per employee: a new login ends the oldest beyond this (a login loop left thousands).
    public static let maximumTokensPerEmployee = 20

    public func issue(for employee: Employee) async throws -> IssuedToken {
        let now = clock.now()
        let (token, digest) = Self.makeToken()
        let expires = now.addingTimeInterval(tokenLifetime)
        try await store.saveToken(digest: digest, employeeID: employee.id, at: now, expiresAt: expires, keeping: Self.maximumTokensPerEmployee)
        return IssuedToken(token: token, expiresAt: expires, employee: employee)
    }

    /// The active employee a live token belongs to, or nil. Logout, deactivation (also by sgadmin in another
    /// process) and any change to the employee are seen by the next request.
    public func authenticate(token: String) async throws -> Employee? {
        guard token.hasPrefix("sg_"), token.utf8.count < 100 else { return nil }
        return try await store.employee(tokenDigest: Digests.tokenDigest(token), at: clock.now())
    }

    public func logout(token: String) async throws {
        try await store.deleteToken(digest: Digests.tokenDigest(token))
    }

    /// A new bearer token (256 random bits) and the digest under which it is stored.
    public static func makeToken() -> (token: String, digest: Data) {
        Digests.newToken(prefix: "sg_")
    }
}
