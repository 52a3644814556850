import Foundation
import SGCore
@testable import SGStore
import SGTestSupport
import Testing

/// The schema's triggers and invariants are written from the core's rules (`SchemaRules`): a database whose
/// triggers follow other rules takes today's at its next migration, with its held days counted again.
@Suite struct SchemaRulesTests {
    @Test func theRulesSQLIsWrittenFromTheCore() {
        #expect(SchemaRules.holds("r.status") == "(r.status = 'pending' OR r.status = 'approved-by-manager' OR r.status = 'approved')")
        #expect(SchemaRules.countsApproved("x") == "(x = 'approved')")
        #expect(SchemaRules.countsPending("x") == "(x = 'pending' OR x = 'approved-by-manager')")
        // Every move of the state machine, once each.
        let moves = SchemaRules.moves.dropFirst().dropLast().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(Set(moves) == [
            "'pending>approved'", "'pending>approved-by-manager'", "'approved-by-manager>approved'", "'pending>rejected'",
            "'approved-by-manager>rejected'", "'approved-by-manager>pending'", "'approved>pending'", "'pending>cancelled'",
            "'approved-by-manager>cancelled'", "'approved>cancelled'",
        ])
        #expect(moves.count == 10)
        let invariants = SchemaRules.fill(String(decoding: PackageResources.Invariants_sql, as: UTF8.self))
            + SchemaRules.fill(String(decoding: PackageResources.Invariants_postgres_sql, as: UTF8.self))
        #expect(!invariants.contains("{{") && !invariants.contains("}}"))
        for sql in SchemaRules.sqlite + SchemaRules.postgres { #expect(!sql.contains("IN ('pending'"), "\(sql.prefix(60))") }
    }

    @Test func aNewDatabaseFollowsTodaysRules() async throws {
        let f = try await Fixture.make()
        #expect(try await f.database.column(sql: "SELECT digest FROM schema_rules") == [SchemaRules.digest(f.database.dialect)])
    }

    @Test func aDatabaseOfOtherRulesTakesTodaysAtItsNextMigration() async throws {
        let path = TemporaryDatabasePath()
        defer { path.cleanUp() }
        let f = try await Fixture.make(path: path.path)
        let actor = Actor(employeeID: f.alice.id, name: "alice", isAdmin: false)
        let first = try await f.service.createRequest(for: f.alice.id, start: f.weekday(7), end: f.weekday(8), comment: "", actor: actor)
        _ = try await f.service.createRequest(for: f.alice.id, start: f.weekday(14), end: f.weekday(14), comment: "", actor: actor)
        try await f.service.perform(.approve, on: first.id, by: Actor(employeeID: f.admin.id, name: "admin", isAdmin: true))
        let counted = try await f.database.column(sql: "SELECT approved_halves || '/' || pending_halves FROM held_days ORDER BY year")
        // As a database migrated by a release of other rules: another digest, a trigger of theirs, totals of theirs.
        try await f.database.execute(sql: "UPDATE schema_rules SET digest = 'older rules'")
        try await f.database.execute(sql: "UPDATE held_days SET approved_halves = approved_halves + 10")
        f.database.closeConnections()

        do {
            _ = try TestEngine.open(path: path.path, schema: .requireCurrent)
            Issue.record("a database of other rules is refused until it is migrated")
        } catch SGError.conflict(let message) {
            #expect(message.contains("older rules") && message.contains("sgadmin migrate"), "\(message)")
        }
        let migrated = try TestEngine.open(path: path.path, schema: .migrate)
        #expect(try await migrated.column(sql: "SELECT digest FROM schema_rules") == [SchemaRules.digest(migrated.dialect)])
        #expect(try await migrated.column(sql: "SELECT approved_halves || '/' || pending_halves FROM held_days ORDER BY year") == counted)
        #expect(try await migrated.checkInvariants().allSatisfy { $0.violations == 0 })
        // The triggers keep counting by the rules after the replacement.
        let after = migrated.services(clock: f.clock)
        _ = try await after.holidays.perform(.cancel, on: first.id, by: Actor(employeeID: f.admin.id, name: "admin", isAdmin: true))
        #expect(try await migrated.checkInvariants().allSatisfy { $0.violations == 0 })
        #expect(try await migrated.column(sql: "SELECT SUM(approved_halves) FROM held_days") == ["0"])
    }
}
