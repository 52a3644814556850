import Foundation
import HummingbirdBcrypt
import GRDB
import SGCore
import SGSQLite

/// Checks passwords against the `employees` table (bcrypt). Unknown users cost the same bcrypt work as known
/// ones, so timing does not tell them apart.
public struct LocalAccountDirectory: EmployeeDirectory {
    public let kind = "local"
    public let provisionsEmployees = false
    let database: AppDatabase
    /// A valid hash of a random password, verified against when the user is unknown.
    private let decoyHash: String

    public init(database: AppDatabase, cost: UInt8 = 12) {
        self.database = database
        self.decoyHash = makeDecoyHash(cost: cost)
    }

    public func authenticate(username: String, password: String) async throws -> DirectoryAccount {
        // bcrypt reads 72 bytes; no stored password is longer, so a longer one is wrong, not truncated to a match.
        guard password.utf8.count <= Passwords.maximumLength else {
            throw SGError.unauthenticated("Wrong username or password.")
        }
        let stored = try await database.passwordHash(username: username)
        let matches = await Passwords.verify(password, hash: stored ?? decoyHash)
        guard matches, stored != nil, let employee = try await database.employee(username: username) else {
            throw SGError.unauthenticated("Wrong username or password.")
        }
        return DirectoryAccount(
            username: employee.username, name: employee.name, surname: employee.surname, email: employee.email,
            isAdmin: employee.isAdmin)
    }
}



private func makeDecoyHash(cost: UInt8) -> String {
    var generator = SystemRandomNumberGenerator()
    let password = (0..<24).map { _ in String(UInt8.random(in: 0...255, using: &generator), radix: 16) }.joined()
    return Bcrypt.hash(password, cost: cost)
}

/// A bearer token as handed to a client, with its expiry.
public struct IssuedToken: Sendable {
    public let token: String
    public let expiresAt: Date
    public let employee: Employee
}

/// Login, bearer tokens (random, stored as SHA-256 digests, with expiry) and logout.
public struct Sessions: Sendable {
    public let database: AppDatabase
    public let directory: any EmployeeDirectory
    public let tokenLifetime: TimeInterval
    public let clock: any NowProvider
    /// Refuses logins after repeated failures for a username or a client address; nil turns that off.
    public let throttle: LoginThrottle?

    public init(
        database: AppDatabase, directory: any EmployeeDirectory, tokenLifetime: TimeInterval = 12 * 3600,
        clock: any NowProvider = SystemClock(), throttle: LoginThrottle? = nil
    ) {
        self.database = database
        self.directory = directory
        self.tokenLifetime = tokenLifetime
        self.clock = clock
        self.throttle = throttle
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
        try await throttle?.check(username: username, address: clientAddress)
        let account: DirectoryAccount
        do {
            account = try await directory.authenticate(username: username, password: password)
        } catch let error as SGError {
            if case .unauthenticated = error { await throttle?.recordFailure(username: username, address: clientAddress) }
            throw error
        }
        await throttle?.recordSuccess(username: username)
        let now = clock.now()
        let employee: Employee
        if directory.provisionsEmployees {
            employee = try await database.provision(account, owned: directory.ownedFields, at: now)
        } else if let found = try await database.employee(username: account.username) {
            employee = found
        } else {
            throw SGError.unauthenticated("Wrong username or password.")
        }
        guard employee.isActive else {
            throw SGError.forbidden("This account is deactivated. Ask an administrator if that is a mistake.")
        }
        return try await issue(for: employee, at: now)
    }

    public func issue(for employee: Employee, at now: Date) async throws -> IssuedToken {
        let (token, digest) = Self.makeToken()
        let expires = now.addingTimeInterval(tokenLifetime)
        try await database.write { (db: Database) in
            // Expired tokens are swept as new ones are made, so the table stays small.
            try db.execute(sql: "DELETE FROM auth_tokens WHERE expires_at < ?", arguments: [Timestamp.format(now)])
            try db.execute(
                sql: "INSERT INTO auth_tokens (token_hash, employee_id, created_at, expires_at) VALUES (?, ?, ?, ?)",
                arguments: [digest, employee.id, Timestamp.format(now), Timestamp.format(expires)])
        }
        return IssuedToken(token: token, expiresAt: expires, employee: employee)
    }

    /// The active employee a live token belongs to, or nil.
    public func employee(forToken token: String) async throws -> Employee? {
        try await authenticate(token: token)?.employee
    }

    /// A live token's employee, and the database's commit generation as checked on the way
    /// (`AppDatabase.withCheckedReader`): what the request reads afterwards may be cached under it.
    public struct Authenticated: Sendable {
        public let employee: Employee
        public let commitGeneration: UInt64?
    }

    /// The active employee a live token belongs to, or nil.
    ///
    /// Every authenticated request asks this, so it runs on a pooled read connection on the caller's thread, and a
    /// token found there is remembered by that connection. An entry is used only before its expiry and only while
    /// nothing has been committed to the database since it was read (`SQLConnection.validatedCache`): logout,
    /// deactivation (also by sgadmin in another process) and any change to the employee are seen by the next request.
    public func authenticate(token: String) async throws -> Authenticated? {
        guard token.hasPrefix("sg_"), token.utf8.count < 100 else { return nil }
        let now = clock.now()
        let (employee, generation) = try database.withCheckedReader { connection, cache -> Employee? in
            if let cached = cache?[CachedTokens.self][token] {
                if cached.expiresAt > now { return cached.employee }
                cache?[CachedTokens.self][token] = nil
                return nil
            }
            let found = try connection.with(
                """
                SELECT \(Rows.employeeColumnsOfE), t.expires_at
                FROM auth_tokens t JOIN employees e ON e.id = t.employee_id
                WHERE t.token_hash = ? AND e.is_active = 1
                """
            ) { statement -> (employee: Employee, expiresAt: Date)? in
                statement.bind(1, blob: Self.digest(token))
                return try statement.step() ? (Rows.employee(statement), try statement.timestamp(Rows.employeeColumnCount)) : nil
            }
            guard let found, found.expiresAt > now else { return nil }
            if let cache, cache[CachedTokens.self].count < CachedTokens.maximumTokens { cache[CachedTokens.self][token] = found }
            return found.employee
        }
        return employee.map { Authenticated(employee: $0, commitGeneration: generation) }
    }

    public func logout(token: String) async throws {
        let digest = Self.digest(token)
        try await database.write { (db: Database) in
            try db.execute(sql: "DELETE FROM auth_tokens WHERE token_hash = ?", arguments: [digest])
        }
    }

    /// A new bearer token (256 random bits) and the digest under which it is stored.
    public static func makeToken() -> (token: String, digest: Data) {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let token = "sg_" + base64URL(bytes)
        return (token, digest(token))
    }

    /// What `auth_tokens.token_hash` holds for `token`.
    public static func digest(_ token: String) -> Data {
        Data(SHA256.digest(Array(token.utf8)))
    }

    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
