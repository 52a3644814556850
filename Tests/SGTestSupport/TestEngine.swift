import Foundation
import SGPostgres
import SGStore

/// The engine the store and API suites run on: SQLite, or PostgreSQL when SG_TEST_ENGINE=postgres (`make test` runs
/// those suites once per engine, on the cluster scripts/postgres.sh starts: SG_TEST_POSTGRES_URL, PGPASSFILE).
public enum TestEngine {
    public static let isPostgres = ProcessInfo.processInfo.environment["SG_TEST_ENGINE"] == "postgres"

    /// A new, empty, migrated database: in memory on SQLite, a database of its own on PostgreSQL.
    public static func newDatabase() throws -> AppDatabase {
        guard isPostgres else { return try AppDatabase.inMemory() }
        return try AppDatabase.open(postgres: try PostgresTestCluster.shared.newDatabase())
    }

    /// The SQLite file at `path`, or on PostgreSQL the database that stands for that path: the same one each time
    /// the same path is opened (a second process on the same database, say).
    public static func open(path: String, schema: AppDatabase.SchemaPolicy = .migrate) throws -> AppDatabase {
        guard isPostgres else { return try AppDatabase.open(path: path, schema: schema) }
        return try AppDatabase.open(postgres: try PostgresTestCluster.shared.database(standingFor: path), schema: schema)
    }
}

/// The test cluster: SG_TEST_POSTGRES_URL (postgres://user@host:port/db), the password in PGPASSFILE. New databases
/// are copies of a template migrated once per test process.
public final class PostgresTestCluster: @unchecked Sendable {
    public static let shared = PostgresTestCluster()

    public struct NotConfigured: Error, CustomStringConvertible {
        public var description: String {
            "SG_TEST_POSTGRES_URL is not set: run the tests through `make test` (scripts/postgres.sh starts the cluster)."
        }
    }

    private let lock = NSLock()
    private var template: String?
    private var admin: PostgresPool?

    /// The cluster's own database, as the URL names it.
    public static func endpoint() throws -> PostgresEndpoint {
        guard let value = ProcessInfo.processInfo.environment["SG_TEST_POSTGRES_URL"], let url = URLComponents(string: value),
            let host = url.host, let user = url.user
        else { throw NotConfigured() }
        let port = url.port ?? 5432
        return PostgresEndpoint(
            host: host, port: port, username: user, password: url.password ?? password(host: host, port: port, user: user),
            database: String(url.path.dropFirst()), tls: .disable, poolSize: 4)
    }

    /// The test cluster's PGPASSFILE holds one line for its role.
    private static func password(host: String, port: Int, user: String) -> String? {
        guard let path = ProcessInfo.processInfo.environment["PGPASSFILE"], let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            return nil
        }
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            if fields.count == 5, fields[0] == host || fields[0] == "*", fields[1] == String(port) || fields[1] == "*", fields[3] == user {
                return fields[4]
            }
        }
        return nil
    }

    /// Runs `sql` on the cluster's own database (CREATE DATABASE and the like).
    public func administer(_ sql: String) throws {
        let pool = try lock.withLock {
            if let admin { return admin }
            let pool = try PostgresPool(endpoint: try Self.endpoint())
            admin = pool
            return pool
        }
        try pool.withConnection(until: .now + .seconds(60)) { _, session in try session.execute(sql) }
    }

    /// A new database, a copy of the migrated template.
    public func newDatabase() throws -> PostgresEndpoint {
        try create(name: "sgt_" + Self.uniqueName())
    }

    /// The database standing for `path`; created (from the template) the first time.
    public func database(standingFor path: String) throws -> PostgresEndpoint {
        let name = "sgp_" + String(UInt64(bitPattern: Int64(path.hashValue)), radix: 36)
        return try lock.withLock {
            var endpoint = try Self.endpoint()
            endpoint.database = name
            if !createdForPaths.contains(name) {
                createdForPaths.insert(name)
                lock.unlock()
                defer { lock.lock() }
                _ = try create(name: name)
            }
            return endpoint
        }
    }

    private var createdForPaths = Set<String>()

    private func create(name: String) throws -> PostgresEndpoint {
        let template = try migratedTemplate()
        try administer("CREATE DATABASE \(name) TEMPLATE \(template)")
        var endpoint = try Self.endpoint()
        endpoint.database = name
        return endpoint
    }

    private func migratedTemplate() throws -> String {
        lock.lock()
        defer { lock.unlock() }
        if let template { return template }
        let name = "sgtemplate_" + Self.uniqueName()
        lock.unlock()
        try administer("CREATE DATABASE \(name)")
        var endpoint = try Self.endpoint()
        endpoint.database = name
        // Migrated, then closed: a template must have no connections when it is copied.
        let database = try AppDatabase.open(postgres: endpoint)
        database.closeConnections()
        lock.lock()
        template = name
        return name
    }

    private static func uniqueName() -> String {
        UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(20).lowercased()
    }
}
