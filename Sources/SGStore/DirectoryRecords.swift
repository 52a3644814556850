import Foundation
import GRDB
import SGCore

/// What the company directory said about an employee at the last login or sync.
public struct DirectoryProfile: Sendable, Equatable {
    public var employeeID: Int64
    public var username: String
    public var distinguishedName: String
    public var displayName: String?
    public var title: String?
    public var phone: String?
    public var isActive: Bool
    public var syncedAt: Date?
}

/// The `directory_accounts` table: which employees a directory manages, and the details only it holds.
enum DirectoryRecords {
    static func save(_ db: Database, employeeID: Int64, account: DirectoryAccount, at now: Date) throws {
        guard let dn = account.directoryName else { return }
        try db.execute(
            sql: """
                INSERT INTO directory_accounts (employee_id, dn, display_name, title, phone, synced_at)
                VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (employee_id) DO UPDATE SET
                    dn = excluded.dn, display_name = excluded.display_name, title = excluded.title,
                    phone = excluded.phone, synced_at = excluded.synced_at
                """,
            arguments: [employeeID, dn, account.displayName, account.title, account.phone, Timestamp.format(now)])
    }

    static func profile(from row: Row) -> DirectoryProfile {
        DirectoryProfile(
            employeeID: row["employee_id"], username: row["username"], distinguishedName: row["dn"],
            displayName: row["display_name"], title: row["title"], phone: row["phone"], isActive: row["is_active"],
            syncedAt: (row["synced_at"] as String?).flatMap(Timestamp.parse))
    }

    static let profileSelect = """
        SELECT d.employee_id, e.username, d.dn, d.display_name, d.title, d.phone, e.is_active, d.synced_at
        FROM directory_accounts d JOIN employees e ON e.id = d.employee_id
        """
}

extension AppDatabase {
    /// The directory details of one employee, or nil for a local account.
    public func directoryProfile(username: String) async throws -> DirectoryProfile? {
        try await read { (db: Database) in
            try Row.fetchOne(db, sql: DirectoryRecords.profileSelect + " WHERE e.username = ?", arguments: [username])
                .map(DirectoryRecords.profile(from:))
        }
    }

    /// Every employee a directory manages, active or not, by username.
    public func directoryProfiles() async throws -> [DirectoryProfile] {
        try await read { (db: Database) in
            try Row.fetchAll(db, sql: DirectoryRecords.profileSelect + " ORDER BY e.username")
                .map(DirectoryRecords.profile(from:))
        }
    }
}
