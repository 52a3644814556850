import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import SGAPI
import SGCore
import SGStore
import SGTestSupport

@Suite struct HolidayAPITests {
    @Test func anEmployeeRequestsAndAnAdminDecides() async throws {
        let h = try await APIHarness.make()
        try await h.run { client in
            #expect(try await client.call(.get, "/v1/health").status == .ok)
            let alice = try await client.login("alice")
            let me = try await client.call(.get, "/v1/me", token: alice)
            #expect(me.json["username"] as? String == "alice")

            let created = try await client.create(alice, Fixture.date("2026-08-10"), Fixture.date("2026-08-14"), comment: "Sea, sun & \"fun\"")
            #expect(created.status == .created)
            let id = try #require(created.json["id"] as? Int)
            #expect(created.headers[.location] == "/v1/holidays/\(id)")
            #expect(created.json["workingDays"] as? Int == 5)
            #expect(created.json["status"] as? String == "pending")
            #expect(created.json["allowedActions"] as? [String] == ["cancel"])

            let year = try await client.call(.get, "/v1/me/holidays?year=2026", token: alice)
            let balance = try #require(year.json["balance"] as? [String: Any])
            #expect(balance["carryOverExpiresOn"] is NSNull)
            #expect(balance.compactMapValues { $0 as? Int }
                == ["adjusted": 0, "carriedOver": 0, "expired": 0, "expiring": 0, "year": 2026, "allowance": 23, "approved": 0, "pending": 5, "remaining": 18, "requestable": 18])
            #expect((year.json["requests"] as? [Any])?.count == 1)
            // Without a year: the current year (the fixture's today is in 2026).
            #expect(try await client.call(.get, "/v1/me/holidays", token: alice).json["year"] as? Int == 2026)

            let admin = try await client.login("admin")
            let pending = try await client.call(.get, "/v1/holidays?status=pending", token: admin)
            #expect(pending.status == .ok)
            #expect(pending.json["total"] as? Int == 1)
            let item = try #require((pending.json["items"] as? [[String: Any]])?.first)
            #expect((item["employee"] as? [String: Any])?["username"] as? String == "alice")
            #expect(item["allowedActions"] as? [String] == ["approve", "reject", "cancel"])

            let approved = try await client.call(.post, "/v1/holidays/\(id)/approve", token: admin, json: #"{"note":"Enjoy"}"#)
            #expect(approved.status == .ok)
            #expect(approved.json["status"] as? String == "approved")
            let again = try await client.call(.post, "/v1/holidays/\(id)/approve", token: admin)
            expectProblem(again, .conflict, "wrong-state")
            #expect(again.json["currentStatus"] as? String == "approved")
            #expect(again.json["allowedActions"] as? [String] == ["revert", "cancel"])

            #expect(try await client.call(.post, "/v1/holidays/\(id)/revert", token: admin).status == .ok)
            let rejectWithout = try await client.call(.post, "/v1/holidays/\(id)/reject", token: admin)
            expectProblem(rejectWithout, .unprocessableContent, "validation-failed")
            #expect(try await client.call(.post, "/v1/holidays/\(id)/reject", token: admin, json: #"{"reason":"Audit week"}"#).status == .ok)

            let detail = try await client.call(.get, "/v1/holidays/\(id)", token: alice)
            #expect(detail.status == .ok)
            let history = try #require(detail.json["history"] as? [[String: Any]])
            #expect(history.map { $0["to"] as? String } == ["pending", "approved", "pending", "rejected"])
            #expect(history.last?["note"] as? String == "Audit week")
            #expect(detail.json["comment"] as? String == "Sea, sun & \"fun\"")
            #expect(detail.json["workingDaysByYear"] as? [String: Int] == ["2026": 5])
            expectProblem(try await client.call(.post, "/v1/holidays/\(id)/cancel", token: alice), .conflict, "wrong-state")
        }
    }

