import Foundation
import Testing
import SGCore
import SGStore
import SGTestSupport

/// `sgadmin team …` and `sgadmin pending --team`, through the built binary.
@Suite(.serialized) struct TeamAdminTests {
    @Test func managesTeamsAndListsATeamsPendingRequests() async throws {
        let path = TemporaryDatabasePath()
        defer { path.cleanUp() }
        let f = try await Fixture.make(path: path.path, today: CalendarDate(Date(), in: .gmt))
        let cli = AdminCLI(databasePath: path.path)

        let add = try cli.run(["team", "add", "Support", "--two-stage"])
        #expect(add.status == 0, "\(add.stderr)")
        #expect(add.stdout.contains("Support added"))
        #expect(try cli.run(["team", "add", "support"]).stderr.contains("already a team named 'Support'"))
        #expect(try cli.run(["team", "add", "Sales"]).status == 0)
        #expect(try cli.run(["team", "member", "add", "Support", "alice"]).status == 0)
        #expect(try cli.run(["team", "member", "add", "Sales", "bob"]).status == 0)
        let approver = try cli.run(["team", "approver", "add", "Support", "bob"])
        #expect(approver.status == 0 && approver.stdout.contains("Approvers:\n  bob"), "\(approver.stdout)")
        let unknown = try cli.run(["team", "member", "add", "Support", "nobody"])
        #expect(unknown.status == 1 && unknown.stderr.contains("nobody") && unknown.stdout.isEmpty)
        #expect(try cli.run(["team", "member", "add", "Nowhere", "alice"]).stderr.contains("no team named 'Nowhere'"))

        let list = try cli.run(["team", "list", "--format", "csv"])
        #expect(list.stdout.contains("Sales,no,1,") && list.stdout.contains("Support,yes,1,bob"), "\(list.stdout)")
        let show = try cli.run(["team", "show", "support"])
        #expect(show.stdout.contains("Two-stage approval: yes") && show.stdout.contains("Members:\n  alice  Alice Example"), "\(show.stdout)")

        // Requests of both teams; --team keeps one team's.
        let alices = try await f.service.createRequest(for: f.alice.id, start: f.weekday(14), end: f.weekday(14), comment: "", actor: f.alice.actor)
        let bobs = try await f.service.createRequest(for: f.bob.id, start: f.weekday(15), end: f.weekday(15), comment: "", actor: f.bob.actor)
        let support = try cli.run(["pending", "--team", "Support", "--format", "csv"])
        #expect(support.status == 0, "\(support.stderr)")
        #expect(support.stdout.contains("\(alices.id),alice") && !support.stdout.contains("\(bobs.id),bob"), "\(support.stdout)")
        // Approved by the manager, it still waits: for an admin now.
        #expect(try await f.service.perform(.approve, on: alices.id, by: f.bob.actor).status == .approvedByManager)
        let waiting = try cli.run(["pending", "--team", "Support", "--format", "csv"])
        #expect(waiting.stdout.contains("\(alices.id),alice") && waiting.stdout.contains("approved-by-manager"), "\(waiting.stdout)")
        let detail = try cli.run(["show", "\(alices.id)"])
        #expect(detail.stdout.contains("Approvers:     Ada Admin (admin)"), "\(detail.stdout)")
        #expect(try cli.run(["approve", "\(alices.id)"]).status == 0)
        #expect(!(try cli.run(["pending", "--team", "Support", "--format", "csv"]).stdout.contains("\(alices.id),alice")))
        #expect(try cli.run(["pending", "--team", "Nowhere"]).status == 1)

        #expect(try cli.run(["team", "rename", "Support", "Customer care", "--two-stage", "off"]).stdout.contains("Customer care"))
        #expect(try cli.run(["team", "rename", "Customer care", "--two-stage", "maybe"]).status == 1)
        #expect(try cli.run(["team", "approver", "remove", "Customer care", "bob"]).status == 0)
        #expect(try cli.run(["team", "approver", "remove", "Customer care", "bob"]).status == 1)
        #expect(try cli.run(["team", "member", "remove", "Customer care", "alice"]).status == 0)
        let removed = try cli.run(["team", "remove", "Sales"])
        #expect(removed.status == 0 && removed.stdout.contains("Sales removed"))
        let teams = try await f.services.teams.teams(by: Fixture.operatorActor)
        #expect(teams.map(\.name) == ["Customer care"] && teams[0].members.isEmpty && !teams[0].twoStage)
    }
}
