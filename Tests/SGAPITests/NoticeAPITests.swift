import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import SGAPI
import SGCore
import SGStore
import SGTestSupport

@Suite struct NoticeAPITests {
    @Test func adminsPostAndEveryoneReadsTheBoard() async throws {
        let h = try await APIHarness.make()
        try await h.run { client in
            var admin = try await client.login("admin")
            var alice = try await client.login("alice")
            let posted = try await client.call(.post, "/v1/notices", token: admin, json: #"{"title":"Office closed Friday","body":"Line one.\nLine two."}"#)
            #expect(posted.status == .created)
            let id = try #require(posted.json["id"] as? Int)
            #expect(posted.headers[.location] == "/v1/notices/\(id)")
            #expect(posted.json["kind"] as? String == "company" && posted.json["pinned"] as? Bool == false)
            #expect(posted.json["expiresOn"] is NSNull && posted.json["read"] is NSNull && posted.json["request"] is NSNull)
            #expect(posted.json["author"] as? String == "admin")
            let pinned = try await client.call(.post, "/v1/notices", token: admin, json: #"{"title":"Read me first","body":"Policy","pinned":true,"expiresOn":"2026-03-05"}"#)
            let pinnedID = try #require(pinned.json["id"] as? Int)
            _ = try await client.call(.post, "/v1/notices", token: admin, json: #"{"title":"Newest","body":"x"}"#)

            let board = try await client.call(.get, "/v1/notices", token: alice)
            #expect(board.items.map { $0["title"] as? String } == ["Read me first", "Newest", "Office closed Friday"])
            #expect(board.json["total"] as? Int == 3 && board.json["unread"] as? Int == 0 && board.json["nextAfter"] is NSNull)
            #expect(try await client.call(.get, "/v1/notices/\(id)", token: alice).json["body"] as? String == "Line one.\nLine two.")

            let page = try await client.call(.get, "/v1/notices?limit=2", token: alice)
            let cursor = try #require(page.json["nextAfter"] as? String)
            let rest = try await client.call(.get, "/v1/notices?limit=2&after=\(cursor)", token: alice)
            #expect(rest.items.map { $0["id"] as? Int } == [id] && rest.json["nextAfter"] is NSNull)

            // Edits: absent keys kept, null removes the expiry.
            let edited = try await client.call(.patch, "/v1/notices/\(pinnedID)", token: admin, json: #"{"body":"Policy v2","expiresOn":null}"#)
            #expect(edited.status == .ok && edited.json["body"] as? String == "Policy v2" && edited.json["expiresOn"] is NSNull)
            #expect(edited.json["title"] as? String == "Read me first" && edited.json["pinned"] as? Bool == true)
            _ = try await client.call(.patch, "/v1/notices/\(pinnedID)", token: admin, json: #"{"expiresOn":"2026-03-05"}"#)

            // After its last day a notice leaves the board; admins can still list and open it.
            h.fixture.clock.set(FixedClock(today: Fixture.date("2026-03-06")).now())
            alice = try await client.login("alice")  // the old tokens expired
            admin = try await client.login("admin")
            #expect(try await client.call(.get, "/v1/notices", token: alice).json["total"] as? Int == 2)
            expectProblem(try await client.call(.get, "/v1/notices/\(pinnedID)", token: alice), .notFound, "not-found")
            #expect(try await client.call(.get, "/v1/notices?includeExpired=true", token: admin).json["total"] as? Int == 3)
            #expect(try await client.call(.get, "/v1/notices/\(pinnedID)", token: admin).status == .ok)

            #expect(try await client.call(.delete, "/v1/notices/\(id)", token: admin).status == .noContent)
            expectProblem(try await client.call(.delete, "/v1/notices/\(id)", token: admin), .notFound, "not-found")
            expectProblem(try await client.call(.patch, "/v1/notices/\(id)", token: admin, json: #"{"title":"x"}"#), .notFound, "not-found")
        }
    }

    @Test func badNoticesAreRefusedPerField() async throws {
        let h = try await APIHarness.make()
        try await h.run { client in
            let admin = try await client.login("admin")
            for (body, field) in [
                (#"{"body":"x"}"#, "title"),
                (#"{"title":"","body":"x"}"#, "title"),
                (#"{"title":"\#(String(repeating: "t", count: 201))","body":"x"}"#, "title"),
                (#"{"title":"x","body":" "}"#, "body"),
                (#"{"title":"x","body":"y","expiresOn":"2026-03-01"}"#, "expiresOn"),
                (#"{"title":"x","body":"y","expiresOn":"next week"}"#, "expiresOn"),
                (#"{"title":"x","body":"y","pinned":"yes"}"#, "pinned"),
                (#"{"title":"x","body":"y","priority":1}"#, "priority"),
            ] {
                let reply = try await client.call(.post, "/v1/notices", token: admin, json: body)
                expectProblem(reply, .unprocessableContent, "validation-failed")
                #expect(reply.json["field"] as? String == field, "\(body)")
            }
            let id = try #require(try await client.call(.post, "/v1/notices", token: admin, json: #"{"title":"x","body":"y"}"#).json["id"] as? Int)
            for (body, field) in [(#"{"title":null}"#, "title"), (#"{"author":"me"}"#, "author"), (#"{"expiresOn":"2020-01-01"}"#, "expiresOn")] {
                let reply = try await client.call(.patch, "/v1/notices/\(id)", token: admin, json: body)
                expectProblem(reply, .unprocessableContent, "validation-failed")
                #expect(reply.json["field"] as? String == field, "\(body)")
            }
            for query in ["after=7", "after=1.x", "limit=500", "includeExpired=maybe"] {
                expectProblem(try await client.call(.get, "/v1/notices?\(query)", token: admin), .unprocessableContent, "validation-failed")
            }
            expectProblem(try await client.call(.get, "/v1/notices/abc", token: admin), .notFound, "not-found")
        }
        #expect(try await h.fixture.count("notices") == 1)
    }

    @Test func personalNoticesReportEachMoveToTheirEmployeeOnly() async throws {
        let h = try await APIHarness.make()
        try await h.run { client in
            let alice = try await client.login("alice")
            let admin = try await client.login("admin")
            let bob = try await client.login("bob")
            let id = try #require(try await client.create(alice, Fixture.date("2026-08-10"), Fixture.date("2026-08-14")).json["id"] as? Int)
            _ = try await client.call(.post, "/v1/holidays/\(id)/reject", token: admin, json: #"{"reason":"Audit week"}"#)
            _ = try await client.call(.post, "/v1/notices", token: admin, json: #"{"title":"Company news","body":"x"}"#)

            let board = try await client.call(.get, "/v1/notices", token: alice)
            #expect(board.json["total"] as? Int == 2 && board.json["unread"] as? Int == 1)
            let personal = try #require(board.items.first { $0["kind"] as? String == "personal" })
            #expect(personal["title"] as? String == "Holiday rejected: 2026-08-10 to 2026-08-14")
            #expect(personal["read"] as? Bool == false && personal["pinned"] as? Bool == false)
            let request = try #require(personal["request"] as? [String: Any])
            #expect(request["id"] as? Int == id && request["from"] as? String == "pending" && request["to"] as? String == "rejected")
            #expect(request["note"] as? String == "Audit week" && request["startDate"] as? String == "2026-08-10")
            #expect(personal["author"] as? String == "admin")
            #expect((personal["body"] as? String)?.contains("Reason: Audit week") == true)
            let noticeID = try #require(personal["id"] as? Int)

            // Only alice sees it, and only she can set its flag.
            #expect(try await client.call(.get, "/v1/notices", token: bob).json["total"] as? Int == 1)
            #expect(try await client.call(.get, "/v1/notices", token: admin).json["total"] as? Int == 1)
            expectProblem(try await client.call(.get, "/v1/notices/\(noticeID)", token: bob), .notFound, "not-found")
            expectProblem(try await client.call(.get, "/v1/notices/\(noticeID)", token: admin), .notFound, "not-found")
            expectProblem(try await client.call(.post, "/v1/notices/\(noticeID)/read", token: bob), .notFound, "not-found")
            expectProblem(try await client.call(.delete, "/v1/notices/\(noticeID)", token: admin), .notFound, "not-found")
            expectProblem(try await client.call(.patch, "/v1/notices/\(noticeID)", token: admin, json: #"{"title":"x"}"#), .notFound, "not-found")

            let read = try await client.call(.post, "/v1/notices/\(noticeID)/read", token: alice)
            #expect(read.status == .ok && read.json["read"] as? Bool == true)
            #expect(try await client.call(.get, "/v1/notices", token: alice).json["unread"] as? Int == 0)
            #expect(try await client.call(.delete, "/v1/notices/\(noticeID)/read", token: alice).json["read"] as? Bool == false)
            let company = try #require(board.items.first { $0["kind"] as? String == "company" }?["id"] as? Int)
            expectProblem(try await client.call(.post, "/v1/notices/\(company)/read", token: alice), .conflict, "conflict")
        }
    }
}

@Suite struct CompanyAPITests {
    static let full = #"""
        {"name":"Acme S.L.","address":"Calle Mayor 1\n28013 Madrid","phone":"+34 910 000 000","email":"hello@acme.example",
         "website":"https://acme.example","workingWeek":[1,2,3,4,5],"defaultAllowance":25,"timeZone":"Europe/Madrid"}
        """#

    @Test func everyoneReadsTheCompanyAndAdminsReplaceIt() async throws {
        let h = try await APIHarness.make()
        try await h.run { client in
            let alice = try await client.login("alice")
            let company = try await client.call(.get, "/v1/company", token: alice)
            #expect(company.status == .ok)
            #expect(company.json["name"] as? String == "SGEmployee" && company.json["workingWeek"] as? [Int] == [1, 2, 3, 4, 5])
            #expect(company.json["defaultAllowance"] as? Int == 23 && company.json["timeZone"] as? String == "UTC")
            for key in ["address", "phone", "email", "website"] { #expect(company.json[key] is NSNull, "\(key)") }

            let admin = try await client.login("admin")
            let put = try await client.call(.put, "/v1/company", token: admin, json: Self.full)
            #expect(put.status == .ok && put.json["address"] as? String == "Calle Mayor 1\n28013 Madrid")
            #expect(put.json["timeZone"] as? String == "Europe/Madrid" && put.json["defaultAllowance"] as? Int == 25)
            #expect(try await client.call(.get, "/v1/employees/\(h.fixture.alice.id)/balance?year=2026", token: admin).json["allowance"] as? Int == 25)

            // PUT replaces: optional details left out are cleared; the time zone is kept when left out.
            let minimal = try await client.call(.put, "/v1/company", token: admin, json: #"{"name":"Acme","workingWeek":[1,2,3,4],"defaultAllowance":25}"#)
            #expect(minimal.json["website"] is NSNull && minimal.json["timeZone"] as? String == "Europe/Madrid")
            #expect(minimal.json["workingWeek"] as? [Int] == [1, 2, 3, 4])
        }
    }

    @Test func aRefusedChangeWritesNothing() async throws {
        let h = try await APIHarness.make()
        try await h.run { client in
            let admin = try await client.login("admin")
            let alice = try await client.login("alice")
            _ = try await client.create(alice, Fixture.date("2026-08-10"), Fixture.date("2026-08-14"))
            func replacing(_ key: String, with value: String) -> String {
                var object = try! JSONSerialization.jsonObject(with: Data(Self.full.utf8)) as! [String: Any]
                object[key] = try! JSONSerialization.jsonObject(with: Data(value.utf8), options: .fragmentsAllowed)
                return String(decoding: try! JSONSerialization.data(withJSONObject: object), as: UTF8.self)
            }
            for (key, value) in [
                ("name", #""""#), ("name", "null"), ("email", #""nobody""#), ("website", #""acme.example""#), ("phone", #""ring ring""#),
                ("workingWeek", "[]"), ("workingWeek", "[0,1]"), ("workingWeek", "[1,1]"), ("workingWeek", #""12345""#),
                ("defaultAllowance", "-1"), ("defaultAllowance", "400"), ("defaultAllowance", "2.5"), ("timeZone", #""Mars/Base""#),
                ("founded", "1999"),
            ] {
                let reply = try await client.call(.put, "/v1/company", token: admin, json: replacing(key, with: value))
                expectProblem(reply, .unprocessableContent, "validation-failed")
                #expect(reply.json["field"] as? String == key, "\(key): \(value)")
            }
            // Alice holds 5 days: a default of 4 breaks the allowance rule, and nothing else changes either.
            let below = try await client.call(.put, "/v1/company", token: admin, json: replacing("defaultAllowance", with: "4"))
            expectProblem(below, .conflict, "conflict")
            let company = try await client.call(.get, "/v1/company", token: admin)
            #expect(company.json["name"] as? String == "SGEmployee" && company.json["defaultAllowance"] as? Int == 23)
            expectProblem(try await client.call(.put, "/v1/company", token: alice, json: Self.full), .forbidden, "forbidden")
        }
    }
}
