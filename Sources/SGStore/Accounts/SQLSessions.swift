import Foundation
import SGCore
import SGSQLite

/// Sessions in `sessions`, their access tokens in `auth_tokens`, every token stored as its digest. Ending a
/// session deletes its row; its access tokens go with it (ON DELETE CASCADE).
struct SQLSessions: SessionStore {
    let database: AppDatabase

    func startSession(_ session: NewSession, keeping: Int) async throws -> Int64 {
        try await database.writing { connection in
            try Self.sweep(connection, at: session.at)
            try connection.execute(
                """
                INSERT INTO sessions
                    (employee_id, handle, refresh_hash, access_hash, created_at, last_used_at, expires_at, user_agent, device_name)
                VALUES (?, ?, ?, ?, ?5, ?5, ?, ?, ?)
                """
            ) { statement in
                statement.bind(1, session.employeeID)
                statement.bind(2, session.handle)
                statement.bind(3, blob: session.refreshDigest)
                statement.bind(4, blob: session.accessDigest)
                statement.bind(5, Timestamp.format(session.at))
                statement.bind(6, Timestamp.format(session.expiresAt))
                statement.bind(7, session.client.userAgent)
                statement.bind(8, session.client.deviceName)
            }
            let id = try connection.lastInsertedRowID
            try Self.insertAccessToken(connection, digest: session.accessDigest, sessionID: id, employeeID: session.employeeID,
                                       at: session.at, expiresAt: session.accessExpiresAt)
            try connection.execute(
                """
                DELETE FROM sessions WHERE employee_id = ?1 AND id NOT IN (
                    SELECT id FROM sessions WHERE employee_id = ?1 ORDER BY last_used_at DESC, id DESC LIMIT ?2)
                """
            ) { statement in
                statement.bind(1, session.employeeID)
                statement.bind(2, keeping)
            }
            return id
        }
    }

    /// Expired sessions (and with them their tokens) and expired access tokens, through the indexes on their expiry.
    private static func sweep(_ connection: SQLConnection, at now: Date) throws {
        for sql in ["DELETE FROM sessions WHERE expires_at < ?", "DELETE FROM auth_tokens WHERE expires_at < ?"] {
            try connection.execute(sql) { statement in statement.bind(1, Timestamp.format(now)) }
        }
    }

    private static func insertAccessToken(
        _ connection: SQLConnection, digest: Data, sessionID: Int64, employeeID: Int64, at: Date, expiresAt: Date
    ) throws {
        try connection.execute(
            "INSERT INTO auth_tokens (token_hash, employee_id, created_at, expires_at, session_id) VALUES (?, ?, ?, ?, ?)"
        ) { statement in
            statement.bind(1, blob: digest)
            statement.bind(2, employeeID)
            statement.bind(3, Timestamp.format(at))
            statement.bind(4, Timestamp.format(expiresAt))
            statement.bind(5, sessionID)
        }
    }

    /// Every authenticated request asks this. The tokens found are kept by the server for every request
    /// (`TokenCache`), each only before its expiry and until a commit ends or changes it or changes its employee:
    /// ending a session or deactivating its employee is such a commit, so the very next request sees it.
    func session(accessDigest: Data, at now: Date) async throws -> AuthenticatedSession? {
        try await database.tokens.session(for: accessDigest, at: now, on: database) { [database] in
            try await database.onReadThread {
                try database.withReader { connection in try Self.lookUp(connection, accessDigest: accessDigest) }
            }
        }
    }

    /// The live token's session, employee and expiry.
    static func lookUp(_ connection: SQLConnection, accessDigest: Data) throws -> (session: AuthenticatedSession, expiresAt: Date)? {
        try connection.with(
            """
            SELECT \(Rows.employeeColumnsOfE), t.expires_at, t.session_id
            FROM auth_tokens t JOIN employees e ON e.id = t.employee_id
            WHERE t.token_hash = ? AND e.is_active = 1
            """
        ) { statement -> (session: AuthenticatedSession, expiresAt: Date)? in
            statement.bind(1, blob: accessDigest)
            guard try statement.step() else { return nil }
            let session = AuthenticatedSession(employee: Rows.employee(statement), sessionID: statement.int64(Rows.employeeColumnCount + 1))
            return (session, try statement.timestamp(Rows.employeeColumnCount))
        }
    }

