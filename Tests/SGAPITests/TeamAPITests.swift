import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import SGAPI
import SGCore
import SGStore
import SGTestSupport

/// Teams through the real router and store: who decides, two stages, delegation, the away fallback and races.
@Suite struct TeamAPITests {
    /// Alice and bob in "Support", approved by max and mona; sue and olga are plain employees.
    struct Company {
        let h: APIHarness
        let team: Team
        let ids: [String: Int64]
    }

    static let operatorOfHost = Actor(employeeID: nil, name: "tests (sgadmin)", isAdmin: true)

    static func company(twoStage: Bool = false) async throws -> Company {
        let h = try await APIHarness.make()
        let hash = try await Passwords.hash(Fixture.password, cost: 4)
        var ids = ["alice": h.fixture.alice.id, "bob": h.fixture.bob.id, "admin": h.fixture.admin.id]
        for name in ["max", "mona", "sue", "olga"] {
            ids[name] = try await h.fixture.services.accounts.addEmployee(NewEmployee(
                username: name, name: name.capitalized, surname: "Team", email: "\(name)@example.com", isAdmin: false, passwordHash: hash)).id
        }
        let teams = h.fixture.services.teams
        var team = try await teams.create(name: "Support", twoStage: twoStage, by: operatorOfHost)
        for name in ["alice", "bob", "max", "mona"] {
            team = try await teams.addMember(teamID: team.id, employeeID: ids[name]!, by: operatorOfHost)
        }
        for name in ["max", "mona"] { team = try await teams.addApprover(teamID: team.id, employeeID: ids[name]!, by: operatorOfHost) }
        return Company(h: h, team: team, ids: ids)
    }

    func approverNames(_ reply: APIHarness.Client.Reply) -> [String] {
        (reply.json["approvers"] as? [[String: Any]] ?? []).compactMap { $0["username"] as? String }
    }

    @Test func theTeamsApproversAreAskedAndDecide() async throws {
        let c = try await Self.company()
        try await c.h.run { client in
            let alice = try await client.login("alice")
            let created = try await client.create(alice, Fixture.date("2026-04-06"), Fixture.date("2026-04-08"))
            #expect(created.status == .created)
            #expect(approverNames(created) == ["max", "mona"])
            let id = try #require(created.json["id"] as? Int)
            // The pending queue: max sees his team's request, olga (no team) is refused, bob sees nothing of it.
            let max = try await client.login("max")
            let queue = try await client.call(.get, "/v1/holidays?status=pending", token: max)
            #expect(queue.status == .ok)
            #expect(queue.items.compactMap { $0["id"] as? Int } == [id])
            #expect(queue.items.first?["allowedActions"] as? [String] == ["approve", "reject"])
            expectProblem(try await client.call(.get, "/v1/holidays?status=pending", token: try await client.login("olga")), .forbidden, "forbidden")
            // Max reads alice's balance; bob (a member, not an approver) does not.
            #expect(try await client.call(.get, "/v1/employees/\(c.ids["alice"]!)/balance", token: max).status == .ok)
            #expect(try await client.call(.get, "/v1/employees/\(c.ids["alice"]!)/balance", token: try await client.login("bob")).status == .forbidden)
            let approved = try await client.call(.post, "/v1/holidays/\(id)/approve", token: max)
            #expect(approved.status == .ok)
            #expect(approved.json["status"] as? String == "approved")
            #expect(approved.json["decidedBy"] as? String == "max")
            #expect(approverNames(approved) == [])
            // Max's own request goes to mona, not to him.
            let own = try await client.create(max, Fixture.date("2026-05-04"), Fixture.date("2026-05-05"))
            #expect(approverNames(own) == ["mona"])
            let ownID = try #require(own.json["id"] as? Int)
            expectProblem(try await client.call(.post, "/v1/holidays/\(ownID)/approve", token: max), .forbidden, "forbidden")
            #expect(try await client.call(.post, "/v1/holidays/\(ownID)/approve", token: try await client.login("mona")).status == .ok)
        }
    }

