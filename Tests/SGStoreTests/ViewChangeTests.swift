import Foundation
import GRDB
import SGCore
import SGTestSupport
import Testing
@testable import SGStore

/// The cache of computed views forgets, at each commit, only the employees the commit changed (`view_changes`).
@Suite struct ViewChangeTests {
    /// A cache of one number per employee that counts how often each was computed.
    final class Counted: @unchecked Sendable {
        let cache: CommitScopedCache<Int64, Int>
        private var computed: [Int64: Int] = [:]

        init(_ database: AppDatabase) { cache = database.makeCache(of: Int.self, by: Int64.self) { $0 } }

        /// How many times `employee`'s value has been computed, as the cache gives it.
        func value(_ employee: Int64) async throws -> Int {
            try await cache.value(for: employee, isCurrent: { _ in true }) {
                computed[employee, default: 0] += 1
                return computed[employee]!
            }
        }
    }

    @Test func aCommitForgetsOnlyTheEmployeesItChanged() async throws {
        let (f, other, path) = try await ReadPathTests.twoProcesses()
        defer { path.cleanUp() }
        let counted = Counted(f.database)
        let elsewhere = other.services(clock: f.clock)
        func expect(alice: Int, bob: Int, _ comment: Comment, sourceLocation: SourceLocation = #_sourceLocation) async throws {
            #expect(try await counted.value(f.alice.id) == alice, comment, sourceLocation: sourceLocation)
            #expect(try await counted.value(f.bob.id) == bob, comment, sourceLocation: sourceLocation)
        }
        try await expect(alice: 1, bob: 1, "computed once")
        try await expect(alice: 1, bob: 1, "then kept")

        _ = try await elsewhere.holidays.adjustAllowance(
            employeeID: f.alice.id, year: 2026, days: .days(1), reason: "Overtime in May", by: f.admin.actor)
        try await expect(alice: 2, bob: 1, "Alice's allowance adjusted by another process")

        let start = f.weekday(7)
        let request = try await f.service.createRequest(for: f.bob.id, start: start, end: start, comment: "", actor: f.bob.actor)
        try await expect(alice: 2, bob: 2, "Bob's request made here")
        _ = try await elsewhere.holidays.perform(.approve, on: request.id, by: f.admin.actor)
        try await expect(alice: 2, bob: 3, "Bob's request approved by another process")

        let sessions = f.sessions()
        let issued = try await sessions.login(username: "alice", password: Fixture.password)
        try await expect(alice: 2, bob: 3, "a login changes no view")
        try await sessions.logout(token: issued.token)
        try await expect(alice: 2, bob: 3, "nor does the end of a session, though it is recorded for the tokens")

        _ = try await elsewhere.holidays.setWorkingWeek(
            employeeID: f.alice.id, from: f.weekday(14), week: WorkingWeek(code: "1234"), by: f.admin.actor)
        try await expect(alice: 3, bob: 3, "Alice's working week")

        try await other.execute(sql: "UPDATE company SET default_allowance = default_allowance + 1")
        try await expect(alice: 4, bob: 4, "the company's settings are everyone's")
        try await other.execute(sql: "UPDATE employees SET name = 'Alicia' WHERE id = ?", [.integer(f.alice.id)])
        try await expect(alice: 5, bob: 5, "a name shows in other people's views (as their approver)")
        try await other.execute(sql: "UPDATE employees SET phone = '+41 1' WHERE id = ?", [.integer(f.bob.id)])
        try await expect(alice: 5, bob: 6, "a phone number only in one's own")
    }

