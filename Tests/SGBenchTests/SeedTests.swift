import Foundation
import GRDB
import Testing
import SGCore
import SGStore
import SGTestSupport

/// `sgbench seed` on a small company: the data obeys the invariants `make bench` checks, the same seed gives the
/// same company, and the tokens it hands the load generator work.
@Suite(.serialized) struct SeedTests {
    /// Seeds a new file; returns its path and the tokens file's lines (the free year's days go to `freeDays`).
    func seed(_ seed: Int, requests: Int = 2_400, freeDays: String? = nil) throws -> (TemporaryDatabasePath, [String]) {
        let path = TemporaryDatabasePath()
        let tokens = path.path + ".tokens"
        let result = try runProduct("sgbench", ["seed"] + (freeDays.map { ["--free-days", $0] } ?? []) + [
            "--database", path.path, "--tokens", tokens, "--seed", "\(seed)", "--employees", "80", "--admins", "3",
            "--requests", "\(requests)", "--years", "3", "--today", "2026-03-02", "--bcrypt-cost", "4",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        defer { try? FileManager.default.removeItem(atPath: tokens) }
        let lines = try String(contentsOfFile: tokens, encoding: .utf8).split(separator: "\n").map(String.init)
        return (path, lines)
    }

    @Test func theSyntheticCompanyKeepsEveryInvariant() async throws {
        let daysFile = FileManager.default.temporaryDirectory.appendingPathComponent("sg-free-days-\(UUID().uuidString.prefix(8))").path
        defer { try? FileManager.default.removeItem(atPath: daysFile) }
        let (path, tokens) = try seed(7, freeDays: daysFile)
        defer { path.cleanUp() }
        let database = try AppDatabase.open(path: path.path, schema: .requireCurrent)
        // What `make bench` checks: the integrity check, one row per check of Sources/SGStore/Invariants.sql (a check
        // that stops answering is a failure too), and each year's balances.
        let findings = try await database.checkInvariants()
        #expect(findings.filter { !$0.check.hasPrefix("balances of ") }.count == 14)
        #expect(findings.filter { $0.check.hasPrefix("balances of ") }.count == 3)
        for finding in findings { #expect(finding.violations == 0, "\(finding.check)") }

        let (statuses, count, inactive) = try await database.read { (db: Database) in
            (try String.fetchSet(db, sql: "SELECT DISTINCT status FROM holiday_requests"),
             try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM holiday_requests") ?? 0,
             try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM employees WHERE is_active = 0") ?? 0)
        }
        // The synthetic company has no team with two stages.
        #expect(statuses == Set(HolidayStatus.allCases.filter { $0 != .approvedByManager }.map(\.rawValue)))
        #expect(count == 2_400)
        // Every employee folded as the services fold those they add: the first read in list order has nothing to write.
        #expect(try await database.peopleStore.read { tx in try tx.hasUnfolded() } == false)
        let first = try #require(try await database.read { (db: Database) -> [String?]? in
            try Row.fetchOne(db, sql: "SELECT CAST(id AS TEXT), username, name, surname, email, search_text, sort_key FROM employees ORDER BY id LIMIT 1")
                .map { row in (0..<7).map { row[$0] as String? } }
        })
        let expected = FoldedCopies.copies(of: FoldingSource(
            employeeID: Int64(first[0]!)!, username: first[1]!, name: first[2]!, surname: first[3]!, email: first[4]!, position: nil))
        #expect(first[5] == expected.searchText && first[6] == expected.sortKey)

        // The free year's working days, as the server counts them, for the write mix: untouched by any request.
        let freeDays = try String(contentsOfFile: daysFile, encoding: .utf8).split(separator: "\n").map { CalendarDate(iso: String($0)) }
        let (publicHolidays, touching) = try await database.read { (db: Database) in
            (Set(try String.fetchAll(db, sql: "SELECT date FROM public_holidays WHERE date LIKE '2028-%'").compactMap(CalendarDate.init(iso:))),
             try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM holiday_requests WHERE end_date >= '2028-01-01'") ?? -1)
        }
        let counter = WorkingDayCounter(week: .mondayToFriday, publicHolidays: publicHolidays)
        #expect(!publicHolidays.isEmpty && touching == 0)
        let year2028 = try LeavePeriod(start: CalendarDate(year: 2028, month: 1, day: 1)!, end: CalendarDate(year: 2028, month: 12, day: 31)!)
        #expect(HalfDays.days(freeDays.count) == counter.halvesByYear(in: year2028)[2028])
        #expect(freeDays.allSatisfy { $0.map { $0.year == 2028 && counter.isWorkingDay($0) } ?? false })

        // One token per active employee, and each works as a bearer token.
        #expect(tokens.count == 80 - inactive)
        // Issued for a week from the seed's "today".
        let sessions = database.services(clock: FixedClock(today: Fixture.today)).sessions(
            store: database.sessionStore, directory: LocalAccountDirectory(accounts: database.accountStore, cost: 4))
        for line in tokens.prefix(5) {
            let fields = line.split(separator: "\t").map(String.init)
            #expect(try await sessions.authenticate(token: fields[3])?.username == fields[1])
        }
    }

    @Test func theSameSeedGivesTheSameCompany() async throws {
        func fingerprint(_ seed: Int) async throws -> String {
            let (path, _) = try self.seed(seed, requests: 600)
            defer { path.cleanUp() }
            let database = try AppDatabase.open(path: path.path, schema: .requireCurrent)
            return try await database.read { (db: Database) in
                try [
                    "SELECT id, username, name, surname, is_admin, is_active, deactivated_at FROM employees ORDER BY id",
                    "SELECT * FROM holiday_requests ORDER BY id", "SELECT * FROM holiday_request_days ORDER BY request_id, year",
                    "SELECT * FROM holiday_events ORDER BY id", "SELECT * FROM allowances ORDER BY employee_id, year",
                    "SELECT * FROM public_holidays ORDER BY date",
                ].map { sql in try Row.fetchAll(db, sql: sql).map(\.description).joined(separator: "\n") }.joined(separator: "\n")
            }
        }
        let first = try await fingerprint(11)
        #expect(try await fingerprint(11) == first)
        #expect(try await fingerprint(12) != first)
    }
}
