import Foundation
import GRDB
import GRDBSQLite
import SGCore
import Synchronization

/// A SQLite connection driven through the C API, with its prepared statements kept for reuse.
///
/// The rules' queries run here, on the write connection (borrowed from GRDB inside its write transaction) and on
/// plain read-only connections (see `ReadConnectionPool`). Reads go straight from SQLite's column buffers into our
/// values: no row objects, no name lookups, no hop to another thread. One thread uses a connection at a time.
final class SQLConnection {
    let handle: OpaquePointer
    private let owned: Bool
    private var statements: [String: OpaquePointer] = [:]
    /// `PRAGMA data_version` when `cache` was last known valid; see `validatedCache()`.
    private var dataVersion: Int64 = -1
    private var cacheStorage = ConnectionCache()
    /// Advanced when this connection notices a commit; shared by the pool's connections.
    private let commits: CommitCounter?

    /// Opens `path` read-only, or read-write for checkpoints (the file must exist and be in WAL mode, as
    /// `AppDatabase.open` leaves it).
    init(path: String, readOnly: Bool = true, busyTimeout: TimeInterval, commits: CommitCounter? = nil) throws {
        var handle: OpaquePointer?
        let code = sqlite3_open_v2(path, &handle, (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE) | SQLITE_OPEN_NOMUTEX, nil)
        guard code == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(handle)
            throw SGError.unavailable("The database at \(path) cannot be opened for reading: \(message).", retryAfterSeconds: 1)
        }
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, Int32(busyTimeout * 1000))
        // No memory map (PRAGMA mmap_size): it saved the copy of each page read (about a fifth more requests a
        // second on /v1/me/holidays), but every connection maps the file anew, and the pages it touches count in
        // the process's resident memory once per connection (175 MB against 50 MB after the employee load).
        self.handle = handle
        self.owned = true
        self.commits = commits
    }

    /// Runs statements on a connection GRDB owns (the writer, or an in-memory database's only connection).
    init(borrowing handle: OpaquePointer) {
        self.handle = handle
        self.owned = false
        self.commits = nil
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        if owned { sqlite3_close_v2(handle) }
    }

    /// Prepares `sql` once per connection; the statement comes back reset with no bindings.
    func statement(_ sql: String) throws -> SQLStatement {
        if let cached = statements[sql] { return SQLStatement(handle: cached, connection: self) }
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else { throw error(code, sql: sql) }
        statements[sql] = statement
        return SQLStatement(handle: statement, connection: self)
    }

    /// Runs `body` with `sql` prepared, then resets the statement, so that no read stays open past `body`
    /// (an unreset statement would pin an old snapshot of the database).
    func with<T>(_ sql: String, _ body: (SQLStatement) throws -> T) throws -> T {
        let statement = try statement(sql)
        defer {
            sqlite3_reset(statement.handle)
            sqlite3_clear_bindings(statement.handle)
        }
        return try body(statement)
    }

    func execute(_ sql: String, _ bind: (SQLStatement) throws -> Void = { _ in }) throws {
        try with(sql) { statement in
            try bind(statement)
            while try statement.step() {}
        }
    }

    /// Runs `body` in one read transaction (one snapshot), unless a transaction is already open.
    func reading<T>(_ body: () throws -> T) throws -> T {
        guard sqlite3_get_autocommit(handle) != 0 else { return try body() }
        try execute("BEGIN DEFERRED")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    var changes: Int { Int(sqlite3_changes(handle)) }

    func error(_ code: Int32, sql: String) -> any Error {
        let message = String(cString: sqlite3_errmsg(handle))
        let primary = code & 0xFF
        if primary == SQLITE_BUSY || primary == SQLITE_LOCKED { return AppDatabase.lockedTooLong }
        return DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: sql)
    }

    // MARK: Caches tied to the data

    /// What this connection remembers between uses, valid until anything commits a change to the database.
    ///
    /// `PRAGMA data_version` changes when another connection (of this process or any other, such as sgadmin)
    /// commits, so the check costs one step of a prepared statement and the cache is never staler than the last
    /// commit: a deactivated employee, a revoked token or a new default allowance is seen by the very next request.
    /// Only read-only pooled connections keep a cache: a connection that writes does not see its own commits there.
    func validatedCache() throws -> ConnectionCache? {
        guard owned else { return nil }
        let version = try with("PRAGMA data_version") { statement -> Int64 in
            _ = try statement.step()
            return statement.int64(0)
        }
        if version != dataVersion {
            cacheStorage = ConnectionCache()
            dataVersion = version
            commits?.advance()
        }
        return cacheStorage
    }
}

