import Foundation
import GRDB
import HummingbirdBcrypt
import SGCore

/// The fields of a new local account.
public struct NewEmployee: Sendable {
    public var username: String
    public var name: String
    public var surname: String
    public var email: String
    public var isAdmin: Bool
    /// Already hashed: plain passwords never reach the database layer's callers' logs.
    public var passwordHash: String?

    public init(username: String, name: String, surname: String, email: String, isAdmin: Bool, passwordHash: String?) {
        self.username = username
        self.name = name
        self.surname = surname
        self.email = email
        self.isAdmin = isAdmin
        self.passwordHash = passwordHash
    }
}

public enum Passwords {
    public static let minimumLength = 8
    public static let maximumLength = 72  // bcrypt reads no further

    /// Hashes off the caller's thread: bcrypt is slow on purpose.
    public static func hash(_ password: String, cost: UInt8 = 12) async throws -> String {
        try validate(password)
        return await offload { Bcrypt.hash(password, cost: cost) }
    }

    public static func validate(_ password: String) throws {
        guard password.utf8.count >= minimumLength else {
            throw SGError.invalid(field: "password", message: "at least \(minimumLength) characters")
        }
        guard password.utf8.count <= maximumLength else {
            throw SGError.invalid(field: "password", message: "at most \(maximumLength) bytes")
        }
        guard !password.unicodeScalars.contains("\u{0}") else {
            throw SGError.invalid(field: "password", message: "must not contain the NUL character (U+0000)")
        }
    }

    public static func verify(_ password: String, hash: String) async -> Bool {
        await offload { Bcrypt.verify(password, hash: hash) }
    }

    /// Runs CPU-heavy work on a Dispatch thread rather than on the cooperative pool or an event loop.
    static func offload<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async { continuation.resume(returning: work()) }
        }
    }
}

public enum EmployeeRules {
    /// Trims and checks the fields of an account with the profile's rules; throws a field-level `SGError.invalid`.
    public static func validated(_ new: NewEmployee) throws -> NewEmployee {
        var new = new
        new.username = new.username.trimmingCharacters(in: .whitespaces)
        let usernameCharacters = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
        guard (1...64).contains(new.username.count), new.username.allSatisfy(usernameCharacters.contains) else {
            throw SGError.invalid(field: "username", message: "1 to 64 characters from letters, digits, '.', '_' and '-'")
        }
        new.name = try TextRules.line(new.name, field: "name", maximum: ProfileRules.maximumNameLength)
        new.surname = try TextRules.line(new.surname, field: "surname", maximum: ProfileRules.maximumNameLength)
        new.email = try TextRules.email(new.email, field: "email")
        return new
    }
}

extension AppDatabase {
    public func addEmployee(_ new: NewEmployee, at now: Date = Date()) async throws -> Employee {
        let new = try EmployeeRules.validated(new)
        return try await write { (db: Database) in
            if try Queries.employee(db, username: new.username) != nil {
                throw SGError.conflict("The username '\(new.username)' is taken.")
            }
            try db.execute(
                sql: """
                    INSERT INTO employees (username, name, surname, email, is_admin, is_active, password_hash, created_at)
                    VALUES (?, ?, ?, ?, ?, 1, ?, ?)
                    """,
                arguments: [new.username, new.name, new.surname, new.email, new.isAdmin, new.passwordHash, Timestamp.format(now)])
            return try Queries.employee(db, id: db.lastInsertedRowID)!
        }
    }

    /// Creates or refreshes the employee a directory vouches for. Fields the directory holds are overwritten,
    /// so a change in the directory shows at the next login; the admin flag follows the directory too when it
    /// decides it. Fields only the app holds are left as they are.
    ///
    /// `owned` names the profile fields the directory holds: position and phone among them are taken from the
    /// entry's title and phone (and cleared when the entry has none); fields it does not hold are left as edited.
    public func provision(_ account: DirectoryAccount, owned: Set<ProfileField> = [], at now: Date = Date()) async throws -> Employee {
        try await write { (db: Database) in
            let id: Int64
            if let existing = try Queries.employee(db, username: account.username) {
                try db.execute(
                    sql: "UPDATE employees SET name = ?, surname = ?, email = ?, is_admin = ? WHERE id = ?",
                    arguments: [account.name, account.surname, account.email,
                                account.decidesAdmin ? account.isAdmin : existing.isAdmin, existing.id])
                id = existing.id
            } else {
                try db.execute(
                    sql: """
                        INSERT INTO employees (username, name, surname, email, is_admin, is_active, created_at)
                        VALUES (?, ?, ?, ?, ?, 1, ?)
                        """,
                    arguments: [account.username, account.name, account.surname, account.email,
                                account.decidesAdmin && account.isAdmin, Timestamp.format(now)])
                id = db.lastInsertedRowID
            }
            if owned.contains(.position) {
                try db.execute(sql: "UPDATE employees SET position = ? WHERE id = ?", arguments: [account.title, id])
            }
            if owned.contains(.phone) {
                try db.execute(sql: "UPDATE employees SET phone = ? WHERE id = ?", arguments: [account.phone, id])
            }
            try DirectoryRecords.save(db, employeeID: id, account: account, at: now)
            return try Queries.employee(db, id: id)!
        }
    }

    public func employee(id: Int64) async throws -> Employee? {
        try withReader { connection in try Rows.employee(connection, id: id) }
    }

    public func employee(username: String) async throws -> Employee? {
        try withReader { connection in try Rows.employee(connection, username: username) }
    }

    public func employees(includeInactive: Bool = true) async throws -> [Employee] {
        try await read { (db: Database) in
            try Row.fetchAll(
                db,
                sql: "SELECT \(Queries.employeeColumns) FROM employees \(includeInactive ? "" : "WHERE is_active = 1") ORDER BY surname, name, id"
            ).map(Queries.employee(from:))
        }
    }

    /// Deactivates an account: its history stays, its tokens are revoked, it cannot log in again.
    public func deactivateEmployee(username: String, at now: Date = Date()) async throws -> Employee {
        try await write { (db: Database) in
            guard let employee = try Queries.employee(db, username: username) else {
                throw SGError.notFound("No employee with username '\(username)'.")
            }
            guard employee.isActive else {
                throw SGError.conflict("\(employee.username) is already deactivated.")
            }
            try db.execute(
                sql: "UPDATE employees SET is_active = 0, deactivated_at = ? WHERE id = ?",
                arguments: [Timestamp.format(now), employee.id])
            try db.execute(sql: "DELETE FROM auth_tokens WHERE employee_id = ?", arguments: [employee.id])
            return try Queries.employee(db, id: employee.id)!
        }
    }

    func passwordHash(username: String) async throws -> String? {
        try await read { (db: Database) in
            try String.fetchOne(
                db.cachedStatement(sql: "SELECT password_hash FROM employees WHERE username = ?"), arguments: [username])
        }
    }
}
