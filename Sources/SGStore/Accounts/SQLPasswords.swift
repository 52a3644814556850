import Foundation
import SGCore
import SGSQLite

/// `PasswordWriting` over one `SQLConnection`: password hashes in `employees`, reset tokens in `password_resets`
/// (by digest), the bearer tokens a change revokes, and the reset e-mail through the outbox.
struct SQLPasswords: PasswordWriting, SQLOutboxUser {
    let connection: SQLConnection

    private static let accountSelect = """
        SELECT \(Rows.employeeColumnsOfE), e.password_hash, d.employee_id IS NOT NULL
        FROM employees e LEFT JOIN directory_accounts d ON d.employee_id = e.id
        """

    private static func account(_ statement: SQLStatement) -> PasswordAccount {
        let next = Rows.employeeColumnCount
        return PasswordAccount(
            employee: Rows.employee(statement), passwordHash: statement.optionalText(next),
            isDirectoryAccount: statement.bool(next + 1))
    }

    private func accounts(_ condition: String, _ bind: (SQLStatement) -> Void) throws -> [PasswordAccount] {
        try connection.with(Self.accountSelect + " WHERE " + condition) { statement in
            bind(statement)
            var found: [PasswordAccount] = []
            while try statement.step() { found.append(Self.account(statement)) }
            return found
        }
    }

    func account(employeeID: Int64) throws -> PasswordAccount? {
        try accounts("e.id = ?") { $0.bind(1, employeeID) }.first
    }

    func account(username: String) throws -> PasswordAccount? {
        try accounts("e.username = ?") { $0.bind(1, username) }.first
    }

    func accounts(login: String, limit: Int) throws -> (named: [PasswordAccount], standIn: PasswordAccount?) {
        // One statement whatever the login names, so that every request reads alike (the e-mail comparison reads
        // every employee either way): the username's match first, then the e-mail's, then the first employee, who
        // stands in when no one is named.
        let email = connection.dialect.equalIgnoringCase("e.email", "?1")
        let found = try accounts(
            """
            e.username = ?1 OR \(email) OR e.id = (SELECT min(id) FROM employees)
            ORDER BY e.username = ?1 DESC, \(email) DESC, e.id LIMIT ?2
            """
        ) { statement in
            statement.bind(1, login)
            statement.bind(2, limit + 1)
        }
        let lowered = login.lowercased()
        if let first = found.first, first.employee.username.lowercased() == lowered { return ([first], first) }
        return (Array(found.filter { $0.employee.email.lowercased() == lowered }.prefix(limit)), found.last)
    }

    func resetToken(digest: Data) throws -> PasswordResetToken? {
        try connection.with("SELECT employee_id, created_at, expires_at, used_at FROM password_resets WHERE token_hash = ?") { statement in
            statement.bind(1, blob: digest)
            guard try statement.step() else { return nil }
            return PasswordResetToken(
                employeeID: statement.int64(0), createdAt: try statement.timestamp(1), expiresAt: try statement.timestamp(2),
                usedAt: try statement.optionalTimestamp(3))
        }
    }

    // MARK: Writes

    func setPasswordHash(employeeID: Int64, _ hash: String) throws {
        try connection.execute("UPDATE employees SET password_hash = ? WHERE id = ?") { statement in
            statement.bind(1, hash)
            statement.bind(2, employeeID)
        }
    }

    func replacePasswordHash(employeeID: Int64, expected: String, with hash: String) throws -> Bool {
        try connection.execute("UPDATE employees SET password_hash = ? WHERE id = ? AND password_hash = ?") { statement in
            statement.bind(1, hash)
            statement.bind(2, employeeID)
            statement.bind(3, expected)
        }
        return connection.changes > 0
    }

    func insertResetToken(digest: Data, employeeID: Int64, at: Date, expiresAt: Date) throws {
        try connection.execute(
            "INSERT INTO password_resets (token_hash, employee_id, created_at, expires_at) VALUES (?, ?, ?, ?)"
        ) { statement in
            statement.bind(1, blob: digest)
            statement.bind(2, employeeID)
            statement.bind(3, Timestamp.format(at))
            statement.bind(4, Timestamp.format(expiresAt))
        }
    }

    func markResetTokenUsed(digest: Data, at: Date) throws -> Bool {
        try connection.execute("UPDATE password_resets SET used_at = ? WHERE token_hash = ? AND used_at IS NULL") { statement in
            statement.bind(1, Timestamp.format(at))
            statement.bind(2, blob: digest)
        }
        return connection.changes > 0
    }

    func deleteUnusedResetTokens(employeeID: Int64) throws {
        try connection.execute("DELETE FROM password_resets WHERE employee_id = ? AND used_at IS NULL") { statement in
            statement.bind(1, employeeID)
        }
    }

    func deleteResetTokens(expiredBefore date: Date) throws {
        try connection.execute("DELETE FROM password_resets WHERE expires_at < ?") { statement in
            statement.bind(1, Timestamp.format(date))
        }
    }

    func endSessions(employeeID: Int64, keepingTokenDigest kept: Data?) throws {
        // A NULL from the subquery (no token kept, or an unknown one) keeps nothing.
        try connection.execute(
            "DELETE FROM sessions WHERE employee_id = ? AND "
                + connection.dialect.distinct("id", "(SELECT session_id FROM auth_tokens WHERE token_hash = ?)")
        ) { statement in
            statement.bind(1, employeeID)
            if let kept { statement.bind(2, blob: kept) }
        }
    }

    func revokeCalendarFeeds(employeeID: Int64) throws {
        try connection.execute("DELETE FROM calendar_feeds WHERE employee_id = ?") { statement in statement.bind(1, employeeID) }
    }

    func savepoint(undo: Bool, _ body: () throws -> Void) throws {
        try connection.execute("SAVEPOINT password_writes")
        do {
            try body()
        } catch {
            try? connection.execute("ROLLBACK TO password_writes")
            try? connection.execute("RELEASE password_writes")
            WriterKept.forget(connection)
            throw error
        }
        if undo {
            try connection.execute("ROLLBACK TO password_writes")
            WriterKept.forget(connection)
        }
        try connection.execute("RELEASE password_writes")
    }
}
