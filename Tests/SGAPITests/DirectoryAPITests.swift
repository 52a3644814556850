import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import SGAPI
import SGCore
import SGStore
import SGTestSupport

@Suite struct DirectoryAPITests {
    @Test func searchFilterOrderPagesAndTotals() async throws {
        let h = try await APIHarness.make()
        _ = try await h.fixture.services.accounts.addEmployee(NewEmployee(
            username: "zoe", name: "Zoë", surname: "Álvarez", email: "zoe@example.com", isAdmin: false, passwordHash: nil))
        try await h.run { client in
            let alice = try await client.login("alice")
            _ = try await client.call(.patch, "/v1/me", token: alice, json: #"{"position":"Diseñadora","birthDate":"1990-05-17"}"#)

            let all = try await client.call(.get, "/v1/employees", token: try await client.login("bob"))
            #expect(all.status == .ok)
            #expect(all.items.map { $0["username"] as? String } == ["admin", "zoe", "admin2", "alice", "bob"])
            #expect(all.json["total"] as? Int == 5 && all.json["active"] as? Int == 5 && all.json["nextAfter"] is NSNull)
            // Public fields only: nothing private about a colleague.
            let entry = try #require(all.items.first { $0["username"] as? String == "alice" })
            #expect(Set(entry.keys) == ["id", "username", "name", "surname", "email", "isActive", "position", "phone", "twitter", "linkedin", "photoUrl"])
            #expect(entry["position"] as? String == "Diseñadora" && entry["phone"] is NSNull)

            func search(_ query: String) async throws -> [String?] {
                try await client.call(.get, "/v1/employees?\(query)", token: alice).items.map { $0["username"] as? String }
            }
            #expect(try await search("q=jose") == ["bob"])
            #expect(try await search("q=NU%C3%91EZ") == ["bob"])  // "NUÑEZ"
            #expect(try await search("q=alvarez") == ["zoe"])
            #expect(try await search("q=disenadora") == ["alice"])
            #expect(try await search("q=bob%40example") == ["bob"])
            #expect(try await search("q=ada%20admin") == ["admin"])

            _ = try await h.fixture.services.accounts.deactivate(username: "zoe")
            #expect(try await search("active=false") == ["zoe"])
            let active = try await client.call(.get, "/v1/employees?active=true", token: alice)
            #expect(active.json["total"] as? Int == 4 && active.json["active"] as? Int == 4)
            let everyone = try await client.call(.get, "/v1/employees", token: alice)
            #expect(everyone.json["total"] as? Int == 5 && everyone.json["active"] as? Int == 4)
            #expect(everyone.items[1]["isActive"] as? Bool == false)

            let first = try await client.call(.get, "/v1/employees?limit=2", token: alice)
            let after = try #require(first.json["nextAfter"] as? Int)
            let second = try await client.call(.get, "/v1/employees?limit=2&after=\(after)", token: alice)
            let third = try await client.call(.get, "/v1/employees?limit=2&after=\(try #require(second.json["nextAfter"] as? Int))", token: alice)
            #expect((first.items + second.items + third.items).map { $0["username"] as? String } == ["admin", "zoe", "admin2", "alice", "bob"])
            #expect(third.json["nextAfter"] is NSNull && third.json["total"] as? Int == 5)

            for (query, field) in [("active=yes", "active"), ("limit=0", "limit"), ("limit=201", "limit"), ("after=999", "after"),
                                   ("after=x", "after"), ("q=\(String(repeating: "a", count: 101))", "q")] {
                let reply = try await client.call(.get, "/v1/employees?\(query)", token: alice)
                expectProblem(reply, .unprocessableContent, "validation-failed")
                #expect(reply.json["field"] as? String == field)
            }
            expectProblem(try await client.call(.get, "/v1/employees/999", token: alice), .notFound, "not-found")
            expectProblem(try await client.call(.get, "/v1/employees/abc", token: alice), .notFound, "not-found")
        }
    }

    @Test func anAdminReadsAnyEmployeesYearsInactiveIncluded() async throws {
        let h = try await APIHarness.make()
        let f = h.fixture
        let summer = try await f.service.createRequest(
            for: f.bob.id, start: Fixture.date("2026-08-10"), end: Fixture.date("2026-08-14"), comment: "", actor: f.bob.actor)
        try await f.service.perform(.approve, on: summer.id, by: f.admin.actor)
        _ = try await f.service.createRequest(
            for: f.bob.id, start: Fixture.date("2026-12-28"), end: Fixture.date("2027-01-05"), comment: "", actor: f.bob.actor)
        try await f.service.setAllowance(employeeID: f.bob.id, year: 2028, days: 30, by: f.admin.actor)
        _ = try await f.services.accounts.deactivate(username: "bob")
        try await h.run { client in
            let admin = try await client.login("admin")
            let year = try await client.call(.get, "/v1/employees/\(f.bob.id)/holidays?year=2026", token: admin)
            #expect(year.status == .ok)
            #expect(year.json["years"] as? [Int] == [2026, 2027, 2028])
            #expect((year.json["requests"] as? [[String: Any]])?.count == 2)
            // Whole numbers only (carryOverExpiresOn is null: nothing is carried in the employee's first year).
            #expect((year.json["balance"] as? [String: Any])?.compactMapValues { $0 as? Int }
                == ["adjusted": 0, "carriedOver": 0, "expired": 0, "expiring": 0, "year": 2026, "allowance": 23, "approved": 5, "pending": 4, "remaining": 14, "requestable": 14])
            #expect((year.json["employee"] as? [String: Any])?["isActive"] as? Bool == false)
            let later = try await client.call(.get, "/v1/employees/\(f.bob.id)/holidays?year=2028", token: admin)
            #expect((later.json["requests"] as? [Any])?.isEmpty == true && (later.json["balance"] as? [String: Any])?["allowance"] as? Int == 30)
            // Without a year: this year.
            #expect(try await client.call(.get, "/v1/employees/\(f.bob.id)/holidays", token: admin).json["year"] as? Int == 2026)
            expectProblem(try await client.call(.get, "/v1/employees/\(f.bob.id)/holidays?year=1900", token: admin), .unprocessableContent, "validation-failed")
            expectProblem(try await client.call(.get, "/v1/employees/999/holidays", token: admin), .notFound, "not-found")

            let alice = try await client.login("alice")
            expectProblem(try await client.call(.get, "/v1/employees/\(f.bob.id)/holidays", token: alice), .forbidden, "forbidden")
            #expect(try await client.call(.get, "/v1/employees/\(f.alice.id)/holidays", token: alice).status == .ok)
        }
    }

