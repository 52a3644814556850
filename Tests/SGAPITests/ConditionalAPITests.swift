import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import SGAPI
import SGCore
import SGStore
import SGTestSupport

/// ETag, If-Match and If-None-Match on requests and the profile; Idempotency-Key on new requests and decisions.
@Suite struct ConditionalAPITests {
    static let key = HTTPFields.Element.Name("Idempotency-Key")!
    static let replayed = HTTPFields.Element.Name("Idempotent-Replayed")!

    static func count(_ h: APIHarness, _ sql: String) async throws -> Int {
        Int(try await h.fixture.database.column(sql: sql).first.flatMap { $0 } ?? "") ?? -1
    }

    static func newRequest(_ start: CalendarDate, _ end: CalendarDate) -> String {
        #"{"startDate":"\#(start)","endDate":"\#(end)"}"#
    }

    @Test func aRequestCarriesItsVersionAndAStaleDecisionIsRefused() async throws {
        let h = try await APIHarness.make()
        try await h.run { client in
            let alice = try await client.login("alice")
            let admin = try await client.login("admin")
            let created = try await client.create(alice, h.fixture.day(7), h.fixture.day(9))
            let id = try #require(created.json["id"] as? Int)
            #expect(created.headers[.eTag] == "\"\(id)-1\"")

            let detail = try await client.call(.get, "/v1/holidays/\(id)", token: admin)
            #expect(detail.headers[.eTag] == "\"\(id)-1\"")
            let unchanged = try await client.call(.get, "/v1/holidays/\(id)", token: admin, headers: [.ifNoneMatch: "\"\(id)-1\""])
            #expect(unchanged.status == .notModified && unchanged.body.isEmpty && unchanged.headers[.eTag] == "\"\(id)-1\"")
            #expect(try await client.call(.get, "/v1/holidays/\(id)", token: admin, headers: [.ifNoneMatch: "\"\(id)-9\""]).status == .ok)

            let approved = try await client.call(.post, "/v1/holidays/\(id)/approve", token: admin, headers: [.ifMatch: "\"\(id)-1\""])
            #expect(approved.status == .ok && approved.headers[.eTag] == "\"\(id)-2\"")
            // The version read before the approval is stale now: nothing moves, and the answer says so.
            let stale = try await client.call(.post, "/v1/holidays/\(id)/revert", token: admin, headers: [.ifMatch: "\"\(id)-1\""])
            expectProblem(stale, .preconditionFailed, "precondition-failed")
            // A weak tag never matches If-Match, nor does another request's tag of the same version.
            expectProblem(
                try await client.call(.post, "/v1/holidays/\(id)/revert", token: admin, headers: [.ifMatch: "W/\"\(id)-2\""]),
                .preconditionFailed, "precondition-failed")
            expectProblem(
                try await client.call(.post, "/v1/holidays/\(id)/revert", token: admin, headers: [.ifMatch: "\"\(id + 1)-2\""]),
                .preconditionFailed, "precondition-failed")
            let after = try await client.call(.get, "/v1/holidays/\(id)", token: admin, headers: [.ifNoneMatch: "\"\(id)-1\""])
            #expect(after.status == .ok && after.json["status"] as? String == "approved")
            #expect((after.json["history"] as? [Any])?.count == 2)

            // A list holding the current tag, or `*`, matches; so does no header at all.
            let reverted = try await client.call(
                .post, "/v1/holidays/\(id)/revert", token: admin, headers: [.ifMatch: "\"\(id)-1\", \"\(id)-2\""])
            #expect(reverted.status == .ok && reverted.headers[.eTag] == "\"\(id)-3\"")
            #expect(try await client.call(.post, "/v1/holidays/\(id)/approve", token: admin, headers: [.ifMatch: "*"]).status == .ok)
            let cancelled = try await client.call(.post, "/v1/holidays/\(id)/cancel", token: alice)
            #expect(cancelled.status == .ok && cancelled.headers[.eTag] == "\"\(id)-5\"")
            // Someone who may not see the request hears "not found" whatever tag they send.
            let bob = try await client.login("bob")
            expectProblem(
                try await client.call(.post, "/v1/holidays/\(id)/cancel", token: bob, headers: [.ifMatch: "\"\(id)-1\""]),
                .notFound, "not-found")
        }
    }

