import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import PostgresNIO
import SGSQLite

/// One PostgreSQL connection behind `SQLConnection`'s statement API, driven synchronously: every call blocks its
/// thread until the server has answered, so it is used from threads of its own (`PostgresPool`), never from an
/// event loop or the tasks' shared threads.
///
/// Statements that only read are prepared once per connection (by name) and then only bound and run; statements
/// that change rows run unnamed, which gives their count of changed rows. The SQL is the store's SQLite text with
/// `?`/`?N` parameters, turned into `$N` once per statement.
public final class PostgresSession: ExternalSQLConnection {
    let connection: PostgresConnection
    private let logger: Logger
    private var statements: [String: PostgresStatement] = [:]
    private var cacheStorage = ConnectionCache()
    /// The commit generation read by the last `validatedCache()`, which `cacheStorage` is valid for.
    public private(set) var generation: Int64 = -1
    /// Whether a transaction is open on this connection (BEGIN without COMMIT or ROLLBACK yet).
    public internal(set) var inTransaction = false
    /// Inside a read transaction of `reading` (one snapshot), whether `validatedCache()` has read the generation:
    /// it cannot move within the snapshot, so it is read once per read transaction.
    private var validatedInSnapshot: Bool?
    public private(set) var changes = 0
    /// Set when the connection failed in a way that leaves it unusable; the pool then opens a new one.
    public private(set) var isBroken = false

    public var dialect: SQLDialect { .postgres }

    /// The answer being waited for, failed by the connection's closing: the driver leaves some answers pending
    /// forever when the server ends the connection (a prepared statement's, seen with pg_terminate_backend).
    private let waiting = NIOLockedValueBox<(closed: Bool, promise: EventLoopPromise<Void>?)>((false, nil))

    init(connection: PostgresConnection, logger: Logger) {
        self.connection = connection
        self.logger = logger
        let waiting = self.waiting
        connection.closeFuture.whenComplete { _ in
            let promise = waiting.withLockedValue { state in
                state.closed = true
                return state.promise
            }
            promise?.fail(PostgresFailure.connectionClosed)
        }
    }

    /// Waits for `future` on this thread, or fails when the connection closes first.
    private func answer<T: Sendable>(_ future: EventLoopFuture<T>) throws -> T {
        let closed = connection.eventLoop.makePromise(of: Void.self)
        let alreadyClosed = waiting.withLockedValue { state in
            state.promise = closed
            return state.closed
        }
        defer {
            waiting.withLockedValue { $0.promise = nil }
            // Every promise is completed (NIO insists); after the answer, this one no longer matters.
            closed.succeed(())
        }
        if alreadyClosed { throw PostgresFailure.connectionClosed }
        let result = connection.eventLoop.makePromise(of: T.self)
        future.cascade(to: result)
        closed.futureResult.whenFailure { result.fail($0) }
        return try result.futureResult.wait()
    }

    deinit {
        // Closed without waiting (this may run on any thread); the connection lives until it is closed.
        let connection = self.connection
        guard !connection.isClosed else { return }
        connection.close().whenComplete { _ in _ = connection }
    }

    /// Closes the connection and waits until it is closed (not on an event loop).
    func close() {
        try? connection.close().wait()
    }

    public func statement(_ sql: String) throws -> any ExternalSQLStatement {
        if let cached = statements[sql] { return cached }
        let statement = PostgresStatement(session: self, sql: sql)
        statements[sql] = statement
        return statement
    }

