import Foundation
import GRDB
import SGCore
import SGPostgres
#if canImport(Glibc)
import Glibc
#endif

/// A lock on a file beside the database (`<database>-server.lock`) by which a running server tells `sgadmin
/// restore` that it has the database open. The server holds it shared for as long as it runs; a restore takes it
/// exclusive, so it is refused while any server runs and no server starts while it replaces the file. The kernel
/// drops the lock with the process, however it ends (kill -9 included): it never goes stale.
public final class DatabaseHold: Sendable {
    private let descriptor: Int32

    private init(descriptor: Int32) { self.descriptor = descriptor }

    deinit { close(descriptor) }

    public static func lockPath(forDatabase path: String) -> String { path + "-server.lock" }

    /// The server's hold, kept until the process ends. Throws when a restore is replacing the database.
    public static func serving(_ path: String) throws -> DatabaseHold {
        try take(path, LOCK_SH) {
            "`sgadmin restore` is replacing the database at \(path); start the server once it has finished."
        }
    }

    /// `sgadmin restore`'s hold. Throws when a server has the database open.
    public static func replacing(_ path: String) throws -> DatabaseHold {
        try take(path, LOCK_EX) {
            "A server has the database at \(path) open. Stop sgserver first, then restore."
        }
    }

    private static func take(_ path: String, _ operation: Int32, refused: () -> String) throws -> DatabaseHold {
        let lockPath = lockPath(forDatabase: path)
        try FileManager.default.createDirectory(
            at: URL(fileURLWithPath: lockPath).deletingLastPathComponent(), withIntermediateDirectories: true)
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw SGError.unavailable(
                "Cannot open \(lockPath): \(String(cString: strerror(errno))). The database's folder must be writable.",
                retryAfterSeconds: AppDatabase.storageRetryAfter)
        }
        guard flock(descriptor, operation | LOCK_NB) == 0 else {
            let error = errno
            close(descriptor)
            if error == EWOULDBLOCK { throw SGError.conflict(refused()) }
            throw SGError.unavailable("Cannot lock \(lockPath): \(String(cString: strerror(error))).", retryAfterSeconds: 1)
        }
        return DatabaseHold(descriptor: descriptor)
    }
}

/// One check of `sgadmin check` and how many violations it found.
public struct CheckFinding: Sendable, Equatable {
    public let check: String
    public let violations: Int
    /// What SQLite said, for the integrity checks that find something.
    public let detail: String?

    public init(check: String, violations: Int, detail: String? = nil) {
        self.check = check
        self.violations = violations
        self.detail = detail
    }
}

/// What a file offered for a restore holds.
public struct VerifiedBackup: Sendable {
    /// Migrations applied in the file.
    public let migrations: [String]
    /// Migrations of this program the file lacks: applied when the server starts on it (or by `sgadmin migrate`).
    public let behind: [String]
}

extension AppDatabase {
    /// `PRAGMA integrity_check` and every invariant of Invariants.sql (foreign keys included) on one snapshot, then
    /// every year's balances, as the core computes them, never below zero.
    public func checkInvariants() async throws -> [CheckFinding] {
        var findings = try await postgres == nil ? sqliteChecks() : postgresChecks()
        let holidays = services().holidays
        // The host's operator reads every balance, as `sgadmin export --balances` does.
        let checker = Actor(employeeID: nil, name: "check (sgadmin)", isAdmin: true)
        let years = try await column(sql: "SELECT DISTINCT year FROM holiday_request_days ORDER BY year").compactMap { $0.flatMap { Int($0) } }
        for year in years {
            let below = try await holidays.balances(year: year, by: checker).filter { $0.1.remaining < .zero }
            findings.append(CheckFinding(
                check: "balances of \(year) never below zero", violations: below.count,
                detail: below.isEmpty ? nil : below.prefix(10).map(\.0.username).joined(separator: ", ")))
        }
        return findings
    }

