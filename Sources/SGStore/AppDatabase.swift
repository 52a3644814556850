import CoreMetrics
import Foundation
import GRDB
import SGCore
import SGMigrations
import SGPostgres
import SGSQLite
import Synchronization

/// Owns the database connection(s) and the schema. Production opens a `DatabasePool` on a file (WAL, busy
/// timeout, so `sgserver` and `sgadmin` can share it); tests may open an in-memory database.
///
/// Or, with `open(postgres:)`, a pool of PostgreSQL connections shared by several processes and servers: the same
/// statements, the same one-writer-at-a-time transactions (an advisory lock), caches emptied by every commit of
/// every process (a commit generation in the database, read once per unit of work).
public final class AppDatabase: Sendable {
    /// GRDB's connection(s) on SQLite; nil on PostgreSQL.
    private let grdbWriter: (any DatabaseWriter)?
    /// The connections on PostgreSQL; nil on SQLite.
    let postgres: PostgresPool?
    /// On PostgreSQL, the units of work's checks of the commit generation, one read for those arriving together.
    private let generationReads: SharedGenerationReads?
    /// Access tokens found, for the server's requests, each until a commit changes its employee.
    let tokens = TokenCache()

    /// GRDB's writer of a SQLite database. Only for what exists on SQLite alone (the file's maintenance, tests
    /// that look at the file); the store goes through `reading` and `writing`.
    public var writer: any DatabaseWriter {
        guard let grdbWriter else { preconditionFailure("A PostgreSQL database has no SQLite writer") }
        return grdbWriter
    }

    /// The engine underneath.
    public var dialect: SQLDialect { postgres == nil ? .sqlite : .postgres }
    /// Plain read-only connections on the file for the hot reads; nil for an in-memory database, whose one
    /// connection GRDB serializes (reads then run there).
    private let readers: ReadConnectionPool?
    /// The rules' statements on GRDB's write connection (and, in memory, its only connection).
    private let writeConnection = BorrowedConnection()
    /// Present when the database was opened with `.background` checkpointing.
    private let checkpointer: Checkpointer?
    /// Where writes report their lock wait and transaction time; nil until `reportMetrics(to:)`.
    private let metrics = Mutex<DatabaseMetrics?>(nil)
    /// Units of work waiting to be committed together (`write`).
    private let pendingWrites = PendingWrites()
    /// Transactions committed by `write`, each holding one or more units of work.
    let batchesCommitted = Atomic<Int>(0)
    /// Units of work waiting for the writer now.
    var pendingWriteCount: Int { pendingWrites.count }

    /// Whether someone must call `checkpoint()` regularly (the server's `WALCheckpointService`).
    public var checkpointsInBackground: Bool { checkpointer != nil }

    /// How long a writer waits for another process's write lock before giving up.
    public static let busyTimeout: TimeInterval = 5

    private init(writer: any DatabaseWriter, readers: ReadConnectionPool?, checkpointer: Checkpointer?) {
        self.grdbWriter = writer
        self.postgres = nil
        self.generationReads = nil
        self.readers = readers
        self.checkpointer = checkpointer
    }

    private init(postgres: PostgresPool) {
        self.grdbWriter = nil
        self.postgres = postgres
        self.generationReads = SharedGenerationReads {
            try postgres.withConnection(until: .now + postgres.endpoint.acquireTimeout) { connection, session in
                _ = try connection.validatedCache()
                return UInt64(session.generation)
            }
        }
        self.readers = nil
        self.checkpointer = nil
    }

    /// Connects to the PostgreSQL database at `endpoint` and (with `.migrate`) brings its schema up to date.
    public static func open(postgres endpoint: PostgresEndpoint, schema: SchemaPolicy = .migrate) throws -> AppDatabase {
        try translatingErrors {
            let database = AppDatabase(postgres: try PostgresPool(endpoint: endpoint))
            try database.prepareSchema(schema)
            return database
        }
    }

