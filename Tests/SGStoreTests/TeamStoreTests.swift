import Foundation
import GRDB
import Testing
import SGCore
@testable import SGStore
import SGTestSupport

/// Teams over the real store: the 0018 migration, held days in the new state, and who decides.
@Suite struct TeamStoreTests {
    /// A database of the schema before teams (through 0015) keeps its requests, history, notices and held days, and
    /// its admins keep deciding everything.
    @Test func aDatabaseWithoutTeamsMigratesAndTheAdminsStillDecide() async throws {
        let path = TemporaryDatabasePath()
        defer { path.cleanUp() }
        try await OlderSchemas.make(at: path.path, before: "0018") { db in
            try db.execute(sql: """
                INSERT INTO employees (id, username, name, surname, email, created_at, is_admin) VALUES
                    (1, 'alice', 'Alice', 'Example', 'alice@example.com', '2025-01-01T00:00:00.000Z', 0),
                    (2, 'ada', 'Ada', 'Admin', 'ada@example.com', '2025-01-01T00:00:00.000Z', 1);
                INSERT INTO holiday_requests (id, employee_id, start_date, end_date, halves, status, comment, created_at, updated_at)
                VALUES (1, 1, '2026-04-06', '2026-04-08', 6, 'pending', 'spring', '2026-02-01T00:00:00.000Z', '2026-02-01T00:00:00.000Z');
                INSERT INTO holiday_request_days (request_id, employee_id, year, leave_type_id, halves) VALUES (1, 1, 2026, 1, 6);
                INSERT INTO holiday_events (request_id, from_status, to_status, actor, at)
                VALUES (1, NULL, 'pending', 'alice', '2026-02-01T00:00:00.000Z');
                INSERT INTO notices (kind, employee_id, title, body, author, request_id, to_status, created_at, updated_at)
                VALUES ('personal', 1, 'one', 'b', 'ada', 1, 'pending', '2026-02-01', '2026-02-01'),
                       ('personal', 1, 'two', 'b', 'ada', 1, 'pending', '2026-02-01', '2026-02-01');
                INSERT INTO notices (kind, title, body, author, created_at, updated_at) VALUES ('company', 'gone', 'b', 'ada', '2026-02-01', '2026-02-01');
                DELETE FROM notices WHERE kind = 'company';
                """)
        }
        let database = try AppDatabase.open(path: path.path)
        #expect(try database.appliedMigrations().contains("0018_teams"))
        let services = database.services(clock: FixedClock(today: Fixture.today))
        let ada = Actor(employeeID: 2, name: "ada", isAdmin: true)
        let detail = try await services.holidays.requestDetail(id: 1, by: ada)
        #expect(detail.request.status == .pending && detail.request.comment == "spring" && detail.events.count == 1)
        #expect(Approval.asked(for: detail.request, detail.approval).map(\.username) == ["ada"])
        #expect(try await services.holidays.balance(employeeID: 1, year: 2026).pending == .days(3))
        // A deleted notice's id does not come back.
        let notices = try await database.read { (db: Database) in try Int.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'notices'") }
        #expect(notices == 3)
        // Without teams, an employee still cannot decide, and the admin does.
        await #expect(throws: SGError.self) {
            try await services.holidays.perform(.approve, on: 1, by: Actor(employeeID: 1, name: "alice", isAdmin: false))
        }
        #expect(try await services.holidays.perform(.approve, on: 1, by: ada).status == .approved)
        // The history stays append-only, and the rebuilt tables keep their triggers.
        await #expect(throws: (any Error).self) {
            try await database.write { (db: Database) in try db.execute(sql: "DELETE FROM holiday_events") }
        }
        await #expect(throws: (any Error).self) {
            try await database.write { (db: Database) in try db.execute(sql: "DELETE FROM holiday_requests") }
        }
        let (kept, counted) = try await LeaveModelTests.heldDays(database)
        #expect(kept == counted && kept == [[1, 2026, 6, 0, 0, 0]])
    }

    /// A two-stage team: days held as pending until the admin's approval; every move recorded.
    /// A page of requests reads its employees' contexts together: the same as one by one, teams read once.
    @Test func contextsReadTogetherAreTheContextsReadOneByOne() async throws {
        let f = try await Fixture.make()
        let teams = f.services.teams
        let support = try await teams.create(name: "Support", twoStage: true, by: Fixture.operatorActor)
        _ = try await teams.addMember(teamID: support.id, employeeID: f.alice.id, by: Fixture.operatorActor)
        _ = try await teams.addApprover(teamID: support.id, employeeID: f.bob.id, by: Fixture.operatorActor)
        let ops = try await teams.create(name: "Ops", by: Fixture.operatorActor)
        _ = try await teams.addMember(teamID: ops.id, employeeID: f.bob.id, by: Fixture.operatorActor)
        _ = try await teams.addApprover(teamID: ops.id, employeeID: f.secondAdmin.id, by: Fixture.operatorActor)
        _ = try await teams.delegate(from: f.bob.actor, to: f.admin.id, from: f.today, until: f.today.adding(days: 7)!)
        let ids = [f.alice.id, f.bob.id, f.admin.id, f.secondAdmin.id, f.alice.id, 999_999]
        func shape(_ context: ApprovalContext) -> String {
            "\(String(describing: context.teamID)) \(context.twoStage) \(context.approvers.map(\.id)) \(context.away.sorted()) "
                + "\(context.substitutes.mapValues { $0.map(\.id) }.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }) \(context.admins.map(\.id))"
        }
        let (together, single) = try f.database.withReader { connection in
            let teams = SQLTeams(connection: connection)
            return (try teams.approvalContexts(employeeIDs: ids, on: f.today),
                    try ids.map { try teams.approvalContext(employeeID: $0, on: f.today) })
        }
        #expect(Set(together.keys) == Set(ids))
        for (id, context) in zip(ids, single) { #expect(together[id].map(shape) == shape(context), "employee \(id)") }
        #expect(together[f.alice.id]?.teamID == support.id && together[f.alice.id]?.substitutes[f.bob.id]?.map(\.id) == [f.admin.id])
        #expect(together[f.bob.id]?.teamID == ops.id && together[f.admin.id]?.teamID == nil)
    }

    @Test func approvedByManagerHoldsItsDaysAsPending() async throws {
        let f = try await Fixture.make()
        let teams = f.services.teams
        let team = try await teams.create(name: "Support", twoStage: true, by: Fixture.operatorActor)
        _ = try await teams.addMember(teamID: team.id, employeeID: f.alice.id, by: Fixture.operatorActor)
        _ = try await teams.addApprover(teamID: team.id, employeeID: f.bob.id, by: Fixture.operatorActor)
        let holidays = f.services.holidays
        let request = try await holidays.createRequest(
            for: f.alice.id, start: Fixture.date("2026-04-06"), end: Fixture.date("2026-04-08"), comment: "", actor: f.alice.actor)
        let first = try await holidays.perform(.approve, on: request.id, by: f.bob.actor)
        #expect(first.status == .approvedByManager && first.decidedBy == "bob")
        var balance = try await holidays.balance(employeeID: f.alice.id, year: 2026)
        #expect(balance.pending == .days(3) && balance.approved == .zero)
        var (kept, counted) = try await LeaveModelTests.heldDays(f.database)
        #expect(kept == counted)
        // Overlaps are still refused while it waits for the admin.
        await #expect(throws: SGError.self) {
            try await holidays.createRequest(
                for: f.alice.id, start: Fixture.date("2026-04-07"), end: Fixture.date("2026-04-07"), comment: "", actor: f.alice.actor)
        }
        // The manager takes it back, approves again, and the admin ends it.
        #expect(try await holidays.perform(.revert, on: request.id, by: f.bob.actor).status == .pending)
        #expect(try await holidays.perform(.approve, on: request.id, by: f.bob.actor).status == .approvedByManager)
        await #expect(throws: SGError.forbidden("Only an approver of the requester's team, their substitute or an admin can approve request \(request.id).")) {
            try await holidays.perform(.approve, on: request.id, by: f.bob.actor)
        }
        #expect(try await holidays.perform(.approve, on: request.id, by: f.admin.actor).status == .approved)
        balance = try await holidays.balance(employeeID: f.alice.id, year: 2026)
        #expect(balance.pending == .zero && balance.approved == .days(3))
        (kept, counted) = try await LeaveModelTests.heldDays(f.database)
        #expect(kept == counted)
        let events = try await holidays.requestDetail(id: request.id, by: f.admin.actor).events.map { "\($0.from?.rawValue ?? "-")>\($0.to.rawValue)" }
        #expect(events == ["->pending", "pending>approved-by-manager", "approved-by-manager>pending", "pending>approved-by-manager", "approved-by-manager>approved"])
        // Bob reads alice's balance as her approver; alice does not read bob's.
        _ = try await holidays.balance(employeeID: f.alice.id, year: 2026, by: f.bob.actor)
        await #expect(throws: SGError.self) { try await holidays.balance(employeeID: f.bob.id, year: 2026, by: f.alice.actor) }
    }

    /// Who of the team is away: an approver sees the team's pending requests as tentative; a colleague does not.
    @Test func approversSeeTheirTeamsTentativeAbsences() async throws {
        let f = try await Fixture.make()
        let teams = f.services.teams
        let team = try await teams.create(name: "Support", by: Fixture.operatorActor)
        _ = try await teams.addMember(teamID: team.id, employeeID: f.alice.id, by: Fixture.operatorActor)
        _ = try await teams.addApprover(teamID: team.id, employeeID: f.bob.id, by: Fixture.operatorActor)
        _ = try await f.services.holidays.createRequest(
            for: f.alice.id, start: Fixture.date("2026-04-06"), end: Fixture.date("2026-04-08"), comment: "", actor: f.alice.actor)
        let query = AbsenceQuery(from: Fixture.date("2026-04-01"), to: Fixture.date("2026-04-30"), employeeID: f.alice.id)
        let seenByBob = try await f.services.absences.absences(query, viewer: f.bob.actor)
        #expect(seenByBob.rows.first?.absences.map(\.certainty) == [.tentative])
        _ = try await teams.removeApprover(teamID: team.id, employeeID: f.bob.id, by: Fixture.operatorActor)
        let seenByColleague = try await f.services.absences.absences(query, viewer: f.bob.actor)
        #expect(seenByColleague.rows.first?.absences.isEmpty == true)
    }

    /// What a directory names never stops a login: a long name is cut, a blank one means no team.
    @Test func aDirectorysTeamNameIsCutToFit() async throws {
        let f = try await Fixture.make()
        let long = String(repeating: "Ops ", count: 30)
        var account = DirectoryAccount(
            username: "dora", name: "Dora", surname: "Directory", email: "dora@example.com", isAdmin: false, team: long)
        let dora = try await f.services.accounts.provision(account)
        var teams = try await f.services.teams.teams(by: Fixture.operatorActor)
        #expect(teams.count == 1 && teams[0].name.unicodeScalars.count <= Team.maximumNameLength && teams[0].members.map(\.id) == [dora.id])
        account.team = "  "
        _ = try await f.services.accounts.provision(account)
        teams = try await f.services.teams.teams(by: Fixture.operatorActor)
        #expect(teams[0].members.isEmpty)
    }
}
