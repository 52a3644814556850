import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import SGAPI
import SGCore
import SGStore
import SGTestSupport

/// What a client can send that the fuzzer does not reach, and the regressions of what it found: never a 5xx,
/// always a problem document, never a partial write.
@Suite struct HostileInputTests {
    /// Found by schemathesis (an undeclared method on a served path was a 404): 405 with `Allow`.
    @Test func anUnservedMethodOnAServedPathIs405WithAllow() async throws {
        let h = try await APIHarness.make()
        let routes = buildRouter(services: h.services).routes
        let methodsByPath = Dictionary(grouping: routes, by: \.path.description).mapValues { Set($0.map(\.method.rawValue)) }
        try await h.run { client in
            let admin = try await client.login("admin")
            for (path, served) in methodsByPath {
                let concrete = path.replacingOccurrences(of: "{id}", with: "1").replacingOccurrences(of: "{year}", with: "2026")
                for method in [HTTPRequest.Method.get, .put, .post, .delete, .patch, .options, .trace] where !served.contains(method.rawValue) {
                    for token in [nil, admin] {
                        let reply = try await client.call(method, concrete, token: token)
                        expectProblem(reply, .methodNotAllowed, "method-not-allowed")
                        #expect(reply.headers[.allow] == served.sorted().joined(separator: ", "), "\(method) \(concrete)")
                    }
                }
            }
            // Ids that are not ids still match the route's shape; paths that match nothing stay 404.
            expectProblem(try await client.call(.delete, "/v1/holidays/abc", token: admin), .methodNotAllowed, "method-not-allowed")
            expectProblem(try await client.call(.delete, "/v1/holidays", token: admin), .methodNotAllowed, "method-not-allowed")
            expectProblem(try await client.call(.delete, "/v1/nothing/here", token: admin), .notFound, "not-found")
            expectProblem(try await client.call(.get, "/v1/holidays/1/2/3", token: admin), .notFound, "not-found")
        }
    }

