import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import SGAPI
import SGCore
import SGStore
import SGTestSupport

/// GET /v1/home: the main screen in one call, with who is away under the same privacy rules as /v1/absences.
@Suite struct HomeAPITests {
    @Test func showsTheCallersDayAndWhoIsAwayWithoutPrivateDetails() async throws {
        let h = try await APIHarness.make()
        try await h.run { client in
            let alice = try await client.login("alice")
            let bob = try await client.login("bob")
            let admin = try await client.login("admin")
            // Today is Monday 2 March 2026. bob is off sick today and tomorrow (a private type, approved at once).
            let sick = try await client.call(
                .post, "/v1/me/holidays", token: bob, json: #"{"startDate":"2026-03-02","endDate":"2026-03-03","leaveTypeId":2,"comment":"flu"}"#)
            #expect(sick.status == .created)
            // alice: a holiday on Thursday and Friday (approved), one pending next week, one approved next month.
            let holiday = try await client.create(alice, Fixture.date("2026-03-05"), Fixture.date("2026-03-06"), comment: "beach")
            let holidayID = try #require(holiday.json["id"] as? Int)
            #expect(try await client.call(.post, "/v1/holidays/\(holidayID)/approve", token: admin).status == .ok)
            #expect(try await client.create(alice, Fixture.date("2026-03-09"), Fixture.date("2026-03-09")).status == .created)
            let later = try #require(try await client.create(alice, Fixture.date("2026-04-20"), Fixture.date("2026-04-21")).json["id"] as? Int)
            #expect(try await client.call(.post, "/v1/holidays/\(later)/approve", token: admin).status == .ok)
            #expect(try await client.call(
                .post, "/v1/notices", token: admin, json: #"{"title":"Office closed Friday","body":"See you Monday."}"#).status == .created)

            let reply = try await client.call(.get, "/v1/home", token: alice)
            #expect(reply.status == .ok)
            let home = reply.json
            #expect(home["today"] as? String == "2026-03-02")
            #expect((home["employee"] as? [String: Any])?["username"] as? String == "alice")
            let balance = try #require(home["balance"] as? [String: Any])
            #expect(balance["year"] as? Int == 2026 && balance["approved"] as? Double == 4 && balance["pending"] as? Double == 1)
            let next = try #require(home["nextHoliday"] as? [String: Any])
            #expect(next["requestId"] as? Int == holidayID && next["startDate"] as? String == "2026-03-05")
            #expect(next["endDate"] as? String == "2026-03-06" && next["workingDays"] as? Double == 2 && next["leaveType"] as? String == "holiday")

            let away = try #require(home["away"] as? [String: Any])
            #expect(away["from"] as? String == "2026-03-02" && away["to"] as? String == "2026-03-09" && away["more"] as? Bool == false)
            let rows = try #require(away["items"] as? [[String: Any]])
            #expect(rows.compactMap { ($0["employee"] as? [String: Any])?["username"] as? String } == ["bob", "alice"], "who leaves first first")
            let bobsAbsence = try #require((rows.first?["absences"] as? [[String: Any]])?.first)
            #expect(bobsAbsence["leaveType"] is NSNull && bobsAbsence["requestId"] is NSNull, "a colleague sees bob as away only")
            #expect(bobsAbsence["startDate"] as? String == "2026-03-02" && bobsAbsence["status"] as? String == "confirmed")
            let alicesAbsences = try #require(rows.last?["absences"] as? [[String: Any]])
            #expect(alicesAbsences.count == 1, "pending requests and those past the week are not in it")
            #expect(alicesAbsences.first?["leaveType"] as? String == "holiday" && alicesAbsences.first?["requestId"] as? Int == holidayID)

            let notices = try #require(home["notices"] as? [String: Any])
            #expect(notices["unread"] as? Int == 2, "the two approvals")
            #expect((notices["items"] as? [[String: Any]])?.contains { $0["title"] as? String == "Office closed Friday" } == true)
            #expect((home["feed"] as? [Any])?.isEmpty == true)
            let text = String(decoding: reply.body, as: UTF8.self)
            #expect(!text.contains("flu") && !text.contains("sick"))

            // bob sees his own leave with its type; an admin sees the type too, as in /v1/absences.
            for token in [bob, admin] {
                let rows = try await client.call(.get, "/v1/home", token: token).json["away"] as? [String: Any]
                let first = ((rows?["items"] as? [[String: Any]])?.first?["absences"] as? [[String: Any]])?.first
                #expect(first?["leaveType"] as? String == "sick")
            }
            #expect(try await client.call(.get, "/v1/home").status == .unauthorized)
        }
    }

    @Test func anEmployeeWithNoHolidaysGetsAFullBalanceAndNoNextHoliday() async throws {
        let h = try await APIHarness.make()
        try await h.run { client in
            let reply = try await client.call(.get, "/v1/home", token: try await client.login("bob"))
            #expect(reply.status == .ok)
            #expect(reply.json["nextHoliday"] is NSNull)
            let balance = try #require(reply.json["balance"] as? [String: Any])
            #expect(balance["approved"] as? Double == 0 && balance["remaining"] as? Double == 23)
            #expect(((reply.json["away"] as? [String: Any])?["items"] as? [Any])?.isEmpty == true)
            #expect((reply.json["notices"] as? [String: Any])?["unread"] as? Int == 0)
        }
    }
}