    func refresh(_ claim: RefreshClaim, to next: NextTokens) async throws -> RefreshOutcome {
        // Anyone may send a well-formed token: one that names no session costs a read, never the write lock.
        let named = try await database.onReadThread { [database] in try database.withReader { connection in
            try connection.with("SELECT 1 FROM sessions WHERE handle = ?") { statement in
                statement.bind(1, claim.handle)
                return try statement.step()
            }
        } }
        guard named else { return .unknown }
        return try await database.writing { connection -> RefreshOutcome in
            let now = claim.at
            let found = try connection.with(
                "SELECT id, refresh_hash, expires_at, employee_id FROM sessions WHERE handle = ?"
            ) { statement -> (id: Int64, digest: Data, expiresAt: Date, employeeID: Int64)? in
                statement.bind(1, claim.handle)
                guard try statement.step() else { return nil }
                return (statement.int64(0), statement.blob(1), try statement.timestamp(2), statement.int64(3))
            }
            guard let found else { return .unknown }
            // Committed with the answer: the session ends whoever presented the old token.
            guard found.digest == claim.digest else {
                try Self.delete(connection, session: found.id)
                return .reused
            }
            guard found.expiresAt > now, let employee = try Rows.employee(connection, id: found.employeeID), employee.isActive else {
                try Self.delete(connection, session: found.id)
                return .unknown
            }
            try Self.sweep(connection, at: now)
            // The access token this refresh replaces stays until it expires; any older one ends now.
            try connection.execute(
                "DELETE FROM auth_tokens WHERE session_id = ?1 AND "
                    + connection.dialect.distinct("token_hash", "(SELECT access_hash FROM sessions WHERE id = ?1)")
            ) { statement in statement.bind(1, found.id) }
            let accessExpires = min(now.addingTimeInterval(next.accessLifetime), found.expiresAt)
            try Self.insertAccessToken(connection, digest: next.accessDigest, sessionID: found.id, employeeID: employee.id,
                                       at: now, expiresAt: accessExpires)
            try connection.execute("UPDATE sessions SET refresh_hash = ?, access_hash = ?, last_used_at = ? WHERE id = ?") { statement in
                statement.bind(1, blob: next.refreshDigest)
                statement.bind(2, blob: next.accessDigest)
                statement.bind(3, Timestamp.format(now))
                statement.bind(4, found.id)
            }
            return .refreshed(employee: employee, sessionID: found.id, accessExpiresAt: accessExpires, sessionExpiresAt: found.expiresAt)
        }
    }

    private static func delete(_ connection: SQLConnection, session id: Int64) throws {
        try connection.execute("DELETE FROM sessions WHERE id = ?") { statement in statement.bind(1, id) }
    }

    func sessions(employeeID: Int64, at now: Date) async throws -> [SessionSummary] {
        try await database.onReadThread { [database] in try Self.sessions(database, employeeID: employeeID, at: now) }
    }

    private static func sessions(_ database: AppDatabase, employeeID: Int64, at now: Date) throws -> [SessionSummary] {
        try database.reading { connection in
            try connection.with(
                """
                SELECT id, created_at, last_used_at, expires_at, user_agent, device_name FROM sessions
                WHERE employee_id = ? AND expires_at > ? ORDER BY last_used_at DESC, id DESC
                """
            ) { statement in
                statement.bind(1, employeeID)
                statement.bind(2, Timestamp.format(now))
                var sessions: [SessionSummary] = []
                while try statement.step() {
                    sessions.append(SessionSummary(
                        id: statement.int64(0), createdAt: try statement.timestamp(1), lastUsedAt: try statement.timestamp(2),
                        expiresAt: try statement.timestamp(3),
                        client: SessionClient(userAgent: statement.optionalText(4), deviceName: statement.optionalText(5))))
                }
                return sessions
            }
        }
    }

    func endSession(id: Int64, employeeID: Int64) async throws -> Bool {
        try await database.writing { connection in
            try connection.execute("DELETE FROM sessions WHERE id = ? AND employee_id = ?") { statement in
                statement.bind(1, id)
                statement.bind(2, employeeID)
            }
            return connection.changes > 0
        }
    }

    func endSession(accessDigest: Data) async throws {
        try await database.writing { connection in
            try connection.execute("DELETE FROM sessions WHERE id = (SELECT session_id FROM auth_tokens WHERE token_hash = ?)") { statement in
                statement.bind(1, blob: accessDigest)
            }
        }
    }

    func endSessions(employeeID: Int64, keeping: Int64?) async throws -> Int {
        try await database.writing { connection in
            try connection.execute("DELETE FROM sessions WHERE employee_id = ? AND " + connection.dialect.distinct("id", "?")) { statement in
                statement.bind(1, employeeID)
                statement.bind(2, keeping)
            }
            return connection.changes
        }
    }
}
