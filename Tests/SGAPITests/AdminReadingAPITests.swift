import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import SGAPI
import SGCore
import SGStore
import SGTestSupport

/// What the admin screens read and do beyond the employee's own: the outbox, an employee's record and sessions, and
/// the requests and absences of one team or one leave type.
@Suite struct AdminReadingAPITests {
    @Test func theOutboxIsReadPagedAndRetriedWithoutShowingResetLinks() async throws {
        let h = try await PasswordAPITests.harness()
        let f = h.fixture
        try await h.run { client in
            let admin = try await client.login("admin")
            let alice = try await client.login("alice")
            for login in ["alice", "bob", "admin2"] {
                #expect(try await PasswordAPITests.request(client, login).status == .accepted)
            }

            let first = try await client.call(.get, "/v1/outbox/messages?limit=2", token: admin)
            #expect(first.status == .ok)
            #expect(first.items.count == 2)
            #expect((first.json["counts"] as? [String: Int]) == ["pending": 3, "sent": 0, "dead": 0])
            let after = try #require(first.json["nextAfter"] as? Int)
            let second = try await client.call(.get, "/v1/outbox/messages?limit=2&after=\(after)", token: admin)
            #expect(second.items.count == 1)
            #expect(second.json["nextAfter"] is NSNull)
            let all = first.items + second.items
            #expect(all.map { $0["to"] as? String } == ["alice@example.com", "bob@example.com", "admin2@example.com"])
            // The link in a reset e-mail lets whoever reads it set the password: no admin sees it.
            #expect(all.allSatisfy { $0["event"] as? String == "password.reset" && $0["body"] is NSNull })
            #expect(!String(decoding: first.body + second.body, as: UTF8.self).contains("sgr_"))

            let id = try #require(all.first?["id"] as? Int)
            #expect(try await client.call(.get, "/v1/outbox/messages/\(id)", token: admin).json["status"] as? String == "pending")
            expectProblem(try await client.call(.post, "/v1/outbox/messages/\(id)/retry", token: admin), .conflict, "conflict")
            expectProblem(try await client.call(.get, "/v1/outbox/messages/9999", token: admin), .notFound, "not-found")
            expectProblem(try await client.call(.get, "/v1/outbox/messages?status=lost", token: admin), .unprocessableContent, "validation-failed")
            expectProblem(try await client.call(.get, "/v1/outbox/messages?limit=0", token: admin), .unprocessableContent, "validation-failed")
            expectProblem(try await client.call(.get, "/v1/outbox/messages", token: alice), .forbidden, "forbidden")

            // Every message refused for good: one is retried, then the rest at once.
            for message in try await f.services.delivery.claim(owner: "test", limit: 10) {
                try await f.services.delivery.record(.permanentFailure("550 mailbox unavailable"), for: message, owner: "test")
            }
            let dead = try await client.call(.get, "/v1/outbox/messages?status=dead", token: admin)
            #expect(dead.items.count == 3)
            #expect(dead.items.allSatisfy { $0["lastError"] as? String == "550 mailbox unavailable" })
            let retried = try await client.call(.post, "/v1/outbox/messages/\(id)/retry", token: admin)
            #expect(retried.status == .ok)
            #expect(retried.json["status"] as? String == "pending" && retried.json["attempts"] as? Int == 1)
            #expect(try await client.call(.post, "/v1/outbox/retry-dead", token: admin).json["retried"] as? Int == 2)
            #expect(try await f.services.delivery.counts()[.pending] == 3)
        }
    }