    @Test func ownersCancelAndOthersCannotSeeTheRequest() async throws {
        let h = try await APIHarness.make()
        try await h.run { client in
            let alice = try await client.login("alice")
            let bob = try await client.login("bob")
            let id = try #require(try await client.create(alice, h.fixture.day(7), h.fixture.day(9)).json["id"] as? Int)
            expectProblem(try await client.call(.get, "/v1/holidays/\(id)", token: bob), .notFound, "not-found")
            expectProblem(try await client.call(.post, "/v1/holidays/\(id)/cancel", token: bob), .notFound, "not-found")
            expectProblem(try await client.call(.post, "/v1/holidays/\(id)/approve", token: bob), .forbidden, "forbidden")
            expectProblem(try await client.call(.post, "/v1/holidays/\(id)/approve", token: alice), .forbidden, "forbidden")
            expectProblem(try await client.call(.get, "/v1/holidays", token: alice), .forbidden, "forbidden")
            let cancelled = try await client.call(.post, "/v1/holidays/\(id)/cancel", token: alice)
            #expect(cancelled.json["status"] as? String == "cancelled")
        }
    }

    @Test func anAdminCannotDecideTheirOwnRequest() async throws {
        let h = try await APIHarness.make()
        try await h.run { client in
            let admin = try await client.login("admin")
            let id = try #require(try await client.create(admin, h.fixture.day(7), h.fixture.day(9)).json["id"] as? Int)
            expectProblem(try await client.call(.post, "/v1/holidays/\(id)/approve", token: admin), .forbidden, "forbidden")
            let other = try await client.login("admin2")
            #expect(try await client.call(.post, "/v1/holidays/\(id)/approve", token: other).status == .ok)
        }
    }

