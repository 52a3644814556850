import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import SGAPI
import SGCore
import SGStore
import SGTestSupport

/// Who is off (GET /v1/absences) over HTTP: what each caller sees, public holidays per calendar, pages, hostile input.
@Suite struct AbsenceAPITests {
    /// alice: a pending holiday (with a comment) and an approved half-day one; bob (in the Madrid calendar): sick leave.
    struct Scene {
        let alice: String
        let bob: String
        let admin: String
        let pending: Int
        let approved: Int
        let sick: Int
        let madrid: Int64
    }

    static func scene(_ h: APIHarness, _ client: APIHarness.Client) async throws -> Scene {
        let alice = try await client.login("alice")
        let bob = try await client.login("bob")
        let admin = try await client.login("admin")
        let pending = try await client.call(
            .post, "/v1/me/holidays", token: alice, json: #"{"startDate":"2026-04-06","endDate":"2026-04-08","comment":"secret plans"}"#)
        let approved = try await client.call(
            .post, "/v1/me/holidays", token: alice,
            json: #"{"startDate":"2026-04-13","endDate":"2026-04-14","startHalf":"afternoon","endHalf":"afternoon"}"#)
        let sick = try await client.call(
            .post, "/v1/me/holidays", token: bob, json: #"{"startDate":"2026-04-07","endDate":"2026-04-07","leaveTypeId":2,"comment":"flu"}"#)
        let approvedID = try #require(approved.json["id"] as? Int)
        #expect(try await client.call(.post, "/v1/holidays/\(approvedID)/approve", token: admin).status == .ok)
        let company = h.fixture.services.company
        try await company.addPublicHoliday(PublicHoliday(date: Fixture.date("2026-04-03"), name: "Good Friday"), by: Fixture.operatorActor)
        let madrid = try await company.createHolidayCalendar(name: "Madrid", by: Fixture.operatorActor)
        try await company.addPublicHoliday(
            PublicHoliday(date: Fixture.date("2026-04-10"), name: "Fiesta, \"local\""), calendarID: madrid.id, by: Fixture.operatorActor)
        _ = try await company.setHolidayCalendar(ofEmployee: h.fixture.bob.id, to: madrid.id, by: Fixture.operatorActor)
        return Scene(
            alice: alice, bob: bob, admin: admin, pending: try #require(pending.json["id"] as? Int), approved: approvedID,
            sick: try #require(sick.json["id"] as? Int), madrid: madrid.id)
    }

    static func row(_ reply: APIHarness.Client.Reply, _ username: String) -> [String: Any]? {
        reply.items.first { ($0["employee"] as? [String: Any])?["username"] as? String == username }
    }

    static func absences(_ row: [String: Any]?) -> [[String: Any]] {
        row?["absences"] as? [[String: Any]] ?? []
    }

    @Test func colleaguesSeeWhoIsAwayButNotPendingRequestsPrivateTypesOrComments() async throws {
        let h = try await APIHarness.make()
        try await h.run { client in
            let s = try await Self.scene(h, client)
            let reply = try await client.call(.get, "/v1/absences?from=2026-04-01&to=2026-04-30", token: s.bob)
            #expect(reply.status == .ok)
            #expect(reply.json["from"] as? String == "2026-04-01" && reply.json["to"] as? String == "2026-04-30")
            // Everyone active, in directory order (surname, then name).
            #expect(reply.items.compactMap { ($0["employee"] as? [String: Any])?["username"] as? String } == ["admin", "admin2", "alice", "bob"])
            #expect(reply.json["nextAfter"] is NSNull)
            let alice = Self.absences(Self.row(reply, "alice"))
            #expect(alice.count == 1, "alice's pending request is not shown to a colleague")
            #expect(alice.first?["startDate"] as? String == "2026-04-13" && alice.first?["endDate"] as? String == "2026-04-14")
            #expect(alice.first?["startHalf"] as? String == "afternoon" && alice.first?["endHalf"] as? String == "afternoon")
            #expect(alice.first?["status"] as? String == "confirmed" && alice.first?["leaveType"] as? String == "holiday")
            #expect(alice.first?["requestId"] is NSNull)
            // Bob sees his own sick leave with its type and id.
            let own = Self.absences(Self.row(reply, "bob"))
            #expect(own.first?["leaveType"] as? String == "sick" && own.first?["requestId"] as? Int == s.sick)
            let text = String(decoding: reply.body, as: UTF8.self)
            #expect(!text.contains("secret plans") && !text.contains("flu"))

            // Alice sees bob only as away, and her own pending request as tentative.
            let asAlice = try await client.call(.get, "/v1/absences?from=2026-04-01&to=2026-04-30", token: s.alice)
            let bob = Self.absences(Self.row(asAlice, "bob"))
            #expect(bob.count == 1 && bob.first?["leaveType"] is NSNull && bob.first?["requestId"] is NSNull)
            #expect(bob.first?["status"] as? String == "confirmed")
            let mine = Self.absences(Self.row(asAlice, "alice"))
            #expect(mine.map { $0["status"] as? String } == ["tentative", "confirmed"])
            #expect(mine.first?["requestId"] as? Int == s.pending)
            #expect(!String(decoding: asAlice.body, as: UTF8.self).contains("sick"))

            // Admins see everything but comments.
            let asAdmin = try await client.call(.get, "/v1/absences?from=2026-04-01&to=2026-04-30", token: s.admin)
            #expect(Self.absences(Self.row(asAdmin, "alice")).map { $0["requestId"] as? Int } == [s.pending, s.approved])
            #expect(Self.absences(Self.row(asAdmin, "bob")).first?["leaveType"] as? String == "sick")
            #expect(!String(decoding: asAdmin.body, as: UTF8.self).contains("secret plans"))

            // A request reaching into the range is returned whole; one outside it is not.
            let edge = try await client.call(.get, "/v1/absences?from=2026-04-08&to=2026-04-13", token: s.admin)
            #expect(Self.absences(Self.row(edge, "alice")).map { $0["startDate"] as? String } == ["2026-04-06", "2026-04-13"])
            let none = try await client.call(.get, "/v1/absences?from=2026-04-15&to=2026-04-15", token: s.admin)
            #expect(none.items.allSatisfy { Self.absences($0).isEmpty })
            // Cancelled requests disappear.
            #expect(try await client.call(.post, "/v1/holidays/\(s.approved)/cancel", token: s.alice).status == .ok)
            let after = try await client.call(.get, "/v1/absences?from=2026-04-01&to=2026-04-30", token: s.bob)
            #expect(Self.absences(Self.row(after, "alice")).isEmpty)
        }
    }

    @Test func publicHolidaysComeOncePerCalendarOfThePage() async throws {
        let h = try await APIHarness.make()
        try await h.run { client in
            let s = try await Self.scene(h, client)
            let reply = try await client.call(.get, "/v1/absences?from=2026-04-01&to=2026-04-30", token: s.alice)
            #expect(Self.row(reply, "bob")?["holidayCalendarId"] as? Int64 == s.madrid)
            #expect(Self.row(reply, "alice")?["holidayCalendarId"] as? Int == 1)
            let calendars = try #require(reply.json["holidayCalendars"] as? [[String: Any]])
            #expect(calendars.map { $0["id"] as? Int64 } == [1, s.madrid])
            #expect(calendars.map { $0["name"] as? String } == ["default", "Madrid"])
            #expect((calendars[0]["publicHolidays"] as? [[String: Any]])?.map { $0["date"] as? String } == ["2026-04-03"])
            #expect((calendars[1]["publicHolidays"] as? [[String: Any]])?.first?["name"] as? String == "Fiesta, \"local\"")
            // A page of people who are all in the first calendar lists only that one.
            let first = try await client.call(.get, "/v1/absences?from=2026-04-01&to=2026-04-30&limit=2", token: s.alice)
            #expect((first.json["holidayCalendars"] as? [[String: Any]])?.map { $0["id"] as? Int } == [1])
            // Outside the range, a calendar is listed with no holidays.
            let may = try await client.call(.get, "/v1/absences?from=2026-05-01&to=2026-05-31&employee=\(h.fixture.bob.id)", token: s.alice)
            #expect((may.json["holidayCalendars"] as? [[String: Any]])?.first?["publicHolidays"] as? [Any] != nil)
            #expect(((may.json["holidayCalendars"] as? [[String: Any]])?.first?["publicHolidays"] as? [Any])?.isEmpty == true)
        }
    }

    @Test func pagesFollowTheDirectoryAndOneEmployeeCanBeAskedFor() async throws {
        let h = try await APIHarness.make()
        _ = try await h.fixture.services.accounts.deactivate(username: "admin2")
        try await h.run { client in
            let s = try await Self.scene(h, client)
            let first = try await client.call(.get, "/v1/absences?from=2026-04-01&to=2026-04-30&limit=2", token: s.alice)
            #expect(first.items.compactMap { ($0["employee"] as? [String: Any])?["username"] as? String } == ["admin", "alice"])
            let next = try #require(first.json["nextAfter"] as? Int)
            #expect(next == Int(h.fixture.alice.id))
            let second = try await client.call(.get, "/v1/absences?from=2026-04-01&to=2026-04-30&limit=2&after=\(next)", token: s.alice)
            #expect(second.items.compactMap { ($0["employee"] as? [String: Any])?["username"] as? String } == ["bob"])
            #expect(second.json["nextAfter"] is NSNull)

            let one = try await client.call(.get, "/v1/absences?from=2026-04-01&to=2026-04-30&employee=\(h.fixture.alice.id)", token: s.bob)
            #expect(one.items.count == 1 && Self.absences(one.items.first).count == 1)
            // Asked for by id, a deactivated employee is still shown.
            let gone = try await client.call(.get, "/v1/absences?from=2026-04-01&to=2026-04-30&employee=\(h.fixture.secondAdmin.id)", token: s.bob)
            #expect(gone.status == .ok && gone.items.count == 1)
            expectProblem(try await client.call(.get, "/v1/absences?from=2026-04-01&to=2026-04-30&employee=999999", token: s.bob), .notFound, "not-found")
        }
    }

    @Test func hostileRangesAndParametersAreProblemsNeverErrors() async throws {
        let h = try await APIHarness.make()
        try await h.run { client in
            let alice = try await client.login("alice")
            let cases: [(String, String)] = [
                ("", "from"),
                ("from=2026-04-01", "to"),
                ("to=2026-04-01", "from"),
                ("from=2026-02-30&to=2026-03-01", "from"),
                ("from=2026-04-01&to=tomorrow", "to"),
                ("from=2026-04-02&to=2026-04-01", "to"),
                ("from=2026-01-01&to=2027-01-02", "to"),
                ("from=0001-01-01&to=9999-12-31", "to"),
                ("from=99999-01-01&to=99999-01-02", "from"),
                ("from=2026-04-01&to=2026-04-30&limit=0", "limit"),
                ("from=2026-04-01&to=2026-04-30&limit=201", "limit"),
                ("from=2026-04-01&to=2026-04-30&limit=1e3", "limit"),
                ("from=2026-04-01&to=2026-04-30&after=999999", "after"),
                ("from=2026-04-01&to=2026-04-30&after=-1", "after"),
                ("from=2026-04-01&to=2026-04-30&employee=0", "employee"),
                ("from=2026-04-01&to=2026-04-30&employee=9223372036854775808", "employee"),
                ("from=2026-04-01%00&to=2026-04-30", "from"),
            ]
            for (query, field) in cases {
                let reply = try await client.call(.get, "/v1/absences?\(query)", token: alice)
                expectProblem(reply, .unprocessableContent, "validation-failed")
                #expect(reply.json["field"] as? String == field, "\(query)")
            }
            // 366 days, both ends included, is the most a range covers.
            #expect(try await client.call(.get, "/v1/absences?from=2028-01-01&to=2028-12-31", token: alice).status == .ok)
            #expect(try await client.call(.get, "/v1/absences?from=9999-01-01&to=9999-12-31", token: alice).status == .ok)
            #expect(try await client.call(.get, "/v1/absences?from=0001-01-01&to=0001-01-01", token: alice).status == .ok)
            expectProblem(try await client.call(.get, "/v1/absences?from=2026-04-01&to=2026-04-30"), .unauthorized, "unauthenticated")
        }
    }
}
