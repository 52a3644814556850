import CoreMetrics
import Foundation
import GRDB
import SGCore
import SGMigrations
import SGPostgres
import SGSQLite
import Synchronization

// Reads, the PostgreSQL writer, and the unit of work that a request runs as.
extension AppDatabase {
    /// A read through GRDB, on SQLite only (the file's maintenance, tests of the file).
    public func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        guard let grdbWriter else { throw Self.sqliteOnly }
        return try await Self.translatingErrors { try await grdbWriter.read(body) }
    }

    /// What GRDB's reads and writes throw on PostgreSQL.
    static let sqliteOnly = SGError.conflict("This works on a SQLite database only.")

    /// A write transaction (BEGIN IMMEDIATE) whose statements run on the rules' SQL layer.
    func writing<T: Sendable>(_ body: @escaping @Sendable (SQLConnection) throws -> T) async throws -> T {
        if let postgres { return try await writing(on: postgres, body) }
        return try await write { (db: Database) in try body(self.writeConnection.connection(for: db)) }
    }

    /// A write transaction on PostgreSQL, on a thread of its own (the driver's calls block): the transaction takes
    /// one advisory lock first, so that writers of every process and server run one at a time, as on SQLite, and
    /// what each checks still holds when it commits. When it wrote anything, it moves the commit generation, which every
    /// process reads.
    private func writing<T: Sendable>(on postgres: PostgresPool, _ body: @escaping @Sendable (SQLConnection) throws -> T) async throws -> T {
        sharedCommitCheck?.forget()
        defer { sharedCommitCheck?.forget() }
        let deadline = Self.writeDeadline()
        let asked = ContinuousClock.now
        let metrics = self.metrics.withLock { $0 }
        return try await Self.onOwnThread {
            try Self.translatingErrors {
                try postgres.withConnection(until: deadline) { connection, session in
                    try session.execute("BEGIN")
                    try session.execute("SET LOCAL lock_timeout = \(max(1, ContinuousClock.now.duration(to: deadline).milliseconds))")
                    try connection.execute("SELECT pg_advisory_xact_lock(\(PostgresSchema.writeLock))")
                    let began = ContinuousClock.now
                    let result = try body(connection)
                    // Only a transaction that wrote moves it (PostgreSQL gives a transaction an id at its first
                    // change of any row, triggers' included): the outbox's claims that find nothing due, every second
                    // on every server, leave the servers' caches alone.
                    try connection.execute("UPDATE commit_generation SET n = n + 1 WHERE id = 1 AND txid_current_if_assigned() IS NOT NULL")
                    try session.execute("COMMIT")
                    self.batchesCommitted.add(1, ordering: .relaxed)
                    metrics?.record(asked: asked, began: began, committed: .now)
                    return result
                }
            }
        }
    }

    /// Runs `work` on a thread that may block (not one of the tasks' shared threads) and returns its result.
    static func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async { continuation.resume(with: Result { try work() }) }
        }
    }

    /// Runs `work`, reads of this database, where they belong: on SQLite right here (they take microseconds); on
    /// PostgreSQL on a thread that may block, since the driver's calls wait for the server, and the tasks' few
    /// shared threads must stay free for the other requests. The unit of work's commit check goes along.
    @usableFromInline
    func onReadThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        guard postgres != nil else { return try work() }
        let unit = UnitOfWork.current
        return try await Self.onOwnThread { try UnitOfWork.$current.withValue(unit) { try work() } }
    }

    /// `withReader` on a connection whose caches have just been checked against the last commit (`validatedCache`),
    /// with the commit generation as of that check: a number that moves whenever anything (this process, sgadmin,
    /// any connection) has committed since, so a value computed from reads begun after the check is current for as
    /// long as a later check gives the same number. Nil caches and generation on an in-memory database (tests),
    /// whose changes are not tracked this way.
    ///
    /// Inside a unit of work (`withUnitOfWork`), the generation is also remembered for the rest of that unit of work.
    func withCheckedReader<T>(
        _ body: (SQLConnection, ConnectionCache?) throws -> T
    ) throws -> (result: T, commitGeneration: UInt64?) {
        if let postgres {
            return try Self.translatingErrors {
                try postgres.withConnection(until: .now + postgres.endpoint.acquireTimeout) { connection, session in
                    let cache = try connection.validatedCache()
                    let generation = UInt64(session.generation)
                    sharedCommitCheck?.remember(generation)
                    return (try body(connection, cache), generation)
                }
            }
        }
        guard let readers else { return (try withReader { connection in try body(connection, nil) }, nil) }
        return try Self.translatingErrors {
            try readers.withConnection { connection in
                let cache = try connection.validatedCache()
                let generation = readers.commits.current
                sharedCommitCheck?.remember(generation)
                return (try body(connection, cache), generation)
            }
        }
    }

    /// The commit generation as `withCheckedReader` gives it, without a read when the current unit of work
    /// (`withUnitOfWork`) has already checked and not written since.
    @usableFromInline
    func commitGeneration() throws -> UInt64? {
        guard readers != nil || postgres != nil else { return nil }
        if let shared = sharedCommitCheck?.generation { return shared }
        return try withCheckedReader { _, _ in }.commitGeneration
    }

    /// `commitGeneration()` from a task: on PostgreSQL inside a unit of work by a read shared with the requests
    /// arriving together, without a thread of its own; elsewhere as `commitGeneration()` on the read thread.
    @usableFromInline
    func checkedCommitGeneration() async throws -> UInt64? {
        if let shared = try await sharedPostgresGeneration() { return shared }
        return try await onReadThread { [self] in try commitGeneration() }
    }

    /// On PostgreSQL, the commit generation of the current unit of work (`withUnitOfWork`), read now if it
    /// has not been, by a read that began after this call (`SharedGenerationReads`). Nil on SQLite (its check is a
    /// step of a statement on the caller's thread) and outside a unit of work.
    func sharedPostgresGeneration() async throws -> UInt64? {
        guard let generationReads, let check = sharedCommitCheck else { return nil }
        if let known = check.generation { return known }
        check.remember(try await Self.translatingErrors { try await generationReads.current() })
        return check.generation
    }

    /// Runs `body` as one unit of work (an HTTP request) on this database, with what its reads and writes share:
    ///
    /// - At most one check of the commit generation: the first check in it is reused by the later ones until it
    ///   writes. A commit made by anyone before `body` began is therefore seen by every check in it; one made while
    ///   it runs is seen by the next unit of work, as if it had committed just after this one.
    /// - One bound on the time all its writes together may wait for the write lock: `busyTimeout` from now. A
    ///   request past it is answered 503 at once.
    ///
    /// Both are one task-local value: each one set costs every request a push and a hop of its own. Inside a unit of
    /// work on this database, `body` runs in it; inside one on another database, the bound already running is kept.
    public func withUnitOfWork<T>(_ body: () async throws -> T) async rethrows -> T {
        let outer = UnitOfWork.current
        if let outer, outer.database == ObjectIdentifier(self) { return try await body() }
        let unit = UnitOfWork(
            database: ObjectIdentifier(self), writeDeadline: outer?.writeDeadline ?? .now + .seconds(Self.busyTimeout))
        return try await UnitOfWork.$current.withValue(unit) { try await body() }
    }

    /// The current unit of work, if it is one on this database: its commit check.
    var sharedCommitCheck: UnitOfWork? {
        guard let unit = UnitOfWork.current, unit.database == ObjectIdentifier(self) else { return nil }
        return unit
    }

    /// A read on the caller's thread, in one transaction (one snapshot of the database). Reads take microseconds,
    /// so they run where the request already is instead of hopping to a database queue and back.
    func reading<T>(_ body: (SQLConnection) throws -> T) throws -> T {
        try withReader { connection in try connection.reading { try body(connection) } }
    }

    /// Like `reading`, for a single statement, which is its own transaction.
    func withReader<T>(_ body: (SQLConnection) throws -> T) throws -> T {
        try Self.translatingErrors {
            if let postgres { return try postgres.withConnection(until: .now + postgres.endpoint.acquireTimeout) { connection, _ in try body(connection) } }
            if let readers { return try readers.withConnection(body) }
            return try writer.read { db in try body(writeConnection.connection(for: db)) }
        }
    }

}

