import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import SGAPI
import SGCore
import SGStore
import SGTestSupport

/// Shapes a client relies on: a typo refused rather than ignored, the same request in every answer, undecided
/// after a revert, employees named by username, the health answer older clients require.
@Suite struct ContractShapeAPITests {
    @Test func aMistypedFieldIsRefusedByNameAndBooksNothing() async throws {
        let h = try await APIHarness.make()
        let day = h.fixture.weekday(7).description
        try await h.run { client in
            let alice = try await client.login("alice")
            let typo = try await client.call(
                .post, "/v1/me/holidays", token: alice, json: #"{"startDate":"\#(day)","endDate":"\#(day)","leaveType":"sick"}"#)
            expectProblem(typo, .unprocessableContent, "validation-failed")
            #expect(typo.json["field"] as? String == "leaveType")
            #expect((typo.json["detail"] as? String ?? "").contains("leaveTypeId"))
            let preview = try await client.call(
                .post, "/v1/me/holidays/preview", token: alice, json: #"{"startDate":"\#(day)","endDate":"\#(day)","commment":"x"}"#)
            #expect(preview.json["field"] as? String == "commment")
            let login = try await client.call(.post, "/v1/auth/login", json: #"{"username":"alice","password":"\#(Fixture.password)","remember":true}"#)
            expectProblem(login, .unprocessableContent, "validation-failed")
            #expect(login.json["field"] as? String == "remember")
            let settings = try await client.call(.put, "/v1/me/settings", token: alice, json: #"{"notifications":false,"email":false}"#)
            #expect(settings.json["field"] as? String == "email")
            #expect(try await client.call(.get, "/v1/me/settings", token: alice).json["notifications"] as? Bool == true)
        }
        #expect(try await h.fixture.count("holiday_requests") == 0)
    }

    @Test func movesAnswerWithTheEmployeeAndARevertIsUndecided() async throws {
        let h = try await APIHarness.make()
        try await h.run { client in
            let alice = try await client.login("alice")
            let admin = try await client.login("admin")
            let id = try #require(try await client.create(alice, h.fixture.weekday(7), h.fixture.weekday(8)).json["id"] as? Int)
            let approved = try await client.call(.post, "/v1/holidays/\(id)/approve", token: admin)
            #expect((approved.json["employee"] as? [String: Any])?["username"] as? String == "alice")
            #expect(approved.json["decidedBy"] as? String == "admin" && approved.json["decidedAt"] is String)
            let reverted = try await client.call(.post, "/v1/holidays/\(id)/revert", token: admin, json: #"{"note":"Clash"}"#)
            #expect(reverted.json["status"] as? String == "pending")
            #expect(reverted.json["decidedBy"] is NSNull && reverted.json["decidedAt"] is NSNull)
            #expect((reverted.json["employee"] as? [String: Any])?["id"] as? Int == Int(h.fixture.alice.id))
            let detail = try await client.call(.get, "/v1/holidays/\(id)", token: admin)
            #expect(detail.json["decidedBy"] is NSNull)
            // The history keeps who approved it.
            let history = try #require(detail.json["history"] as? [[String: Any]])
            #expect(history.map { $0["actor"] as? String } == ["alice", "admin", "admin"])
            let cancelled = try await client.call(.post, "/v1/holidays/\(id)/cancel", token: alice)
            #expect((cancelled.json["employee"] as? [String: Any])?["username"] as? String == "alice")
        }
    }

    @Test func requestsAreListedByUsername() async throws {
        let h = try await APIHarness.make()
        try await h.run { client in
            let alice = try await client.login("alice")
            let bob = try await client.login("bob")
            let admin = try await client.login("admin")
            #expect(try await client.create(alice, h.fixture.weekday(7), h.fixture.weekday(7)).status == .created)
            #expect(try await client.create(bob, h.fixture.weekday(7), h.fixture.weekday(7)).status == .created)
            let byName = try await client.call(.get, "/v1/holidays?username=alice", token: admin)
            #expect(byName.items.map { $0["employeeId"] as? Int } == [Int(h.fixture.alice.id)])
            #expect(try await client.call(.get, "/v1/holidays?username=nobody", token: admin).items.isEmpty)
            #expect(try await client.call(.get, "/v1/holidays?username=alice&employee=\(h.fixture.bob.id)", token: admin).items.isEmpty)
            let mistaken = try await client.call(.get, "/v1/holidays?employee=alice", token: admin)
            expectProblem(mistaken, .unprocessableContent, "validation-failed")
            #expect(mistaken.json["field"] as? String == "employee")
            #expect((mistaken.json["detail"] as? String ?? "").contains("username=alice"))
            for text in ["", String(repeating: "a", count: 256)] {
                let outOfBounds = try await client.call(.get, "/v1/holidays?username=\(text)", token: admin)
                expectProblem(outOfBounds, .unprocessableContent, "validation-failed")
                #expect(outOfBounds.json["field"] as? String == "username")
            }
        }
    }

    @Test func theHealthAnswerKeepsTheFieldOlderClientsRequire() async throws {
        let h = try await APIHarness.make()
        try await h.run { client in
            let health = try await client.call(.get, "/v1/health")
            #expect(health.json["status"] as? String == "ok")
            #expect((health.json["schema"] as? [Any])?.isEmpty == true)
        }
    }

    /// An ended session's id is never another's: a client still holding it cannot end someone's new session.
    @Test func idsAreNotGivenAgainOnceTheirRowIsGone() async throws {
        let h = try await APIHarness.make()
        try await h.run { client in
            func login() async throws -> (token: String, session: Int) {
                let reply = try await client.call(.post, "/v1/auth/login", json: #"{"username":"alice","password":"\#(Fixture.password)"}"#)
                return (try #require(reply.json["token"] as? String), try #require(reply.json["sessionId"] as? Int))
            }
            let first = try await login()
            #expect(try await client.call(.post, "/v1/auth/logout", token: first.token).status == .noContent)
            let second = try await login()
            #expect(second.session > first.session)

            let admin = try await client.login("admin")
            let team = try #require(try await client.call(.post, "/v1/teams", token: admin, json: #"{"name":"Once"}"#).json["id"] as? Int)
            #expect(try await client.call(.delete, "/v1/teams/\(team)", token: admin).status == .noContent)
            let next = try #require(try await client.call(.post, "/v1/teams", token: admin, json: #"{"name":"Twice"}"#).json["id"] as? Int)
            #expect(next > team)
        }
    }
}