    @Test func oneCallServesTheDecision() async throws {
        let h = try await APIHarness.make()
        let f = h.fixture
        let april = try await f.service.createRequest(
            for: f.alice.id, start: Fixture.date("2026-04-06"), end: Fixture.date("2026-04-08"), comment: "", actor: f.alice.actor)
        try await f.service.perform(.approve, on: april.id, by: f.admin.actor)
        let summer = try await f.service.createRequest(
            for: f.alice.id, start: Fixture.date("2026-08-10"), end: Fixture.date("2026-08-14"), comment: "", actor: f.alice.actor)
        let newYear = try await f.service.createRequest(
            for: f.alice.id, start: Fixture.date("2026-12-29"), end: Fixture.date("2027-01-05"), comment: "", actor: f.alice.actor)
        _ = try await f.service.createRequest(
            for: f.bob.id, start: Fixture.date("2026-08-10"), end: Fixture.date("2026-08-14"), comment: "", actor: f.bob.actor)
        try await h.run { client in
            let admin = try await client.login("admin")
            let detail = try await client.call(.get, "/v1/holidays/\(summer.id)", token: admin)
            #expect(detail.status == .ok)
            let others = try #require(detail.json["otherRequests"] as? [[String: Any]])
            #expect(others.map { $0["id"] as? Int } == [Int(april.id), Int(newYear.id)])
            #expect(others.first?["allowedActions"] as? [String] == ["revert", "cancel"])
            let balances = try #require(detail.json["balances"] as? [[String: Any]]).map { $0.compactMapValues { $0 as? Int } }
            #expect(balances == [["adjusted": 0, "carriedOver": 0, "expired": 0, "expiring": 0, "year": 2026, "allowance": 23, "approved": 3, "pending": 8, "remaining": 12, "requestable": 12]])

            // A request across New Year: both years' balances, and the other requests of both.
            let across = try await client.call(.get, "/v1/holidays/\(newYear.id)", token: admin)
            #expect((across.json["balances"] as? [[String: Any]])?.map { $0["year"] as? Int } == [2026, 2027])
            #expect((across.json["otherRequests"] as? [[String: Any]])?.count == 2)

            // The owner sees their own context; a colleague sees nothing.
            let alice = try await client.login("alice")
            let own = try await client.call(.get, "/v1/holidays/\(summer.id)", token: alice).json["balances"] as? [[String: Any]]
            #expect(own?.map { $0.compactMapValues { $0 as? Int } } == balances)
            expectProblem(try await client.call(.get, "/v1/holidays/\(summer.id)", token: try await client.login("bob")), .notFound, "not-found")
        }
    }
}