    /// PostgreSQL's invariants, in its dialect (Invariants.postgres.sql), on one snapshot. PostgreSQL checks its
    /// own pages and foreign keys as it goes; it has no integrity check to ask for.
    private func postgresChecks() throws -> [CheckFinding] {
        let invariants = SchemaRules.fill(String(decoding: PackageResources.Invariants_postgres_sql, as: UTF8.self))
        return try reading { connection in
            try PostgresSession.statements(of: invariants).map { sql in
                try connection.with(sql) { statement in
                    guard try statement.step() else { throw SGError.conflict("The check `\(sql.prefix(60))` gave no row.") }
                    return CheckFinding(check: statement.text(0), violations: statement.int(1))
                }
            }
        }
    }

    private func sqliteChecks() async throws -> [CheckFinding] {
        try await read { db in
            var findings = [try Self.integrity(db)]
            let invariants = SchemaRules.fill(String(decoding: PackageResources.Invariants_sql, as: UTF8.self))
            let statements = try db.allStatements(sql: invariants)
            while let statement = try statements.next() as Statement? {
                guard let row = try Row.fetchOne(statement) else { continue }
                findings.append(CheckFinding(check: row[0], violations: row[1]))
            }
            return findings
        }
    }

    private static func integrity(_ db: Database) throws -> CheckFinding {
        let lines = try String.fetchAll(db, sql: "PRAGMA integrity_check")
        let clean = lines == ["ok"]
        return CheckFinding(
            check: "integrity_check", violations: clean ? 0 : lines.count,
            detail: clean ? nil : lines.prefix(10).joined(separator: "; "))
    }

    /// Copies the database into `file` while others read and write it: SQLite's online backup in one step (one
    /// snapshot, so the copy is consistent), into a file beside `file` that is renamed over it only when whole.
    /// The copy is readable by its owner only, and in rollback-journal mode, a single self-contained file.
    public static func backup(databaseAt path: String, to file: String) throws {
        guard FileManager.default.fileExists(atPath: path) else {
            throw SGError.notFound("No database at \(path). Check --database / SG_DATABASE.")
        }
        let target = URL(fileURLWithPath: file)
        let temporary = target.deletingLastPathComponent()
            .appendingPathComponent(".\(target.lastPathComponent).partial-\(getpid())").path
        try? FileManager.default.removeItem(atPath: temporary)
        guard FileManager.default.createFile(atPath: temporary, contents: nil, attributes: [.posixPermissions: 0o600]) else {
            throw SGError.unavailable(
                "Cannot write in \(target.deletingLastPathComponent().path): check that the folder exists and is writable.",
                retryAfterSeconds: storageRetryAfter)
        }
        do {
            try translatingErrors {
                let source = try DatabaseQueue(path: path, configuration: plainConfiguration())
                let copy = try DatabaseQueue(path: temporary, configuration: plainConfiguration())
                try source.backup(to: copy)
                try copy.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = DELETE") }
                try copy.close()
                try source.close()
            }
            try durablyRename(temporary, to: file)
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            throw error
        }
    }