    /// The contract gives reject a `reason` and the other moves a `note`, and a body takes no other field: a
    /// `note` sent to reject, or a `reason` to approve, is refused by name and moves nothing, rather than ignored.
    @Test func actionBodiesTakeOnlyTheirOwnField() async throws {
        let h = try await APIHarness.make()
        try await h.run { client in
            let alice = try await client.login("alice")
            let admin = try await client.login("admin")
            let first = try #require(try await client.create(alice, h.fixture.weekday(7), h.fixture.weekday(7)).json["id"] as? Int)
            let second = try #require(try await client.create(alice, h.fixture.weekday(14), h.fixture.weekday(14)).json["id"] as? Int)
            let mixed = try await client.call(.post, "/v1/holidays/\(first)/reject", token: admin, json: #"{"reason":"Audit week","note":5}"#)
            expectProblem(mixed, .unprocessableContent, "validation-failed")
            #expect(mixed.json["field"] as? String == "note")
            let reasonToApprove = try await client.call(.post, "/v1/holidays/\(second)/approve", token: admin, json: #"{"note":"Enjoy","reason":["x"]}"#)
            expectProblem(reasonToApprove, .unprocessableContent, "validation-failed")
            #expect(reasonToApprove.json["field"] as? String == "reason")
            for id in [first, second] {
                #expect(try await client.call(.get, "/v1/holidays/\(id)", token: alice).json["status"] as? String == "pending")
            }
            #expect(try await client.call(.post, "/v1/holidays/\(first)/reject", token: admin, json: #"{"reason":"Audit week"}"#).status == .ok)
            #expect(try await client.call(.post, "/v1/holidays/\(second)/approve", token: admin, json: #"{"note":"Enjoy"}"#).status == .ok)
            // A note is not a reason: a rejection takes no note, and needs its reason.
            let third = try #require(try await client.create(alice, h.fixture.weekday(21), h.fixture.weekday(21)).json["id"] as? Int)
            let noteOnly = try await client.call(.post, "/v1/holidays/\(third)/reject", token: admin, json: #"{"note":"Audit week"}"#)
            expectProblem(noteOnly, .unprocessableContent, "validation-failed")
            #expect(noteOnly.json["field"] as? String == "note")
            let empty = try await client.call(.post, "/v1/holidays/\(third)/reject", token: admin, json: "{}")
            expectProblem(empty, .unprocessableContent, "validation-failed")
            #expect(empty.json["field"] as? String == "reason")
            expectProblem(try await client.call(.post, "/v1/holidays/\(third)/reject", token: admin, json: #"{"reason":" \n "}"#), .unprocessableContent, "validation-failed")
            expectProblem(try await client.call(.post, "/v1/holidays/\(third)/reject", token: admin, json: #"{"reason":null}"#), .unprocessableContent, "validation-failed")
            let detail = try await client.call(.get, "/v1/holidays/\(first)", token: alice)
            #expect((detail.json["history"] as? [[String: Any]])?.last?["note"] as? String == "Audit week")
            #expect(try await client.call(.get, "/v1/holidays/\(third)", token: alice).json["status"] as? String == "pending")
        }
    }

    /// An optional body may be absent however it is framed, including an empty chunked body (was a 400).
    @Test func anEmptyOptionalBodyIsNoBody() async throws {
        let h = try await APIHarness.make()
        try await h.run { client in
            let alice = try await client.login("alice")
            let admin = try await client.login("admin")
            var chunked = HTTPFields()
            chunked[.transferEncoding] = "chunked"
            var empty = HTTPFields()
            empty[.contentLength] = "0"
            for (index, headers) in [chunked, empty, HTTPFields()].enumerated() {
                let id = try #require(try await client.create(alice, h.fixture.weekday(7 * (index + 1)), h.fixture.weekday(7 * (index + 1))).json["id"] as? Int)
                let reply = try await client.call(.post, "/v1/holidays/\(id)/approve", token: admin, json: index == 0 ? "  \n" : nil, headers: headers)
                #expect(reply.status == .ok, "\(headers)")
            }
        }
    }

    /// `maxLength: 1000` counts Unicode code points of the text as sent; the server counted grapheme clusters
    /// after trimming, so it kept texts the contract refuses (and returned a `comment` longer than the contract's).
    @Test func textLimitsCountCodePointsAsSent() async throws {
        let h = try await APIHarness.make()
        try await h.run { client in
            let alice = try await client.login("alice")
            let accented = String(repeating: "e\u{301}", count: 501)  // 501 characters, 1,002 code points
            let padded = String(repeating: "x", count: 1000) + " "
            for comment in [accented, padded] {
                let reply = try await client.create(alice, h.fixture.weekday(7), h.fixture.weekday(7), comment: comment)
                expectProblem(reply, .unprocessableContent, "validation-failed")
                #expect(reply.json["field"] as? String == "comment")
            }
            let longest = String(repeating: "é", count: 1000)
            let created = try await client.create(alice, h.fixture.weekday(7), h.fixture.weekday(7), comment: longest)
            #expect(created.status == .created)
            #expect(created.json["comment"] as? String == longest)
            let id = try #require(created.json["id"] as? Int)
            let note = try JSONSerialization.data(withJSONObject: ["note": accented])
            let cancel = try await client.call(.post, "/v1/holidays/\(id)/cancel", token: alice, json: String(decoding: note, as: UTF8.self))
            expectProblem(cancel, .unprocessableContent, "validation-failed")
            #expect(cancel.json["field"] as? String == "note")
        }
        #expect(try await h.fixture.count("holiday_requests") == 1)
        #expect(try await h.fixture.count("holiday_events") == 1)
    }

    /// SQLite's C API stops at NUL: "a\u{0}b" was acknowledged and stored as "a". Texts with NUL are refused;
    /// every other character is kept as sent.
    @Test func textsKeepControlCharactersAndRefuseNul() async throws {
        let h = try await APIHarness.make()
        try await h.run { client in
            let alice = try await client.login("alice")
            let comment = "b\u{1}c\u{7f}\u{202e}d 🏖️ \u{FFFF}"
            let created = try await client.create(alice, h.fixture.weekday(7), h.fixture.weekday(7), comment: comment)
            #expect(created.status == .created)
            let id = try #require(created.json["id"] as? Int)
            #expect(try await client.call(.get, "/v1/holidays/\(id)", token: alice).json["comment"] as? String == comment)

            let nul = try await client.create(alice, h.fixture.weekday(14), h.fixture.weekday(14), comment: "a\u{0}b")
            expectProblem(nul, .unprocessableContent, "validation-failed")
            #expect(nul.json["field"] as? String == "comment")
            let cancel = try await client.call(.post, "/v1/holidays/\(id)/cancel", token: alice, json: #"{"note":"x\u0000y"}"#)
            expectProblem(cancel, .unprocessableContent, "validation-failed")
            #expect(cancel.json["field"] as? String == "note")
        }
        #expect(try await h.fixture.count("holiday_requests") == 1)
        #expect(try await h.fixture.count("holiday_events") == 1)
    }

    /// bcrypt and the directory libraries are C: "bob\u{0}x" logged in as bob, and so did bob's password followed
    /// by NUL and anything, or by anything past bcrypt's 72 bytes.
    @Test func loginsWithNulOrPastBcryptsLimitAreWrong() async throws {
        let h = try await APIHarness.make()
        let long = String(repeating: "p", count: 72)
        let hash = try await Passwords.hash(long, cost: 4)
        _ = try await h.fixture.services.accounts.addEmployee(NewEmployee(
            username: "longpass", name: "Long", surname: "Pass", email: "long@example.com", isAdmin: false, passwordHash: hash))
        try await h.run { client in
            let bodies = [
                #"{"username":"bob\u0000x","password":"\#(Fixture.password)"}"#,
                #"{"username":"bob","password":"\#(Fixture.password)\u0000junk"}"#,
                #"{"username":"longpass","password":"\#(long)junk"}"#,
            ]
            for body in bodies {
                expectProblem(try await client.call(.post, "/v1/auth/login", json: body), .unauthorized, "unauthenticated")
            }
            #expect(try await client.call(.post, "/v1/auth/login", json: #"{"username":"longpass","password":"\#(long)"}"#).status == .ok)
        }
        await #expect(throws: SGError.invalid(field: "password", message: "must not contain the NUL character (U+0000)")) {
            try await Passwords.hash("long-enough\u{0}x", cost: 4)
        }
    }

    /// Bodies no client should send, to every operation that reads one: a 4xx problem, nothing written.
    @Test func hostileBodiesAreRefusedWithoutWriting() async throws {
        let h = try await APIHarness.make()
        try await h.run { client in
            let alice = try await client.login("alice")
            let admin = try await client.login("admin")
            let id = try #require(try await client.create(alice, h.fixture.weekday(7), h.fixture.weekday(7)).json["id"] as? Int)
            let notice = try #require(
                try await client.call(.post, "/v1/notices", token: admin, json: #"{"title":"Kept","body":"As posted"}"#).json["id"] as? Int)
            let before = try await Self.snapshot(client, alice: alice, admin: admin, notice: notice)
            let targets: [(HTTPRequest.Method, String, String?)] = [
                (.post, "/v1/auth/login", nil),
                (.post, "/v1/me/holidays", alice),
                (.post, "/v1/holidays/\(id)/approve", admin),
                (.post, "/v1/holidays/\(id)/reject", admin),
                (.post, "/v1/holidays/\(id)/revert", admin),
                (.post, "/v1/holidays/\(id)/cancel", alice),
                (.put, "/v1/employees/\(h.fixture.alice.id)/allowances/2026", admin),
                (.patch, "/v1/me", alice),
                (.put, "/v1/me/settings", alice),
                (.post, "/v1/me/devices", alice),
                (.post, "/v1/notices", admin),
                (.patch, "/v1/notices/\(notice)", admin),
                (.put, "/v1/company", admin),
            ]
            let deep = String(repeating: "[", count: 30_000) + String(repeating: "]", count: 30_000)
            // Numbers beyond Double and lone surrogates are refused (422 naming a field, or 400 when the decoder
            // cannot tell which), and so is any field the operation does not define.
            let bodies: [(String, Set<Int>)] = [
                ("null", [400]), ("true", [400]), ("12", [400]), ("\"x\"", [400]), ("[{}]", [400]),
                ("{", [400]), ("{\"a\":}", [400]), ("{}}", [400]), ("\u{FEFF}{}", [400]),
                (#"{"x":\#(deep)}"#, [400]),
                ("{\"x\":\"\u{FFFF}\(String(repeating: "y", count: 132_000))\"}", [413]),
                (#"{"startDate":1e400,"endDate":-1e400,"days":1e400,"reason":1e400,"note":1e400,"username":1e400,"password":1}"#, [400, 422]),
                (#"{"startDate":"\ud800","endDate":"\ud800","reason":"\ud800","note":"\ud800","username":"\ud800","password":"\ud800","days":"\ud800"}"#, [400, 422]),
                (#"{"startDate":{},"endDate":[],"days":{},"reason":{},"note":[],"username":[],"password":{}}"#, [422]),
                (#"{"startDate":"9999-12-31","endDate":"0001-01-01","days":9223372036854775808,"reason":"","note":"\#(String(repeating: "n", count: 1001))","username":"","password":""}"#, [422]),
            ]
            for (method, path, token) in targets {
                for (body, expected) in bodies {
                    let reply = try await client.call(method, path, token: token, json: body)
                    #expect(expected.contains(Int(reply.status.code)), "\(method) \(path) \(body.prefix(80)): \(String(decoding: reply.body.prefix(300), as: UTF8.self))")
                    #expect(reply.isProblem)
                }
                // Invalid UTF-8, even in a field the operation ignores (was accepted: the approval went through).
                let reply = try await client.client.execute(
                    uri: path, method: method,
                    headers: token.map { [.authorization: "Bearer \($0)", .contentType: "application/json"] } ?? [.contentType: "application/json"],
                    body: ByteBuffer(bytes: Array(#"{"ignored":""#.utf8) + [0xFF, 0xFE] + Array(#"","reason":"x","days":1,"username":"a","password":"b"}"#.utf8)))
                #expect(reply.status == .badRequest, "\(method) \(path) with invalid UTF-8")
                #expect(reply.headers[.contentType] == "application/problem+json")
            }
            let after = try await Self.snapshot(client, alice: alice, admin: admin, notice: notice)
            #expect(after == before)
        }
        #expect(try await h.fixture.count("holiday_requests") == 1)
        #expect(try await h.fixture.count("holiday_events") == 1)
        #expect(try await h.fixture.count("allowances") == 0)
        #expect(try await h.fixture.count("devices") == 0)
        #expect(try await h.fixture.count("notices") == 1)
    }

    /// What the hostile bodies could have changed: the profile, settings, company and notice as JSON text.
    static func snapshot(_ client: APIHarness.Client, alice: String, admin: String, notice: Int) async throws -> [String] {
        var texts: [String] = []
        for (uri, token) in [("/v1/me", alice), ("/v1/me/settings", alice), ("/v1/company", admin), ("/v1/notices/\(notice)", admin)] {
            texts.append(String(decoding: try await client.call(.get, uri, token: token).body, as: UTF8.self))
        }
        return texts
    }

    /// The profile, notice and company texts count code points as sent, like the contract's maxLength; an empty
    /// birth date clears it, as the README says of optional fields (it was a 422); a padded one is not a date.
    @Test func peopleTextsFollowTheContract() async throws {
        let h = try await APIHarness.make()
        try await h.run { client in
            let alice = try await client.login("alice")
            let admin = try await client.login("admin")
            let accented101 = String(repeating: "e\u{301}", count: 51)  // 51 characters, 102 code points
            let cases: [(HTTPRequest.Method, String, String, [String: Any], String)] = [
                (.patch, "/v1/me", alice, ["position": accented101], "position"),
                (.patch, "/v1/me", alice, ["name": String(repeating: "x", count: 100) + " "], "name"),
                (.patch, "/v1/me", alice, ["name": "Ali\u{0}ce"], "name"),
                (.patch, "/v1/me", alice, ["phone": " +34 600 000 000 000 00 00 00 00 "], "phone"),
                (.patch, "/v1/me", alice, ["birthDate": " 2000-01-01"], "birthDate"),
                (.post, "/v1/notices", admin, ["title": String(repeating: "e\u{301}", count: 101), "body": "x"], "title"),
                (.post, "/v1/notices", admin, ["title": "x", "body": String(repeating: "a\u{301}", count: 5001)], "body"),
                (.put, "/v1/company", admin,
                 ["name": "Co", "workingWeek": [1], "defaultAllowance": 1, "address": String(repeating: "ü", count: 150) + String(repeating: "u\u{308}", count: 76)],
                 "address"),
            ]
            for (method, uri, token, body, field) in cases {
                let data = try JSONSerialization.data(withJSONObject: body)
                let reply = try await client.call(method, uri, token: token, json: String(decoding: data, as: UTF8.self))
                expectProblem(reply, .unprocessableContent, "validation-failed")
                #expect(reply.json["field"] as? String == field, "\(uri) \(body.keys.sorted())")
            }
            #expect(try await client.call(.patch, "/v1/me", token: alice, json: #"{"birthDate":"1990-05-17"}"#).json["birthDate"] as? String == "1990-05-17")
            let cleared = try await client.call(.patch, "/v1/me", token: alice, json: #"{"birthDate":""}"#)
            #expect(cleared.status == .ok)
            #expect(cleared.json["birthDate"] is NSNull)
            let longest = String(repeating: "é", count: 100)
            #expect(try await client.call(.patch, "/v1/me", token: alice, json: #"{"position":"\#(longest)"}"#).json["position"] as? String == longest)
        }
        #expect(try await h.fixture.count("notices") == 0)
    }

    /// Query parameters out of range, of the wrong type or repeated; ids that overflow.
    @Test func hostileParametersAre4xx() async throws {
        let h = try await APIHarness.make()
        try await h.run { client in
            let admin = try await client.login("admin")
            let alice = h.fixture.alice.id
            let unprocessable = [
                "/v1/holidays?status=PENDING", "/v1/holidays?status=", "/v1/holidays?status=pending%00",
                "/v1/holidays?year=99999999999999999999", "/v1/holidays?year=1969", "/v1/holidays?year=%FF",
                "/v1/holidays?limit=-0", "/v1/holidays?limit=1e2", "/v1/holidays?after=9223372036854775808",
                "/v1/holidays?employee=0", "/v1/me/holidays?year=2026.0", "/v1/me/holidays?year=",
                "/v1/public-holidays?year=10000", "/v1/employees/\(alice)/balance?year=-2026",
                "/v1/employees?active=yes", "/v1/employees?limit=0", "/v1/employees?after=99999999999999999999",
                "/v1/employees?q=\(String(repeating: "e%CC%81", count: 51))", "/v1/notices?includeExpired=1",
                "/v1/notices?after=2.5", "/v1/notices?after=1.99999999999999999999", "/v1/notices?limit=201",
            ]
            for uri in unprocessable {
                expectProblem(try await client.call(.get, uri, token: admin), .unprocessableContent, "validation-failed")
            }
            let notFound = [
                "/v1/holidays/9223372036854775808", "/v1/holidays/18446744073709551616", "/v1/holidays/%FF",
                "/v1/holidays/1%2F2", "/v1/holidays/+1", "/v1/holidays/0x1", "/v1/holidays/%20",
                "/v1/employees/9223372036854775807/balance", "/v1/employees/-1/balance",
                "/v1/employees/abc", "/v1/employees/1e3/photo", "/v1/employees/99999999999999999999/holidays",
                "/v1/notices/abc", "/v1/notices/0", "/v1/notices/9223372036854775808",
            ]
            for uri in notFound {
                expectProblem(try await client.call(.get, uri, token: admin), .notFound, "not-found")
            }
            for year in ["99999999999999999999", "1969", "2026.5", "abc"] {
                let reply = try await client.call(.put, "/v1/employees/\(alice)/allowances/\(year)", token: admin, json: #"{"days":1}"#)
                expectProblem(reply, .unprocessableContent, "validation-failed")
                #expect(reply.json["field"] as? String == "year")
            }
            expectProblem(
                try await client.call(.put, "/v1/employees/99999999999999999999/allowances/2026", token: admin, json: #"{"days":1}"#),
                .notFound, "not-found")
            // Unknown enum values in bodies.
            let alice2 = try await client.login("alice")
            for body in [#"{"token":"abcdefgh-1234","platform":"windows"}"#, #"{"token":"abcdefgh-1234","platform":"IOS"}"#] {
                let reply = try await client.call(.post, "/v1/me/devices", token: alice2, json: body)
                expectProblem(reply, .unprocessableContent, "validation-failed")
                #expect(reply.json["field"] as? String == "platform")
            }
            // Repeated parameters: the first one counts.
            #expect(try await client.call(.get, "/v1/holidays?status=pending&status=bogus", token: admin).status == .ok)
        }
        #expect(try await h.fixture.count("allowances") == 0)
        #expect(try await h.fixture.count("devices") == 0)
    }

    /// Authorization headers no client should send: 401 every time, never a 5xx.
    @Test func hostileAuthorizationHeadersAre401() async throws {
        let h = try await APIHarness.make()
        try await h.run { client in
            let token = try await client.login("alice")
            let values = [
                "", "Bearer", "Bearer ", "bearer  ", "Bearer sg_", "Bearer \(token)x", "Bearer \(token) \(token)",
                "Bearer " + String(repeating: "sg_", count: 3000), "Basic \(token)", "Bearer sg_\u{7f}", "Bearer \u{00e9}",
            ]
            for value in values {
                let reply = try await client.call(.get, "/v1/me", headers: [.authorization: value])
                expectProblem(reply, .unauthorized, "unauthenticated")
            }
            // The token twice, in two fields: one Authorization header is asked for, not the first of several.
            var twice = HTTPFields()
            twice.append(HTTPFields.Element(name: .authorization, value: "Bearer \(token)"))
            twice.append(HTTPFields.Element(name: .authorization, value: "Bearer \(token)"))
            let doubled = try await client.call(.get, "/v1/me", headers: twice)
            expectProblem(doubled, .unauthorized, "unauthenticated")
            #expect((doubled.json["detail"] as? String)?.contains("one Authorization header") == true, "\(doubled.json)")
            // Any case of the scheme, and surrounding spaces, are accepted (RFC 9110: the scheme is case-insensitive).
            #expect(try await client.call(.get, "/v1/me", headers: [.authorization: "bEaReR  \(token) "]).status == .ok)
        }
    }
}