    @Test func anAdminReadsAnEmployeesRecordAndEndsTheirSessions() async throws {
        let h = try await APIHarness.make()
        let aliceID = h.fixture.alice.id
        try await h.run { client in
            let admin = try await client.login("admin")
            let phone = try await client.login("alice")
            let laptop = try await client.login("alice")

            let record = try await client.call(.get, "/v1/employees/\(aliceID)/record", token: admin)
            #expect(record.status == .ok)
            #expect(record.json["username"] as? String == "alice" && record.json["isAdmin"] as? Bool == false)
            expectProblem(try await client.call(.get, "/v1/employees/9999/record", token: admin), .notFound, "not-found")
            expectProblem(try await client.call(.get, "/v1/employees/\(aliceID)/record", token: phone), .forbidden, "forbidden")

            let sessions = try await client.call(.get, "/v1/employees/\(aliceID)/sessions", token: admin)
            #expect(sessions.items.count == 2)
            #expect(sessions.items.allSatisfy { $0["current"] as? Bool == false })
            expectProblem(try await client.call(.get, "/v1/employees/9999/sessions", token: admin), .notFound, "not-found")
            expectProblem(try await client.call(.delete, "/v1/employees/\(aliceID)/sessions", token: phone), .forbidden, "forbidden")

            #expect(try await client.call(.delete, "/v1/employees/\(aliceID)/sessions", token: admin).status == .noContent)
            for token in [phone, laptop] {
                #expect(try await client.call(.get, "/v1/me", token: token).status == .unauthorized)
            }
            #expect(try await client.call(.get, "/v1/employees/\(aliceID)/sessions", token: admin).items.isEmpty)
            // Ending one's own other sessions keeps the one in use.
            let adminID = h.fixture.admin.id
            _ = try await client.login("admin")
            #expect(try await client.call(.delete, "/v1/employees/\(adminID)/sessions", token: admin).status == .noContent)
            let own = try await client.call(.get, "/v1/employees/\(adminID)/sessions", token: admin)
            #expect(own.items.count == 1 && own.items.first?["current"] as? Bool == true)
        }
    }

    @Test func requestsAndAbsencesAreFilteredByTeamAndLeaveType() async throws {
        let h = try await APIHarness.make()
        let f = h.fixture
        try await h.run { client in
            let admin = try await client.login("admin")
            let alice = try await client.login("alice")
            let bob = try await client.login("bob")
            let team = try await client.call(.post, "/v1/teams", token: admin, json: #"{"name":"Support"}"#)
            let teamID = try #require(team.json["id"] as? Int)
            #expect(try await client.call(.put, "/v1/teams/\(teamID)/members/\(f.alice.id)", token: admin).status == .ok)

            #expect(try await client.create(alice, f.weekday(7), f.weekday(8)).status == .created)
            #expect(try await client.create(bob, f.weekday(7), f.weekday(7)).status == .created)
            let sick = try await client.call(
                .post, "/v1/me/holidays", token: bob, json: #"{"startDate":"\#(f.weekday(9))","endDate":"\#(f.weekday(9))","leaveTypeId":2}"#)
            #expect(sick.status == .created)

            let ofTeam = try await client.call(.get, "/v1/holidays?team=\(teamID)", token: admin)
            #expect(ofTeam.items.map { $0["employeeId"] as? Int } == [Int(f.alice.id)])
            let ofType = try await client.call(.get, "/v1/holidays?leaveType=2", token: admin)
            #expect(ofType.items.map { $0["employeeId"] as? Int } == [Int(f.bob.id)])
            #expect(try await client.call(.get, "/v1/holidays?team=\(teamID)&leaveType=2", token: admin).items.isEmpty)
            #expect(try await client.call(.get, "/v1/holidays?team=9999", token: admin).items.isEmpty)
            expectProblem(try await client.call(.get, "/v1/holidays?team=0", token: admin), .unprocessableContent, "validation-failed")
            expectProblem(try await client.call(.get, "/v1/holidays?leaveType=x", token: admin), .unprocessableContent, "validation-failed")

            let range = "from=\(f.weekday(7))&to=\(f.weekday(9))"
            let calendar = try await client.call(.get, "/v1/absences?\(range)&team=\(teamID)", token: admin)
            #expect(calendar.status == .ok)
            let rows = calendar.items
            #expect(rows.map { ($0["employee"] as? [String: Any])?["id"] as? Int } == [Int(f.alice.id)])
            #expect((rows.first?["absences"] as? [[String: Any]])?.count == 1)
            let everyone = try await client.call(.get, "/v1/absences?\(range)", token: admin)
            #expect(everyone.items.count == 4)
        }
    }
}
