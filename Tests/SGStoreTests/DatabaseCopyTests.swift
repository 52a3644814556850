import Foundation
import SGCore
@testable import SGStore
import SGTestSupport
import Testing

/// `AppDatabase.copy(to:)` between a SQLite file and the test cluster's PostgreSQL (SG_TEST_POSTGRES_URL: these tests
/// fail without it).
@Suite struct DatabaseCopyTests {
    static let operatorActor = Actor(employeeID: nil, name: "tests (sgadmin)", isAdmin: true)

    /// A SQLite file with rows in nearly every table, made through the rules: the demo company (requests in every
    /// state, public holidays, calendars, profiles, notices), a webhook and its outbox, a team, an allowance change,
    /// a photo, a session.
    static func populated(_ path: TemporaryDatabasePath) async throws -> AppDatabase {
        let database = try AppDatabase.open(path: path.path)
        let services = database.services()
        _ = try await services.webhooks.add(
            WebhookDraft(url: "https://hooks.example.com/holidays", events: [.holidayRequested, .holidayApproved, .holidayRejected]), by: operatorActor)
        _ = try await DemoCompany.seedIfEmpty(database, today: Fixture.today, bcryptCost: 4)
        func id(_ username: String) async throws -> Int64 {
            Int64(try await database.column(sql: "SELECT id FROM employees WHERE username = '\(username)'").first!!)!
        }
        let alice = try await id("alice"), bob = try await id("bob"), admin = try await id("admin")
        let team = try await services.teams.create(name: "Backend", twoStage: true, by: operatorActor)
        _ = try await services.teams.addMember(teamID: team.id, employeeID: alice, by: operatorActor)
        _ = try await services.teams.addApprover(teamID: team.id, employeeID: admin, by: operatorActor)
        _ = try await services.holidays.adjustAllowance(
            employeeID: bob, year: Fixture.today.year, days: HalfDays(halves: 3), reason: "Overtime in March", by: operatorActor)
        _ = try await services.people.setPhoto(employeeID: alice, bytes: TestImages.jpeg())
        let sessions = services.sessions(store: database.sessionStore, directory: LocalAccountDirectory(accounts: database.accountStore, cost: 4))
        _ = try await sessions.login(username: "alice", password: "alice-demo-2026")
        // A deleted notice: its id is not given again after the copy.
        let notice = try await services.notices.post(NoticeDraft(title: "Gone", body: "Deleted"), by: operatorActor)
        try await services.notices.delete(id: notice.id, by: operatorActor)
        return database
    }

    /// Every row of `table`, every column as text (blobs in hex), in primary-key order.
    static func rows(_ database: AppDatabase, _ table: CopiedTable) async throws -> [String] {
        let columns = table.columns.map { column -> String in
            let name = CopiedTable.quote(column.name)
            switch (column.kind, database.dialect) {
            case (.blob, .sqlite): return "COALESCE(lower(hex(\(name))), '<null>')"
            case (.blob, .postgres): return "COALESCE(encode(\(name), 'hex'), '<null>')"
            default: return "COALESCE(CAST(\(name) AS TEXT), '<null>')"
            }
        }
        let order = table.order.map(CopiedTable.quote).joined(separator: ", ")
        let concatenated = columns.joined(separator: " || '|' || ")
        return try await database.column(sql: "SELECT \(concatenated) FROM \(table.quoted) ORDER BY \(order)").map { $0 ?? "" }
    }

    static func snapshot(_ database: AppDatabase) async throws -> [String: [String]] {
        var tables: [String: [String]] = [:]
        for table in try AppDatabase.copiedTables() { tables[table.name] = try await rows(database, table) }
        return tables
    }

    @Test func theTableListIsTheSchemasInForeignKeyOrder() throws {
        let tables = try AppDatabase.copiedTables()
        #expect(tables.count > 25)
        #expect(Set(tables.map(\.name)).isSuperset(of: ["company", "employees", "holiday_requests", "held_days", "outbox", "employee_photos"]))
        #expect(!tables.contains { $0.name == "grdb_migrations" || $0.name.hasPrefix("sqlite_") })
        let position = Dictionary(uniqueKeysWithValues: tables.enumerated().map { ($1.name, $0) })
        #expect(position["employees"]! < position["holiday_requests"]!)
        #expect(position["holiday_requests"]! < position["holiday_request_days"]!)
        #expect(position["teams"]! < position["team_approvers"]!)
        #expect(Set(tables.filter(\.seeded).map(\.name)).isSuperset(of: ["company", "leave_types", "holiday_calendars", "delivery_settings"]))
        #expect(!tables.contains { $0.seeded && ["employees", "holiday_requests"].contains($0.name) })
    }

