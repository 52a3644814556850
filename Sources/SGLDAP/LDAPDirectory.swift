import CLDAP
import Foundation
import Logging
import SGCore

/// Logins checked against a company LDAP directory (OpenLDAP, Active Directory, ...).
///
/// Search then bind (the default): bind as the service account, search the base for the user with the
/// configured filter, require exactly one entry, bind as that entry with the password. Direct bind: bind as
/// the DN the template gives. Either way the admin role is read from group membership at every login, and
/// the employee is created or refreshed from the entry's attributes.
///
/// The blocking libldap calls run on a few dedicated threads; connections are kept and reused (one kind bound
/// as the service account, one for user binds), and a connection that died with a directory restart is
/// replaced on the spot. An unreachable or silent directory gives `SGError.unavailable` within
/// `configuration.loginBudget` seconds.
public final class LDAPDirectory: EmployeeDirectory {
    public let kind = "ldap"
    public let provisionsEmployees = true
    /// Name, surname and e-mail, and the position and phone the entry's title and telephone number fill in:
    /// a login refreshes them all, so employees edit none of them in the app.
    public let ownedFields: Set<ProfileField> = [.name, .surname, .email, .position, .phone]
    public var holdsEmploymentStart: Bool { configuration.attributes.employmentStart != nil }
    public var holdsEmploymentEnd: Bool { configuration.attributes.employmentEnd != nil }
    public let configuration: LDAPConfiguration
    /// Passwords are the directory's: the app's reset and change routes point here instead.
    public var passwordPage: String? { configuration.passwordURL }
    let logger: Logger
    let executor: BlockingExecutor
    /// Connections bound as the service account (or anonymous when there is none): searches.
    let servicePool: ConnectionPool
    /// Connections used for user binds: after one, they are bound as whoever logged in last.
    let userPool: ConnectionPool

    static let wrongCredentials = SGError.unauthenticated("Wrong username or password.")

    public init(configuration: LDAPConfiguration, logger: Logger = Logger(label: "sgemployee.ldap")) {
        Self.ignoreBrokenPipes
        self.configuration = configuration
        self.logger = logger
        self.executor = BlockingExecutor(threads: configuration.threads, name: "ldap")
        self.servicePool = ConnectionPool(capacity: configuration.threads)
        self.userPool = ConnectionPool(capacity: configuration.threads)
    }

    /// Writing to a connection the directory has closed raises SIGPIPE, whose default action ends the process.
    /// libldap does not ask for MSG_NOSIGNAL, so the signal is ignored: the write then fails with EPIPE instead.
    private static let ignoreBrokenPipes: Void = {
        signal(SIGPIPE, SIG_IGN)
    }()

    var unavailable: SGError {
        .unavailable(
            "The company directory cannot be reached right now, so logins cannot be checked. Try again shortly.",
            retryAfterSeconds: configuration.retryAfterSeconds)
    }