    @Test func twoStagesTheManagerThenAnAdmin() async throws {
        let c = try await Self.company(twoStage: true)
        try await c.h.run { client in
            let alice = try await client.login("alice")
            let max = try await client.login("max")
            let admin = try await client.login("admin")
            let id = try #require(try await client.create(alice, Fixture.date("2026-04-06"), Fixture.date("2026-04-08")).json["id"] as? Int)
            let first = try await client.call(.post, "/v1/holidays/\(id)/approve", token: max)
            #expect(first.json["status"] as? String == "approved-by-manager")
            #expect(approverNames(first) == ["admin", "admin2"])
            // The days stay held like pending ones.
            let year = try await client.call(.get, "/v1/me/holidays", token: alice)
            #expect((year.json["balance"] as? [String: Any])?["pending"] as? Double == 3)
            // The manager's stage is over: approving again is not his (403); an illegal move is 409.
            expectProblem(try await client.call(.post, "/v1/holidays/\(id)/approve", token: max), .forbidden, "forbidden")
            expectProblem(try await client.call(.post, "/v1/holidays/\(id)/approve", token: try await client.login("mona")), .forbidden, "forbidden")
            let queue = try await client.call(.get, "/v1/holidays?status=approved-by-manager", token: admin)
            #expect(queue.items.compactMap { $0["id"] as? Int } == [id])
            let final = try await client.call(.post, "/v1/holidays/\(id)/approve", token: admin)
            #expect(final.json["status"] as? String == "approved")
            expectProblem(try await client.call(.post, "/v1/holidays/\(id)/approve", token: admin), .conflict, "wrong-state")
            let detail = try await client.call(.get, "/v1/holidays/\(id)", token: alice)
            let moves = (detail.json["history"] as? [[String: Any]] ?? []).map { "\($0["from"] as? String ?? "-")>\($0["to"] as? String ?? "")" }
            #expect(moves == ["->pending", "pending>approved-by-manager", "approved-by-manager>approved"])
        }
    }