    @Test func theProfileCarriesATagOfItsBodyAndAStaleChangeIsRefused() async throws {
        let h = try await APIHarness.make()
        try await h.run { client in
            let alice = try await client.login("alice")
            let me = try await client.call(.get, "/v1/me", token: alice)
            let etag = try #require(me.headers[.eTag])
            let unchanged = try await client.call(.get, "/v1/me", token: alice, headers: [.ifNoneMatch: etag])
            #expect(unchanged.status == .notModified && unchanged.body.isEmpty && unchanged.headers[.eTag] == etag)

            let patched = try await client.call(.patch, "/v1/me", token: alice, json: #"{"position":"Engineer"}"#, headers: [.ifMatch: etag])
            #expect(patched.status == .ok)
            let newTag = try #require(patched.headers[.eTag])
            #expect(newTag != etag)
            let read = try await client.call(.get, "/v1/me", token: alice, headers: [.ifNoneMatch: etag])
            #expect(read.status == .ok && read.headers[.eTag] == newTag && read.body == patched.body)

            let stale = try await client.call(.patch, "/v1/me", token: alice, json: #"{"position":"Boss"}"#, headers: [.ifMatch: etag])
            expectProblem(stale, .preconditionFailed, "precondition-failed")
            // A change refused anyway says why, whatever version it names.
            expectProblem(
                try await client.call(.patch, "/v1/me", token: alice, json: #"{"phone":"x"}"#, headers: [.ifMatch: etag]),
                .unprocessableContent, "validation-failed")
            #expect(try await client.call(.get, "/v1/me", token: alice).json["position"] as? String == "Engineer")
            // As a generated client sends it (URI-encoded), and without the header: both change it.
            let encoded = newTag.replacingOccurrences(of: "\"", with: "%22")
            let again = try await client.call(.patch, "/v1/me", token: alice, json: #"{"position":"Lead"}"#, headers: [.ifMatch: encoded])
            #expect(again.status == .ok && again.json["position"] as? String == "Lead")
            #expect(try await client.call(.patch, "/v1/me", token: alice, json: #"{"position":"Chief"}"#).status == .ok)
        }
    }

    @Test func aRetriedRequestIsMadeOnceAndAnsweredAgain() async throws {
        let h = try await APIHarness.make()
        try await h.run { client in
            let alice = try await client.login("alice")
            let body = Self.newRequest(h.fixture.day(7), h.fixture.day(9))
            let first = try await client.call(.post, "/v1/me/holidays", token: alice, json: body, headers: [Self.key: "retry-1"])
            #expect(first.status == .created && first.headers[Self.replayed] == nil)
            let second = try await client.call(.post, "/v1/me/holidays", token: alice, json: body, headers: [Self.key: "retry-1"])
            #expect(second.status == .created && second.headers[Self.replayed] == "true")
            #expect(second.body == first.body)
            #expect(second.headers[.location] == first.headers[.location] && second.headers[.eTag] == first.headers[.eTag])
            #expect(second.headers[.contentType] == first.headers[.contentType])
            #expect(try await Self.count(h, "SELECT COUNT(*) FROM holiday_requests") == 1)
            #expect(try await Self.count(h, "SELECT COUNT(*) FROM notices WHERE kind = 'personal'") == 0)

            // The same JSON written with other white space and another key order is the same body.
            let parsed = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
            let respelled = "{\n  " + parsed.keys.sorted(by: >).map { key in
                "\"\(key)\" : " + String(decoding: try! JSONSerialization.data(withJSONObject: parsed[key]!, options: [.fragmentsAllowed]), as: UTF8.self)
            }.joined(separator: ",\n  ") + "\n}"
            #expect(respelled != body)
            let third = try await client.call(.post, "/v1/me/holidays", token: alice, json: respelled, headers: [Self.key: "retry-1"])
            #expect(third.status == .created && third.headers[Self.replayed] == "true" && third.body == first.body)
            #expect(try await Self.count(h, "SELECT COUNT(*) FROM holiday_requests") == 1)

            // The same key with another body, or on another route, is a key reused: nothing is written.
            let other = Self.newRequest(h.fixture.day(14), h.fixture.day(16))
            let reused = try await client.call(.post, "/v1/me/holidays", token: alice, json: other, headers: [Self.key: "retry-1"])
            expectProblem(reused, .unprocessableContent, "idempotency-key-reused")
            let id = try #require(first.json["id"] as? Int)
            expectProblem(
                try await client.call(.post, "/v1/holidays/\(id)/cancel", token: alice, headers: [Self.key: "retry-1"]),
                .unprocessableContent, "idempotency-key-reused")
            #expect(try await Self.count(h, "SELECT COUNT(*) FROM holiday_requests") == 1)

            // Keys are each employee's own.
            let bob = try await client.login("bob")
            let bobs = try await client.call(.post, "/v1/me/holidays", token: bob, json: body, headers: [Self.key: "retry-1"])
            #expect(bobs.status == .created && bobs.headers[Self.replayed] == nil && bobs.json["id"] as? Int != id)
            #expect(try await Self.count(h, "SELECT COUNT(*) FROM holiday_requests") == 2)

            // A change refused is not kept: the retry is checked again.
            let overlapping = try await client.call(.post, "/v1/me/holidays", token: alice, json: body, headers: [Self.key: "retry-2"])
            expectProblem(overlapping, .conflict, "overlap")
            #expect(try await Self.count(h, "SELECT COUNT(*) FROM idempotency_keys") == 2)

            for bad in ["", "has space", String(repeating: "k", count: 256), "ключ"] {
                let refused = try await client.call(.post, "/v1/me/holidays", token: alice, json: other, headers: [Self.key: bad])
                expectProblem(refused, .badRequest, "malformed-request")
            }
            #expect(try await Self.count(h, "SELECT COUNT(*) FROM holiday_requests") == 2)
        }
    }

    @Test func aRetriedDecisionIsMadeOnce() async throws {
        let h = try await APIHarness.make()
        try await h.run { client in
            let alice = try await client.login("alice")
            let admin = try await client.login("admin")
            let id = try #require(try await client.create(alice, h.fixture.day(7), h.fixture.day(9)).json["id"] as? Int)
            let reason = #"{"reason":"Audit week"}"#
            expectProblem(
                try await client.call(.post, "/v1/holidays/\(id)/reject", token: admin, headers: [.ifMatch: "\"\(id)-9\""]),
                .unprocessableContent, "validation-failed")
            let first = try await client.call(.post, "/v1/holidays/\(id)/reject", token: admin, json: reason, headers: [Self.key: "decide-1"])
            #expect(first.status == .ok && first.json["status"] as? String == "rejected")
            let second = try await client.call(.post, "/v1/holidays/\(id)/reject", token: admin, json: reason, headers: [Self.key: "decide-1"])
            #expect(second.status == .ok && second.headers[Self.replayed] == "true" && second.body == first.body)
            #expect(try await Self.count(h, "SELECT COUNT(*) FROM holiday_events WHERE request_id = \(id)") == 2)
            // Without the key, the same decision again is refused as usual.
            expectProblem(
                try await client.call(.post, "/v1/holidays/\(id)/reject", token: admin, json: reason), .conflict, "wrong-state")
            expectProblem(
                try await client.call(.post, "/v1/holidays/\(id)/reject", token: admin, json: #"{"reason":"Other"}"#, headers: [Self.key: "decide-1"]),
                .unprocessableContent, "idempotency-key-reused")
        }
    }

    @Test func keysExpireAfterADayAndAreSwept() async throws {
        let h = try await APIHarness.make()
        try await h.run { client in
            var alice = try await client.login("alice")
            let first = Self.newRequest(h.fixture.day(7), h.fixture.day(9))
            #expect(try await client.call(.post, "/v1/me/holidays", token: alice, json: first, headers: [Self.key: "old"]).status == .created)
            let start = h.fixture.clock.now()
            h.fixture.clock.set(start.addingTimeInterval(IdempotencyRecord.lifetime - 1))
            alice = try await client.login("alice")
            let other = Self.newRequest(h.fixture.day(14), h.fixture.day(16))
            expectProblem(
                try await client.call(.post, "/v1/me/holidays", token: alice, json: other, headers: [Self.key: "old"]),
                .unprocessableContent, "idempotency-key-reused")

            h.fixture.clock.set(start.addingTimeInterval(IdempotencyRecord.lifetime + 1))
            alice = try await client.login("alice")
            // Expired, though not swept yet: the key is free again.
            let reusedLater = try await client.call(.post, "/v1/me/holidays", token: alice, json: other, headers: [Self.key: "old"])
            #expect(reusedLater.status == .created && reusedLater.headers[Self.replayed] == nil)
            #expect(try await Self.count(h, "SELECT COUNT(*) FROM idempotency_keys") == 1)

            // The next change with a key sweeps what expired.
            h.fixture.clock.set(start.addingTimeInterval(2 * IdempotencyRecord.lifetime + 2))
            alice = try await client.login("alice")
            let third = Self.newRequest(h.fixture.day(21), h.fixture.day(23))
            #expect(try await client.call(.post, "/v1/me/holidays", token: alice, json: third, headers: [Self.key: "new"]).status == .created)
            let keys = try await h.fixture.database.column(sql: "SELECT key FROM idempotency_keys").compactMap { $0 }
            #expect(keys == ["new"])
        }
    }

    @Test func aKeyWhoseChangeIsUnderWayIsRefused() async throws {
        let h = try await APIHarness.make()
        let services = h.services
        let app = buildApplication(configuration: ServerConfiguration(host: "127.0.0.1", port: 0), services: services)
        try await app.test(.router) { testClient in
            let client = APIHarness.Client(client: testClient)
            let alice = try await client.login("alice")
            let body = Self.newRequest(h.fixture.day(7), h.fixture.day(9))
            #expect(services.keysInFlight.begin(employeeID: h.fixture.alice.id, key: "busy"))
            expectProblem(
                try await client.call(.post, "/v1/me/holidays", token: alice, json: body, headers: [Self.key: "busy"]),
                .conflict, "idempotency-key-in-use")
            // Another employee's same key is not held up.
            let bob = try await client.login("bob")
            #expect(try await client.call(.post, "/v1/me/holidays", token: bob, json: body, headers: [Self.key: "busy"]).status == .created)
            services.keysInFlight.end(employeeID: h.fixture.alice.id, key: "busy")
            #expect(try await client.call(.post, "/v1/me/holidays", token: alice, json: body, headers: [Self.key: "busy"]).status == .created)
            #expect(try await Self.count(h, "SELECT COUNT(*) FROM holiday_requests") == 2)
        }
    }
}