    @Test func sqliteToPostgresAndBackGivesTheSameRows() async throws {
        let first = TemporaryDatabasePath(), second = TemporaryDatabasePath()
        defer { first.cleanUp(); second.cleanUp() }
        let source = try await Self.populated(first)
        let original = try await Self.snapshot(source)
        for table in ["employees", "holiday_requests", "holiday_events", "allowance_changes", "held_days", "employee_photos", "teams",
            "team_approvers", "notices", "outbox", "webhooks", "sessions", "public_holidays"] {
            #expect(original[table]?.isEmpty == false, "\(table) has no rows to copy")
        }

        let postgres = try AppDatabase.open(postgres: try PostgresTestCluster.shared.newDatabase())
        defer { postgres.closeConnections() }
        let seen = ProgressLog()
        let copied = try await source.copy(to: postgres, batchSize: 3) { table, done, total in seen.add("\(table) \(done)/\(total)") }
        #expect(copied.first { $0.table == "employees" }?.rows == original["employees"]!.count)
        #expect(seen.lines.contains("employees 3/\(original["employees"]!.count)"))
        #expect(try await Self.snapshot(postgres) == original)
        #expect(try await postgres.checkInvariants().filter { $0.violations > 0 }.isEmpty)

        let back = try AppDatabase.open(path: second.path)
        _ = try await postgres.copy(to: back)
        #expect(try await Self.snapshot(back) == original)
        #expect(try await back.checkInvariants().filter { $0.violations > 0 }.isEmpty)

        // Ids continue after the highest the source used, deleted notices' included.
        for database in [postgres, back] {
            let services = database.services()
            let highestNotice = Int64(try await source.column(sql: "SELECT seq FROM sqlite_sequence WHERE name = 'notices'").first!!)!
            let highestKept = Int64(try await database.column(sql: "SELECT MAX(id) FROM notices").first!!)!
            #expect(highestKept < highestNotice)
            let notice = try await services.notices.post(NoticeDraft(title: "After", body: "the copy"), by: Self.operatorActor)
            #expect(notice.id == highestNotice + 1)
            let requestsBefore = Int64(try await database.column(sql: "SELECT MAX(id) FROM holiday_requests").first!!)!
            let hiro = Int64(try await database.column(sql: "SELECT id FROM employees WHERE username = 'hiro'").first!!)!
            let request = try await services.holidays.createRequest(
                for: hiro, start: Fixture.date("2027-02-01"), end: Fixture.date("2027-02-02"), comment: "After the copy", actor: Self.operatorActor)
            #expect(request.id == requestsBefore + 1)
        }
    }

    @Test func aTargetWithRowsIsRefusedAndUnchanged() async throws {
        let first = TemporaryDatabasePath(), second = TemporaryDatabasePath()
        defer { first.cleanUp(); second.cleanUp() }
        let source = try await Self.populated(first)
        let postgres = try AppDatabase.open(postgres: try PostgresTestCluster.shared.newDatabase())
        defer { postgres.closeConnections() }
        _ = try await postgres.services().accounts.addEmployee(NewEmployee(
            username: "zed", name: "Zed", surname: "Already", email: "zed@example.com", isAdmin: false, passwordHash: nil))
        let before = try await Self.snapshot(postgres)
        await #expect { try await source.copy(to: postgres) } throws: { error in
            guard case SGError.conflict(let message) = error else { return false }
            return message.contains("not empty") && message.contains("employees (1)")
        }
        #expect(try await Self.snapshot(postgres) == before)

        // And into SQLite: a file holding a source's copy already.
        let target = try AppDatabase.open(path: second.path)
        _ = try await postgres.copy(to: target)
        let copiedOnce = try await Self.snapshot(target)
        await #expect(throws: SGError.self) { try await source.copy(to: target) }
        #expect(try await Self.snapshot(target) == copiedOnce)
    }
}

/// What the progress callback was told, in order.
final class ProgressLog: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    func add(_ line: String) { lock.withLock { stored.append(line) } }
    var lines: [String] { lock.withLock { stored } }
}
