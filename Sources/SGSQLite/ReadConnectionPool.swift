import Foundation
import GRDBSQLite

/// Plain read-only connections, handed to one caller at a time and used synchronously on the caller's thread.
///
/// In a server the callers are the few threads of Swift's cooperative pool, so the pool holds about one
/// connection per thread. A read here takes microseconds; hopping to a database queue and back would cost more.
public final class ReadConnectionPool: @unchecked Sendable {
    private let lock = NSLock()
    private var idle: [SQLConnection] = []
    private let path: String
    private let busyTimeout: TimeInterval
    private let maximumIdle: Int
    public let commits = CommitCounter()

    /// `busyTimeout`: how long a connection waits for a lock (seconds). `maximumIdle`: connections kept between
    /// uses. Callers are the cooperative pool's threads (one per core) and a few others; a connection closed after
    /// use loses its prepared statements and caches.
    public init(path: String, busyTimeout: TimeInterval, maximumIdle: Int = max(8, 2 * ProcessInfo.processInfo.activeProcessorCount)) {
        self.path = path
        self.busyTimeout = busyTimeout
        self.maximumIdle = maximumIdle
    }

    @inlinable
    public func withConnection<T>(_ body: (SQLConnection) throws -> T) throws -> T {
        let connection = try checkOut()
        defer { checkIn(connection) }
        return try body(connection)
    }

    @usableFromInline
    func checkOut() throws -> SQLConnection {
        try lock.withLock { idle.popLast() } ?? SQLConnection(path: path, busyTimeout: busyTimeout, commits: commits)
    }

    @usableFromInline
    func checkIn(_ connection: SQLConnection) {
        lock.withLock {
            if idle.count < maximumIdle { idle.append(connection) }
        }
    }
}

/// PASSIVE checkpoints on a read-write connection of their own, one at a time.
public final class Checkpointer: @unchecked Sendable {
    private let lock = NSLock()
    private let path: String
    private var connection: SQLConnection?

    /// The file at `path` must be in WAL mode.
    public init(path: String) { self.path = path }

    /// The file is not in WAL mode, so there is no log to checkpoint.
    public struct NotInWALMode: Error, Equatable {
        public let path: String
        /// The journal mode it is in instead.
        public let mode: String

        public init(path: String, mode: String) {
            self.path = path
            self.mode = mode
        }
    }

    /// Copies what it can of the write-ahead log into the database file without waiting for or blocking anyone.
    /// Returns the log's pages and how many are now copied; does nothing while another checkpoint runs.
    public func checkpoint() throws -> (logPages: Int, checkpointedPages: Int) {
        try lock.withLock {
            let connection = try self.connection ?? open()
            self.connection = connection
            var log: Int32 = 0, copied: Int32 = 0
            let code = sqlite3_wal_checkpoint_v2(connection.handle, "main", SQLITE_CHECKPOINT_PASSIVE, &log, &copied)
            // BUSY: another checkpoint (another process's, say) is running; this one is simply skipped.
            guard code == SQLITE_OK || code & 0xFF == SQLITE_BUSY else { throw connection.error(code, sql: "PRAGMA wal_checkpoint(PASSIVE)") }
            return (Int(log), Int(copied))
        }
    }

    private func open() throws -> SQLConnection {
        let opened = try SQLConnection(path: path, readOnly: false, busyTimeout: 0)
        // A new connection learns that the file is in WAL mode when it first reads it; until then a checkpoint
        // reports "not in WAL mode".
        let mode = try opened.with("PRAGMA journal_mode") { statement in try statement.step() ? statement.text(0) : "" }
        guard mode == "wal" else { throw NotInWALMode(path: path, mode: mode) }
        return opened
    }
}