/// Commits noticed by the read connections of a pool, from any connection or process: each connection's first
/// `validatedCache()` after a commit advances the count (several may count the same commit; only change matters).
///
/// So once a connection has been validated, every commit before that moment has advanced the count: a value
/// computed from reads that began after the count was read at `n` is current for as long as the count is `n`.
final class CommitCounter: Sendable {
    private let count = Atomic<UInt64>(0)

    func advance() { count.add(1, ordering: .sequentiallyConsistent) }
    var current: UInt64 { count.load(ordering: .sequentiallyConsistent) }
}

/// Values read under one `data_version` of one connection.
final class ConnectionCache {
    /// Live tokens (by digest) with their employee and expiry.
    var tokens: [Data: (employee: Employee, expiresAt: Date)] = [:]
    var company: CompanySettings?
    /// Bounded, so that many distinct tokens between two commits cannot grow the memory without limit.
    static let maximumTokens = 20_000
}

/// A prepared statement of an `SQLConnection`, valid inside `SQLConnection.with`.
struct SQLStatement {
    let handle: OpaquePointer
    unowned let connection: SQLConnection

    /// True when a row is ready, false when the statement is done.
    func step() throws -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code: throw connection.error(code, sql: String(cString: sqlite3_sql(handle)))
        }
    }

    // Binding: parameters are numbered from 1.
    func bind(_ index: Int32, _ value: Int64) { sqlite3_bind_int64(handle, index, value) }
    func bind(_ index: Int32, _ value: Int) { sqlite3_bind_int64(handle, index, Int64(value)) }
    /// With its length in bytes, so that text is stored whole even if it holds U+0000.
    func bind(_ index: Int32, _ value: String) {
        var value = value
        _ = value.withUTF8 { bytes in
            if let text = bytes.baseAddress, !bytes.isEmpty {
                sqlite3_bind_text(handle, index, UnsafeRawPointer(text).assumingMemoryBound(to: CChar.self), Int32(bytes.count), sqliteTransient)
            } else {
                // A NULL pointer would bind SQL NULL instead of ''.
                sqlite3_bind_text(handle, index, "", 0, sqliteTransient)
            }
        }
    }
    func bind(_ index: Int32, _ value: String?) {
        if let value { bind(index, value) } else { sqlite3_bind_null(handle, index) }
    }
    func bind(_ index: Int32, _ value: Int64?) {
        if let value { bind(index, value) } else { sqlite3_bind_null(handle, index) }
    }
    func bind(_ index: Int32, _ value: CalendarDate) { bind(index, value.description) }
    func bind(_ index: Int32, blob: Data) {
        _ = blob.withUnsafeBytes { bytes in
            sqlite3_bind_blob(handle, index, bytes.baseAddress, Int32(bytes.count), sqliteTransient)
        }
    }

    // Reading the current row: columns are numbered from 0.
    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }
    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
    func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(handle, column)) }
    func bool(_ column: Int32) -> Bool { sqlite3_column_int64(handle, column) != 0 }
    func optionalInt64(_ column: Int32) -> Int64? { isNull(column) ? nil : int64(column) }

    /// The column's UTF-8 bytes, valid until the next step or reset.
    func bytes(_ column: Int32) -> UnsafeBufferPointer<UInt8> {
        guard let text = sqlite3_column_text(handle, column) else { return UnsafeBufferPointer(start: nil, count: 0) }
        return UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(handle, column)))
    }

    func text(_ column: Int32) -> String { String(decoding: bytes(column), as: UTF8.self) }

    func blob(_ column: Int32) -> Data {
        guard let bytes = sqlite3_column_blob(handle, column) else { return Data() }
        return Data(bytes: bytes, count: Int(sqlite3_column_bytes(handle, column)))
    }
    func optionalText(_ column: Int32) -> String? { isNull(column) ? nil : text(column) }

    /// A 'YYYY-MM-DD' column; data that is not a date is reported, not guessed.
    func date(_ column: Int32) throws -> CalendarDate {
        guard let date = CalendarDate(isoBytes: bytes(column)) else { throw unreadable(column) }
        return date
    }

    func timestamp(_ column: Int32) throws -> Date {
        guard let instant = Timestamp.parse(bytes(column)) else { throw unreadable(column) }
        return instant
    }

    func optionalTimestamp(_ column: Int32) throws -> Date? {
        isNull(column) ? nil : try timestamp(column)
    }

    func status(_ column: Int32) throws -> HolidayStatus {
        guard let status = HolidayStatus(rawValue: text(column)) else { throw unreadable(column) }
        return status
    }

    private func unreadable(_ column: Int32) -> SGError {
        let name = sqlite3_column_name(handle, column).map { String(cString: $0) } ?? "column \(column)"
        return SGError.conflict("The database holds a value this program cannot read in \(name): '\(text(column))'.")
    }
}