    /// The write connection keeps the company and the admins from one write to the next (`WriterKept`), and reads
    /// them again after a change to them by this process or another, and after a unit that changed them failed.
    @Test func theWriterKeepsTheAdminsAndTheCompanyUntilTheyChange() async throws {
        let (f, other, path) = try await ReadPathTests.twoProcesses()
        defer { path.cleanUp() }
        func admins() async throws -> [String] {
            try await f.database.writing { connection in
                try SQLTeams(connection: connection).approvalContext(employeeID: f.alice.id, on: f.today).admins
                    .map { "\($0.username) \($0.email)" }
            }
        }
        func allowance() async throws -> Int { try await f.database.writing { connection in try Rows.company(connection).defaultAllowance } }
        let first = try await admins()
        #expect(first == ["admin admin@example.com", "admin2 admin2@example.com"])
        let allowed = try await allowance()

        let start = f.weekday(7)
        let request = try await f.service.createRequest(for: f.alice.id, start: start, end: start, comment: "", actor: f.alice.actor)
        _ = try await f.service.perform(.approve, on: request.id, by: f.admin.actor)
        #expect(try await admins() == first, "requests and decisions change no admin")

        try await other.execute(sql: "UPDATE employees SET is_admin = 1 WHERE id = ?", [.integer(f.bob.id)])
        #expect(try await admins() == first + ["bob bob@example.com"], "an admin made by another process")
        try await other.execute(sql: "UPDATE employees SET email = 'boss@example.com' WHERE id = ?", [.integer(f.admin.id)])
        #expect(try await admins() == ["admin boss@example.com", "admin2 admin2@example.com", "bob bob@example.com"], "an admin's address")
        try await f.database.execute(sql: "UPDATE employees SET is_active = 0 WHERE id = ?", [.integer(f.secondAdmin.id)])
        #expect(try await admins() == ["admin boss@example.com", "bob bob@example.com"], "an admin deactivated by this process")

        // A unit that makes Alice an admin, reads the admins, then fails: both its change and what it read are gone.
        await #expect(throws: SGError.invalid(field: "probe", message: "refused")) {
            try await f.database.writing { connection in
                try connection.execute("UPDATE employees SET is_admin = 1 WHERE id = ?") { $0.bind(1, f.alice.id) }
                let seen = try SQLTeams(connection: connection).approvalContext(employeeID: f.bob.id, on: f.today).admins
                #expect(seen.contains { $0.id == f.alice.id })
                throw SGError.invalid(field: "probe", message: "refused")
            }
        }
        #expect(try await admins() == ["admin boss@example.com", "bob bob@example.com"], "after the failed unit")

