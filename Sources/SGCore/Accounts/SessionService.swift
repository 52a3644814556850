import Foundation

/// What a login or a refresh hands to a client: a short-lived access token (the bearer token) and the session's
/// next refresh token.
public struct IssuedToken: Sendable {
    public let token: String
    public let expiresAt: Date
    public let employee: Employee
    public let refreshToken: String
    /// When the session ends: its refresh tokens work until then.
    public let refreshExpiresAt: Date
    public let sessionID: Int64
}

/// Login, sessions and their tokens, logout. A session is one login on one device: it gives out short-lived
/// access tokens (random, stored as SHA-256 digests) and trades its refresh token, once, for new ones; a refresh
/// token used twice ends its session.
public struct SessionService: Sendable {
    public let store: any SessionStore
    /// Creates and refreshes the employees a provisioning directory vouches for.
    public let accounts: AccountService
    /// Where logins are checked.
    public let directory: any EmployeeDirectory
    /// How long an access token works.
    public let accessLifetime: TimeInterval
    /// How long a session lasts from its login: its refresh tokens stop working then, and its owner logs in again.
    public let refreshLifetime: TimeInterval
    public let clock: any NowProvider
    /// Refuses logins after repeated failures for a username or a client address; nil turns that off.
    public let throttle: LoginThrottle?
    /// Bounds the password checks under way at once; nil leaves them unbounded.
    public let checks: PasswordCheckLimit?

    public static let defaultAccessLifetime: TimeInterval = 15 * 60
    public static let defaultRefreshLifetime: TimeInterval = 30 * 86_400

    public init(
        store: any SessionStore, accounts: AccountService, directory: any EmployeeDirectory,
        accessLifetime: TimeInterval = defaultAccessLifetime, refreshLifetime: TimeInterval = defaultRefreshLifetime,
        clock: any NowProvider = SystemClock(), throttle: LoginThrottle? = nil, checks: PasswordCheckLimit? = nil
    ) {
        self.store = store
        self.accounts = accounts
        self.directory = directory
        self.accessLifetime = accessLifetime
        self.refreshLifetime = refreshLifetime
        self.clock = clock
        self.throttle = throttle
        self.checks = checks
    }

    /// Checks the credentials with the directory and starts a session. `clientAddress` is where the attempt
    /// comes from (the API passes the peer address), so failures can be throttled per address too; `client` is what
    /// the client says of itself, as sent (see `SessionClient.validated`).
    public func login(
        username: String, password: String, clientAddress: String? = nil, client: SessionClient = SessionClient()
    ) async throws -> IssuedToken {
        let username = username.trimmingCharacters(in: .whitespaces)
        // Many directories take an empty password as an anonymous bind that "succeeds": refuse before asking.
        // Directories are C libraries (bcrypt, libldap) that stop at a NUL: "bob\u{0}x" would log in as bob.
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
        // Judged once the login is: a wrong password says nothing about the rest of the body.
        let client = try SessionClient.validated(userAgent: client.userAgent, deviceName: client.deviceName)
        return try await issue(for: employee, client: client)
    }

    static func isWrongCredentials(_ error: any Error) -> Bool {
        if case .unauthenticated? = error as? SGError { return true }
        return false
    }

    /// Sessions kept per employee: a new login ends the least recently used beyond this, so a login loop cannot pile
    /// up thousands.
    public static let maximumSessionsPerEmployee = 20
    /// Refresh tokens start with this, never to be mistaken for an access token (`sg_`) or a reset token (`sgr_`).
    public static let refreshTokenPrefix = "sgrt_"
    /// Base64url characters of a refresh token that name its session (16 random bytes).
    static let handleLength = 22

    /// Starts a session for `employee`.
    public func issue(for employee: Employee, client: SessionClient = SessionClient()) async throws -> IssuedToken {
        let now = clock.now()
        let (access, accessDigest) = Self.makeToken()
        let handle = Digests.base64URL(Digests.randomBytes(16))
        let (refresh, refreshDigest) = Self.makeRefreshToken(handle: handle)
        let expires = now.addingTimeInterval(refreshLifetime)
        let accessExpires = min(now.addingTimeInterval(accessLifetime), expires)
        let id = try await store.startSession(
            NewSession(
                employeeID: employee.id, at: now, expiresAt: expires, handle: handle, refreshDigest: refreshDigest,
                accessDigest: accessDigest, accessExpiresAt: accessExpires, client: client),
            keeping: Self.maximumSessionsPerEmployee)
        return IssuedToken(
            token: access, expiresAt: accessExpires, employee: employee, refreshToken: refresh, refreshExpiresAt: expires,
            sessionID: id)
    }

