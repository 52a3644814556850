import Foundation
import GRDBSQLite

/// A SQLite connection driven through the C API, with its prepared statements kept for reuse.
///
/// It runs on a connection borrowed from someone who owns it (GRDB's writer, say) or on a plain connection of its
/// own (see `ReadConnectionPool`). Reads go straight from SQLite's column buffers into the caller's values: no row
/// objects, no name lookups, no hop to another thread. One thread uses a connection at a time.
///
/// The same type runs the same statements on another engine's connection (`init(external:)`, PostgreSQL).
public final class SQLConnection {
    /// SQLite's connection; nil on another engine.
    public let handle: OpaquePointer?
    /// Another engine's connection; nil on SQLite.
    @usableFromInline let external: (any ExternalSQLConnection)?
    private let owned: Bool
    private var statements: [String: OpaquePointer] = [:]
    /// `PRAGMA data_version` when `cache` was last known valid; see `validatedCache()`.
    private var dataVersion: Int64 = -1
    /// The write-ahead log's index as SQLite maps it for this connection (the start of the `-shm` file), once it is
    /// mapped; nil until then, and on a file not in WAL mode. See `validatedCache()`.
    private var walIndex: UnsafeRawPointer?
    /// Whether `walIndex` was asked for (once).
    private var walIndexAsked = false
    /// The index's header as read right before `dataVersion` was read; nil when no such reading was made.
    private var walHeader: WALIndexHeader?
    private var cacheStorage = ConnectionCache()
    /// Values the connection's owner keeps on it and checks by other means than `validatedCache()`: on a connection
    /// that writes, whose own commits `data_version` does not show.
    public let ownersCache = ConnectionCache()
    /// Advanced when this connection notices a commit; shared by the pool's connections.
    private let commits: CommitCounter?

