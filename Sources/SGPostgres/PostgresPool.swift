import Foundation
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import PostgresNIO
import SGSQLite
import Synchronization

/// Where a PostgreSQL database is and how to reach it.
public struct PostgresEndpoint: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// libpq's `sslmode`.
    public enum TLSMode: String, Sendable, CaseIterable {
        case disable, allow, prefer, require
        case verifyCA = "verify-ca"
        case verifyFull = "verify-full"
    }

    public var host: String
    public var port: Int
    public var username: String
    public var password: String?
    public var database: String
    public var tls: TLSMode
    /// Certificates to trust for verify-ca and verify-full (PEM); the system's when nil.
    public var caFile: String?
    /// Connections this process keeps at most (each serves one read or write at a time).
    public var poolSize: Int
    /// How long a read or write waits for a free connection (and a new connection for the server) before giving up.
    public var acquireTimeout: Duration

    public init(
        host: String, port: Int = 5432, username: String, password: String? = nil, database: String, tls: TLSMode = .prefer,
        caFile: String? = nil, poolSize: Int = 10, acquireTimeout: Duration = .seconds(5)
    ) {
        self.host = host
        self.port = port
        self.username = username
        self.password = password
        self.database = database
        self.tls = tls
        self.caFile = caFile
        self.poolSize = poolSize
        self.acquireTimeout = acquireTimeout
    }

    /// For messages: the endpoint without its password. Dumped or reflected, it shows no more.
    public var description: String { "postgres://\(username)@\(host):\(port)/\(database)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}

/// This process's PostgreSQL connections: at most `poolSize`, each used by one thread at a time, opened when first
/// needed and replaced when they break (a restart of the server, say).
public final class PostgresPool: @unchecked Sendable {
    public let endpoint: PostgresEndpoint
    private let logger: Logger
    /// How every connection of the pool connects (its TLS context made once, not at each connection).
    private let configuration: PostgresConnection.Configuration
    /// Guards `idle` and `open`, and is signalled when a connection is given back.
    private let available = NSCondition()
    private var idle: [SQLConnection] = []
    /// Connections open, idle or in use.
    private var open = 0
    private let stopped = Atomic<Bool>(false)

    public init(endpoint: PostgresEndpoint, logger: Logger = Logger(label: "sgemployee.postgres")) throws {
        self.endpoint = endpoint
        self.logger = logger
        configuration = try Self.configuration(endpoint)
        // Fail early, with the server's reason, when the database cannot be reached at all.
        idle = [try openConnection()]
        open = 1
    }

    deinit { stopped.store(true, ordering: .releasing) }

    /// Closes the idle connections; connections in use close when given back.
    public func shutdown() {
        stopped.store(true, ordering: .releasing)
        available.lock()
        let closing = idle
        open -= idle.count
        idle = []
        available.unlock()
        for connection in closing { connection.postgresSession.close() }
    }

    /// Runs `body` with a connection of the pool on the calling thread, which it blocks: waits for one until
    /// `deadline` at most. A connection left in a transaction is rolled back; a broken one is replaced.
    public func withConnection<T>(until deadline: ContinuousClock.Instant, _ body: (SQLConnection, PostgresSession) throws -> T) throws -> T {
        let connection = try checkOut(until: deadline)
        let session = connection.postgresSession
        defer { checkIn(connection) }
        return try body(connection, session)
    }

    private func checkOut(until deadline: ContinuousClock.Instant) throws -> SQLConnection {
        available.lock()
        while true {
            if let connection = idle.popLast() {
                available.unlock()
                return connection
            }
            if open < endpoint.poolSize {
                open += 1
                available.unlock()
                do {
                    return try openConnection()
                } catch {
                    available.lock()
                    open -= 1
                    available.broadcast()
                    available.unlock()
                    throw error
                }
            }
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero else {
                available.unlock()
                throw PostgresPoolTimeout(waited: endpoint.acquireTimeout)
            }
            _ = available.wait(until: Date(timeIntervalSinceNow: Double(remaining.nanoseconds) / 1e9))
        }
    }

    private func checkIn(_ connection: SQLConnection) {
        let session = connection.postgresSession
        if session.inTransaction && !session.isBroken { try? session.execute("ROLLBACK") }
        let keep = !session.isBroken && !session.inTransaction && !stopped.load(ordering: .acquiring)
        available.lock()
        if keep { idle.append(connection) } else { open -= 1 }
        available.signal()
        available.unlock()
    }

    private static func configuration(_ endpoint: PostgresEndpoint) throws -> PostgresConnection.Configuration {
        let tls: PostgresConnection.Configuration.TLS
        switch endpoint.tls {
        case .disable:
            tls = .disable
        case .allow, .prefer, .require:
            var configuration = TLSConfiguration.makeClientConfiguration()
            configuration.certificateVerification = .none
            let context = try NIOSSLContext(configuration: configuration)
            tls = endpoint.tls == .require ? .require(context) : .prefer(context)
        case .verifyCA, .verifyFull:
            var configuration = TLSConfiguration.makeClientConfiguration()
            configuration.certificateVerification = endpoint.tls == .verifyFull ? .fullVerification : .noHostnameVerification
            if let caFile = endpoint.caFile { configuration.trustRoots = .file(caFile) }
            tls = .require(try NIOSSLContext(configuration: configuration))
        }
        var configuration = PostgresConnection.Configuration(
            host: endpoint.host, port: endpoint.port, username: endpoint.username, password: endpoint.password,
            database: endpoint.database, tls: tls)
        // Connecting is part of the wait for a connection, but not cut shorter than a slow network needs.
        let wait = max(endpoint.acquireTimeout, .seconds(2))
        configuration.options.connectTimeout = .nanoseconds(wait.nanoseconds)
        return configuration
    }

    private static let connectionIDs = Atomic<Int>(0)

    private func connect() throws -> PostgresConnection {
        let id = Self.connectionIDs.add(1, ordering: .relaxed).newValue
        do {
            return try PostgresConnection.connect(
                on: MultiThreadedEventLoopGroup.singleton.next(), configuration: configuration, id: id, logger: logger
            ).wait()
        } catch {
            throw PostgresUnreachable(endpoint: endpoint.description, reason: PostgresFailure(error, sql: nil).message)
        }
    }

    private func openConnection() throws -> SQLConnection {
        let session = PostgresSession(connection: try connect(), logger: logger)
        return SQLConnection(external: session)
    }
}

extension SQLConnection {
    /// The PostgreSQL session of a connection of `PostgresPool`.
    var postgresSession: PostgresSession {
        guard let session = externalConnection as? PostgresSession else { preconditionFailure("not a PostgreSQL connection") }
        return session
    }
}

/// No connection of the pool became free in time.
public struct PostgresPoolTimeout: Error, CustomStringConvertible {
    public let waited: Duration
    public var description: String { "No database connection became free within \(waited)." }
}

/// The database server could not be reached or refused the login.
public struct PostgresUnreachable: Error, CustomStringConvertible {
    public let endpoint: String
    public let reason: String
    public var description: String { "The PostgreSQL database at \(endpoint) cannot be reached: \(reason)" }
}
