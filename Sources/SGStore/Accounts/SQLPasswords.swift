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

    func accounts(login: String, limit: Int) throws -> [PasswordAccount] {
        // One statement for both ways of naming an account, so a login that is a username costs what one that is
        // nothing costs (the e-mail comparison reads every employee either way). The username's match sorts first.
        let found = try accounts(
            "e.username = ?1 OR e.email = ?1 COLLATE NOCASE ORDER BY e.username = ?1 DESC, e.id LIMIT ?2"
        ) { statement in
            statement.bind(1, login)
            statement.bind(2, limit)
        }
        if let first = found.first, first.employee.username.lowercased() == login.lowercased() { return [first] }
        return found.filter { $0.employee.email.lowercased() == login.lowercased() }
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

    func deleteTokens(employeeID: Int64, keeping kept: Data?) throws {
        guard let kept else {
            try connection.execute("DELETE FROM auth_tokens WHERE employee_id = ?") { statement in statement.bind(1, employeeID) }
            return
        }
        try connection.execute("DELETE FROM auth_tokens WHERE employee_id = ? AND token_hash <> ?") { statement in
            statement.bind(1, employeeID)
            statement.bind(2, blob: kept)
        }
    }

    func standInAccount() throws -> PasswordAccount? {
        try accounts("1 ORDER BY e.id LIMIT 1") { _ in }.first
    }

    func undoing(_ body: () throws -> Void) throws {
        try connection.execute("SAVEPOINT undone")
        do {
            try body()
        } catch {
            try? connection.execute("ROLLBACK TO undone")
            try? connection.execute("RELEASE undone")
            throw error
        }
        try connection.execute("ROLLBACK TO undone")
        try connection.execute("RELEASE undone")
    }
}
