import Foundation
import GRDB
import GRDBSQLite
import Synchronization
import Testing
import SGCore
import SGSQLite
import SGTestSupport
@testable import SGStore

/// The read path of a database file: pooled read-only connections with reused statements and caches that must
/// never serve what another connection (this process's writer, or sgadmin's) has changed.
@Suite struct ReadPathTests {
    /// A fixture on a file, and a second `AppDatabase` on the same file, as sgadmin opens beside the server.
    static func twoProcesses() async throws -> (Fixture, AppDatabase, TemporaryDatabasePath) {
        let path = TemporaryDatabasePath()
        let f = try await Fixture.make(path: path.path)
        return (f, try TestEngine.open(path: path.path, schema: .requireCurrent), path)
    }

    @Test func readsSeeEveryCommittedWriteAtOnce() async throws {
        let (f, other, path) = try await Self.twoProcesses()
        defer { path.cleanUp() }
        let otherService = other.services(clock: f.clock).holidays
        for round in 0..<5 {
            let start = f.weekday(7 + round * 7)
            // Written through this process's writer, read through its pool.
            let request = try await f.service.createRequest(for: f.alice.id, start: start, end: start, comment: "", actor: f.alice.actor)
            #expect(try await f.services.holidays.requests(RequestFilter(status: .pending), by: f.admin.actor).items.last?.request.id == request.id)
            #expect(try await f.service.balance(employeeID: f.alice.id, year: 2026).pending == .days(1))
            // Decided by the other process, read here.
            try await otherService.perform(.approve, on: request.id, by: f.admin.actor)
            #expect(try await f.services.holidays.requestDetail(id: request.id, by: f.admin.actor).request.status == .approved)
            #expect(try await f.service.balance(employeeID: f.alice.id, year: 2026).approved == .days(round + 1))
            let view = try await f.service.yearView(employeeID: f.alice.id, year: nil)
            #expect(view.year == 2026 && view.requests.count == round + 1 && view.balance.approved == .days(round + 1) && view.balance.pending == .zero)
        }
    }