/// SQLITE_TRANSIENT: SQLite copies the bound value before the call returns.
private let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// Plain read-only connections, handed to one caller at a time and used synchronously on the caller's thread.
///
/// In the server the callers are the few threads of Swift's cooperative pool, so the pool holds about one
/// connection per thread. A read here takes microseconds; hopping to a database queue and back would cost more.
final class ReadConnectionPool: @unchecked Sendable {
    private let lock = NSLock()
    private var idle: [SQLConnection] = []
    private let path: String
    private let maximumIdle: Int
    let commits = CommitCounter()

    /// `maximumIdle`: connections kept between uses. Callers are the cooperative pool's threads (one per core)
    /// and a few others; a connection closed after use loses its prepared statements and caches.
    init(path: String, maximumIdle: Int = max(8, 2 * ProcessInfo.processInfo.activeProcessorCount)) {
        self.path = path
        self.maximumIdle = maximumIdle
    }

    func withConnection<T>(_ body: (SQLConnection) throws -> T) throws -> T {
        let connection = try lock.withLock { idle.popLast() }
            ?? SQLConnection(path: path, busyTimeout: AppDatabase.busyTimeout, commits: commits)
        defer {
            lock.withLock {
                if idle.count < maximumIdle { idle.append(connection) }
            }
        }
        return try body(connection)
    }
}

/// PASSIVE checkpoints on a read-write connection of their own, one at a time.
final class Checkpointer: @unchecked Sendable {
    private let lock = NSLock()
    private let path: String
    private var connection: SQLConnection?

    init(path: String) { self.path = path }

    func checkpoint() throws -> (logPages: Int, checkpointedPages: Int) {
        try lock.withLock {
            let connection = try self.connection ?? open()
            self.connection = connection
            var log: Int32 = 0, copied: Int32 = 0
            let code = sqlite3_wal_checkpoint_v2(connection.handle, "main", SQLITE_CHECKPOINT_PASSIVE, &log, &copied)
            // BUSY: another checkpoint (sgadmin's, say) is running; this one is simply skipped.
            guard code == SQLITE_OK || code & 0xFF == SQLITE_BUSY else { throw connection.error(code, sql: "PRAGMA wal_checkpoint(PASSIVE)") }
            return (Int(log), Int(copied))
        }
    }

    private func open() throws -> SQLConnection {
        let opened = try SQLConnection(path: path, readOnly: false, busyTimeout: 0)
        // A new connection learns that the file is in WAL mode when it first reads it; until then a checkpoint
        // reports "not in WAL mode".
        let mode = try opened.with("PRAGMA journal_mode") { statement in try statement.step() ? statement.text(0) : "" }
        guard mode == "wal" else { throw SGError.conflict("The database at \(path) is not in WAL mode (\(mode)).") }
        return opened
    }
}
