import Foundation
import SGCore
import SGDelivery
import SGStore
import SGTestSupport
import Testing

/// E-mail from the outbox to a real aiosmtpd (STARTTLS, AUTH) through the real store on a SQLite file.
@Suite("E-mail delivery", .serialized, .enabled(if: Harness.shouldRun, "needs .venv (scripts/venv.sh)"))
struct EmailDeliveryTests {
    static func header(_ message: [String: Any], _ name: String) -> String? {
        (message["headers"] as? [[String]])?.first { $0.first?.lowercased() == name.lowercased() }?.last
    }

    @Test("a request and its approval: José Ñúñez intact in the decoded subject, name and body; STARTTLS and AUTH used")
    func approvedRequest() async throws {
        let f = try await DeliveryFixture.make()
        defer { f.cleanUp() }
        let smtp = try await TestSMTPServer.start()
        let jose = try await f.services.accounts.addEmployee(NewEmployee(
            username: "jose", name: "José", surname: "Ñúñez", email: "jose@example.com", isAdmin: false, passwordHash: nil))
        let day = f.fixture.weekday(14)
        let request = try await f.services.holidays.createRequest(
            for: jose.id, start: day, end: day, comment: "Boda en Añón", actor: jose.actor)
        try await f.services.holidays.perform(.approve, on: request.id, by: f.fixture.admin.actor)
        // Both admins hear of the request; José hears of the approval.
        let queued = try await f.services.delivery.messages()
        #expect(queued.map(\.draft.address).sorted() == ["admin2@example.com", "admin@example.com", "jose@example.com"])

        let received = try await running([worker(try f.delivery(), smtp: try smtp.configuration())]) {
            try await waitUntil(within: 20, "\(smtp.messages)") { smtp.messages.count == 3 }
            return smtp.messages
        }
        await smtp.shutdown()

        for message in received {
            #expect(message["tls"] as? Bool == true)
            #expect(message["auth"] as? String == TestSMTPServer.user)
            #expect(message["mail_from"] as? String == "noreply@sgemployee.test")
            #expect((message["defects"] as? [Any])?.isEmpty == true, "\(message["defects"] ?? "")")
            #expect(message["bare_lf"] as? Bool == false)
            #expect((message["longest_line"] as? Int ?? 999) <= 78)
            #expect(message["from"] as? String == "SGEmployee <noreply@sgemployee.test>")
            #expect(Self.header(message, "MIME-Version") == "1.0")
            #expect(Self.header(message, "Content-Type") == "text/plain; charset=utf-8")
            #expect(Self.header(message, "Content-Transfer-Encoding") == "quoted-printable")
            #expect(Self.header(message, "Auto-Submitted") == "auto-generated")
            #expect(message["date"] != nil)
        }
        let sent = try await f.services.delivery.messages()
        #expect(sent.allSatisfy { $0.status == .sent })
        for outbox in sent {
            let mail = try #require(received.first { $0["to_address"] as? String == outbox.draft.address })
            // The Message-ID is the outbox's delivery id at the sender's domain.
            #expect(mail["message_id"] as? String == "<\(outbox.deliveryID)@sgemployee.test>")
            #expect(mail["subject"] as? String == outbox.draft.subject)
            #expect(mail["text"] as? String == outbox.draft.body)
        }

        let toAdmin = try #require(received.first { $0["to_address"] as? String == "admin@example.com" })
        #expect(toAdmin["subject"] as? String == "Holiday request from José Ñúñez: \(day)")
        #expect((Self.header(toAdmin, "Subject") ?? "").hasPrefix("=?UTF-8?B?"))
        #expect((toAdmin["text"] as? String ?? "").contains("José Ñúñez asks for holidays from \(day) to \(day): 1 working day."))
        #expect((toAdmin["text"] as? String ?? "").contains("Comment: Boda en Añón"))
        #expect((toAdmin["text"] as? String ?? "").contains("https://holidays.example.com/holidays/\(request.id)"))

        let toJose = try #require(received.first { $0["to_address"] as? String == "jose@example.com" })
        #expect(toJose["to_name"] as? String == "José Ñúñez")
        #expect(toJose["subject"] as? String == "Your holiday \(day) is approved")
        #expect((toJose["text"] as? String ?? "").contains("was approved by admin"))
    }