    @Test func overlapAndBalanceAreConflictsThatNameTheCause() async throws {
        let h = try await APIHarness.make()
        try await h.run { client in
            let alice = try await client.login("alice")
            let admin = try await client.login("admin")
            let first = try #require(try await client.create(alice, h.fixture.day(7), h.fixture.day(11)).json["id"] as? Int)
            let overlap = try await client.create(alice, h.fixture.day(9), h.fixture.day(9))
            expectProblem(overlap, .conflict, "overlap")
            #expect(overlap.json["conflictingRequestId"] as? Int == first)

            let set = try await client.call(.put, "/v1/employees/\(h.fixture.alice.id)/allowances/2026", token: admin, json: #"{"days":6}"#)
            #expect(set.status == .ok)
            #expect(set.json["remaining"] as? Int == 1)
            expectProblem(try await client.create(alice, h.fixture.day(14), h.fixture.day(15)), .conflict, "balance-exceeded")
            expectProblem(
                try await client.call(.put, "/v1/employees/\(h.fixture.alice.id)/allowances/2026", token: admin, json: #"{"days":4}"#),
                .conflict, "conflict")
            expectProblem(
                try await client.call(.put, "/v1/employees/\(h.fixture.alice.id)/allowances/2026", token: alice, json: #"{"days":40}"#),
                .forbidden, "forbidden")
            let balance = try await client.call(.get, "/v1/employees/\(h.fixture.alice.id)/balance?year=2026", token: alice)
            #expect(balance.json["allowance"] as? Int == 6)
            expectProblem(try await client.call(.get, "/v1/employees/\(h.fixture.alice.id)/balance", token: client.login("bob")), .forbidden, "forbidden")
            #expect(try await client.call(.get, "/v1/employees/\(h.fixture.alice.id)/balance", token: admin).status == .ok)
            expectProblem(try await client.call(.get, "/v1/employees/9999/balance", token: admin), .notFound, "not-found")
        }
    }

    @Test func namesWithAccentsCommasAndQuotesSurvive() async throws {
        let h = try await APIHarness.make()
        try await h.run { client in
            let bob = try await client.login("bob")
            let me = try await client.call(.get, "/v1/me", token: bob)
            #expect(me.json["name"] as? String == "José")
            #expect(me.json["surname"] as? String == "Núñez, \"Pepe\"")
            let created = try await client.create(bob, h.fixture.day(7), h.fixture.day(7), comment: "Año nuevo, «fiesta» — ñ")
            #expect(created.json["comment"] as? String == "Año nuevo, «fiesta» — ñ")
        }
    }

    @Test func listsFilterAndPage() async throws {
        let h = try await APIHarness.make()
        try await h.run { client in
            let alice = try await client.login("alice")
            let admin = try await client.login("admin")
            for week in 1...5 { _ = try await client.create(alice, h.fixture.day(7 * week), h.fixture.day(7 * week)) }
            let first = try await client.call(.get, "/v1/holidays?status=pending&year=2026&employee=\(h.fixture.alice.id)&limit=2", token: admin)
            #expect(first.json["total"] as? Int == 5)
            let after = try #require(first.json["nextAfter"] as? Int)
            let second = try await client.call(.get, "/v1/holidays?status=pending&limit=2&after=\(after)", token: admin)
            let ids = ((first.json["items"] as? [[String: Any]]) ?? []) + ((second.json["items"] as? [[String: Any]]) ?? [])
            #expect(ids.compactMap { $0["id"] as? Int } == [1, 2, 3, 4])
            let last = try await client.call(.get, "/v1/holidays?limit=2&after=4", token: admin)
            #expect(last.json["nextAfter"] is NSNull)
            for query in ["status=done", "year=abc", "year=20260", "limit=0", "limit=201", "employee=-1", "after=x"] {
                expectProblem(try await client.call(.get, "/v1/holidays?\(query)", token: admin), .unprocessableContent, "validation-failed")
            }
        }
    }
}

@Suite struct BadInputTests {
    @Test func authenticationErrors() async throws {
        let h = try await APIHarness.make()
        try await h.run { client in
            let none = try await client.call(.get, "/v1/me")
            expectProblem(none, .unauthorized, "unauthenticated")
            #expect(none.headers[.wwwAuthenticate] == "Bearer")
            expectProblem(try await client.call(.get, "/v1/me", token: "sg_forged"), .unauthorized, "unauthenticated")
            expectProblem(try await client.call(.get, "/v1/me", headers: [.authorization: "Basic YWxpY2U6eA=="]), .unauthorized, "unauthenticated")
            expectProblem(
                try await client.call(.post, "/v1/auth/login", json: #"{"username":"alice","password":"nope-nope"}"#),
                .unauthorized, "unauthenticated")
            expectProblem(
                try await client.call(.post, "/v1/auth/login", json: #"{"username":"ghost","password":"nope-nope"}"#),
                .unauthorized, "unauthenticated")
            let token = try await client.login("alice")
            #expect(try await client.call(.post, "/v1/auth/logout", token: token).status == .noContent)
            expectProblem(try await client.call(.get, "/v1/me", token: token), .unauthorized, "unauthenticated")
        }
    }

    @Test func expiredTokensAreRefused() async throws {
        let h = try await APIHarness.make()
        try await h.run { client in
            let token = try await client.login("alice")
            h.fixture.clock.set(h.fixture.clock.now().addingTimeInterval(13 * 3600))
            expectProblem(try await client.call(.get, "/v1/me", token: token), .unauthorized, "unauthenticated")
        }
    }

    @Test func deactivatedEmployeesLoseAccess() async throws {
        let h = try await APIHarness.make()
        try await h.run { client in
            let token = try await client.login("bob")
            _ = try await h.fixture.services.accounts.deactivate(username: "bob")
            expectProblem(try await client.call(.get, "/v1/me", token: token), .unauthorized, "unauthenticated")
            let again = try await client.call(.post, "/v1/auth/login", json: #"{"username":"bob","password":"\#(Fixture.password)"}"#)
            expectProblem(again, .forbidden, "forbidden")
        }
    }

    @Test func malformedBodiesAreRefusedWithoutWriting() async throws {
        let h = try await APIHarness.make()
        try await h.run { client in
            let alice = try await client.login("alice")
            let cases: [(String, HTTPResponse.Status, String)] = [
                ("{not json", .badRequest, "malformed-request"),
                ("[1,2]", .badRequest, "malformed-request"),
                ("\"text\"", .badRequest, "malformed-request"),
                ("", .badRequest, "malformed-request"),
                (String(repeating: "[", count: 5000), .badRequest, "malformed-request"),
                (#"{"startDate":"2026-02-30","endDate":"2026-03-01"}"#, .unprocessableContent, "validation-failed"),
                (#"{"startDate":"2026-08-14","endDate":"2026-08-10"}"#, .unprocessableContent, "validation-failed"),
                (#"{"startDate":"2026-08-10"}"#, .unprocessableContent, "validation-failed"),
                (#"{"startDate":20260810,"endDate":"2026-08-14"}"#, .unprocessableContent, "validation-failed"),
                (#"{"startDate":null,"endDate":"2026-08-14"}"#, .unprocessableContent, "validation-failed"),
                (#"{"startDate":"2025-08-10","endDate":"2025-08-14"}"#, .unprocessableContent, "validation-failed"),
                (#"{"startDate":"2026-08-10","endDate":"2026-08-14","comment":"\#(String(repeating: "x", count: 1001))"}"#, .unprocessableContent, "validation-failed"),
                (#"{"startDate":"2026-08-10","endDate":"2026-08-14","comment":"\#(String(repeating: "x", count: 140_000))"}"#, .contentTooLarge, "payload-too-large"),
            ]
            for (body, status, slug) in cases {
                let reply = try await client.call(.post, "/v1/me/holidays", token: alice, json: body)
                expectProblem(reply, status, slug)
            }
            let invalidDate = try await client.call(.post, "/v1/me/holidays", token: alice, json: cases[5].0)
            #expect(invalidDate.json["field"] as? String == "startDate")
            let admin = try await client.login("admin")
            for body in [#"{"days":-1}"#, #"{"days":367}"#, #"{"days":1e300}"#, #"{"days":"ten"}"#, #"{"days":99999999999999999999999}"#] {
                let reply = try await client.call(.put, "/v1/employees/\(h.fixture.alice.id)/allowances/2026", token: admin, json: body)
                expectProblem(reply, .unprocessableContent, "validation-failed")
            }
        }
        #expect(try await h.fixture.count("holiday_requests") == 0)
        #expect(try await h.fixture.count("allowances") == 0)
    }

    @Test func pathIdsThatAreNotIdsAreNotFound() async throws {
        let h = try await APIHarness.make()
        try await h.run { client in
            let admin = try await client.login("admin")
            for id in ["abc", "-1", "0", "1.5", "99999999999999999999999", "%00", "1e3"] {
                expectProblem(try await client.call(.get, "/v1/holidays/\(id)", token: admin), .notFound, "not-found")
                expectProblem(try await client.call(.post, "/v1/holidays/\(id)/approve", token: admin), .notFound, "not-found")
            }
            expectProblem(try await client.call(.get, "/v1/holidays/12345", token: admin), .notFound, "not-found")
            expectProblem(try await client.call(.get, "/v1/no-such-route", token: admin), .notFound, "not-found")
            expectProblem(try await client.call(.get, "/nothing"), .notFound, "not-found")
        }
    }
}

/// One test over a real socket, as a client would connect.
@Suite struct LiveServerTests {
    @Test func servesOverTCP() async throws {
        let h = try await APIHarness.make()
        let app = buildApplication(configuration: ServerConfiguration(host: "127.0.0.1", port: 0), services: h.services)
        try await app.test(.live) { client in
            let health = try await client.execute(uri: "/v1/health", method: .get)
            #expect(health.status == .ok)
            let login = try await client.execute(
                uri: "/v1/auth/login", method: .post, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: #"{"username":"alice","password":"\#(Fixture.password)"}"#))
            #expect(login.status == .ok)
            let missing = try await client.execute(uri: "/v1/me", method: .get)
            #expect(missing.status == .unauthorized)
            #expect(missing.headers[.contentType] == "application/problem+json")
        }
    }
}