        #expect(try await allowance() == allowed)
        try await other.execute(sql: "UPDATE company SET default_allowance = default_allowance + 3")
        #expect(try await allowance() == allowed + 3, "the company changed by another process")
    }

    /// The server's access tokens (`TokenCache`) live by the same table's rows marked `token`: requests, decisions and
    /// changes of the company leave a kept token alone; its own end (here by another process) and a change of its
    /// employee's row where a session shows it (name, role, a deactivation) forget it.
    @Test func aKeptTokenLastsUntilACommitChangesItsSession() async throws {
        let (f, other, path) = try await ReadPathTests.twoProcesses()
        defer { path.cleanUp() }
        let sessions = f.sessions()
        let issued = [
            f.alice.id: try await sessions.login(username: "alice", password: Fixture.password).token,
            f.bob.id: try await sessions.login(username: "bob", password: Fixture.password).token,
        ]
        var lookUps: [Int64: Int] = [:]
        func seen(_ employeeID: Int64) async throws -> Employee? {
            let digest = Digests.tokenDigest(issued[employeeID]!)
            let cache: TokenCache = f.database.tokens
            return try await cache.session(for: digest, at: f.clock.now(), on: f.database) {
                lookUps[employeeID, default: 0] += 1
                return try f.database.withReader { connection in try SQLSessions.lookUp(connection, accessDigest: digest) }
            }?.employee
        }
        func expect(alice: Int, bob: Int, _ comment: Comment, sourceLocation: SourceLocation = #_sourceLocation) async throws {
            #expect(try await seen(f.alice.id)?.id == f.alice.id, comment, sourceLocation: sourceLocation)
            #expect(try await seen(f.bob.id)?.id == f.bob.id, comment, sourceLocation: sourceLocation)
            #expect(lookUps == [f.alice.id: alice, f.bob.id: bob], comment, sourceLocation: sourceLocation)
        }
        try await expect(alice: 1, bob: 1, "looked up once")
        try await expect(alice: 1, bob: 1, "then kept")

        let elsewhere = other.services(clock: f.clock)
        let start = f.weekday(7)
        let request = try await elsewhere.holidays.createRequest(for: f.bob.id, start: start, end: start, comment: "", actor: f.bob.actor)
        _ = try await elsewhere.holidays.perform(.approve, on: request.id, by: f.admin.actor)
        try await expect(alice: 1, bob: 1, "Bob's request, made and approved by another process, changes no session")
        _ = try await sessions.login(username: "alice", password: Fixture.password)
        try await expect(alice: 1, bob: 1, "a new token ends none")
        try await other.execute(sql: "UPDATE company SET default_allowance = default_allowance + 1")
        try await expect(alice: 1, bob: 1, "the company's settings are in no session")
        try await other.execute(sql: "UPDATE employees SET phone = '+41 1' WHERE id = ?", [.integer(f.bob.id)])
        try await expect(alice: 1, bob: 1, "nor is a phone number")

        try await other.execute(sql: "UPDATE employees SET name = 'Bobby' WHERE id = ?", [.integer(f.bob.id)])
        #expect(try await seen(f.bob.id)?.name == "Bobby", "a session shows its employee's name as it is now")
        try await expect(alice: 1, bob: 2, "a name forgets that employee's tokens alone")

        try await other.execute(sql: "DELETE FROM sessions WHERE employee_id = ?", [.integer(f.alice.id)])
        #expect(try await seen(f.alice.id) == nil, "Alice's sessions ended by another process")
        #expect(try await seen(f.bob.id)?.id == f.bob.id)
        #expect(lookUps == [f.alice.id: 2, f.bob.id: 2])

        try await other.execute(sql: "UPDATE employees SET is_active = 0 WHERE id = ?", [.integer(f.bob.id)])
        #expect(try await seen(f.bob.id) == nil, "Bob deactivated by another process")
        #expect(lookUps == [f.alice.id: 2, f.bob.id: 3])
    }

    /// A cache of values that show anyone's data (pages of everyone's requests) forgets them all at any change.
    /// Bounded per employee: one employee asking for many values (years) drops only their own oldest; everyone
    /// else's stay, however many employees there are.
    @Test func aCacheIsBoundedPerEmployeeNotOnTheWhole() async throws {
        let (f, _, path) = try await ReadPathTests.twoProcesses()
        defer { path.cleanUp() }
        struct Key: Hashable, Sendable { let employee: Int64; let year: Int }
        let cache = f.database.makeCache(of: Int.self, by: Key.self, maximumPerEmployee: 2) { $0.employee }
        var computed = 0
        func value(_ employee: Int64, _ year: Int) async throws -> Int {
            try await cache.value(for: Key(employee: employee, year: year), isCurrent: { _ in true }) {
                computed += 1
                return computed
            }
        }
        // More employees than any bound on the whole would have held: all kept.
        for employee in Int64(1_000)..<Int64(26_000) { _ = try await value(employee, 2026) }
        #expect(computed == 25_000)
        #expect(try await value(1_000, 2026) == 1, "kept")
        #expect(try await value(25_999, 2026) == 25_000, "kept")
        #expect(computed == 25_000)
        // Alice asks for three years: her oldest is dropped, nobody else's.
        _ = try await value(f.alice.id, 2024)
        _ = try await value(f.alice.id, 2025)
        _ = try await value(f.alice.id, 2026)
        #expect(computed == 25_003)
        _ = try await value(f.alice.id, 2025)
        _ = try await value(f.alice.id, 2026)
        #expect(computed == 25_003, "her newest two are kept")
        _ = try await value(f.alice.id, 2024)
        #expect(computed == 25_004, "her oldest was dropped")
        #expect(try await value(1_000, 2026) == 1)
        #expect(computed == 25_004)
    }

    @Test func aCacheOfEveryonesDataForgetsEverythingAtAnyChange() async throws {
        let (f, other, path) = try await ReadPathTests.twoProcesses()
        defer { path.cleanUp() }
        let cache = f.database.makeCache(of: Int.self, by: Int64.self, anyChangeForgetsAll: true) { $0 }
        var computed = 0
        func value(_ key: Int64) async throws -> Int {
            try await cache.value(for: key, isCurrent: { _ in true }) {
                computed += 1
                return computed
            }
        }
        #expect(try await value(f.alice.id) == 1)
        #expect(try await value(f.alice.id) == 1, "kept")
        let issued = try await f.sessions().login(username: "alice", password: Fixture.password)
        #expect(try await value(f.alice.id) == 1, "a login changes nobody's data")
        try await f.sessions().logout(token: issued.token)
        #expect(try await value(f.alice.id) == 1, "nor does a logout")
        try await other.execute(sql: "UPDATE employees SET phone = '+41 1' WHERE id = ?", [.integer(f.bob.id)])
        #expect(try await value(f.alice.id) == 2, "Bob's phone number, changed by another process, forgets what was kept under Alice")
    }

    @Test func aGapInTheChangesForgetsEverything() async throws {
        let (f, other, path) = try await ReadPathTests.twoProcesses()
        defer { path.cleanUp() }
        let counted = Counted(f.database)
        #expect(try await counted.value(f.alice.id) == 1)
        // As if the rows after the last one read had been dropped: the one left names nobody here.
        try await other.execute(sql: "INSERT INTO view_changes (seq, employee_id) SELECT COALESCE(MAX(seq), 0) + 5, -1 FROM view_changes")
        #expect(try await counted.value(f.alice.id) == 2)
        #expect(try await counted.value(f.alice.id) == 2)
        try await other.execute(sql: "INSERT INTO view_changes (seq, employee_id) SELECT MAX(seq) + 1, -1 FROM view_changes")
        #expect(try await counted.value(f.alice.id) == 2, "a row that follows and names someone else")
    }

    @Test func moreChangesThanOneReadTakesForgetEverythingOnce() async throws {
        let (f, other, path) = try await ReadPathTests.twoProcesses()
        defer { path.cleanUp() }
        let counted = Counted(f.database)
        #expect(try await counted.value(f.alice.id) == 1)
        try await other.execute(sql: """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(AppDatabase.viewChangesRead + 10))
            INSERT INTO view_changes (seq, employee_id) SELECT (SELECT COALESCE(MAX(seq), 0) FROM view_changes) + i, -1 FROM n
            """)
        #expect(try await counted.value(f.alice.id) == 2)
        #expect(try await counted.value(f.alice.id) == 2)
    }

    @Test func theTableIsKeptShort() async throws {
        let (_, other, path) = try await ReadPathTests.twoProcesses()
        defer { path.cleanUp() }
        try await other.execute(sql: """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 25000)
            INSERT INTO view_changes (seq, employee_id) SELECT (SELECT COALESCE(MAX(seq), 0) FROM view_changes) + i, -1 FROM n
            """)
        let rows = try await other.column(sql: "SELECT COUNT(*) FROM view_changes")
        #expect(Int(rows.first.flatMap { $0 } ?? "") ?? 0 <= 11_000)
    }

    /// 0028 numbers the rows without AUTOINCREMENT: a database of 0027 keeps its rows and goes on after the largest
    /// number it ever gave, even when that row was taken out by hand, so that a reader never sees a number twice.
    @Test(.enabled(if: !TestEngine.isPostgres, "SQLite's migration; PostgreSQL numbered the rows this way from 0023"))
    func numbersGoOnAfterTheLastGivenOnceAutoincrementIsGone() async throws {
        let path = TemporaryDatabasePath()
        defer { path.cleanUp() }
        try await OlderSchemas.make(at: path.path, before: "0028") { db in
            try db.execute(sql: """
                INSERT INTO view_changes (employee_id) VALUES (1), (2), (3), (4);
                DELETE FROM view_changes WHERE seq >= 3;
                """)
            #expect(try Int.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'view_changes'") == 4)
        }
        let database = try AppDatabase.open(path: path.path)
        #expect(try database.appliedMigrations().contains("0028_moves_without_temporary_tables"))
        try await database.write { (db: Database) in
            #expect(try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'view_changes'")?.contains("AUTOINCREMENT") == false)
            #expect(try Int.fetchAll(db, sql: "SELECT employee_id FROM view_changes WHERE seq <= 2 ORDER BY seq") == [1, 2])
            try db.execute(sql: "INSERT INTO view_changes (employee_id) VALUES (5)")
            #expect(try Int.fetchOne(db, sql: "SELECT seq FROM view_changes WHERE employee_id = 5") == 5)
            // The table is still kept short.
            try db.execute(sql: """
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 12000)
                INSERT INTO view_changes (employee_id) SELECT -1 FROM n
                """)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM view_changes")! <= 11_000)
            #expect(try Int.fetchOne(db, sql: "SELECT MAX(seq) FROM view_changes") == 12_005)
        }
    }

    /// Every table is either one whose changes are recorded or one that no cached view reads, so that a new
    /// table cannot be forgotten: it fails here until it is put in one or the other.
    @Test(.enabled(if: !TestEngine.isPostgres, "reads SQLite's catalogue; schema-parity.py keeps PostgreSQL's triggers the same"))
    func everyTableIsRecordedOrReadByNoView() async throws {
        let (_, other, path) = try await ReadPathTests.twoProcesses()
        defer { path.cleanUp() }
        let notRead: Set<String> = [
            "sessions", "calendar_feeds", "company_feeds", "company_feed_items", "delivery_settings", "devices",
            "directory_accounts", "employee_photos", "idempotency_keys", "notices", "outbox", "password_resets", "webhooks",
            // Kept by triggers on holiday_request_days, holiday_requests and company, in the same statements.
            "held_days",
            // No kept view shows a request's history (0025), and every event is written with its request's change.
            "holiday_events",
            "view_changes", "grdb_migrations", "sqlite_sequence",
            // Which rules the schema's triggers follow: written at migration only.
            "schema_rules",
        ]
        let tables = Set(try await other.column(sql: "SELECT name FROM sqlite_master WHERE type = 'table'").compactMap { $0 })
        let recorded = Set(try await other.column(
            sql: "SELECT tbl_name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'view\\_changes\\_%' ESCAPE '\\' AND tbl_name <> 'view_changes'"
        ).compactMap { $0 })
        #expect(recorded.isDisjoint(with: notRead))
        #expect(tables.subtracting(recorded).subtracting(notRead).isEmpty, "tables neither recorded nor listed as read by no view")
        #expect(notRead.subtracting(tables).isEmpty, "listed tables that do not exist")
    }
}