    /// The active employee a live access token belongs to, or nil.
    public func authenticate(token: String) async throws -> Employee? {
        try await session(accessToken: token)?.employee
    }

    /// The session of a live access token and its active employee, or nil. Logout, ending a session and
    /// deactivation (also by sgadmin in another process), and any change to the employee, are seen by the next
    /// request.
    public func session(accessToken token: String) async throws -> AuthenticatedSession? {
        guard token.hasPrefix("sg_"), token.utf8.count < 100 else { return nil }
        return try await store.session(accessDigest: Digests.tokenDigest(token), at: clock.now())
    }

    /// Trades a refresh token for a new access token and a new refresh token. Each refresh token works once:
    /// presenting one already used (a copy someone else used first, or the client's own after a lost answer) ends
    /// the session, so a stolen chain dies the moment either side uses an old link of it. The access token the
    /// refresh replaces keeps working until it expires (requests may be under way with it); older ones end.
    public func refresh(token: String) async throws -> IssuedToken {
        guard Digests.isTokenShaped(token, prefix: Self.refreshTokenPrefix, length: Self.handleLength + 43) else {
            throw Self.unknownRefreshToken
        }
        let now = clock.now()
        let handle = String(token.dropFirst(Self.refreshTokenPrefix.count).prefix(Self.handleLength))
        let (access, accessDigest) = Self.makeToken()
        let (refresh, refreshDigest) = Self.makeRefreshToken(handle: handle)
        let outcome = try await store.refresh(
            RefreshClaim(handle: handle, digest: Digests.tokenDigest(token), at: now),
            to: NextTokens(
                refreshDigest: refreshDigest, accessDigest: accessDigest, accessLifetime: accessLifetime))
        switch outcome {
        case .refreshed(let employee, let sessionID, let accessExpires, let sessionExpires):
            // A leaver the company directory no longer lists keeps no session until the next directory sync: each
            // refresh asks. A directory that cannot be reached, or cannot tell, leaves the session as it is.
            if directory.provisionsEmployees, await directory.stillLists(username: employee.username) == false {
                _ = try await store.endSession(id: sessionID, employeeID: employee.id)
                throw SGError.unauthenticated(
                    "The company directory no longer lists \(employee.username), so this session has ended.")
            }
            return IssuedToken(
                token: access, expiresAt: accessExpires, employee: employee, refreshToken: refresh,
                refreshExpiresAt: sessionExpires, sessionID: sessionID)
        case .reused:
            throw SGError.unauthenticated(
                "This refresh token was used before, so its session has ended in case someone copied it. Log in again.")
        case .unknown:
            throw Self.unknownRefreshToken
        }
    }

    static let unknownRefreshToken = SGError.unauthenticated("The refresh token is unknown, expired or revoked. Log in again.")

    /// The employee's live sessions, most recently used first.
    public func sessions(employeeID: Int64) async throws -> [SessionSummary] {
        try await store.sessions(employeeID: employeeID, at: clock.now())
    }

    /// Ends one of the employee's sessions, not the one making the call (`current`): that one logs out.
    public func endSession(id: Int64, employeeID: Int64, current: Int64?) async throws {
        if id == current {
            throw SGError.conflict("Session \(id) is the one making this call: log out with POST /v1/auth/logout to end it.")
        }
        guard try await store.endSession(id: id, employeeID: employeeID) else {
            throw SGError.notFound("You have no session \(id).")
        }
    }

    /// Logs the employee out everywhere but `current`; returns how many sessions ended.
    @discardableResult
    public func endOtherSessions(employeeID: Int64, current: Int64?) async throws -> Int {
        try await store.endSessions(employeeID: employeeID, keeping: current)
    }

    /// Ends the session the access token belongs to: its refresh token stops working too.
    public func logout(token: String) async throws {
        try await store.endSession(accessDigest: Digests.tokenDigest(token))
    }

    /// A new access token (256 random bits) and the digest under which it is stored.
    public static func makeToken() -> (token: String, digest: Data) {
        Digests.newToken(prefix: "sg_")
    }

    /// A new refresh token of the session `handle` names: the handle and 256 random bits.
    static func makeRefreshToken(handle: String) -> (token: String, digest: Data) {
        Digests.newToken(prefix: refreshTokenPrefix + handle)
    }
}