    @Test("long subjects, awkward names and bodies arrive exactly as written")
    func awkwardText() async throws {
        let f = try await DeliveryFixture.make()
        defer { f.cleanUp() }
        let smtp = try await TestSMTPServer.start()
        let subject = String(repeating: "Vacaciones de José Ñúñez en Añón — ", count: 6) + "日本語 🎉"
        let body = ".\n..two dots\nFrom here on, a line mbox would mangle\n" + String(repeating: "ñ", count: 120) + " trailing \n"
            + String(repeating: "long line without a break ", count: 12) + "\n= sign at start\nlast line"
        let names = ["Smith, John \"JJ\"", "José Núñez, \"Pepe\"", "O'Brien", String(repeating: "Ñ", count: 60)]
        for (index, name) in names.enumerated() {
            try await f.enqueue(f.email(to: "person\(index)@example.com", name: name, subject: subject, body: body))
        }
        let received = try await running([worker(try f.delivery(), smtp: try smtp.configuration())]) {
            try await waitUntil(within: 20) { smtp.messages.count == names.count }
            return smtp.messages
        }
        await smtp.shutdown()
        for (index, name) in names.enumerated() {
            let mail = try #require(received.first { $0["to_address"] as? String == "person\(index)@example.com" })
            #expect(mail["to_name"] as? String == name)
            #expect(mail["subject"] as? String == subject)
            // The last line gets its line break.
            #expect(mail["text"] as? String == body + "\n")
            #expect((mail["longest_line"] as? Int ?? 999) <= 78)
            #expect((mail["defects"] as? [Any])?.isEmpty == true, "\(mail["defects"] ?? "")")
        }
    }

    @Test("a 451 is tried again and then delivered")
    func temporaryThenDelivered() async throws {
        let f = try await DeliveryFixture.make()
        defer { f.cleanUp() }
        let smtp = try await TestSMTPServer.start(defer: ["later@example.com": 2])
        let id = try await f.enqueue(f.email(to: "later@example.com"))
        try await running([worker(try f.delivery(), smtp: try smtp.configuration())]) {
            try await waitUntil(within: 20) { try await f.message(id).status == .sent }
        }
        let message = try await f.message(id)
        #expect(message.attempts == 3)
        #expect(message.lastError == nil)
        #expect(smtp.messages.count == 1)
        #expect(smtp.events.compactMap { ($0["answer"] as? String)?.prefix(3) } == ["451", "451", "250"])
        await smtp.shutdown()
    }

    @Test("a 550 is final: the message is dead with the server's reason, after one attempt")
    func permanentFailure() async throws {
        let f = try await DeliveryFixture.make()
        defer { f.cleanUp() }
        let smtp = try await TestSMTPServer.start(reject: ["nobody@example.com"])
        let dead = try await f.enqueue(f.email(to: "nobody@example.com"))
        let fine = try await f.enqueue(f.email(to: "somebody@example.com"))
        try await running([worker(try f.delivery(), smtp: try smtp.configuration())]) {
            try await waitUntil(within: 20) {
                let a = try await f.message(dead).status
                let b = try await f.message(fine).status
                return a == .dead && b == .sent
            }
        }
        let message = try await f.message(dead)
        #expect(message.attempts == 1)
        let reason = try #require(message.lastError)
        #expect(reason.contains("550 5.1.1 <nobody@example.com>: Recipient address rejected"), "\(reason)")
        #expect(smtp.messages.map { $0["to_address"] as? String } == ["somebody@example.com"])
        await smtp.shutdown()
    }