/// The `SQLConnection` over a connection GRDB owns, kept (with its prepared statements) for as long as GRDB keeps
/// that connection. Only touched inside GRDB's serialized access to it.
final class BorrowedConnection: @unchecked Sendable {
    private var connection: SQLConnection?

    func connection(for db: Database) -> SQLConnection {
        guard let handle = db.sqliteConnection else { preconditionFailure("GRDB handed out a closed connection") }
        if let connection, connection.handle == handle { return connection }
        let borrowed = SQLConnection(borrowing: handle)
        connection = borrowed
        return borrowed
    }
}

/// What the current unit of work's reads and writes share, in one allocation: the commit generation it checked once
/// and the instant by which its writes must have the write lock. See `AppDatabase.withUnitOfWork`.
final class UnitOfWork: Sendable {
    @TaskLocal static var current: UnitOfWork?

    /// The `AppDatabase` whose commits it counts.
    let database: ObjectIdentifier
    /// The instant by which all its writes must have the write lock.
    let writeDeadline: ContinuousClock.Instant

    /// `UInt64.max` while nothing is remembered (the counter starts at 0 and never gets there).
    private let remembered = Atomic<UInt64>(.max)

    var generation: UInt64? {
        let value = remembered.load(ordering: .acquiring)
        return value == .max ? nil : value
    }

    /// Keeps the first generation checked; later checks in the same unit of work do not replace it.
    func remember(_ generation: UInt64) {
        _ = remembered.compareExchange(expected: .max, desired: generation, ordering: .acquiringAndReleasing)
    }

    func forget() { remembered.store(.max, ordering: .releasing) }

    init(database: ObjectIdentifier, writeDeadline: ContinuousClock.Instant) {
        self.database = database
        self.writeDeadline = writeDeadline
    }
}