    @Test func aSubstituteDecidesOnlyWhileTheDelegationRuns() async throws {
        let c = try await Self.company()
        try await c.h.run { client in
            let alice = try await client.login("alice")
            let max = try await client.login("max")
            let sue = try await client.login("sue")
            let id = try #require(try await client.create(alice, Fixture.date("2026-04-06"), Fixture.date("2026-04-08")).json["id"] as? Int)
            // From next week: not running yet.
            let later = try await client.call(.put, "/v1/me/delegation", token: max, json: #"{"to":\#(c.ids["sue"]!),"from":"2026-03-09","until":"2026-03-20"}"#)
            #expect(later.status == .ok)
            #expect(try await client.call(.get, "/v1/me/delegation", token: max).json["from"] as? String == "2026-03-09")
            expectProblem(try await client.call(.post, "/v1/holidays/\(id)/approve", token: sue), .forbidden, "forbidden")
            #expect(try await client.call(.get, "/v1/holidays/\(id)", token: sue).status == .notFound)
            // From today: sue decides for max, and is asked.
            #expect(try await client.call(.put, "/v1/me/delegation", token: max, json: #"{"to":\#(c.ids["sue"]!),"from":"2026-03-02","until":"2026-03-20"}"#).status == .ok)
            #expect(approverNames(try await client.call(.get, "/v1/holidays/\(id)", token: sue)).contains("sue"))
            let approved = try await client.call(.post, "/v1/holidays/\(id)/approve", token: sue)
            #expect(approved.json["status"] as? String == "approved")
            // Ended: she decides no more.
            #expect(try await client.call(.delete, "/v1/me/delegation", token: max).status == .noContent)
            expectProblem(try await client.call(.post, "/v1/holidays/\(id)/revert", token: sue), .forbidden, "forbidden")
            // Only an approver delegates; nobody to a stranger id.
            expectProblem(try await client.call(.put, "/v1/me/delegation", token: alice, json: #"{"to":\#(c.ids["sue"]!),"from":"2026-03-02","until":"2026-03-20"}"#), .forbidden, "forbidden")
            #expect(try await client.call(.put, "/v1/me/delegation", token: max, json: #"{"to":99999,"from":"2026-03-02","until":"2026-03-20"}"#).status == .unprocessableContent)
            #expect(try await client.call(.put, "/v1/me/delegation", token: max, json: #"{"to":\#(c.ids["sue"]!),"from":"2026-03-20","until":"2026-03-02"}"#).status == .unprocessableContent)
        }
    }

    @Test func whenEveryApproverIsAwayTheAdminsAreAskedToo() async throws {
        let c = try await Self.company()
        try await c.h.run { client in
            let admin = try await client.login("admin")
            let alice = try await client.login("alice")
            // Max and mona are both off today (approved by an admin).
            for name in ["max", "mona"] {
                let token = try await client.login(name)
                let id = try #require(try await client.create(token, Fixture.date("2026-03-02"), Fixture.date("2026-03-04")).json["id"] as? Int)
                #expect(try await client.call(.post, "/v1/holidays/\(id)/approve", token: admin).status == .ok)
            }
            let created = try await client.create(alice, Fixture.date("2026-04-06"), Fixture.date("2026-04-08"))
            #expect(approverNames(created) == ["admin", "admin2"])
            // Away approvers still may decide.
            let id = try #require(created.json["id"] as? Int)
            #expect(try await client.call(.post, "/v1/holidays/\(id)/approve", token: try await client.login("max")).status == .ok)
        }
    }

    @Test func twoApproversDecidingAtOnceMakeOneTransition() async throws {
        let c = try await Self.company()
        try await c.h.run { client in
            let alice = try await client.login("alice")
            let max = try await client.login("max")
            let mona = try await client.login("mona")
            let id = try #require(try await client.create(alice, Fixture.date("2026-04-06"), Fixture.date("2026-04-08")).json["id"] as? Int)
            async let first = client.call(.post, "/v1/holidays/\(id)/approve", token: max)
            async let second = client.call(.post, "/v1/holidays/\(id)/reject", token: mona, json: #"{"reason":"Release week"}"#)
            let statuses = [try await first.status, try await second.status]
            #expect(statuses.filter { $0 == .ok }.count == 1)
            #expect(statuses.filter { $0 == .conflict }.count == 1)
            let history = try await client.call(.get, "/v1/holidays/\(id)", token: alice).json["history"] as? [[String: Any]] ?? []
            #expect(history.count == 2)
        }
        // The same through the services, many times over: one transition each.
        let c2 = try await Self.company()
        let services = c2.h.fixture.services
        for day in [6, 13, 20] {
            let request = try await services.holidays.createRequest(
                for: c2.ids["alice"]!, start: Fixture.date(String(format: "2026-04-%02d", day)),
                end: Fixture.date(String(format: "2026-04-%02d", day + 1)), comment: "", actor: c2.h.fixture.alice.actor)
            let approvers = [c2.ids["max"]!, c2.ids["mona"]!].map { Actor(employeeID: $0, name: "approver \(String($0))", isAdmin: false) }
            let outcomes = await withTaskGroup(of: Bool.self) { group in
                for actor in approvers {
                    group.addTask { (try? await services.holidays.perform(.approve, on: request.id, by: actor)) != nil }
                }
                return await group.reduce(into: [Bool]()) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 }.count == 1)
        }
    }

    @Test func adminsManageTeams() async throws {
        let c = try await Self.company()
        try await c.h.run { client in
            let admin = try await client.login("admin")
            let created = try await client.call(.post, "/v1/teams", token: admin, json: #"{"name":"Sales","twoStage":true}"#)
            #expect(created.status == .created)
            let id = try #require(created.json["id"] as? Int)
            expectProblem(try await client.call(.post, "/v1/teams", token: admin, json: #"{"name":"sales"}"#), .conflict, "conflict")
            #expect(try await client.call(.post, "/v1/teams", token: admin, json: #"{"name":""}"#).status == .unprocessableContent)
            #expect(try await client.call(.post, "/v1/teams", token: admin, json: #"{"colour":"red"}"#).status == .unprocessableContent)
            // Names are counted in code points, as the contract and the database count them.
            let accents = String(repeating: "e\u{301}", count: 30)
            #expect(try await client.call(.post, "/v1/teams", token: admin, json: #"{"name":"\#(accents)"}"#).status == .created)
            #expect(try await client.call(.post, "/v1/teams", token: admin, json: #"{"name":"\#(accents)e"}"#).status == .unprocessableContent)
            // Moving alice to Sales takes her out of Support.
            let moved = try await client.call(.put, "/v1/teams/\(id)/members/\(c.ids["alice"]!)", token: admin)
            #expect((moved.json["members"] as? [[String: Any]])?.compactMap { $0["username"] as? String } == ["alice"])
            let support = try await client.call(.get, "/v1/teams/\(c.team.id)", token: admin)
            #expect(!((support.json["members"] as? [[String: Any]]) ?? []).contains { $0["username"] as? String == "alice" })
            // Sales has no approver: alice's requests go to the admins.
            let request = try await client.create(try await client.login("alice"), Fixture.date("2026-04-06"), Fixture.date("2026-04-07"))
            #expect(approverNames(request) == ["admin", "admin2"])
            #expect(try await client.call(.patch, "/v1/teams/\(id)", token: admin, json: #"{"name":"Sales EU"}"#).json["name"] as? String == "Sales EU")
            #expect(try await client.call(.delete, "/v1/teams/\(id)", token: admin).status == .noContent)
            #expect(try await client.call(.get, "/v1/teams/\(id)", token: admin).status == .notFound)
            #expect((try await client.call(.get, "/v1/teams", token: admin).body).count > 2)
        }
    }
    /// The names of the teams in a `GET /v1/teams` answer (an array), in order.
    static func teamNames(_ reply: APIHarness.Client.Reply) -> [String] {
        ((try? JSONSerialization.jsonObject(with: reply.body)) as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
    }

    /// Approvers read the teams they decide for, delegates while the delegation runs; admins page every team by name
    /// and find one employee's team; a plain employee is refused.
    @Test func approversReadTheirTeamsAndAdminsPageThem() async throws {
        let c = try await Self.company()
        let teams = c.h.fixture.services.teams
        let other = try await teams.create(name: "Accounts", by: Self.operatorOfHost)
        _ = try await teams.addMember(teamID: other.id, employeeID: c.ids["olga"]!, by: Self.operatorOfHost)
        _ = try await teams.create(name: "Zeta", by: Self.operatorOfHost)
        try await c.h.run { client in
            let admin = try await client.login("admin")
            let max = try await client.login("max")
            let sue = try await client.login("sue")
            #expect(Self.teamNames(try await client.call(.get, "/v1/teams", token: admin)) == ["Accounts", "Support", "Zeta"])
            // Pages by name: a short page is the last.
            #expect(Self.teamNames(try await client.call(.get, "/v1/teams?limit=2", token: admin)) == ["Accounts", "Support"])
            #expect(Self.teamNames(try await client.call(.get, "/v1/teams?limit=2&after=Support", token: admin)) == ["Zeta"])
            #expect(Self.teamNames(try await client.call(.get, "/v1/teams?limit=2&after=Zeta", token: admin)).isEmpty)
            #expect(Self.teamNames(try await client.call(.get, "/v1/teams?member=\(c.ids["olga"]!)", token: admin)) == ["Accounts"])
            #expect(Self.teamNames(try await client.call(.get, "/v1/teams?member=\(c.ids["admin"]!)", token: admin)).isEmpty)
            // Max approves Support only; the members come with it.
            let his = try await client.call(.get, "/v1/teams", token: max)
            #expect(his.status == .ok && Self.teamNames(his) == ["Support"])
            let members = ((try? JSONSerialization.jsonObject(with: his.body)) as? [[String: Any]])?.first?["members"] as? [[String: Any]]
            #expect(Set(members?.compactMap { $0["username"] as? String } ?? []) == ["alice", "bob", "max", "mona"])
            #expect(Self.teamNames(try await client.call(.get, "/v1/teams?member=\(c.ids["olga"]!)", token: max)).isEmpty)
            #expect(Self.teamNames(try await client.call(.get, "/v1/teams?member=\(c.ids["alice"]!)", token: max)) == ["Support"])
            // Sue decides for nobody until max hands her his approvals.
            expectProblem(try await client.call(.get, "/v1/teams", token: sue), .forbidden, "forbidden")
            let today = try await c.h.fixture.services.company.today()
            let delegated = try await client.call(
                .put, "/v1/me/delegation", token: max, json: #"{"to":\#(c.ids["sue"]!),"from":"\#(today)","until":"\#(today)"}"#)
            #expect(delegated.status == .ok)
            #expect(Self.teamNames(try await client.call(.get, "/v1/teams", token: sue)) == ["Support"])
            #expect(try await client.call(.delete, "/v1/me/delegation", token: max).status == .noContent)
            expectProblem(try await client.call(.get, "/v1/teams", token: sue), .forbidden, "forbidden")
            for query in ["limit=0", "limit=201", "member=alice", "after="] {
                expectProblem(try await client.call(.get, "/v1/teams?\(query)", token: admin), .unprocessableContent, "validation-failed")
            }
        }
    }
}
