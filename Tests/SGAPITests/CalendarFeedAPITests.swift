import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import SGAPI
import SGCore
import SGStore
import SGTestSupport

/// The iCalendar feeds over HTTP: made, listed, served with ETags, revoked; parsed by a real iCalendar parser.
@Suite struct CalendarFeedAPITests {
    static func newFeed(_ client: APIHarness.Client, _ token: String, _ kind: String) async throws -> (id: Int, path: String) {
        let reply = try await client.call(.post, "/v1/me/calendar-feeds", token: token, json: #"{"kind":"\#(kind)"}"#)
        #expect(reply.status == .created)
        #expect(reply.json["kind"] as? String == kind)
        #expect(reply.json["url"] is NSNull, "no public URL is configured in the tests")
        return (try #require(reply.json["id"] as? Int), try #require(reply.json["path"] as? String))
    }

    @Test func aPersonalFeedFollowsTheRequestsAndAnswers304WhileUnchanged() async throws {
        let h = try await APIHarness.make()
        try await h.run { client in
            let alice = try await client.login("alice")
            let admin = try await client.login("admin")
            let created = try await client.create(alice, Fixture.date("2026-04-06"), Fixture.date("2026-04-08"), comment: "private words")
            let id = try #require(created.json["id"] as? Int)
            let feed = try await Self.newFeed(client, alice, "personal")
            #expect(feed.path.hasPrefix("/ical/sgc_") && feed.path.hasSuffix(".ics") && feed.path.count == 6 + 4 + 43 + 4)
            let listed = try await client.call(.get, "/v1/me/calendar-feeds", token: alice)
            let feeds = try #require(try JSONSerialization.jsonObject(with: listed.body) as? [[String: Any]])
            #expect(feeds.count == 1 && feeds[0]["id"] as? Int == feed.id && feeds[0]["kind"] as? String == "personal")
            #expect(!String(decoding: listed.body, as: UTF8.self).contains("sgc_"), "the secret is not kept, so not listed")

            // No Authorization header: the secret is the credential.
            let first = try await client.call(.get, feed.path)
            #expect(first.status == .ok)
            #expect(first.headers[.contentType] == "text/calendar; charset=utf-8")
            let etag = try #require(first.headers[.eTag])
            let text = String(decoding: first.body, as: UTF8.self)
            #expect(text.contains("UID:request-\(id)@sgemployee\r\n"))
            #expect(text.contains("SEQUENCE:0\r\nDTSTART;VALUE=DATE:20260406\r\nDTEND;VALUE=DATE:20260409\r\nSUMMARY:Holiday (pending)\r\n"))
            #expect(text.contains("STATUS:TENTATIVE\r\n"))
            #expect(!text.contains("private words"))

            let again = try await client.call(.get, feed.path, headers: [.ifNoneMatch: etag])
            #expect(again.status == .notModified && again.body.isEmpty && again.headers[.eTag] == etag)
            #expect(try await client.call(.get, feed.path, headers: [.ifNoneMatch: "\"other\""]).status == .ok)

            // A move changes the feed: a new ETag, a higher SEQUENCE.
            h.fixture.clock.set(h.fixture.clock.now().addingTimeInterval(60))
            #expect(try await client.call(.post, "/v1/holidays/\(id)/approve", token: admin).status == .ok)
            let approved = try await client.call(.get, feed.path, headers: [.ifNoneMatch: etag])
            #expect(approved.status == .ok && approved.headers[.eTag] != etag)
            let approvedText = String(decoding: approved.body, as: UTF8.self)
            #expect(approvedText.contains("SEQUENCE:1\r\n") && approvedText.contains("STATUS:CONFIRMED\r\n"))

            // Cancelled: CANCELLED for 30 days, then gone.
            #expect(try await client.call(.post, "/v1/holidays/\(id)/cancel", token: alice).status == .ok)
            let cancelled = String(decoding: try await client.call(.get, feed.path).body, as: UTF8.self)
            #expect(cancelled.contains("SEQUENCE:2\r\n") && cancelled.contains("STATUS:CANCELLED\r\n"))
            h.fixture.clock.set(h.fixture.clock.now().addingTimeInterval(31 * 86_400))
            let later = String(decoding: try await client.call(.get, feed.path).body, as: UTF8.self)
            #expect(!later.contains("BEGIN:VEVENT"))

            // Revoked: 404, and only by its owner (tokens from a month ago have expired: log in again).
            let (aliceNow, adminNow) = (try await client.login("alice"), try await client.login("admin"))
            expectProblem(try await client.call(.delete, "/v1/me/calendar-feeds/\(feed.id)", token: adminNow), .notFound, "not-found")
            #expect(try await client.call(.delete, "/v1/me/calendar-feeds/\(feed.id)", token: aliceNow).status == .noContent)
            expectProblem(try await client.call(.get, feed.path), .notFound, "not-found")
            expectProblem(try await client.call(.delete, "/v1/me/calendar-feeds/\(feed.id)", token: aliceNow), .notFound, "not-found")
        }
    }

    @Test func theCompanyFeedShowsApprovedAbsencesByNameAndTheOwnersPublicHolidays() async throws {
        let h = try await APIHarness.make()
        let company = h.fixture.services.company
        try await company.addPublicHoliday(PublicHoliday(date: Fixture.date("2026-04-03"), name: "Good Friday"), by: Fixture.operatorActor)
        let madrid = try await company.createHolidayCalendar(name: "Madrid", by: Fixture.operatorActor)
        try await company.addPublicHoliday(PublicHoliday(date: Fixture.date("2026-05-15"), name: "San Isidro"), calendarID: madrid.id, by: Fixture.operatorActor)
        _ = try await company.setHolidayCalendar(ofEmployee: h.fixture.bob.id, to: madrid.id, by: Fixture.operatorActor)
        try await h.run { client in
            let alice = try await client.login("alice")
            let bob = try await client.login("bob")
            let admin = try await client.login("admin")
            let pending = try #require(try await client.create(alice, Fixture.date("2026-04-06"), Fixture.date("2026-04-08")).json["id"] as? Int)
            let approved = try await client.call(
                .post, "/v1/me/holidays", token: alice,
                json: #"{"startDate":"2026-04-13","endDate":"2026-04-13","startHalf":"morning","endHalf":"morning"}"#)
            let approvedID = try #require(approved.json["id"] as? Int)
            #expect(try await client.call(.post, "/v1/holidays/\(approvedID)/approve", token: admin).status == .ok)
            let sick = try await client.call(
                .post, "/v1/me/holidays", token: bob, json: #"{"startDate":"2026-04-07","endDate":"2026-04-07","leaveTypeId":2}"#)
            let sickID = try #require(sick.json["id"] as? Int)

            let feed = try await Self.newFeed(client, bob, "company")
            let text = String(decoding: try await client.call(.get, feed.path).body, as: UTF8.self)
            #expect(text.contains("X-WR-CALNAME:SGEmployee: who is off\r\n"))
            #expect(text.contains("UID:absence-\(approvedID)@sgemployee\r\n"))
            #expect(text.contains("SUMMARY:Alice Example: holiday (morning)\r\n"))
            #expect(!text.contains("absence-\(pending)@"), "pending requests are not in the company feed")
            #expect(text.contains("UID:absence-\(sickID)@sgemployee\r\n"))
            #expect(text.contains("SUMMARY:José Núñez\\, \"Pepe\": away\r\n"))
            #expect(!text.contains("sick"))
            // Bob's calendar's public holidays, not the default one's.
            #expect(text.contains("SUMMARY:San Isidro\r\n") && !text.contains("Good Friday"))

            // Deactivating the owner stops the feed; deactivated colleagues drop out of others' feeds.
            let aliceFeed = try await Self.newFeed(client, alice, "company")
            #expect(String(decoding: try await client.call(.get, aliceFeed.path).body, as: UTF8.self).contains("Good Friday"))
            _ = try await h.fixture.services.accounts.deactivate(username: "bob")
            expectProblem(try await client.call(.get, feed.path), .notFound, "not-found")
            #expect(!String(decoding: try await client.call(.get, aliceFeed.path).body, as: UTF8.self).contains("away"))
        }
    }

    @Test func badBodiesGarbageSecretsAndTooManyFeedsAreProblems() async throws {
        let h = try await APIHarness.make()
        try await h.run { client in
            let alice = try await client.login("alice")
            for body in [#"{"kind":"weekly"}"#, #"{}"#, #"{"kind":"personal","extra":1}"#, #"{"kind":1}"#, #"{"kind":null}"#] {
                let reply = try await client.call(.post, "/v1/me/calendar-feeds", token: alice, json: body)
                expectProblem(reply, .unprocessableContent, "validation-failed")
            }
            expectProblem(try await client.call(.post, "/v1/me/calendar-feeds", token: alice, json: "[1]"), .badRequest, "malformed-request")
            expectProblem(try await client.call(.post, "/v1/me/calendar-feeds", json: #"{"kind":"personal"}"#), .unauthorized, "unauthenticated")
            for secret in [
                "nope", "sgc_", "sgc_" + String(repeating: "A", count: 43), "sgc_" + String(repeating: "A", count: 42) + "%2F",
                "%00", String(repeating: "x", count: 4000), "sgc_" + String(repeating: "%C3%A9", count: 43),
            ] {
                let reply = try await client.call(.get, "/ical/\(secret).ics")
                expectProblem(reply, .notFound, "not-found")
            }
            expectProblem(try await client.call(.get, "/ical/"), .notFound, "not-found")
            expectProblem(try await client.call(.delete, "/v1/me/calendar-feeds/0", token: alice), .notFound, "not-found")
            expectProblem(try await client.call(.delete, "/v1/me/calendar-feeds/abc", token: alice), .notFound, "not-found")
            for _ in 0..<CalendarFeed.maximumPerEmployee { _ = try await Self.newFeed(client, alice, "personal") }
            expectProblem(try await client.call(.post, "/v1/me/calendar-feeds", token: alice, json: #"{"kind":"company"}"#), .conflict, "conflict")
        }
    }

    /// A feed's secret address is the account's: it ends with a deactivation (and stays ended after a
    /// reactivation), with a used reset link and with a password an operator sets; the owner's own change keeps it.
    @Test func feedsEndWithTheAccountsDeactivationAndItsPasswordReset() async throws {
        let h = try await APIHarness.make()
        let f = h.fixture
        try await h.run { client in
            let admin = try await client.login("admin")
            var alice = try await client.login("alice")
            let first = try await Self.newFeed(client, alice, "personal")
            #expect(try await client.call(.get, first.path).status == .ok)
            #expect(try await client.call(.patch, "/v1/employees/\(f.alice.id)", token: admin, json: #"{"isActive":false}"#).status == .ok)
            #expect(try await client.call(.patch, "/v1/employees/\(f.alice.id)", token: admin, json: #"{"isActive":true}"#).status == .ok)
            expectProblem(try await client.call(.get, first.path), .notFound, "not-found")
            #expect(try await f.count("calendar_feeds") == 0)

            // The owner's own password change keeps a feed; an operator's new password ends it.
            alice = try await client.login("alice")
            let second = try await Self.newFeed(client, alice, "company")
            let change = try JSONSerialization.data(withJSONObject: ["currentPassword": Fixture.password, "newPassword": "another-long-secret"])
            #expect(try await client.call(.put, "/v1/me/password", token: alice, json: String(decoding: change, as: UTF8.self)).status == .noContent)
            #expect(try await client.call(.get, second.path).status == .ok)
            try await f.services.passwords.setPassword(username: "alice", to: "a-third-long-secret")
            expectProblem(try await client.call(.get, second.path), .notFound, "not-found")

            // A used reset link ends the feeds too.
            // Without a public URL the mail carries the token itself, and feeds have no full address.
            try await f.services.delivery.announce(DeliveryConfiguration(emailEnabled: true))
            let third = try await Self.newFeed(client, try await client.login("alice", "a-third-long-secret"), "personal")
            #expect(try await PasswordAPITests.request(client, "alice").status == .accepted)
            let mail = try #require(try await PasswordAPITests.resetMails(f).last)
            #expect(try await PasswordAPITests.confirm(client, try PasswordAPITests.token(in: mail), "a-fourth-long-secret").status == .noContent)
            expectProblem(try await client.call(.get, third.path), .notFound, "not-found")
        }
    }

    /// Each company feed is everyone's absences behind one secret: an employee keeps at most two.
    @Test func anEmployeeMintsAtMostTwoCompanyFeeds() async throws {
        let h = try await APIHarness.make()
        try await h.run { client in
            let alice = try await client.login("alice")
            for _ in 0..<CalendarFeed.maximumCompanyPerEmployee { _ = try await Self.newFeed(client, alice, "company") }
            let refused = try await client.call(.post, "/v1/me/calendar-feeds", token: alice, json: #"{"kind":"company"}"#)
            expectProblem(refused, .conflict, "conflict")
            #expect((refused.json["detail"] as? String)?.contains("2 company calendar feeds") == true)
            _ = try await Self.newFeed(client, alice, "personal")
            _ = try await Self.newFeed(client, try await client.login("bob"), "company")
        }
    }

    @Test(.enabled(if: ICalendarParser.shouldRun, "needs .venv (scripts/venv.sh)"))
    func feedsParseWithARealICalendarParser() async throws {
        try ICalendarParser.checkAvailable()
        let h = try await APIHarness.make()
        try await h.fixture.services.company.addPublicHoliday(
            PublicHoliday(date: Fixture.date("2026-04-03"), name: "Viernes Santo; día, \\ festivo"), by: Fixture.operatorActor)
        try await h.run { client in
            let alice = try await client.login("alice")
            let admin = try await client.login("admin")
            let long = String(repeating: "Ünïcödé 🎉 ", count: 12)
            _ = try await client.call(
                .post, "/v1/me/holidays", token: alice,
                json: #"{"startDate":"2026-04-06","endDate":"2026-04-08","startHalf":"afternoon","endHalf":"morning","comment":"x"}"#)
            let approved = try #require(try await client.create(alice, Fixture.date("2026-12-28"), Fixture.date("2027-01-04")).json["id"] as? Int)
            #expect(try await client.call(.post, "/v1/holidays/\(approved)/approve", token: admin).status == .ok)
            // A leave type with a long name of many-octet characters and the characters TEXT escapes.
            let type = try await client.call(.post, "/v1/leave-types", token: admin, json: #"{"name":"\#(long.prefix(40)), a;b\\c"}"#)
            let typeID = try #require(type.json["id"] as? Int)
            let typed = try #require(try await client.call(
                .post, "/v1/me/holidays", token: alice, json: #"{"startDate":"2026-05-04","endDate":"2026-05-04","leaveTypeId":\#(typeID)}"#
            ).json["id"] as? Int)
            #expect(try await client.call(.post, "/v1/holidays/\(typed)/approve", token: admin).status == .ok)

            let personal = try await CalendarFeedAPITests.newFeed(client, alice, "personal")
            let parsed = try ICalendarParser.parse(try await client.call(.get, personal.path).body)
            #expect(parsed.refresh == "PT1H" && parsed.version == "2.0")
            #expect(parsed.name.contains("Alice Example"))
            let events = Dictionary(uniqueKeysWithValues: parsed.events.map { ($0.uid, $0) })
            let crossing = try #require(events["request-\(approved)@sgemployee"])
            #expect(crossing.start == "2026-12-28" && crossing.end == "2027-01-05" && crossing.status == "CONFIRMED" && crossing.sequence == 1)
            let halves = try #require(parsed.events.first { $0.start == "2026-04-06" })
            #expect(halves.end == "2026-04-09" && halves.status == "TENTATIVE" && halves.sequence == 0)
            #expect(halves.summary == "Holiday (pending) (from the afternoon, until noon)")
            #expect(halves.description == "2026-04-06 (afternoon) to 2026-04-08 (morning), 2 working days, pending")
            let escaped = try #require(events["request-\(typed)@sgemployee"])
            #expect(escaped.summary.hasPrefix("Ünïcödé 🎉 Ünïcödé"))
            #expect(escaped.summary.contains(", a;b\\c"), "the parser reads back the escaped characters: \(escaped.summary)")

            let company = try await CalendarFeedAPITests.newFeed(client, alice, "company")
            let companyParsed = try ICalendarParser.parse(try await client.call(.get, company.path).body)
            let holiday = try #require(companyParsed.events.first { $0.uid.hasPrefix("public-holiday-1-20260403") })
            #expect(holiday.summary == "Viernes Santo; día, \\ festivo" && holiday.start == "2026-04-03" && holiday.end == "2026-04-04")
            #expect(companyParsed.events.contains { $0.summary == "Alice Example: holiday" && $0.start == "2026-12-28" })
            #expect(companyParsed.events.allSatisfy { $0.status == "CONFIRMED" })

            // A feed without events still parses (it holds a time zone, as a calendar must hold a component).
            let bob = try await client.login("bob")
            let empty = try ICalendarParser.parse(try await client.call(.get, try await CalendarFeedAPITests.newFeed(client, bob, "personal").path).body)
            #expect(empty.events.isEmpty && empty.name.contains("Núñez"))
        }
    }
}

/// scripts/ical_check.py, run with the repository's .venv (scripts/venv.sh installs the pinned icalendar package).
enum ICalendarParser {
    static let python = Venv.python
    static let script = Venv.repository.appendingPathComponent("scripts/ical_check.py").path
    static var isAvailable: Bool { Venv.isAvailable }
    /// Under CI a missing venv fails the test instead of skipping it.
    static var shouldRun: Bool { Venv.shouldRun }

    struct Parsed: Decodable {
        struct Event: Decodable {
            let uid: String
            let summary: String
            let description: String
            let status: String
            let start: String
            let end: String
            let sequence: Int
            let dtstamp: String
            let lastModified: String?
        }

        let name: String
        let refresh: String?
        let version: String
        let events: [Event]
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func checkAvailable() throws {
        guard isAvailable else { throw Failure(description: "\(python) is missing: run scripts/venv.sh (it installs icalendar into .venv/)") }
    }

    /// Parses `feed` with the icalendar package; the script itself refuses a feed calendar apps could not use.
    static func parse(_ feed: Data) throws -> Parsed {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("sg-feed-\(UUID().uuidString).ics")
        try feed.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [script, file.path]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let errors = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "ical_check.py: \(String(decoding: errors, as: UTF8.self))")
        }
        return try JSONDecoder().decode(Parsed.self, from: output)
    }
}
