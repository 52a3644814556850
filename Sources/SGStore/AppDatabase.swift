import Foundation
import GRDB
import SGCore
import SGMigrations

/// Owns the database connection(s) and the schema. Production opens a `DatabasePool` on a file (WAL, busy
/// timeout, so `sgserver` and `sgadmin` can share it); tests may open an in-memory database.
public final class AppDatabase: Sendable {
    public let writer: any DatabaseWriter

    /// How long a writer waits for another process's write lock before giving up.
    public static let busyTimeout: TimeInterval = 5

    private init(writer: any DatabaseWriter) {
        self.writer = writer
    }

    public enum SchemaPolicy: Sendable {
        /// Apply pending migrations (the server at start, `sgadmin migrate`).
        case migrate
        /// Require the schema to be exactly current (other `sgadmin` commands).
        case requireCurrent
    }

    /// Opens (and with `.migrate` creates) the database file at `path`.
    public static func open(path: String, schema: SchemaPolicy = .migrate) throws -> AppDatabase {
        if schema == .requireCurrent && !FileManager.default.fileExists(atPath: path) {
            throw SGError.notFound("No database at \(path). Check --database / SG_DATABASE, or create it with `sgadmin migrate`.")
        }
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let pool = try DatabasePool(path: path, configuration: configuration())
        let database = AppDatabase(writer: pool)
        try database.prepareSchema(schema)
        return database
    }

    /// A private in-memory database, migrated: one per test.
    public static func inMemory() throws -> AppDatabase {
        let database = AppDatabase(writer: try DatabaseQueue(configuration: configuration()))
        try database.prepareSchema(.migrate)
        return database
    }

    private static func configuration() -> Configuration {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(busyTimeout)
        // Several readers in the server; writes are serialized by GRDB within a process and by SQLite's lock
        // across processes.
        configuration.maximumReaderCount = 4
        return configuration
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for migration in SchemaMigrations.all {
            let sql = migration.sql
            migrator.registerMigration(migration.identifier) { db in
                try db.execute(sql: sql)
            }
        }
        return migrator
    }

    /// Identifiers of the migrations this binary knows.
    public static var knownMigrations: [String] { SchemaMigrations.all.map(\.identifier) }

    private func prepareSchema(_ policy: SchemaPolicy) throws {
        let migrator = Self.migrator
        let (applied, unknown) = try writer.read { db -> ([String], [String]) in
            let applied = try migrator.appliedIdentifiers(db).sorted()
            return (applied, applied.filter { !Self.knownMigrations.contains($0) })
        }
        if !unknown.isEmpty {
            throw SGError.schemaTooNew(
                "The database has schema migrations this program does not know (\(unknown.joined(separator: ", "))). "
                    + "It was written by a newer version: upgrade sgserver and sgadmin instead of using this one.")
        }
        switch policy {
        case .migrate:
            try migrator.migrate(writer)
        case .requireCurrent:
            let missing = Self.knownMigrations.filter { !applied.contains($0) }
            if !missing.isEmpty {
                throw SGError.conflict(
                    "The database schema is behind this program (missing \(missing.joined(separator: ", "))). Run `sgadmin migrate`.")
            }
        }
    }

    /// Applies pending migrations; returns the identifiers applied now.
    public func migrate() throws -> [String] {
        let before = try writer.read { db in try Self.migrator.appliedIdentifiers(db) }
        try Self.migrator.migrate(writer)
        let after = try writer.read { db in try Self.migrator.appliedIdentifiers(db) }
        return Self.knownMigrations.filter { after.contains($0) && !before.contains($0) }
    }

    public func appliedMigrations() throws -> [String] {
        try writer.read { db in try Self.migrator.appliedIdentifiers(db).sorted() }
    }

    /// A write transaction that takes SQLite's write lock when it begins (BEGIN IMMEDIATE), so that what it
    /// reads cannot be changed by another process before it commits.
    public func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await Self.translatingBusy {
            try await writer.writeWithoutTransaction { db in
                var result: T?
                try db.inTransaction(.immediate) {
                    result = try body(db)
                    return .commit
                }
                return result!
            }
        }
    }

    public func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await Self.translatingBusy { try await writer.read(body) }
    }

    /// Another process held the write lock for longer than the busy timeout: say so instead of failing obscurely.
    private static func translatingBusy<T>(_ work: () async throws -> T) async throws -> T {
        do {
            return try await work()
        } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED {
            throw SGError.unavailable(
                "The database stayed locked by another writer for \(Int(busyTimeout)) s. Try again in a moment.",
                retryAfterSeconds: 1)
        }
    }
}

extension AppDatabase: HolidayStore {
    public func write<T: Sendable>(_ body: @escaping @Sendable (any HolidayTransaction) throws -> T) async throws -> T {
        try await write { (db: Database) in try body(SQLHolidayTransaction(db: db)) }
    }

    public func read<T: Sendable>(_ body: @escaping @Sendable (any HolidayTransaction) throws -> T) async throws -> T {
        try await read { (db: Database) in try body(SQLHolidayTransaction(db: db)) }
    }
}
