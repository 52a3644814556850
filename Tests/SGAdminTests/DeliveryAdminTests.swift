import Foundation
import Testing
import SGCore
import SGStore
import SGTestSupport

/// `sgadmin outbox` and `sgadmin webhook` on a database the API's rules write to.
@Suite(.serialized) struct DeliveryAdminTests {
    @Test func operatorsSubscribeInspectRetryAndPurge() async throws {
        let path = TemporaryDatabasePath()
        defer { path.cleanUp() }
        let f = try await Fixture.make(path: path.path, today: CalendarDate(Date(), in: .gmt))
        let cli = AdminCLI(databasePath: path.path)

        let add = try cli.run(["webhook", "add", "https://hooks.example.com/a", "--event", "holiday.requested", "--event", "holiday.approved"])
        #expect(add.status == 0, "\(add.stderr)")
        #expect(add.stdout.hasPrefix("Webhook 1 added for holiday.requested, holiday.approved.\nSecret (shown only now): whsec_"))
        for arguments in [
            ["webhook", "add", "http://hooks.example.com/a", "--event", "holiday.requested"],
            ["webhook", "add", "https://hooks.example.com/a", "--event", "holiday.exploded"],
            ["webhook", "add", "https://hooks.example.com/a"],
            ["webhook", "remove", "9"],
            ["outbox", "show", "9"],
            ["outbox", "retry"],
            ["outbox", "retry", "1", "--dead"],
            ["outbox", "purge", "--sent-before", "yesterday"],
        ] {
            let result = try cli.run(arguments)
            #expect(result.status != 0, "\(arguments)")
            #expect(result.stderr.contains("sgadmin") || result.stderr.contains("Error"), "\(arguments): \(result.stderr)")
        }
        #expect(try await f.count("webhooks") == 1)
        let list = try cli.run(["webhook", "list", "--format", "csv"])
        #expect(list.stdout.hasPrefix("id,url,format,events,private_details,created_at,disabled_at,disabled_reason\r\n1,https://hooks.example.com/a,standard,holiday.requested holiday.approved,no,"))
        #expect(!list.stdout.contains("whsec_"))

        // A decision made from the host is announced like one made through the API. Both messages are written on
        // the system clock, so that both are due when the fixture's clock follows it below (the fixture's day starts
        // at noon, which is after the system clock in the morning).
        f.clock.set(Date())
        let request = try await f.service.createRequest(
            for: f.bob.id, start: f.weekday(14), end: f.weekday(14), comment: "", actor: f.bob.actor)
        #expect(try cli.run(["approve", "\(request.id)"]).status == 0)
        let outbox = try cli.run(["outbox", "list", "--format", "json"])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(outbox.stdout.utf8)) as? [[String: Any]])
        #expect(rows.map { $0["event"] as? String } == ["holiday.requested", "holiday.approved"])
        #expect(rows.allSatisfy { $0["status"] as? String == "pending" && $0["to"] as? String == "https://hooks.example.com/a" })

        let show = try cli.run(["outbox", "show", "2"])
        #expect(show.stdout.hasPrefix("Message 2  pending\nChannel:       webhook\nEvent:         holiday.approved\n"))
        #expect(show.stdout.contains("\"status\":\"approved\""))
        #expect(show.stdout.contains("José"))

        // Dead messages go back to pending, one or all; pending ones cannot be "retried". (sgadmin wrote on the system
        // clock: the fixture's follows it from here.)
        f.clock.set(Date().addingTimeInterval(1))
        let claimed = try await f.services.delivery.claim(owner: "test", limit: 10)
        for message in claimed {
            try await f.services.delivery.record(.permanentFailure("400 Bad Request"), for: message, owner: "test")
        }
        #expect(try cli.run(["outbox", "list", "--status", "dead", "--format", "csv"]).stdout.components(separatedBy: "\r\n").count == 4)
        #expect(try cli.run(["outbox", "retry", "1"]).stdout == "Message 1 is pending again.\n")
        let twice = try cli.run(["outbox", "retry", "1"])
        #expect(twice.status == 1 && twice.stderr.contains("only a dead message can be retried"))
        #expect(try cli.run(["outbox", "retry", "--dead"]).stdout == "1 dead message is pending again.\n")

        f.clock.set(Date().addingTimeInterval(1))
        for message in try await f.services.delivery.claim(owner: "test", limit: 10) {
            try await f.services.delivery.record(.delivered, for: message, owner: "test")
        }
        #expect(try cli.run(["outbox", "purge", "--sent-before", "\(f.day(-1))"]).stdout == "Deleted 0 sent messages.\n")
        #expect(try cli.run(["outbox", "purge", "--sent-before", "\(f.day(1))"]).stdout == "Deleted 2 sent messages.\n")

        #expect(try cli.run(["webhook", "remove", "1"]).stdout == "Webhook 1 removed.\n")
        #expect(try await f.count("webhooks") == 0)
    }

    /// A receiver's answer kept as a message's last error cannot drive the operator's terminal through any format.
    @Test func aReceiversAnswerIsShownEscapedInEveryFormat() async throws {
        let path = TemporaryDatabasePath()
        defer { path.cleanUp() }
        let f = try await Fixture.make(path: path.path, today: CalendarDate(Date(), in: .gmt))
        let cli = AdminCLI(databasePath: path.path)
        f.clock.set(Date())
        _ = try await f.services.webhooks.add(
            WebhookDraft(url: "https://hooks.example.com/a", events: [.holidayRequested]), by: Fixture.operatorActor)
        _ = try await f.service.createRequest(for: f.bob.id, start: f.weekday(14), end: f.weekday(14), comment: "", actor: f.bob.actor)
        f.clock.set(Date().addingTimeInterval(1))
        let hostile = "HTTP 400: \u{1B}]0;pwned\u{07}\u{1B}[2J\u{9B}1m line one\nline two"
        for message in try await f.services.delivery.claim(owner: "test", limit: 10) {
            try await f.services.delivery.record(.permanentFailure(hostile), for: message, owner: "test")
        }
        for format in ["table", "csv", "json"] {
            let out = try cli.run(["outbox", "list", "--format", format]).stdout
            #expect(!out.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" || $0 == "\u{9B}" }, "\(format): \(out)")
            #expect(out.contains("pwned"), "\(format): \(out)")
        }
        let csv = try cli.run(["outbox", "list", "--format", "csv"]).stdout
        #expect(csv.contains("\\u{1b}]0;pwned\\u{7}\\u{1b}[2J\\u{9b}1m line one\nline two"), "line breaks stay in a quoted cell: \(csv)")
    }
}