    public enum SchemaPolicy: Sendable {
        /// Apply pending migrations (the server at start, `sgadmin migrate`).
        case migrate
        /// Require the schema to be exactly current (other `sgadmin` commands).
        case requireCurrent
    }

    /// Who copies committed pages from the write-ahead log back into the database file.
    public enum Checkpointing: Sendable {
        /// SQLite's default: the commit that takes the log past 1,000 pages does it, and waits for it (sgadmin).
        case automatic
        /// `checkpoint()`, called off the request path (the server's `WALCheckpointService`). A commit takes the
        /// copy on itself only if the log passes `backgroundSafetyNetPages`, should the background stop keeping up.
        case background
    }

    /// Log pages (of 4 KiB) after which a commit checkpoints even when checkpoints run in the background.
    public static let backgroundSafetyNetPages = 10_000

    /// Opens (and with `.migrate` creates) the database file at `path`.
    public static func open(path: String, schema: SchemaPolicy = .migrate, checkpointing: Checkpointing = .automatic) throws -> AppDatabase {
        if schema == .requireCurrent && !FileManager.default.fileExists(atPath: path) {
            throw SGError.notFound("No database at \(path). Check --database / SG_DATABASE, or create it with `sgadmin migrate`.")
        }
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // The file holds password hashes and everyone's leave: for the server's user only. SQLite gives the
        // write-ahead log and its index the database file's permissions.
        if !FileManager.default.fileExists(atPath: path) {
            _ = FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600])
        }
        return try translatingErrors {
            let pool = try DatabasePool(path: path, configuration: configuration(checkpointing))
            let database = AppDatabase(
                writer: pool, readers: ReadConnectionPool(path: path, busyTimeout: busyTimeout),
                checkpointer: checkpointing == .background ? Checkpointer(path: path) : nil)
            try database.prepareSchema(schema)
            // After the migrations, whose statements may change whole tables: a unit of work's copies of the pages it
            // changes are small (see `write`).
            try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA temp_store = MEMORY") }
            return database
        }
    }

    /// A private in-memory database, migrated: one per test.
    public static func inMemory() throws -> AppDatabase {
        let database = AppDatabase(writer: try DatabaseQueue(configuration: configuration(.automatic)), readers: nil, checkpointer: nil)
        try database.prepareSchema(.migrate)
        return database
    }

    /// Runs `sql`, one statement, in a write transaction of its own, on either engine: for tests and tools that
    /// change rows directly, outside the rules.
    public func execute(sql: String, _ arguments: [SQLArgument] = []) async throws {
        try await writing { connection in
            try connection.execute(sql) { statement in SQLArgument.bind(arguments, to: statement) }
        }
    }

    /// The first column of each row `sql` gives, as text (nil for NULL), on either engine: for tests and tools.
    public func column(sql: String, _ arguments: [SQLArgument] = []) async throws -> [String?] {
        try await onReadThread { [self] in try self.columnNow(sql: sql, arguments) }
    }

    private func columnNow(sql: String, _ arguments: [SQLArgument]) throws -> [String?] {
        try reading { connection in
            try connection.with(sql) { statement in
                SQLArgument.bind(arguments, to: statement)
                var values: [String?] = []
                while try statement.step() { values.append(statement.optionalText(0)) }
                return values
            }
        }
    }

    /// Closes a PostgreSQL database's idle connections now (nothing to do on SQLite, whose connections close with
    /// the object).
    public func closeConnections() {
        postgres?.shutdown()
    }

    private static func configuration(_ checkpointing: Checkpointing) -> Configuration {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(busyTimeout)
        // Several readers in the server; writes are serialized by GRDB within a process and by SQLite's lock
        // across processes.
        configuration.maximumReaderCount = 4
        configuration.prepareDatabase { db in
            // After a burst, the log file is cut back to this size when it starts over, instead of keeping the
            // burst's size on disk for good.
            try db.execute(sql: "PRAGMA journal_size_limit = \(journalSizeLimit)")
            if checkpointing == .background {
                try db.execute(sql: "PRAGMA wal_autocheckpoint = \(backgroundSafetyNetPages)")
            }
        }
        return configuration
    }

    /// Bytes of write-ahead log kept on disk once it has been copied back into the database.
    public static let journalSizeLimit = 64 * 1024 * 1024

    /// Copies what it can of the write-ahead log into the database file without waiting for or blocking anyone
    /// (a PASSIVE checkpoint, on a connection of its own). Returns the log's pages and how many are now copied.
    /// Nothing to do unless the database was opened with `.background` checkpointing.
    @discardableResult
    public func checkpoint() throws -> (logPages: Int, checkpointedPages: Int) {
        try Self.translatingErrors { try checkpointer?.checkpoint() ?? (0, 0) }
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
        // While the database opens nothing else runs on SQLite's writer, which is open already: reading there rather
        // than through `appliedMigrations` spares opening a reader of GRDB's pool, and parsing the schema again, for
        // one statement at every start of sgadmin (issue 20). Nothing is written.
        let applied = try postgres == nil
            ? writer.writeWithoutTransaction { db in try Self.migrator.appliedIdentifiers(db).sorted() } : appliedMigrations()
        let unknown = applied.filter { !Self.knownMigrations.contains($0) }
        if !unknown.isEmpty {
            throw SGError.schemaTooNew(
                "The database has schema migrations this program does not know (\(unknown.joined(separator: ", "))). "
                    + "It was written by a newer version: upgrade sgserver and sgadmin instead of using this one.")
        }
        switch policy {
        case .migrate:
            _ = try migrate()
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
        if let postgres { return try Self.translatingErrors { try PostgresSchema.migrate(postgres) } }
        return try Self.translatingErrors {
            let before = try writer.read { db in try Self.migrator.appliedIdentifiers(db) }
            try Self.migrator.migrate(writer)
            let after = try writer.read { db in try Self.migrator.appliedIdentifiers(db) }
            return Self.knownMigrations.filter { after.contains($0) && !before.contains($0) }
        }
    }

    public func appliedMigrations() throws -> [String] {
        if let postgres { return try Self.translatingErrors { try PostgresSchema.applied(postgres) } }
        return try writer.read { db in try Self.migrator.appliedIdentifiers(db).sorted() }
    }

    /// A unit of work that writes: atomic, and acknowledged (this returns) only once it is committed.
    ///
    /// Units asked for while the writer is busy are committed together, in one transaction that takes SQLite's
    /// write lock when it begins (BEGIN IMMEDIATE), so that what each reads cannot be changed by another process
    /// before it commits. Each runs in a savepoint of its own, in the order they were asked for: one that fails is
    /// rolled back alone and its caller hears its error, the others commit. One commit writes the pages the units
    /// share (the indexes they all touch) once, and the writer is handed over once, instead of once per unit. A
    /// unit alone in its transaction runs without a savepoint (its failure rolls the transaction back), so SQLite
    /// keeps no copy of every page it changes. Those copies (and the statements' own) are kept in memory
    /// (`temp_store`), not in a temporary file opened and deleted for each transaction. In memory they are a list of
    /// 1 KiB pieces that SQLite (3.40) walks from the first at the end of every statement inside a savepoint, so a
    /// unit in a batch pays the square of the pages it changes: cut a large change into several units
    /// (`PeopleService.foldsPerWrite`; docs/performance.md, 29 November 2026, afternoon).
    public func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        guard grdbWriter != nil else { throw Self.sqliteOnly }
        // What this unit of work reads after its own commit must see it.
        sharedCommitCheck?.forget()
        defer { sharedCommitCheck?.forget() }
        // The time spent queueing behind this process's other writes counts against the lock time-out too: each
        // queued write used to wait a time-out of its own after the one before it had (5, 10, 11.6 s, issue 18).
        let deadline = Self.writeDeadline()
        let asked = ContinuousClock.now
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let unit = PendingWrite(
                deadline: deadline, asked: asked,
                run: { db, alone in
                    do {
                        let value = alone ? try body(db) : try Self.inSavepoint(db) { try body(db) }
                        return ({ continuation.resume(returning: value) }, nil)
                    } catch {
                        let failure = Self.translated(error)
                        return ({ continuation.resume(throwing: failure) }, failure)
                    }
                },
                fail: { error in continuation.resume(throwing: error) })
            if pendingWrites.enqueue(unit) {
                // On a thread of its own, not one of the tasks' few shared threads: when those are all busy (password
                // hashing, say), the writer must still be reached.
                DispatchQueue.global(qos: .userInitiated).async { self.commitPendingWrites() }
            }
        }
    }

    /// Commits what is pending, batch after batch on the writer, until nothing is: one thread at a time does this.
    private func commitPendingWrites() {
        writer.writeWithoutTransaction { db in
            while let batch = self.pendingWrites.takeBatch() { self.commit(batch, db) }
        }
    }

    /// One batch, on the writer: waits for the write lock no longer than the earliest deadline of the batch
    /// (whoever passes theirs is answered and left out, the rest try again), runs every unit in its savepoint,
    /// commits, then answers each caller. A failed BEGIN or COMMIT fails them all: none is acknowledged.
    private func commit(_ batch: [PendingWrite], _ db: Database) {
        let connection = writeConnection.connection(for: db)
        defer { connection.setBusyTimeout(.seconds(Self.busyTimeout)) }
        var waiting = batch
        while true {
            let now = ContinuousClock.now
            let expired = waiting.filter { $0.deadline <= now }
            for unit in expired { unit.fail(Self.lockedTooLong) }
            waiting.removeAll { $0.deadline <= now }
            guard let earliest = waiting.map(\.deadline).min() else { return }
            connection.setBusyTimeout(earliest - now)
            do {
                try db.cachedStatement(sql: "BEGIN IMMEDIATE").execute()
                break
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED {
                continue
            } catch {
                let failure = Self.translated(error)
                for unit in waiting { unit.fail(failure) }
                return
            }
        }
        let began = ContinuousClock.now
        var answers: [@Sendable () -> Void] = []
        let alone = waiting.count == 1
        for unit in waiting {
            let (answer, failure) = unit.run(db, alone)
            answers.append(answer)
            // What the writer keeps may have been read after changes now undone (`WriterKept`).
            if failure != nil { WriterKept.forget(connection) }
            if alone, failure != nil {
                try? db.rollback()
                answer()
                return
            }
            // Some failures (a full disk, an I/O error) make SQLite roll back the whole transaction, not only the
            // unit's savepoint: then nothing of the batch is written, and everyone hears that unit's failure.
            guard db.isInsideTransaction else {
                WriterKept.forget(connection)
                let failure = failure ?? Self.translated(DatabaseError(resultCode: .SQLITE_ABORT, message: "the transaction was rolled back"))
                for unit in waiting { unit.fail(failure) }
                return
            }
        }
        do {
            try db.cachedStatement(sql: "COMMIT").execute()
        } catch {
            try? db.rollback()
            WriterKept.forget(connection)
            let failure = Self.translated(error)
            for unit in waiting { unit.fail(failure) }
            return
        }
        let committed = ContinuousClock.now
        batchesCommitted.add(1, ordering: .relaxed)
        if let metrics = self.metrics.withLock({ $0 }) {
            for unit in waiting { metrics.record(asked: unit.asked, began: began, committed: committed) }
        }
        for answer in answers { answer() }
    }

    /// Runs `body` in a savepoint: released when it returns, rolled back (and released) when it throws. The three
    /// statements are prepared once per connection (GRDB's `inSavepoint` parses its own for every unit).
    private static func inSavepoint<T>(_ db: Database, _ body: () throws -> T) throws -> T {
        try db.cachedStatement(sql: "SAVEPOINT unit").execute()
        do {
            let value = try body()
            try db.cachedStatement(sql: "RELEASE unit").execute()
            return value
        } catch {
            // Nothing to undo when SQLite has already rolled the whole transaction back (a full disk, say): the
            // caller sees that and fails the batch.
            if db.isInsideTransaction {
                try? db.cachedStatement(sql: "ROLLBACK TO unit").execute()
                try? db.cachedStatement(sql: "RELEASE unit").execute()
            }
            throw error
        }
    }

    /// From now on, every write reports how long it waited for the write lock and how long its transaction took.
    public func reportMetrics(to metrics: DatabaseMetrics) {
        self.metrics.withLock { $0 = metrics }
    }

    /// When a write asked for now must have the lock: `busyTimeout` from now, or sooner within a unit of work
    /// (`withUnitOfWork`).
    private static func writeDeadline() -> ContinuousClock.Instant {
        let own = ContinuousClock.now + .seconds(busyTimeout)
        return UnitOfWork.current.map { min($0.writeDeadline, own) } ?? own
    }

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
    private var sharedCommitCheck: UnitOfWork? {
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

    static func translatingErrors<T>(_ work: () throws -> T) throws -> T {
        do { return try work() } catch { throw translated(error) }
    }

    static func translatingErrors<T>(_ work: () async throws -> T) async throws -> T {
        do { return try await work() } catch { throw translated(error) }
    }

    /// SQLite's failures as callers of the store know them. Another process held the write lock for longer than
    /// the busy timeout: say so instead of failing obscurely. Other failures of a statement are GRDB's
    /// `DatabaseError`, whichever layer ran it.
    static func translated(_ error: any Error) -> any Error {
        switch error {
        case let error as SQLiteError:
            switch error.context {
            case .opening(let path):
                return SGError.unavailable("The database at \(path) cannot be opened for reading: \(error.message).", retryAfterSeconds: 1)
            case .statement(let sql):
                if error.isBusy { return lockedTooLong }
                if let failure = storageFailure(ResultCode(rawValue: error.code)) { return failure }
                return DatabaseError(resultCode: ResultCode(rawValue: error.code), message: error.message, sql: sql)
            }
        case let error as DatabaseError:
            if error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED { return lockedTooLong }
            if let failure = storageFailure(error.extendedResultCode) { return failure }
            return error
        case let error as PostgresFailure:
            if error.isConnectionLost {
                return SGError.unavailable("The database server cannot be reached (\(error.message)). Try again in a moment.", retryAfterSeconds: 1)
            }
            if error.isTimeout { return lockedTooLong }
            // 53100: disk full; 25006: a read-only transaction (a standby, or default_transaction_read_only).
            if error.sqlState == "53100" { return storageFailure(.SQLITE_FULL)! }
            if error.sqlState == "25006" { return storageFailure(.SQLITE_READONLY)! }
            return error
        case is PostgresPoolTimeout:
            return SGError.unavailable("Every database connection stayed busy. Try again in a moment.", retryAfterSeconds: 1)
        case let error as PostgresUnreachable:
            return SGError.unavailable(error.description, retryAfterSeconds: 1)
        case let error as Checkpointer.NotInWALMode:
            return SGError.conflict("The database at \(error.path) is not in WAL mode (\(error.mode)).")
        default:
            return error
        }
    }

    /// The disk or the file refusing work, said in words: the server answers 503 (it is the host that needs
    /// attention, and the client may try again later) and sgadmin prints the sentence, where both used to show
    /// "SQLite error 13" (issue 18). Nil for other failures.
    static func storageFailure(_ code: ResultCode) -> SGError? {
        switch code.primaryResultCode {
        case .SQLITE_FULL:
            .unavailable(
                "The disk holding the database is full, so nothing can be saved; reading still works. "
                    + "Free some space on the server.", retryAfterSeconds: storageRetryAfter)
        case .SQLITE_READONLY:
            .unavailable(
                "The database is read-only (its file, its folder or its disk cannot be written), so nothing can be saved; "
                    + "reading still works. Make it writable for the server's user.", retryAfterSeconds: storageRetryAfter)
        case .SQLITE_IOERR:
            .unavailable(
                "The disk failed to read or write the database (an I/O error). Check the server's disk and its log.",
                retryAfterSeconds: storageRetryAfter)
        case .SQLITE_CANTOPEN:
            .unavailable(
                "The database file or its write-ahead log cannot be opened: check that the folder exists and that the "
                    + "server's user may write there.", retryAfterSeconds: storageRetryAfter)
        default:
            nil
        }
    }

    /// Seconds a client is asked to wait when the disk refuses work: someone has to act first.
    static let storageRetryAfter = 30

    /// What a caller hears when another process held the write lock past `busyTimeout`.
    static let lockedTooLong = SGError.unavailable(
        "The database stayed locked by other writers for \(Int(busyTimeout)) s. Try again in a moment.", retryAfterSeconds: 1)
}

/// One concept's store: its reads on a pooled read connection (one snapshot), its writes in a `BEGIN IMMEDIATE`
/// transaction on the write connection, both through the concept's SQL type over that connection.
struct SQLStore<Reading, Writing>: TransactionalStore {
    let database: AppDatabase
    let reading: @Sendable (SQLConnection) -> Reading
    let writing: @Sendable (SQLConnection) -> Writing

    func read<T: Sendable>(_ body: @escaping @Sendable (Reading) throws -> T) async throws -> T {
        try await database.onReadThread { [database, reading] in try database.reading { connection in try body(reading(connection)) } }
    }

    func write<T: Sendable>(_ body: @escaping @Sendable (Writing) throws -> T) async throws -> T {
        try await database.writing { connection in try body(writing(connection)) }
    }
}

extension AppDatabase {
    public var holidayStore: any HolidayStore {
        SQLStore<any HolidayReading, any HolidayTransaction>(
            database: self, reading: SQLHolidayTransaction.init, writing: SQLHolidayTransaction.init)
    }

    public var peopleStore: any PeopleStore {
        SQLStore<any PeopleReading, any PeopleWriting>(database: self, reading: SQLPeople.init, writing: SQLPeople.init)
    }

    public var noticeStore: any NoticeStore {
        SQLStore<any NoticeReading, any NoticeWriting>(database: self, reading: SQLNotices.init, writing: SQLNotices.init)
    }

    public var deviceStore: any DeviceStore {
        SQLStore<any DeviceReading, any DeviceWriting>(database: self, reading: SQLDevices.init, writing: SQLDevices.init)
    }

    public var accountStore: any AccountStore {
        SQLStore<any AccountReading, any AccountWriting>(database: self, reading: SQLAccounts.init, writing: SQLAccounts.init)
    }

    public var sessionStore: any SessionStore { SQLSessions(database: self) }

    public var leaveTypeStore: any LeaveTypeStore {
        SQLStore<any LeaveTypeReading, any LeaveTypeWriting>(database: self, reading: SQLLeaveTypes.init, writing: SQLLeaveTypes.init)
    }

    public var passwordStore: any PasswordStore {
        SQLStore<any PasswordReading, any PasswordWriting>(database: self, reading: SQLPasswords.init, writing: SQLPasswords.init)
    }

    public var outboxStore: any OutboxStore {
        SQLStore<any OutboxReading, any OutboxTransaction>(database: self, reading: SQLOutbox.init, writing: SQLOutbox.init)
    }

    public var webhookStore: any WebhookStore {
        SQLStore<any WebhookReading, any WebhookTransaction>(database: self, reading: SQLOutbox.init, writing: SQLOutbox.init)
    }

    public var absenceStore: any AbsenceStore {
        SQLStore<any AbsenceReading, any AbsenceWriting>(database: self, reading: SQLAbsences.init, writing: SQLAbsences.init)
    }

    public var companyFeedStore: any CompanyFeedStore {
        SQLStore<any CompanyFeedReading, any CompanyFeedWriting>(database: self, reading: SQLCompanyFeeds.init, writing: SQLCompanyFeeds.init)
    }

    public var teamStore: any TeamStore {
        SQLStore<any TeamReading, any TeamWriting>(database: self, reading: SQLTeams.init, writing: SQLTeams.init)
    }

    /// The core's services over this database, as both binaries use them.
    public func services(
        clock: any NowProvider = SystemClock(), retryPolicy: RetryPolicy = RetryPolicy(), destinations: DestinationPolicy = .publicOnly
    ) -> CoreServices {
        let people = PeopleService(store: peopleStore, clock: clock)
        return CoreServices(
            holidays: HolidayService(store: holidayStore, clock: clock), company: CompanyService(store: holidayStore, clock: clock),
            people: people, notices: NoticeService(store: noticeStore, clock: clock),
            devices: DeviceService(store: deviceStore, clock: clock), accounts: AccountService(store: accountStore, clock: clock),
            delivery: DeliveryService(store: outboxStore, clock: clock, policy: retryPolicy),
            webhooks: WebhookService(store: webhookStore, clock: clock, destinations: destinations),
            passwords: PasswordService(store: passwordStore, hasher: BcryptPasswordHasher(), clock: clock),
            leaveTypes: LeaveTypeService(store: leaveTypeStore),
            absences: AbsenceService(store: absenceStore, people: people, clock: clock),
            teams: TeamService(store: teamStore, clock: clock))
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

/// A unit of work waiting for the writer. `run` executes it inside the batch's transaction and returns how to
/// answer its caller once the batch has committed, with its failure if it failed; `fail` answers it instead when
/// the batch could not begin or commit.
private struct PendingWrite: Sendable {
    let deadline: ContinuousClock.Instant
    let asked: ContinuousClock.Instant
    /// Runs the unit (`alone`: the only one of its transaction) and gives what to answer its caller, and its failure.
    let run: @Sendable (Database, _ alone: Bool) -> (answer: @Sendable () -> Void, failure: (any Error)?)
    let fail: @Sendable (any Error) -> Void
}

/// The queue of `PendingWrite`s and whether a task is committing them.
private final class PendingWrites: Sendable {
    private struct State {
        var units: [PendingWrite] = []
        var committing = false
    }

    private let state = Mutex(State())

    var count: Int { state.withLock { $0.units.count } }

    /// Adds a unit; true when no task is committing, so the caller must start one.
    func enqueue(_ unit: PendingWrite) -> Bool {
        state.withLock { state in
            state.units.append(unit)
            guard !state.committing else { return false }
            state.committing = true
            return true
        }
    }

    /// Everything pending, in the order asked; nil (and no task committing any more) when nothing is.
    func takeBatch() -> [PendingWrite]? {
        state.withLock { state in
            guard !state.units.isEmpty else {
                state.committing = false
                return nil
            }
            defer { state.units.removeAll(keepingCapacity: true) }
            return state.units
        }
    }
}

/// A value bound to `execute(sql:_:)` or `column(sql:_:)`, or copied row to row: text (or a text NULL), an integer,
/// a blob, or a NULL left unbound (on PostgreSQL, of whatever type its place in the statement gives it).
public enum SQLArgument: Sendable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByNilLiteral {
    case text(String?)
    case integer(Int64)
    case blob(Data)
    case null

    public init(stringLiteral value: String) { self = .text(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(nilLiteral: ()) { self = .text(nil) }

    static func bind(_ arguments: [SQLArgument], to statement: SQLStatement) {
        for (offset, argument) in arguments.enumerated() {
            let index = Int32(offset + 1)
            switch argument {
            case .text(let value): statement.bind(index, value)
            case .integer(let value): statement.bind(index, value)
            case .blob(let value): statement.bind(index, blob: value)
            case .null: break
            }
        }
    }
}