    /// Opens `path` read-only, or read-write (the file must exist).
    public init(path: String, readOnly: Bool = true, busyTimeout: TimeInterval, commits: CommitCounter? = nil) throws {
        var handle: OpaquePointer?
        let code = sqlite3_open_v2(path, &handle, (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE) | SQLITE_OPEN_NOMUTEX, nil)
        guard code == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(handle)
            throw SQLiteError(code: code, message: message, context: .opening(path: path))
        }
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, Int32(busyTimeout * 1000))
        // No memory map (PRAGMA mmap_size): it would spare the copy of each page read, but every connection maps the
        // file anew, and the pages it touches count in the process's resident memory once per connection.
        self.handle = handle
        self.external = nil
        self.owned = true
        self.commits = commits
    }

    /// Runs statements on a connection someone else owns and closes (GRDB's writer, or an in-memory database's
    /// only connection).
    public init(borrowing handle: OpaquePointer) {
        self.handle = handle
        self.external = nil
        self.owned = false
        self.commits = nil
    }

    /// Runs the statements on another engine's connection, which its owner opens and closes.
    public init(external: any ExternalSQLConnection) {
        self.handle = nil
        self.external = external
        self.owned = false
        self.commits = nil
    }

    /// The other engine's connection underneath, if it is not SQLite.
    public var externalConnection: (any ExternalSQLConnection)? { external }

    /// The dialect of the engine underneath, for statements that differ between engines.
    public var dialect: SQLDialect { external?.dialect ?? .sqlite }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        if owned { sqlite3_close_v2(handle) }
    }

    /// Prepares `sql` once per connection; the statement comes back reset with no bindings.
    public func statement(_ sql: String) throws -> SQLStatement {
        if let external { return SQLStatement(external: try external.statement(sql), connection: self) }
        if let cached = statements[sql] { return SQLStatement(handle: cached, connection: self) }
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else { throw error(code, sql: sql) }
        statements[sql] = statement
        return SQLStatement(handle: statement, connection: self)
    }

    /// Runs `body` with `sql` prepared, then resets the statement, so that no read stays open past `body`
    /// (an unreset statement would pin an old snapshot of the database).
    @inlinable
    public func with<T>(_ sql: String, _ body: (SQLStatement) throws -> T) throws -> T {
        let statement = try statement(sql)
        defer { statement.reset() }
        return try body(statement)
    }

    @inlinable
    public func execute(_ sql: String, _ bind: (SQLStatement) throws -> Void = { _ in }) throws {
        try with(sql) { statement in
            try bind(statement)
            while try statement.step() {}
        }
    }

    /// Runs `body` in one read transaction (one snapshot), unless a transaction is already open.
    @inlinable
    public func reading<T>(_ body: () throws -> T) throws -> T {
        if let external { return try external.reading(body) }
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

    /// How long a statement waits for another connection's lock before failing with SQLITE_BUSY.
    public func setBusyTimeout(_ timeout: Duration) {
        sqlite3_busy_timeout(handle, Int32(clamping: max(1, timeout.milliseconds)))
    }

    /// The id of the row the last INSERT on this connection added.
    @inlinable
    public var lastInsertedRowID: Int64 {
        get throws {
            if let external { return try external.lastInsertedRowID() }
            return sqlite3_last_insert_rowid(handle)
        }
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    @inlinable
    public var changes: Int {
        if let external { return external.changes }
        return Int(sqlite3_changes(handle))
    }

    /// The error SQLite reports for `code`, which running `sql` returned.
    @usableFromInline
    func error(_ code: Int32, sql: String) -> SQLiteError {
        SQLiteError(code: code, message: String(cString: sqlite3_errmsg(handle)), context: .statement(sql: sql))
    }

    // MARK: Caches tied to the data

    /// What this connection remembers between uses, valid until anything commits a change to the database.
    ///
    /// `PRAGMA data_version` changes when another connection (of this process or any other) commits, so the check
    /// costs at most one step of a prepared statement and the cache is never staler than the last commit: whatever another
    /// connection changes is seen by the very next use. Only connections opened here keep a cache, and only those
    /// that do not write are meant to: a connection does not see its own commits there.
    ///
    /// In WAL mode the step is spared while nothing has committed: every commit, by any connection of any process,
    /// rewrites the header of the log's index (in the `-shm` file, which SQLite maps into every process using the
    /// database) before it returns, moving its change counter and last frame. So while the header reads as it did
    /// right before the last `data_version` was read, nothing has committed since, and `data_version` would read the
    /// same. A header read while a commit rewrites it reads as changed, and the step is taken.
    public func validatedCache() throws -> ConnectionCache? {
        if let external { return try external.validatedCache() }
        guard owned else { return nil }
        if let walIndex, let walHeader, WALIndexHeader(walIndex) == walHeader { return cacheStorage }
        let header = walIndex.map(WALIndexHeader.init)
        let version = try with("PRAGMA data_version") { statement -> Int64 in
            _ = try statement.step()
            return statement.int64(0)
        }
        if version != dataVersion {
            cacheStorage = ConnectionCache()
            dataVersion = version
            commits?.advance()
        }
        walHeader = header
        if !walIndexAsked {
            walIndexAsked = true
            walIndex = try mappedWALIndex()
        }
        return cacheStorage
    }

    /// The start of the write-ahead log's index as SQLite has mapped it for this connection, or nil if the database
    /// is not in WAL mode or SQLite offers no such mapping. Asked after a read, which maps it in WAL mode.
    private func mappedWALIndex() throws -> UnsafeRawPointer? {
        let mode = try with("PRAGMA journal_mode") { statement in try statement.step() ? statement.text(0) : "" }
        guard mode.lowercased() == "wal" else { return nil }
        var file: UnsafeMutablePointer<sqlite3_file>?
        guard sqlite3_file_control(handle, "main", SQLITE_FCNTL_FILE_POINTER, &file) == SQLITE_OK, let file,
              let methods = file.pointee.pMethods, methods.pointee.iVersion >= 2, let map = methods.pointee.xShmMap
        else { return nil }
        // Region 0 without extending the file: the one SQLite mapped for the read just made. It stays mapped until
        // the connection closes.
        var region: UnsafeMutableRawPointer?
        guard map(file, 0, 32 * 1024, 0, &region) == SQLITE_OK, let region else { return nil }
        return UnsafeRawPointer(region)
    }
}

/// The first copy of the header of a write-ahead log's index (SQLite's `WalIndexHdr`, 48 bytes at the start of the
/// `-shm` file): the version, a change counter moved by every commit, the page size, the last frame, the page
/// count, checksums and salts.
struct WALIndexHeader: Equatable {
    var words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)

    init(_ index: UnsafeRawPointer) {
        words = (
            index.loadUnaligned(fromByteOffset: 0, as: UInt64.self), index.loadUnaligned(fromByteOffset: 8, as: UInt64.self),
            index.loadUnaligned(fromByteOffset: 16, as: UInt64.self), index.loadUnaligned(fromByteOffset: 24, as: UInt64.self),
            index.loadUnaligned(fromByteOffset: 32, as: UInt64.self), index.loadUnaligned(fromByteOffset: 40, as: UInt64.self))
    }

    static func == (a: Self, b: Self) -> Bool {
        a.words.0 == b.words.0 && a.words.1 == b.words.1 && a.words.2 == b.words.2 && a.words.3 == b.words.3
            && a.words.4 == b.words.4 && a.words.5 == b.words.5
    }
}
