import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import SGAPI
import SGCore
import SGStore
import SGTestSupport

/// Who may read and decide a team's requests, at its edges: a substitute whose approver left, a type that needs no
/// approval, an approver of another team.
@Suite struct TeamBoundaryAPITests {
    static let operatorOfHost = TeamAPITests.operatorOfHost

    /// Alice (member of Support) has sick leave with a comment and a pending holiday; max approves Support and has
    /// named sue his substitute for March.
    static func scene(_ c: TeamAPITests.Company, _ client: APIHarness.Client) async throws -> (sick: Int, holiday: Int) {
        let alice = try await client.login("alice")
        let sick = try await client.call(
            .post, "/v1/me/holidays", token: alice, json: #"{"startDate":"2026-03-04","endDate":"2026-03-04","leaveTypeId":2,"comment":"migraine"}"#)
        let holiday = try await client.create(alice, Fixture.date("2026-03-16"), Fixture.date("2026-03-17"), comment: "family visit")
        let max = try await client.login("max")
        let delegated = try await client.call(
            .put, "/v1/me/delegation", token: max, json: #"{"to":\#(c.ids["sue"]!),"from":"2026-03-02","until":"2026-03-31"}"#)
        #expect(delegated.status == .ok)
        return (try #require(sick.json["id"] as? Int), try #require(holiday.json["id"] as? Int))
    }

    /// What sue reads of the team: the list of requests, the calendar's details, a balance, a request.
    static func whatSueReads(_ c: TeamAPITests.Company, _ client: APIHarness.Client, holiday: Int) async throws -> (list: Int, detail: Int, balance: Int, calendar: String) {
        let sue = try await client.login("sue")
        let list = try await client.call(.get, "/v1/holidays?status=pending", token: sue)
        let detail = try await client.call(.get, "/v1/holidays/\(holiday)", token: sue)
        let balance = try await client.call(.get, "/v1/employees/\(c.ids["alice"]!)/balance?year=2026", token: sue)
        let calendar = try await client.call(.get, "/v1/absences?from=2026-03-01&to=2026-03-31", token: sue)
        return (Int(list.status.code), Int(detail.status.code), Int(balance.status.code), String(decoding: calendar.body, as: UTF8.self))
    }

    @Test func aSubstituteReadsNothingOnceTheApproverIsDeactivated() async throws {
        let c = try await TeamAPITests.company()
        try await c.h.run { client in
            let s = try await Self.scene(c, client)
            // While max is active, sue decides and reads as he does.
            let before = try await Self.whatSueReads(c, client, holiday: s.holiday)
            #expect(before.list == 200 && before.detail == 200 && before.balance == 200)
            #expect(before.calendar.contains("\"sick\""), "a decider sees the private type")

            let admin = try await client.login("admin")
            #expect(try await client.call(.patch, "/v1/employees/\(c.ids["max"]!)", token: admin, json: #"{"isActive":false}"#).status == .ok)
            let after = try await Self.whatSueReads(c, client, holiday: s.holiday)
            #expect(after.list == 403, "sue decides for nobody now")
            #expect(after.detail == 404 && after.balance == 403)
            #expect(!after.calendar.contains("\"sick\"") && !after.calendar.contains("migraine") && !after.calendar.contains("family visit"),
                    "the calendar shows the private type as away only, as to any colleague")
            expectProblem(try await client.call(.post, "/v1/holidays/\(s.holiday)/approve", token: try await client.login("sue")), .forbidden, "forbidden")

            // The delegation ended with the deactivation: reactivated, max has none, and sue still reads nothing.
            #expect(try await client.call(.patch, "/v1/employees/\(c.ids["max"]!)", token: admin, json: #"{"isActive":true}"#).status == .ok)
            #expect(try await client.call(.get, "/v1/me/delegation", token: try await client.login("max")).status == .notFound)
            #expect(try await Self.whatSueReads(c, client, holiday: s.holiday).list == 403)
        }
    }

    @Test func aDelegationEndsWhenItsApproverStopsApproving() async throws {
        let c = try await TeamAPITests.company()
        try await c.h.run { client in
            let s = try await Self.scene(c, client)
            _ = try await c.h.fixture.services.teams.removeApprover(teamID: c.team.id, employeeID: c.ids["max"]!, by: Self.operatorOfHost)
            let after = try await Self.whatSueReads(c, client, holiday: s.holiday)
            #expect(after.list == 403 && after.detail == 404)
            // Approver again: the old delegation does not come back.
            _ = try await c.h.fixture.services.teams.addApprover(teamID: c.team.id, employeeID: c.ids["max"]!, by: Self.operatorOfHost)
            #expect(try await client.call(.get, "/v1/me/delegation", token: try await client.login("max")).status == .notFound)
            #expect(try await Self.whatSueReads(c, client, holiday: s.holiday).list == 403)
        }
    }

    @Test func onlyAnAdminRevertsLeaveThatNeedsNoApproval() async throws {
        let c = try await TeamAPITests.company()
        try await c.h.run { client in
            let s = try await Self.scene(c, client)
            let max = try await client.login("max")
            let shown = try await client.call(.get, "/v1/holidays/\(s.sick)", token: max)
            #expect(shown.json["status"] as? String == "approved")
            #expect(shown.json["allowedActions"] as? [String] == [], "the approver is offered no move on sick leave")
            let refused = try await client.call(.post, "/v1/holidays/\(s.sick)/revert", token: max)
            expectProblem(refused, .forbidden, "forbidden")
            #expect((refused.json["detail"] as? String)?.contains("only an admin can revert it") == true)
            expectProblem(try await client.call(.post, "/v1/holidays/\(s.sick)/reject", token: max, json: #"{"reason":"no proof"}"#), .conflict, "wrong-state")
            #expect(try await client.call(.get, "/v1/holidays/\(s.sick)", token: max).json["status"] as? String == "approved")
            // An approved holiday the approver may revert; an admin reverts the sick leave.
            #expect(try await client.call(.post, "/v1/holidays/\(s.holiday)/approve", token: max).status == .ok)
            #expect(try await client.call(.post, "/v1/holidays/\(s.holiday)/revert", token: max).status == .ok)
            let admin = try await client.login("admin")
            #expect(try await client.call(.post, "/v1/holidays/\(s.sick)/revert", token: admin).json["status"] as? String == "pending")
        }
    }

    @Test func anApproverCannotTellAnotherTeamsRequestFromNone() async throws {
        let c = try await TeamAPITests.company()
        let teams = c.h.fixture.services.teams
        let other = try await teams.create(name: "Sales", by: Self.operatorOfHost)
        _ = try await teams.addMember(teamID: other.id, employeeID: c.ids["olga"]!, by: Self.operatorOfHost)
        try await c.h.run { client in
            let olga = try await client.login("olga")
            let theirs = try #require(try await client.create(olga, Fixture.date("2026-04-06"), Fixture.date("2026-04-07")).json["id"] as? Int)
            let max = try await client.login("max")
            for action in ["approve", "revert"] {
                let other = try await client.call(.post, "/v1/holidays/\(theirs)/\(action)", token: max)
                let missing = try await client.call(.post, "/v1/holidays/999999/\(action)", token: max)
                expectProblem(other, .notFound, "not-found")
                expectProblem(missing, .notFound, "not-found")
                #expect(other.json["title"] as? String == missing.json["title"] as? String)
            }
            let rejectOther = try await client.call(.post, "/v1/holidays/\(theirs)/reject", token: max, json: #"{"reason":"no"}"#)
            let rejectMissing = try await client.call(.post, "/v1/holidays/999999/reject", token: max, json: #"{"reason":"no"}"#)
            #expect(rejectOther.status == .notFound && rejectMissing.status == .notFound)
            #expect(try await client.call(.get, "/v1/holidays/\(theirs)", token: max).status == .notFound)
        }
    }
}