    /// A read-only transaction around `body`. BEGIN and COMMIT are sent without waiting for their answers: the
    /// server answers a connection's statements in order, so the first statement's answer comes after BEGIN's, and
    /// the next use of the connection queues behind COMMIT. That saves two round trips a read; a failed BEGIN fails
    /// the statement after it, and the COMMIT of a transaction that changed nothing has nothing to lose.
    public func reading<T>(_ body: () throws -> T) throws -> T {
        if inTransaction { return try body() }
        send("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        inTransaction = true
        validatedInSnapshot = false
        defer { validatedInSnapshot = nil }
        do {
            let result = try body()
            send("COMMIT")
            inTransaction = false
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Sends `sql` (no parameters, no rows) without waiting for its answer (see `reading`).
    private func send(_ sql: String) {
        _ = connection.query(PostgresQuery(unsafeSQL: sql), logger: logger)
    }

    public func lastInsertedRowID() throws -> Int64 {
        let statement = try statement("SELECT lastval()")
        defer { statement.reset() }
        guard try statement.step() else { throw PostgresFailure(message: "lastval() gave no row", sqlState: nil) }
        return statement.int64(0)
    }

    /// One read of the database's commit generation (the `commit_generation` row every write transaction moves):
    /// the cache is emptied when it moved, whichever process or server committed. Like SQLite's data_version, the
    /// check is made at the start of each unit of work, so nothing committed before it is missed. Inside a read
    /// transaction it is read once: the snapshot's generation cannot move. Inside a write transaction nothing is
    /// kept: the generation moves only when it commits, so a value kept under it would not show what the
    /// transaction itself has changed (an admin it has just made).
    public func validatedCache() throws -> ConnectionCache? {
        if inTransaction && validatedInSnapshot == nil { return nil }
        if validatedInSnapshot == true { return cacheStorage }
        let statement = try statement("SELECT n FROM commit_generation WHERE id = 1")
        defer { statement.reset() }
        guard try statement.step() else { throw PostgresFailure(message: "the commit_generation row is missing", sqlState: nil) }
        let current = statement.int64(0)
        if current != generation {
            cacheStorage = ConnectionCache()
            generation = current
        }
        if validatedInSnapshot == false { validatedInSnapshot = true }
        return cacheStorage
    }

    /// Runs one statement without parameters or rows (BEGIN, COMMIT, SET ...).
    public func execute(_ sql: String) throws {
        _ = try run(PostgresQuery(unsafeSQL: sql))
        switch sql.prefix(5).uppercased() {
        case "BEGIN": inTransaction = true
        case "COMMI", "ROLLB": inTransaction = false
        default: break
        }
    }

    /// The statements of a script, split where they end.
    public static func statements(of script: String) -> [String] { PostgresSQL.statements(of: script) }

    /// Runs a script of several statements (a migration), one after the other.
    public func executeScript(_ script: String) throws {
        for statement in PostgresSQL.statements(of: script) { _ = try run(PostgresQuery(unsafeSQL: statement)) }
    }

    /// Runs `query` unnamed and collects its rows.
    func run(_ query: PostgresQuery) throws -> PostgresQueryResult {
        do {
            let result = try answer(connection.query(query, logger: logger))
            changes = result.metadata.rows ?? 0
            return result
        } catch {
            throw failure(error, sql: query.sql)
        }
    }

    /// Prepares `sql` under a name of this connection, once.
    func prepare(_ sql: String) throws -> PreparedQuery {
        do {
            return try answer(connection.prepare(query: sql))
        } catch {
            throw failure(error, sql: sql)
        }
    }

    func execute(_ prepared: PreparedQuery, _ binds: [PostgresData], sql: String) throws -> [PostgresRow] {
        do {
            return try answer(prepared.execute(binds))
        } catch {
            throw failure(error, sql: sql)
        }
    }

    /// The driver's error as `PostgresFailure`; a connection that can no longer be used is marked broken.
    private func failure(_ error: any Error, sql: String) -> PostgresFailure {
        let failure = PostgresFailure(error, sql: sql)
        if failure.isConnectionLost || connection.isClosed { isBroken = true }
        return failure
    }
}

/// A failure reported by PostgreSQL (with its SQLSTATE) or by the connection to it.
public struct PostgresFailure: Error, CustomStringConvertible {
    public let message: String
    /// The five-character SQLSTATE, for failures the server reported.
    public let sqlState: String?
    public var sql: String?
    /// The connection is gone (the server restarted or the network failed): worth trying again on a new one.
    public var isConnectionLost = false

    /// The connection closed while an answer was awaited.
    static var connectionClosed: PostgresFailure {
        var failure = PostgresFailure(message: "the connection to the server closed", sqlState: nil)
        failure.isConnectionLost = true
        return failure
    }

    public init(message: String, sqlState: String?) {
        self.message = message
        self.sqlState = sqlState
    }

    init(_ error: any Error, sql: String?) {
        self.sql = sql
        if let error = error as? PSQLError {
            if let info = error.serverInfo {
                message = info[.message] ?? "\(error.code)"
                sqlState = info[.sqlState]
                isConnectionLost = Self.endsConnection(sqlState)
            } else {
                message = "\(error.code)" + (error.underlying.map { ": \($0)" } ?? "")
                sqlState = nil
                isConnectionLost = true
            }
        } else if case .server(let reported) = error as? PostgresError {
            // The driver's older calls (prepared statements) report the server's error this way.
            message = reported.fields[.message] ?? "\(reported)"
            sqlState = reported.fields[.sqlState]
            isConnectionLost = Self.endsConnection(sqlState)
        } else if let error = error as? PostgresFailure {
            self = error
        } else {
            message = "\(error)"
            sqlState = nil
            isConnectionLost = true
        }
    }

    /// 57P01-57P03: the server is shutting down or restarting; 08xxx: connection exceptions.
    private static func endsConnection(_ sqlState: String?) -> Bool {
        guard let sqlState else { return false }
        return sqlState.hasPrefix("57P") || sqlState.hasPrefix("08")
    }
    /// A lock was not granted within `lock_timeout`, or a statement ran past `statement_timeout`.
    public var isTimeout: Bool { sqlState == "55P03" || sqlState == "57014" }

    public var description: String {
        "PostgreSQL error\(sqlState.map { " \($0)" } ?? ""): \(message)" + (sql.map { " - while executing `\($0)`" } ?? "")
    }
}