    /// Connects and binds as the service account, keeping the connection for the first logins. Returns nil
    /// when that works, otherwise what went wrong; the server starts either way and answers 503 meanwhile.
    public func probe() async -> String? {
        do {
            try await blocking(budget: configuration.loginBudget) { deadline in
                try self.withServiceConnection(deadline: deadline) { _ in }
            }
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// A round trip as the service account (the base entry, no attributes): a pooled connection alone would not
    /// tell that the directory has gone since.
    public func readinessProblem() async -> String? {
        do {
            try await blocking(budget: configuration.loginBudget) { deadline in
                try self.withServiceConnection(deadline: deadline) { connection in
                    _ = try connection.search(
                        base: self.configuration.baseDN, scope: LDAP_SCOPE_BASE, filter: "(objectClass=*)", attributes: ["1.1"],
                        sizeLimit: 1, deadline: deadline, step: "readiness search")
                }
            }
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// Looks the account up as the service account: by the user filter (search then bind), or by reading its entry
    /// (direct bind with a service account). Without a service account, or when the directory cannot be reached,
    /// it cannot tell.
    public func stillLists(username: String) async -> Bool? {
        do {
            return try await blocking(budget: configuration.loginBudget) { deadline -> Bool? in
                switch self.configuration.mode {
                case .searchThenBind(let template):
                    return !(try self.findUser(username: username, filterTemplate: template, deadline: deadline).entries.isEmpty)
                case .directBind(let template):
                    guard self.configuration.bindDN != nil else { return nil }
                    let dn = LDAPEscaping.distinguishedName(template, username: username)
                    do {
                        return try self.withServiceConnection(deadline: deadline) { connection in
                            !(try connection.search(
                                base: dn, scope: LDAP_SCOPE_BASE, filter: "(objectClass=*)", attributes: ["1.1"], sizeLimit: 1,
                                deadline: deadline, step: "account lookup").entries.isEmpty)
                        }
                    } catch let failure as LDAPFailure where failure.code == LDAP_NO_SUCH_OBJECT {
                        return false
                    }
                }
            }
        } catch {
            return nil
        }
    }

    // MARK: - Login

    public func authenticate(username: String, password: String) async throws -> DirectoryAccount {
        let username = username.trimmingCharacters(in: .whitespaces)
        // An empty password would be an unauthenticated bind, which many directories let "succeed".
        guard !username.isEmpty, !password.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw Self.wrongCredentials
        }
        do {
            return try await blocking(budget: configuration.loginBudget) { deadline in
                try self.login(username: username, password: password, deadline: deadline)
            }
        } catch let refusal as LoginRefusal {
            logger.info("LDAP login refused", metadata: ["username": "\(Self.loggable(username))", "reason": "\(Self.loggable(refusal.reason))"])
            throw Self.wrongCredentials
        } catch let failure as LDAPFailure {
            logger.warning("LDAP directory unavailable", metadata: ["username": "\(Self.loggable(username))", "error": "\(Self.loggable("\(failure)"))"])
            throw unavailable
        }
    }

    /// Text typed by a client, made safe for a log line: control characters (a newline could forge a line,
    /// a NUL turns the log into "binary") are escaped, and the length is bounded.
    static func loggable(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars.prefix(300) {
            if scalar.properties.generalCategory == .control || scalar == "\\" {
                result += scalar == "\\" ? "\\\\" : "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Why a login was refused, for the log; the client always hears "Wrong username or password."
    struct LoginRefusal: Error {
        let reason: String
    }

    /// Runs `body` on the directory threads with a deadline `budget` seconds away.
    func blocking<T: Sendable>(budget: Double, _ body: @escaping @Sendable (Deadline) throws -> T) async throws -> T {
        let deadline = Deadline(secondsFromNow: budget)
        return try await executor.run(deadline: deadline, onTimeout: { LDAPFailure.timedOut("login") }) {
            try body(deadline)
        }
    }

    func login(username: String, password: String, deadline: Deadline) throws -> DirectoryAccount {
        switch configuration.mode {
        case .searchThenBind(let template):
            let outcome = try findUser(username: username, filterTemplate: template, deadline: deadline)
            guard outcome.entries.count == 1, !outcome.truncated, let entry = outcome.entries.first else {
                // Spend about what a real bind costs, so timing does not tell unknown users from wrong passwords.
                try decoyBind(deadline: deadline)
                throw LoginRefusal(reason: outcome.entries.isEmpty
                    ? "no entry matches"
                    : "ambiguous: \(outcome.entries.count)\(outcome.truncated ? "+" : "") entries match (\(outcome.entries.map(\.dn).joined(separator: "; ")))")
            }
            try withUserConnection(deadline: deadline) { connection in
                try self.userBind(connection, dn: entry.dn, password: password, deadline: deadline)
            }
            let isAdmin = try adminStatus(of: entry, deadline: deadline)
            return account(from: entry, typed: username, isAdmin: isAdmin)

        case .directBind(let template):
            let dn = LDAPEscaping.distinguishedName(template, username: username)
            let hasServiceAccount = configuration.bindDN != nil
            return try withUserConnection(deadline: deadline) { connection in
                try self.userBind(connection, dn: dn, password: password, deadline: deadline)
                // Read the entry as the service account when there is one, otherwise as the user themself.
                let read = { (connection: LDAPConnection) in
                    try connection.search(
                        base: dn, scope: LDAP_SCOPE_BASE, filter: "(objectClass=*)",
                        attributes: self.configuration.requestedAttributes, sizeLimit: 1, deadline: deadline)
                }
                let found = hasServiceAccount ? try self.withServiceConnection(deadline: deadline, read) : try read(connection)
                guard let entry = found.entries.first else {
                    throw LDAPFailure(code: LDAP_NO_SUCH_OBJECT, step: "read entry", diagnostic: "\(dn) cannot be read after binding")
                }
                let isAdmin = try self.adminStatus(of: entry, deadline: deadline, userConnection: hasServiceAccount ? nil : connection)
                return self.account(from: entry, typed: username, isAdmin: isAdmin)
            }
        }
    }

    /// The entries the user filter finds for `username` (at most two: one more than a login accepts).
    func findUser(username: String, filterTemplate: String, deadline: Deadline) throws -> SearchOutcome {
        let filter = LDAPEscaping.filter(filterTemplate, username: username)
        return try withServiceConnection(deadline: deadline) { connection in
            try connection.search(
                base: self.configuration.baseDN, scope: self.scope, filter: filter,
                attributes: self.configuration.requestedAttributes, sizeLimit: 2, deadline: deadline)
        }
    }

    var scope: Int32 {
        configuration.scope == .sub ? LDAP_SCOPE_SUBTREE : LDAP_SCOPE_ONELEVEL
    }

    /// Binds as the user. Anything but an outage is a refused login (wrong password, locked or expired account).
    func userBind(_ connection: LDAPConnection, dn: String, password: String, deadline: Deadline) throws {
        do {
            try connection.bind(dn: dn, password: password, deadline: deadline, step: "user bind")
        } catch let failure as LDAPFailure where !failure.isOutage {
            throw LoginRefusal(reason: "bind as \(dn) refused: \(failure)")
        }
    }

    /// A bind that is bound to fail, made where a real bind would have been.
    private func decoyBind(deadline: Deadline) throws {
        var generator = SystemRandomNumberGenerator()
        let password = (0..<16).map { _ in String(UInt8.random(in: 0...255, using: &generator), radix: 16) }.joined()
        let base = configuration.baseDN.isEmpty ? "" : "," + configuration.baseDN
        try withUserConnection(deadline: deadline) { connection in
            do {
                try connection.bind(dn: "cn=sgemployee-no-such-user" + base, password: password, deadline: deadline, step: "user bind")
            } catch let failure as LDAPFailure where !failure.isOutage {
                // Expected: invalid credentials.
            }
        }
    }

    // MARK: - Admin role

    /// Whether the entry is in the admin group, read now (never cached).
    func adminStatus(of entry: LDAPEntry, deadline: Deadline, userConnection: LDAPConnection? = nil) throws -> Bool {
        guard let rule = configuration.admin else { return false }
        return try rule.includes(entry, usernameAttribute: configuration.attributes.username) { groupDN, attribute, member in
            let filter = "(\(attribute.rawValue)=\(LDAPEscaping.filterValue(member)))"
            let search = { (connection: LDAPConnection) throws -> Bool in
                do {
                    let found = try connection.search(
                        base: groupDN, scope: LDAP_SCOPE_BASE, filter: filter, attributes: ["1.1"], sizeLimit: 1,
                        deadline: deadline, step: "group search")
                    return !found.entries.isEmpty
                } catch let failure as LDAPFailure where failure.code == LDAP_NO_SUCH_OBJECT {
                    self.logger.error("The admin group does not exist in the directory", metadata: ["group": "\(groupDN)"])
                    return false
                }
            }
            if let userConnection { return try search(userConnection) }
            return try withServiceConnection(deadline: deadline, search)
        }
    }

    // MARK: - Attributes

    /// The employee an entry describes. The username is the entry's own value (the one matching what was
    /// typed, if the attribute has several), so "Alice" and "alice" are one employee.
    func account(from entry: LDAPEntry, typed: String, isAdmin: Bool) -> DirectoryAccount {
        let names = configuration.attributes
        let usernames = entry.values(names.username).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let username = usernames.first { $0.caseInsensitiveCompare(typed) == .orderedSame } ?? usernames.first ?? typed
        let fullName = entry.first(names.fullName)
        var given = entry.first(names.givenName)
        var surname = entry.first(names.surname)
        if given == nil || surname == nil, let fullName {
            // Only a full name: "Ana María López" gives "Ana María" and "López" where parts are missing.
            var words = fullName.split(separator: " ").map(String.init)
            let last = words.count > 1 ? words.removeLast() : nil
            if surname == nil { surname = last }
            if given == nil { given = words.joined(separator: " ") }
        }
        return DirectoryAccount(
            username: username, name: Self.clipped(given ?? username), surname: Self.clipped(surname ?? ""),
            email: Self.clipped(entry.first(names.email) ?? "", 254), isAdmin: isAdmin,
            decidesAdmin: configuration.admin != nil, directoryName: entry.dn, displayName: fullName.map { Self.clipped($0) },
            title: entry.first(names.title).map { Self.clipped($0) }, phone: entry.first(names.phone).map { Self.clipped($0, 64) },
            team: names.team.map { entry.first($0).map { Self.clipped($0) } ?? "" },
            employment: EmploymentChange(start: date(names.employmentStart, of: entry), end: date(names.employmentEnd, of: entry)))
    }

    /// An employment date the entry holds: set, cleared when the entry has no value, kept when the attribute is not
    /// configured or its value is not a date (logged, so that a typo in the directory changes nothing).
    func date(_ attribute: String?, of entry: LDAPEntry) -> Change<CalendarDate> {
        guard let attribute else { return .keep }
        guard let text = entry.first(attribute)?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return .clear }
        guard let day = Self.directoryDate(text) else {
            logger.warning("\(entry.dn): \(attribute) '\(Self.clipped(text, 40))' is not a date (YYYY-MM-DD or YYYYMMDDHHMMSSZ); dates kept as they were")
            return .keep
        }
        return .set(day)
    }

    /// "2027-01-04", or an LDAP GeneralizedTime such as "20270104000000Z", whose date is taken as written: a
    /// holiday day is a calendar date, not an instant.
    static func directoryDate(_ text: String) -> CalendarDate? {
        if let day = CalendarDate(iso: text) { return day }
        let digits = Array(text.prefix(8))
        guard digits.count == 8, digits.allSatisfy({ $0.isASCII && $0.isNumber }), text.count == 8 || text.count >= 10,
              let year = Int(String(digits[0..<4])), let month = Int(String(digits[4..<6])), let day = Int(String(digits[6..<8]))
        else { return nil }
        return CalendarDate(year: year, month: month, day: day)
    }

    /// Directory values go into the database as text: control characters out, length bounded.
    static func clipped(_ value: String, _ limit: Int = 200) -> String {
        let cleaned = String(String.UnicodeScalarView(value.unicodeScalars.filter { $0.properties.generalCategory != .control }))
        return cleaned.count > limit ? String(cleaned.prefix(limit)) : cleaned
    }

    // MARK: - Connections

    func withServiceConnection<T>(deadline: Deadline, _ body: (LDAPConnection) throws -> T) throws -> T {
        try withConnection(from: servicePool, deadline: deadline, prepare: { connection in
            if let dn = self.configuration.bindDN {
                try connection.bind(dn: dn, password: self.configuration.bindPassword ?? "", deadline: deadline, step: "service bind")
            }
        }, body)
    }

    func withUserConnection<T>(deadline: Deadline, _ body: (LDAPConnection) throws -> T) throws -> T {
        try withConnection(from: userPool, deadline: deadline, prepare: { _ in }, body)
    }

    /// Runs `body` with a pooled connection, or a new one. A pooled connection that turns out to be dead (the
    /// directory restarted, or closed it) is dropped and the work retried, so a restart costs no failed login.
    private func withConnection<T>(
        from pool: ConnectionPool, deadline: Deadline, prepare: (LDAPConnection) throws -> Void,
        _ body: (LDAPConnection) throws -> T
    ) throws -> T {
        while true {
            let pooled = pool.take()
            let connection: LDAPConnection
            if let pooled {
                connection = pooled
            } else {
                connection = try LDAPConnection.open(configuration, deadline: deadline)
                do { try prepare(connection) } catch {
                    connection.close()
                    throw error
                }
            }
            do {
                let result = try body(connection)
                pool.give(connection)
                return result
            } catch let failure as LDAPFailure where failure.isOutage {
                connection.close()
                if pooled != nil, failure.isConnectionLost, !deadline.hasPassed {
                    logger.debug("LDAP connection lost; retrying on another", metadata: ["error": "\(failure)"])
                    continue
                }
                pool.drain()
                throw failure
            } catch {
                // The directory answered (a refused bind, no such object): the connection is still good.
                pool.give(connection)
                throw error
            }
        }
    }
}