    @Test("the server down for a while, then back: every message delivered exactly once")
    func outage() async throws {
        let f = try await DeliveryFixture.make()
        defer { f.cleanUp() }
        let smtp = try await TestSMTPServer.start()
        let configuration = try smtp.configuration()
        await smtp.stop()
        var ids: [Int64] = []
        for index in 0..<12 { ids.append(try await f.enqueue(f.email(to: "p\(index)@example.com"))) }
        try await running([worker(try f.delivery(), smtp: configuration)]) {
            // Every message has failed at least once against the closed port.
            try await waitUntil(within: 20) {
                try await f.services.delivery.messages().allSatisfy { $0.attempts >= 1 && $0.lastError != nil && $0.status == .pending }
            }
            try await Task.sleep(for: .milliseconds(700))
            try await smtp.launch()
            try await waitUntil(within: 30) { try await f.counts()[.sent] == ids.count }
        }
        let received = smtp.messages
        #expect(received.count == ids.count)
        #expect(Set(received.compactMap { $0["message_id"] as? String }).count == ids.count)
        #expect(Set(received.compactMap { $0["to_address"] as? String }).count == ids.count)
        let messages = try await f.services.delivery.messages()
        #expect(messages.allSatisfy { $0.attempts >= 2 })
        await smtp.shutdown()
    }

    @Test("the server down for a minute while messages keep coming, then back: each delivered once, none dead")
    func minuteLongOutage() async throws {
        let f = try await DeliveryFixture.make()
        defer { f.cleanUp() }
        let smtp = try await TestSMTPServer.start()
        let configuration = try smtp.configuration()
        await smtp.stop()
        // Waits of 1 s doubling to 8 s: about a dozen attempts each over the minute, none near the day's limit.
        let policy = RetryPolicy(firstDelay: 1, maximumDelay: 8, lease: 30)
        var ids: [Int64] = []
        let clock = ContinuousClock()
        let downSince = clock.now
        try await running([worker(try f.delivery(policy: policy), smtp: configuration)]) {
            while clock.now - downSince < .seconds(60) {
                ids.append(try await f.enqueue(f.email(to: "p\(ids.count)@example.com")))
                try await Task.sleep(for: .seconds(5))
            }
            #expect(try await f.counts()[.sent] == 0)
            #expect(try await f.counts()[.dead] == 0)
            try await smtp.launch()
            // Back: within one longest wait (8 s) and the sends themselves.
            try await waitUntil(within: 30) { try await f.counts()[.sent] == ids.count }
        }
        let received = smtp.messages
        #expect(received.count == ids.count)
        #expect(Set(received.compactMap { $0["message_id"] as? String }).count == ids.count)
        let first = try await f.message(ids[0])
        #expect(first.status == .sent && first.attempts >= 5)
        await smtp.shutdown()
    }

    @Test("smtps:// speaks TLS from the first byte")
    func implicitTLS() async throws {
        let f = try await DeliveryFixture.make()
        defer { f.cleanUp() }
        let smtp = try await TestSMTPServer.start(smtps: true)
        let id = try await f.enqueue(f.email(to: "tls@example.com"))
        try await running([worker(try f.delivery(), smtp: try smtp.configuration())]) {
            try await waitUntil(within: 20) { try await f.message(id).status == .sent }
        }
        #expect(smtp.messages.first?["tls"] as? Bool == true)
        #expect(smtp.messages.first?["auth"] as? String == TestSMTPServer.user)
        await smtp.shutdown()
    }

    @Test("a certificate the client does not trust: nothing is sent, the message waits")
    func untrustedCertificate() async throws {
        let f = try await DeliveryFixture.make()
        defer { f.cleanUp() }
        let smtp = try await TestSMTPServer.start()
        var configuration = try smtp.configuration()
        configuration.caFile = nil  // the system's CAs do not know the test certificate
        let id = try await f.enqueue(f.email(to: "x@example.com"))
        try await running([worker(try f.delivery(), smtp: configuration)]) {
            try await waitUntil(within: 20) { try await f.message(id).lastError != nil }
        }
        let message = try await f.message(id)
        #expect(message.status == .pending)
        #expect(smtp.messages.isEmpty)
        await smtp.shutdown()
    }
}