    @Test func aFailedReadLeavesNoSnapshotBehind() async throws {
        let (f, other, path) = try await Self.twoProcesses()
        defer { path.cleanUp() }
        struct Stop: Error {}
        for _ in 0..<3 {
            // Stop half-way through a statement and through a transaction: the connection goes back to the pool.
            #expect(throws: Stop.self) {
                try f.database.reading { connection in
                    try connection.with("SELECT id FROM employees") { statement in
                        _ = try statement.step()
                        throw Stop()
                    }
                }
            }
        }
        _ = try await other.services().accounts.addEmployee(NewEmployee(
            username: "carol", name: "Carol", surname: "New", email: "carol@example.com", isAdmin: false, passwordHash: nil))
        for _ in 0..<3 {
            #expect(try await f.services.accounts.employees().contains { $0.username == "carol" })
            #expect(try f.database.withReader { try Rows.employee($0, username: "carol") } != nil)
        }
    }

    @Test func aCachedTokenDiesWithTheDeactivationOfItsEmployeeByAnotherProcess() async throws {
        let (f, other, path) = try await Self.twoProcesses()
        defer { path.cleanUp() }
        let sessions = f.sessions()
        let issued = try await sessions.login(username: "bob", password: Fixture.password)
        for _ in 0..<3 { #expect(try await sessions.authenticate(token: issued.token)?.id == f.bob.id) }
        _ = try await other.services().accounts.deactivate(username: "bob")
        do {
            let seen = try await sessions.authenticate(token: issued.token)
            #expect(seen == nil)
        }
    }

    @Test func aCachedTokenDiesAtLogoutAndAtExpiry() async throws {
        let (f, _, path) = try await Self.twoProcesses()
        defer { path.cleanUp() }
        let sessions = f.sessions()
        let first = try await sessions.login(username: "alice", password: Fixture.password)
        let second = try await sessions.login(username: "alice", password: Fixture.password)
        for _ in 0..<3 {
            #expect(try await sessions.authenticate(token: first.token) != nil)
            #expect(try await sessions.authenticate(token: second.token) != nil)
        }
        try await sessions.logout(token: first.token)
        #expect(try await sessions.authenticate(token: first.token) == nil)
        #expect(try await sessions.authenticate(token: second.token) != nil)
        // Nothing is written when a token expires: the cache must check the time itself.
        f.clock.set(second.expiresAt.addingTimeInterval(-1))
        #expect(try await sessions.authenticate(token: second.token) != nil)
        f.clock.set(second.expiresAt.addingTimeInterval(1))
        #expect(try await sessions.authenticate(token: second.token) == nil)
    }

    @Test func aChangedEmployeeIsSeenThroughACachedToken() async throws {
        let (f, other, path) = try await Self.twoProcesses()
        defer { path.cleanUp() }
        let sessions = f.sessions()
        let issued = try await sessions.login(username: "admin", password: Fixture.password)
        #expect(try await sessions.authenticate(token: issued.token)?.isAdmin == true)
        try await other.execute(sql: "UPDATE employees SET is_admin = 0, name = 'Renamed' WHERE username = 'admin'")
        do {
            let seen = try await sessions.authenticate(token: issued.token)
            #expect(seen?.isAdmin == false && seen?.name == "Renamed")
        }
    }

    /// A cached value is checked against commits once per unit of work (a request): a commit made while it runs
    /// is seen by the next one, and its own write by everything it reads after.
    @Test func aUnitOfWorkChecksForCommitsOnceUntilItWrites() async throws {
        let (f, other, path) = try await Self.twoProcesses()
        defer { path.cleanUp() }
        let cache = f.database.makeCache(of: Int.self, by: String.self) { _ in 0 }
        var computed = 0
        func value() async throws -> Int {
            try await cache.value(for: "k", isCurrent: { _ in true }) {
                computed += 1
                return computed
            }
        }
        func commitElsewhere() async throws {
            try await other.execute(sql: "UPDATE company SET default_allowance = default_allowance + 1")
        }
        do {
            #expect(try await value() == 1)
            #expect(try await value() == 1)
            try await commitElsewhere()
            #expect(try await value() == 2)

            try await f.database.withUnitOfWork {
                #expect(try await value() == 2)
                try await commitElsewhere()
                #expect(try await value() == 2)
                try await f.database.execute(sql: "UPDATE company SET default_allowance = default_allowance + 1")
                #expect(try await value() == 3)
                try await commitElsewhere()
                #expect(try await value() == 3)
            }
            #expect(try await value() == 4)
            #expect(try await value() == 4)
        }
    }

    /// A write transaction that changes no row (the outbox's claim when nothing is due, every second on every server)
    /// leaves every cache as it was.
    @Test func aWriteThatChangesNothingLeavesTheCaches() async throws {
        let (f, other, path) = try await Self.twoProcesses()
        defer { path.cleanUp() }
        let counted = ViewChangeTests.Counted(f.database)
        #expect(try await counted.value(f.alice.id) == 1)
        try await other.execute(sql: "UPDATE company SET name = 'Elsewhere' WHERE id = 0")
        _ = try await other.services(clock: f.clock).delivery.claim(owner: "other", limit: 10)
        #expect(try await counted.value(f.alice.id) == 1)
        try await other.execute(sql: "UPDATE company SET name = name WHERE id = 1")
        #expect(try await counted.value(f.alice.id) == 2)
    }

    @Test func companySettingsChangedByAnotherProcessAreSeenAtOnce() async throws {
        let (f, other, path) = try await Self.twoProcesses()
        defer { path.cleanUp() }
        for _ in 0..<3 { #expect(try await f.service.balance(employeeID: f.bob.id, year: 2026).allowance == .days(23)) }
        try await other.services(clock: f.clock).company.setDefaultAllowance(25, by: f.admin.actor)
        #expect(try await f.service.balance(employeeID: f.bob.id, year: 2026).allowance == .days(25))
        #expect(try await f.service.yearView(employeeID: f.bob.id, year: 2026).balance.allowance == .days(25))

        // Late in the evening of 2 March in UTC is already 3 March in Tokyo.
        f.clock.set(Date(timeIntervalSince1970: Double(Fixture.today.dayNumber) * 86_400 + 22 * 3600))
        #expect(try await f.services.company.today() == Fixture.today)
        try await other.execute(sql: "UPDATE company SET timezone = 'Asia/Tokyo'")
        #expect(try await f.services.company.today() == Fixture.today.adding(days: 1))
    }

    /// Bounded per employee, not on the whole: one employee's many sessions cannot grow it, nor push out anyone else's.
    @Test func theTokenCacheIsBoundedPerEmployee() async throws {
        let (f, _, path) = try await Self.twoProcesses()
        defer { path.cleanUp() }
        let sessions = f.sessions()
        var tokens: [String] = []
        for _ in 0..<5 { tokens.append(try await sessions.login(username: "alice", password: Fixture.password).token) }
        let bobs = try await sessions.login(username: "bob", password: Fixture.password).token
        let cache = TokenCache(maximumPerEmployee: 2)
        var lookUps = 0
        func seen(_ token: String) async throws -> Int64? {
            let digest = Digests.tokenDigest(token)
            return try await cache.session(for: digest, at: f.clock.now(), on: f.database) {
                lookUps += 1
                return try f.database.withReader { connection in try SQLSessions.lookUp(connection, accessDigest: digest) }
            }?.employee.id
        }
        #expect(try await seen(bobs) == f.bob.id)
        #expect(try await seen(tokens[0]) == f.alice.id)
        #expect(try await seen(tokens[0]) == f.alice.id)
        #expect(lookUps == 2, "kept")
        // Alice's five sessions: each still answers, and only her two newest are kept.
        for token in tokens { #expect(try await seen(token) == f.alice.id) }
        #expect(lookUps == 6)
        #expect(cache.count == 3)
        #expect(try await seen(tokens[4]) == f.alice.id)
        #expect(try await seen(tokens[3]) == f.alice.id)
        #expect(lookUps == 6, "her newest two are kept")
        #expect(try await seen(tokens[0]) == f.alice.id)
        #expect(lookUps == 7, "her oldest was dropped")
        #expect(try await seen(bobs) == f.bob.id)
        #expect(lookUps == 7, "Bob's token is still kept")
    }

    @Test(.enabled(if: !TestEngine.isPostgres, "checkpoints SQLite's write-ahead log")) func backgroundCheckpointsCopyTheLogWhileCommitsLeaveItAlone() async throws {
        let path = TemporaryDatabasePath()
        defer { path.cleanUp() }
        let f = try await Fixture.make(path: path.path)
        let server = try AppDatabase.open(path: path.path, schema: .requireCurrent, checkpointing: .background)
        let threshold = try await server.write { (db: Database) in try Int.fetchOne(db, sql: "PRAGMA wal_autocheckpoint") }
        #expect(threshold == AppDatabase.backgroundSafetyNetPages)
        let service = server.services(clock: f.clock).holidays
        var ids: [Int64] = []
        for week in 1...10 {
            ids.append(try await service.createRequest(for: f.alice.id, start: f.weekday(7 * week), end: f.weekday(7 * week), comment: "", actor: f.alice.actor).id)
        }
        let first = try server.checkpoint()
        #expect(first.logPages > 0 && first.checkpointedPages == first.logPages)
        // Everything is still there, through every connection, and writing goes on.
        try await service.perform(.approve, on: ids[0], by: f.admin.actor)
        #expect(try await f.services.holidays.requests(RequestFilter(employeeID: f.alice.id), by: f.admin.actor).total == 10)
        #expect(try await server.services(clock: f.clock).holidays.requestDetail(id: ids[0], by: f.admin.actor).request.status == .approved)
        let balance = try await service.balance(employeeID: f.alice.id, year: 2026)
        #expect(balance.pending == .days(9) && balance.approved == .days(1))
        #expect(try AppDatabase.inMemory().checkpoint() == (0, 0))
    }

    @Test(.enabled(if: !TestEngine.isPostgres, "deletes the SQLite file under a reader")) func aReadConnectionThatCannotOpenSaysSo() async throws {
        let (_, other, path) = try await Self.twoProcesses()
        defer { path.cleanUp() }
        path.cleanUp()
        do {
            _ = try await other.services().company.company()
            Issue.record("A read on a deleted file succeeded.")
        } catch let SGError.unavailable(message, retry) {
            #expect(message.hasPrefix("The database at \(path.path) cannot be opened for reading: "), "\(message)")
            #expect(retry == 1)
        }
    }

    @Test func sqliteFailuresReachCallersAsBefore() throws {
        let busy = SQLiteError(code: SQLITE_BUSY, message: "database is locked", context: .statement(sql: "BEGIN IMMEDIATE"))
        #expect(AppDatabase.translated(busy) as? SGError == AppDatabase.lockedTooLong)
        let locked = SQLiteError(code: SQLITE_LOCKED, message: "database table is locked", context: .statement(sql: "SELECT 1"))
        #expect(AppDatabase.translated(locked) as? SGError == AppDatabase.lockedTooLong)
        let grdbBusy = DatabaseError(resultCode: .SQLITE_BUSY, message: "database is locked", sql: "BEGIN IMMEDIATE")
        #expect(AppDatabase.translated(grdbBusy) as? SGError == AppDatabase.lockedTooLong)

        let failed = SQLiteError(code: 1555, message: "UNIQUE constraint failed: t.id", context: .statement(sql: "INSERT INTO t VALUES (1)"))
        let database = try #require(AppDatabase.translated(failed) as? DatabaseError)
        #expect(database.extendedResultCode == .SQLITE_CONSTRAINT_PRIMARYKEY && database.resultCode == .SQLITE_CONSTRAINT)
        #expect(database.message == "UNIQUE constraint failed: t.id" && database.sql == "INSERT INTO t VALUES (1)")

        let unopened = SQLiteError(code: SQLITE_CANTOPEN, message: "unable to open database file", context: .opening(path: "/x/db"))
        #expect(AppDatabase.translated(unopened) as? SGError == .unavailable(
            "The database at /x/db cannot be opened for reading: unable to open database file.", retryAfterSeconds: 1))
        #expect(AppDatabase.translated(Checkpointer.NotInWALMode(path: "/x/db", mode: "delete")) as? SGError
            == .conflict("The database at /x/db is not in WAL mode (delete)."))
        #expect(AppDatabase.translated(SGError.notFound("x")) as? SGError == .notFound("x"))
    }

    @Test(.enabled(if: !TestEngine.isPostgres, "reads SQLite's query plans")) func thePendingListReadsOnlyIndexes() async throws {
        let (f, _, path) = try await Self.twoProcesses()
        defer { path.cleanUp() }
        let filter = RequestFilter(status: .pending)
        var plans: [String] = []
        for sql in [
            SQLHolidayTransaction.countSQL(filter), SQLHolidayTransaction.pageSQL(filter),
            SQLHolidayTransaction.pageSQL(RequestFilter(status: .pending, afterID: 7)),
        ] {
            plans.append(try await f.queryPlan(sql, StatementArguments(Array(repeating: 1, count: sql.filter { $0 == "?" }.count))))
        }
        #expect(plans[0].contains("COVERING INDEX holiday_requests_status"), "\(plans[0])")
        for plan in plans[1...] {
            #expect(plan.contains("INDEX holiday_requests_status") && !plan.contains("TEMP B-TREE") && !plan.contains("SCAN"), "\(plan)")
        }
    }

    @Test(.enabled(if: !TestEngine.isPostgres, "reads SQLite's query plans")) func anEmployeesRequestsAreReadInTheIndexsOrder() async throws {
        let f = try await Fixture.make()
        let plan = try await f.queryPlan(SQLHolidayTransaction.employeeRequestsSQL, [1, "2025-12-31", "2026-12-31", "2026-01-01", 0])
        #expect(plan.contains("INDEX holiday_requests_employee (employee_id=? AND start_date>? AND start_date<?)"), "\(plan)")
        #expect(!plan.contains("TEMP B-TREE") && !plan.contains("SCAN"), "\(plan)")
    }

    @Test func requestsStartingTheSameDayComeByEndThenID() async throws {
        let f = try await Fixture.make()
        let service = f.service
        // A week, cancelled; then the first day alone, and the afternoon of that day by itself after it was cancelled.
        let week = try await service.createRequest(for: f.alice.id, start: f.day(10), end: f.day(14), comment: "", actor: f.alice.actor)
        _ = try await service.perform(.cancel, on: week.id, by: f.alice.actor)
        let morning = try await service.create(
            for: f.alice.id, period: LeavePeriod(unchecked: f.day(10), end: f.day(10), startHalf: .morning, endHalf: .morning),
            leaveTypeID: nil, comment: "", actor: f.alice.actor)
        let afternoon = try await service.create(
            for: f.alice.id, period: LeavePeriod(unchecked: f.day(10), end: f.day(10), startHalf: .afternoon, endHalf: .afternoon),
            leaveTypeID: nil, comment: "", actor: f.alice.actor)
        let view = try await service.yearView(employeeID: f.alice.id, year: f.day(10).year)
        #expect(view.requests.map(\.id) == [morning.request.id, afternoon.request.id, week.id])
    }

    @Test func inMemoryAndFileDatabasesAnswerAlike() async throws {
        let path = TemporaryDatabasePath()
        defer { path.cleanUp() }
        var answers: [String] = []
        for f in [try await Fixture.make(), try await Fixture.make(path: path.path)] {
            try await f.services.company.addPublicHoliday(PublicHoliday(date: Fixture.date("2026-12-28"), name: "Local"), by: f.admin.actor)
            let across = try await f.service.createRequest(
                for: f.alice.id, start: Fixture.date("2026-12-24"), end: Fixture.date("2027-01-05"), comment: "Home, \"really\"", actor: f.alice.actor)
            try await f.service.perform(.approve, on: across.id, by: f.admin.actor, note: "ok")
            _ = try await f.service.createRequest(for: f.bob.id, start: f.day(10), end: f.day(12), comment: "", actor: f.bob.actor)
            let page = try await f.services.holidays.requests(RequestFilter(limit: 1), by: f.admin.actor)
            let detail = try await f.services.holidays.requestDetail(id: across.id, by: f.admin.actor)
            let view = try await f.service.yearView(employeeID: f.alice.id, year: 2027)
            let (requests, balance) = (view.requests, view.balance)
            let rows = Mutex<[String]>([])
            try await f.services.holidays.export(year: 2026, by: f.admin.actor) { row in
                rows.withLock { $0.append("\(row.employee.username) \(row.request.id) \(row.daysInYear)") }
            }
            let exported = rows.withLock { $0 }
            answers.append("""
                \(page.total) \(page.nextAfterID.map(String.init) ?? "-") \(page.items.map { "\($0.request.id)\($0.employee.username)" })
                \(detail.daysByYear.sorted { $0.key < $1.key }) \(detail.events.map { "\($0.from?.rawValue ?? "-")>\($0.to.rawValue)" })
                \(requests.map(\.duration)) \(balance) \(exported)
                \(try await f.services.company.publicHolidays(year: 2026).map(\.date)) \(try await f.services.holidays.balances(year: 2026, by: f.admin.actor).map { "\($0.0.username):\($0.1.remaining)" })
                """)
        }
        #expect(answers[0] == answers[1])
    }
}
