import Foundation
import GRDB
import Testing
import SGMigrations
import SGCore
import SGTestSupport
@testable import SGStore

@Suite struct SchemaTests {
    @Test func everyMigrationFileIsRegistered() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Migrations").standardized
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".sql") }.sorted()
        #expect(!files.isEmpty)
        #expect(files.map { String($0.dropLast(4)) } == AppDatabase.knownMigrations)
    }

    /// A file in postgres/ is PostgreSQL's text of the migration of the same name, and only those have one.
    @Test func everyPostgresMigrationFileIsRegistered() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Migrations/postgres").standardized
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".sql") }.sorted()
        #expect(files.map { String($0.dropLast(4)) } == SchemaMigrations.all.filter { !$0.postgres.isEmpty }.map(\.identifier))
        for file in files {
            let migration = try #require(SchemaMigrations.all.first { $0.identifier == String(file.dropLast(4)) })
            #expect(migration.postgres == (try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)), "\(file)")
        }
        // PostgreSQL starts from the whole schema.
        #expect(SchemaMigrations.all.first?.postgres.contains("CREATE TABLE idempotency_keys") == true)
    }

    /// The name and SQL of the current schema's entries that `condition` selects, from a new database.
    static func currentSchema(where condition: String) async throws -> [(name: String, sql: String)] {
        let path = TemporaryDatabasePath()
        defer { path.cleanUp() }
        let database = try AppDatabase.open(path: path.path)
        return try await database.read { (db: Database) in
            try Row.fetchAll(db, sql: "SELECT name, sql FROM sqlite_master WHERE \(condition)").map { row in (row[0], row[1]) }
        }
    }

    /// SQLite builds a temporary table for an `IN` list of three constants or more at every run of the statement that
    /// holds it, and a CHECK constraint or a trigger runs with every row it guards: SQLite's schema compares such
    /// values one by one (0027).
    @Test func noConstraintOrTriggerListsThreeConstants() async throws {
        let schema = try await Self.currentSchema(where: "sql IS NOT NULL")
        let list = /\bIN\s*\(\s*('[^']*'|-?[0-9]+)\s*,\s*('[^']*'|-?[0-9]+)\s*,/.ignoresCase()
        #expect(schema.count > 50)
        for (name, sql) in schema {
            #expect(sql.firstMatch(of: list) == nil, "\(name) lists three constants or more")
        }
    }

    /// An `UPDATE ... FROM` and an `IN (SELECT ...)` are run by writing a temporary table at every run; a trigger runs
    /// with every row it guards, and held_days_status with every decision (0028).
    @Test func noTriggerWritesATemporaryTable() async throws {
        let triggers = try await Self.currentSchema(where: "type = 'trigger'")
        let inSelect = /\bIN\s*\(\s*SELECT\b/.ignoresCase()
        /// The body's statements that update with a FROM of their own: with every parenthesis taken out, a FROM left
        /// in an UPDATE is its own, not a subquery's.
        func updatesFrom(_ trigger: String) -> [String] {
            guard let begin = trigger.firstMatch(of: /\bBEGIN\b/.ignoresCase()) else { return [] }
            var body = String(trigger[begin.range.upperBound...])
            while body.firstMatch(of: /\([^()]*\)/) != nil { body.replace(/\([^()]*\)/, with: " ") }
            return body.split(separator: ";").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter {
                $0.uppercased().hasPrefix("UPDATE") && $0.firstMatch(of: /\bFROM\b/.ignoresCase()) != nil
            }
        }
        #expect(triggers.count > 40)
        for (name, sql) in triggers {
            #expect(sql.firstMatch(of: inSelect) == nil, "\(name) reads IN (SELECT ...)")
            #expect(updatesFrom(sql).isEmpty, "\(name) updates with UPDATE ... FROM")
        }
        // The test finds what it looks for: held_days_status as 0027 made it, shortened.
        #expect(updatesFrom("""
            CREATE TRIGGER t AFTER UPDATE OF status ON r WHEN (SELECT 1 FROM x) = 1 BEGIN
                INSERT INTO h (k) SELECT k FROM d WHERE d.id = NEW.id ON CONFLICT (k) DO NOTHING;
                UPDATE h SET a = a + d.x FROM (SELECT x, k FROM d WHERE d.id = NEW.id) AS d WHERE h.k = d.k;
            END
            """).count == 1)
        #expect(updatesFrom("CREATE TRIGGER t AFTER UPDATE ON r BEGIN UPDATE h SET (a) = (SELECT a + 1 FROM d WHERE d.k = h.k); END").isEmpty)
    }

    @Test func aNewerSchemaIsRefused() async throws {
        let path = TemporaryDatabasePath()
        defer { path.cleanUp() }
        let database = try AppDatabase.open(path: path.path)
        try await database.write { (db: Database) in
            try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('9999_from_the_future')")
        }
        #expect(throws: SGError.self) { _ = try AppDatabase.open(path: path.path) }
        #expect(throws: SGError.self) { _ = try AppDatabase.open(path: path.path, schema: .requireCurrent) }
    }

    @Test func commandsDoNotCreateADatabaseByAccident() throws {
        let path = TemporaryDatabasePath()
        defer { path.cleanUp() }
        #expect(throws: SGError.self) { _ = try AppDatabase.open(path: path.path, schema: .requireCurrent) }
        #expect(!FileManager.default.fileExists(atPath: path.path))
        _ = try AppDatabase.open(path: path.path, schema: .migrate)
        _ = try AppDatabase.open(path: path.path, schema: .requireCurrent)
    }

    @Test func opensInWALMode() async throws {
        let path = TemporaryDatabasePath()
        defer { path.cleanUp() }
        let database = try AppDatabase.open(path: path.path)
        let mode = try await database.read { (db: Database) in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
        #expect(mode == "wal")
    }
}

@Suite struct SessionTests {
    @Test func logsInWithTheRightPasswordOnly() async throws {
        let f = try await Fixture.make()
        let sessions = f.sessions()
        let issued = try await sessions.login(username: "alice", password: Fixture.password)
        #expect(issued.employee.id == f.alice.id)
        #expect(issued.token.hasPrefix("sg_") && issued.token.count > 40)
        #expect(try await sessions.authenticate(token: issued.token)?.id == f.alice.id)
        for (username, password) in [("alice", "wrong-password"), ("nobody", Fixture.password), ("alice", ""), ("alice", "   "), ("", "x")] {
            await #expect(throws: SGError.unauthenticated("Wrong username or password.")) {
                _ = try await sessions.login(username: username, password: password)
            }
        }
    }

    /// Input no directory could accept (over-long, NUL) is refused before the throttle: such usernames were kept
    /// as throttle keys, up to a whole request body each, and counted against the client's address.
    @Test func impossibleInputIsRefusedWithoutTouchingTheThrottle() async throws {
        let f = try await Fixture.make()
        let throttle = LoginThrottle(limits: .init(perUsername: 2, perAddress: 3, window: 300), clock: f.clock)
        let sessions = f.services.sessions(store: f.database.sessionStore, directory: f.localAccounts, throttle: throttle)
        let impossible = [String(repeating: "x", count: 100_000), "alice\u{0}x", String(repeating: "a", count: 257)]
        for username in impossible + impossible {
            await #expect(throws: SGError.unauthenticated("Wrong username or password.")) {
                _ = try await sessions.login(username: username, password: Fixture.password, clientAddress: "10.0.0.1")
            }
        }
        let issued = try await sessions.login(username: "alice", password: Fixture.password, clientAddress: "10.0.0.1")
        #expect(issued.employee.id == f.alice.id)
    }

    @Test func tokensAreStoredHashedExpireAndCanBeRevoked() async throws {
        let f = try await Fixture.make()
        let sessions = f.sessions()
        let issued = try await sessions.login(username: "alice", password: Fixture.password)
        #expect(try await f.count("auth_tokens") == 1)
        let plain = try await f.database.column(sql: "SELECT COUNT(*) FROM auth_tokens WHERE token_hash = ?", [.blob(Data(issued.token.utf8))])
        #expect(plain == ["0"])
        f.clock.set(issued.expiresAt.addingTimeInterval(1))
        #expect(try await sessions.authenticate(token: issued.token) == nil)
        f.clock.set(issued.expiresAt.addingTimeInterval(-60))
        #expect(try await sessions.authenticate(token: issued.token) != nil)
        try await sessions.logout(token: issued.token)
        #expect(try await sessions.authenticate(token: issued.token) == nil)
    }

    /// Tokens issued before sessions existed keep working after the upgrade, each as a session of its own that
    /// ends with its token and can be ended like any other.
    @Test func tokensFromBeforeSessionsBecomeSessions() async throws {
        let path = TemporaryDatabasePath()
        defer { path.cleanUp() }
        let (token, digest) = SessionService.makeToken()
        let (other, otherDigest) = SessionService.makeToken()
        try await OlderSchemas.make(at: path.path, before: "0017") { db in
            try db.execute(sql: """
                INSERT INTO employees (id, username, name, surname, email, password_hash, created_at) VALUES
                    (7, 'alice', 'Alice', 'Example', 'alice@example.com', NULL, '2025-01-01T00:00:00.000Z')
                """)
            for (digest, created) in [(digest, "2026-03-02T10:00:00.000Z"), (otherDigest, "2026-03-02T11:00:00.000Z")] {
                try db.execute(
                    sql: "INSERT INTO auth_tokens (token_hash, employee_id, created_at, expires_at) VALUES (?, 7, ?, '2026-03-02T22:00:00.000Z')",
                    arguments: [digest, created])
            }
        }
        let database = try AppDatabase.open(path: path.path)
        let clock = FixedClock(today: Fixture.today)
        let sessions = database.sessions(directory: LocalAccountDirectory(accounts: database.accountStore, cost: 4), clock: clock)
        let found = try #require(try await sessions.session(accessToken: token))
        #expect(found.employee.username == "alice")
        let listed = try await sessions.sessions(employeeID: 7)
        #expect(listed.map(\.expiresAt) == Array(repeating: Timestamp.parse("2026-03-02T22:00:00.000Z")!, count: 2))
        #expect(listed.map(\.createdAt) == [Timestamp.parse("2026-03-02T11:00:00.000Z")!, Timestamp.parse("2026-03-02T10:00:00.000Z")!])
        try await sessions.endSession(id: listed[0].id, employeeID: 7, current: found.sessionID)
        #expect(try await sessions.authenticate(token: other) == nil)
        #expect(try await sessions.authenticate(token: token)?.username == "alice")
        clock.set(Timestamp.parse("2026-03-02T22:00:01.000Z")!)
        #expect(try await sessions.authenticate(token: token) == nil)
    }

    @Test func deactivatedEmployeesCannotLogInAndLoseTheirTokens() async throws {
        let f = try await Fixture.make()
        let sessions = f.sessions()
        let issued = try await sessions.login(username: "bob", password: Fixture.password)
        _ = try await f.services.accounts.deactivate(username: "bob")
        #expect(try await sessions.authenticate(token: issued.token) == nil)
        await #expect(throws: SGError.self) { _ = try await sessions.login(username: "bob", password: Fixture.password) }
    }

    @Test func sha256MatchesTheStandardVectors() {
        func hex(_ bytes: Data) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
        #expect(hex(Digests.sha256(Array("".utf8))) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(hex(Digests.sha256(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(hex(Digests.sha256(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(hex(Digests.sha256([UInt8](repeating: 0x61, count: 1_000_000)))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func accountsAreValidated() async throws {
        let f = try await Fixture.make()
        for (username, email) in [("bad name", "x@example.com"), ("ok", "not-an-email"), ("alice", "dup@example.com")] {
            await #expect(throws: SGError.self) {
                _ = try await f.services.accounts.addEmployee(NewEmployee(username: username, name: "N", surname: "S", email: email, isAdmin: false, passwordHash: nil))
            }
        }
        #expect(throws: SGError.self) { try Passwords.validate("short") }
    }

    @Test func theDemoCompanyObeysTheRules() async throws {
        let database = try AppDatabase.inMemory()
        let logins = try #require(try await DemoCompany.seedIfEmpty(database, today: Fixture.today, bcryptCost: 4))
        #expect(logins.count == 12 && logins.filter(\.isAdmin).count == 1)
        let statuses = Set(try await database.services().holidays.requests(RequestFilter(limit: 200), by: Fixture.operatorActor).items.map(\.request.status))
        // A team with two stages holds a request its manager approved.
        #expect(statuses == Set(HolidayStatus.allCases))
        #expect(try await DemoCompany.seedIfEmpty(database, today: Fixture.today, bcryptCost: 4) == nil)
    }

    /// `make run` seeds on whatever day it is started: every day of the year boundary and a sample of the rest.
    @Test func theDemoCompanySeedsOnAnyDay() async throws {
        var days: [CalendarDate] = []
        var day = Fixture.date("2026-01-01")
        while day.year < 2030 {
            if (day.month == 12 && day.day >= 15) || (day.month == 1 && day.day <= 10) || day.day == 13 { days.append(day) }
            day = day.adding(days: 1)!
        }
        for today in days {
            let database = try AppDatabase.inMemory()
            let logins = try await DemoCompany.seedIfEmpty(database, today: today, bcryptCost: 4)
            #expect(logins?.count == 12, "seeding on \(today)")
            let statuses = Set(try await database.services().holidays.requests(RequestFilter(limit: 200), by: Fixture.operatorActor).items.map(\.request.status))
            #expect(statuses == Set(HolidayStatus.allCases), "seeding on \(today)")
        }
    }
}