    /// Reads `file` as a restore would take it: a SQLite database whose integrity check passes and whose schema this
    /// program knows (not written by a newer version). Throws with what is wrong otherwise.
    public static func verifyBackup(_ file: String) throws -> VerifiedBackup {
        guard FileManager.default.fileExists(atPath: file) else { throw SGError.notFound("No file at \(file).") }
        var configuration = plainConfiguration()
        configuration.readonly = true
        let migrations: [String]
        do {
            let queue = try DatabaseQueue(path: file, configuration: configuration)
            defer { try? queue.close() }
            migrations = try queue.read { db in
                let integrity = try integrity(db)
                guard integrity.violations == 0 else {
                    throw SGError.invalid(field: "file", message: "\(file) fails SQLite's integrity check: \(integrity.detail ?? "")")
                }
                guard try db.tableExists("grdb_migrations") else {
                    throw SGError.invalid(field: "file", message: "\(file) is not an SGEmployee database (it has no schema migrations).")
                }
                return try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier")
            }
        } catch let error as SGError {
            throw error
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB || error.resultCode == .SQLITE_CORRUPT {
            throw SGError.invalid(field: "file", message: "\(file) is not a readable SQLite database: \(error.message ?? "\(error)").")
        } catch {
            throw translated(error)
        }
        let unknown = migrations.filter { !knownMigrations.contains($0) }
        guard unknown.isEmpty else {
            throw SGError.schemaTooNew(
                "\(file) has schema migrations this program does not know (\(unknown.joined(separator: ", "))): it was written "
                    + "by a newer version. Restore it with that version.")
        }
        return VerifiedBackup(migrations: migrations, behind: knownMigrations.filter { !migrations.contains($0) })
    }

    /// Replaces the database at `path` with the backup `file`, after `verifyBackup`, while holding the database
    /// exclusively (`DatabaseHold.replacing`): refused while a server runs on it. The copy is SQLite's backup into
    /// the database itself, one transaction, so a crash leaves either the old database or the new one.
    @discardableResult
    public static func restore(from file: String, to path: String) throws -> VerifiedBackup {
        let verified = try verifyBackup(file)
        let hold = try DatabaseHold.replacing(path)
        defer { withExtendedLifetime(hold) {} }
        if !FileManager.default.fileExists(atPath: path) {
            _ = FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600])
        }
        try translatingErrors {
            var sourceConfiguration = plainConfiguration()
            sourceConfiguration.readonly = true
            let source = try DatabaseQueue(path: file, configuration: sourceConfiguration)
            let target = try DatabaseQueue(path: path, configuration: plainConfiguration())
            try source.backup(to: target)
            try target.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA journal_mode = WAL")
                try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
            }
            try target.close()
            try source.close()
        }
        return verified
    }

    private static func plainConfiguration() -> Configuration {
        var configuration = Configuration()
        configuration.busyMode = .timeout(busyTimeout)
        return configuration
    }

    /// Flushes `source` to disk, renames it to `target` and flushes the folder, so that after a crash `target` is
    /// either what it was or the whole new file.
    private static func durablyRename(_ source: String, to target: String) throws {
        let file = Glibc.open(source, O_RDONLY | O_CLOEXEC)
        if file >= 0 {
            fsync(file)
            close(file)
        }
        guard rename(source, target) == 0 else {
            throw SGError.unavailable("Cannot rename the copy to \(target): \(String(cString: strerror(errno))).", retryAfterSeconds: storageRetryAfter)
        }
        let folder = Glibc.open(URL(fileURLWithPath: target).deletingLastPathComponent().path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folder >= 0 {
            fsync(folder)
            close(folder)
        }
    }

    /// Why nothing could be saved now, judged without writing (the readiness check): a read-only or full file
    /// system, or a file or folder the server may not write. Nil when writable, or for an in-memory database.
    public func writabilityProblem() -> String? {
        // PostgreSQL's server answers for its own disk: a full or read-only one fails the write, which says so.
        guard postgres == nil else { return nil }
        let path = writer.path
        guard path != ":memory:", !path.isEmpty else { return nil }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var disk = statvfs()
        if statvfs(folder, &disk) == 0 {
            if disk.f_flag & UInt(ST_RDONLY) != 0 { return "the database's file system is mounted read-only" }
            let free = UInt64(geteuid() == 0 ? disk.f_bfree : disk.f_bavail) * UInt64(disk.f_frsize)
            if free < 64 * 1024 { return "the disk holding the database is full" }
        }
        for file in [path, path + "-wal", path + "-shm", folder] where FileManager.default.fileExists(atPath: file) {
            if access(file, W_OK) != 0 { return "\(file) is not writable by the server's user" }
        }
        return nil
    }

    /// Migrations this program knows that the database lacks, and those it has that this program does not know.
    public func migrationDifferences() throws -> (missing: [String], unknown: [String]) {
        let applied = try appliedMigrations()
        return (Self.knownMigrations.filter { !applied.contains($0) }, applied.filter { !Self.knownMigrations.contains($0) })
    }
}
