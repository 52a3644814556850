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
    let grdbWriter: (any DatabaseWriter)?
    /// The connections on PostgreSQL; nil on SQLite.
    let postgres: PostgresPool?
    /// On PostgreSQL, the units of work's checks of the commit generation, one read for those arriving together.
    let generationReads: SharedGenerationReads?
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
    let readers: ReadConnectionPool?
    /// The rules' statements on GRDB's write connection (and, in memory, its only connection).
    let writeConnection = BorrowedConnection()
    /// Present when the database was opened with `.background` checkpointing.
    let checkpointer: Checkpointer?
    /// Where writes report their lock wait and transaction time; nil until `reportMetrics(to:)`.
    let metrics = Mutex<DatabaseMetrics?>(nil)
    /// Units of work waiting to be committed together (`write`).
    let pendingWrites = PendingWrites()
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
        // than through `appliedMigrations` or the read pool spares opening a reader, and parsing the schema again,
        // for two statements at every start of sgadmin. Nothing is written.
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
            let current = try postgres == nil
                ? writer.writeWithoutTransaction { db in try SchemaRules.isCurrent(writeConnection.connection(for: db)) }
                : reading(SchemaRules.isCurrent)
            guard current else {
                throw SGError.conflict("The database's triggers follow older rules than this program's. Run `sgadmin migrate`.")
            }
        }
    }

    /// Applies pending migrations; returns the identifiers applied now.
    public func migrate() throws -> [String] {
        if let postgres { return try Self.translatingErrors { try PostgresSchema.migrate(postgres) } }
        return try Self.translatingErrors {
            let before = try writer.read { db in try Self.migrator.appliedIdentifiers(db) }
            try Self.migrator.migrate(writer)
            _ = try writer.write { db in try SchemaRules.install(writeConnection.connection(for: db)) }
            let after = try writer.read { db in try Self.migrator.appliedIdentifiers(db) }
            return Self.knownMigrations.filter { after.contains($0) && !before.contains($0) }
        }
    }

    public func appliedMigrations() throws -> [String] {
        if let postgres { return try Self.translatingErrors { try PostgresSchema.applied(postgres) } }
        return try writer.read { db in try Self.migrator.appliedIdentifiers(db).sorted() }
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
