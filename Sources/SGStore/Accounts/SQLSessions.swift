import Foundation
import SGCore
import SGSQLite

/// Bearer tokens in `auth_tokens`, stored as digests.
struct SQLSessions: SessionStore {
    let database: AppDatabase

    func saveToken(digest: Data, employeeID: Int64, at: Date, expiresAt: Date, keeping: Int) async throws {
        try await database.writing { connection in
            try connection.execute("DELETE FROM auth_tokens WHERE expires_at < ?") { statement in
                statement.bind(1, Timestamp.format(at))
            }
            try connection.execute(
                "INSERT INTO auth_tokens (token_hash, employee_id, created_at, expires_at) VALUES (?, ?, ?, ?)"
            ) { statement in
                statement.bind(1, blob: digest)
                statement.bind(2, employeeID)
                statement.bind(3, Timestamp.format(at))
                statement.bind(4, Timestamp.format(expiresAt))
            }
            try connection.execute(
                """
                DELETE FROM auth_tokens WHERE employee_id = ?1 AND token_hash NOT IN (
                    SELECT token_hash FROM auth_tokens WHERE employee_id = ?1 ORDER BY created_at DESC, expires_at DESC LIMIT ?2)
                """
            ) { statement in
                statement.bind(1, employeeID)
                statement.bind(2, keeping)
            }
        }
    }

    /// Every authenticated request asks this, so it runs on a pooled read connection on the caller's thread, and a
    /// token found there is remembered by that connection. An entry is used only before its expiry and only while
    /// nothing has been committed to the database since it was read (`SQLConnection.validatedCache`).
    func employee(tokenDigest: Data, at now: Date) async throws -> Employee? {
        try database.withCheckedReader { connection, cache -> Employee? in
            if let cached = cache?[CachedTokens.self][tokenDigest] {
                if cached.expiresAt > now { return cached.employee }
                cache?[CachedTokens.self][tokenDigest] = nil
                return nil
            }
            let found = try connection.with(
                """
                SELECT \(Rows.employeeColumnsOfE), t.expires_at
                FROM auth_tokens t JOIN employees e ON e.id = t.employee_id
                WHERE t.token_hash = ? AND e.is_active = 1
                """
            ) { statement -> (employee: Employee, expiresAt: Date)? in
                statement.bind(1, blob: tokenDigest)
                return try statement.step() ? (Rows.employee(statement), try statement.timestamp(Rows.employeeColumnCount)) : nil
            }
            guard let found, found.expiresAt > now else { return nil }
            if let cache, cache[CachedTokens.self].count < CachedTokens.maximumTokens { cache[CachedTokens.self][tokenDigest] = found }
            return found.employee
        }.result
    }

    func deleteToken(digest: Data) async throws {
        try await database.writing { connection in
            try connection.execute("DELETE FROM auth_tokens WHERE token_hash = ?") { statement in statement.bind(1, blob: digest) }
        }
    }
}
