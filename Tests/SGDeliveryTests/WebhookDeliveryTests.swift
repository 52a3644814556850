import Foundation
import SGCore
import SGDelivery
import SGStore
import SGTestSupport
import Testing

/// Webhooks from the outbox to a real HTTP receiver that checks each signature, through the real store on a
/// SQLite file.
@Suite("Webhook delivery", .serialized, .enabled(if: Harness.shouldRun, "needs .venv (scripts/venv.sh)"))
struct WebhookDeliveryTests {
    @Test("an event's webhook arrives signed: the receiver verifies the signature; id and timestamp as specified")
    func signed() async throws {
        let f = try await DeliveryFixture.make()
        defer { f.cleanUp() }
        let receiver = try await TestWebhookReceiver.start(routes: ["/hooks": "ok", "/slack": "ok"])
        _ = try await f.subscribe(receiver.url("/hooks"))
        _ = try await f.subscribe(receiver.url("/slack"), format: .slack)
        let day = f.fixture.weekday(10)
        let request = try await f.services.holidays.createRequest(
            for: f.fixture.alice.id, start: day, end: day, comment: "", actor: f.fixture.alice.actor)
        let queued = try await f.services.delivery.messages(status: .pending).filter { $0.draft.channel == .webhook }
        #expect(queued.count == 2)
        let started = Date()
        try await running([worker(try f.delivery(), smtp: nil)]) {
            try await waitUntil(within: 20) { receiver.deliveries.count == 2 }
            try await waitUntil(within: 5) { try await f.counts()[.sent] == 2 }
        }
        let standard = try #require(receiver.deliveries(to: "/hooks").first)
        let message = try #require(queued.first { $0.draft.address.hasSuffix("/hooks") })
        #expect(standard["valid"] as? Bool == true)
        #expect(standard["fresh"] as? Bool == true)
        #expect(standard["id"] as? String == message.deliveryID)
        let timestamp = try #require(Double(standard["timestamp"] as? String ?? ""))
        #expect(timestamp >= started.timeIntervalSince1970.rounded(.down) && timestamp <= Date().timeIntervalSince1970)
        #expect((standard["headers"] as? [String: String])?["content-type"] == "application/json")
        #expect(standard["body"] as? String == message.draft.body)
        let payload = try #require(try JSONSerialization.jsonObject(with: Data((standard["body"] as? String ?? "").utf8)) as? [String: Any])
        #expect(payload["type"] as? String == "holiday.requested")
        #expect(((payload["data"] as? [String: Any])?["request"] as? [String: Any])?["id"] as? Int == Int(request.id))

        let slack = try #require(receiver.deliveries(to: "/slack").first)
        #expect(slack["valid"] as? Bool == true)
        let text = try #require(try JSONSerialization.jsonObject(with: Data((slack["body"] as? String ?? "").utf8)) as? [String: String])
        #expect(text["text"]?.contains("Alice Example asks for 1 working day off") == true)
        await receiver.shutdown()
    }

    @Test("a receiver on an internal address gets nothing unless allowed: the connection is refused, and why is recorded")
    func internalReceiverRefused() async throws {
        let f = try await DeliveryFixture.make()
        defer { f.cleanUp() }
        let receiver = try await TestWebhookReceiver.start(routes: ["/hooks": "ok"])
        let subscription = try await f.subscribe(receiver.url("/hooks"))
        let id = try await f.enqueue(f.webhook(subscription))
        // As sgserver runs by default: no internal address allowed.
        let strict = WebhookConfiguration(connectTimeout: 1, timeout: 2, destinations: .publicOnly)
        try await running([worker(try f.delivery(), smtp: nil, webhooks: strict)]) {
            try await waitUntil(within: 20) { try await f.message(id).lastError != nil }
        }
        let refused = try await f.message(id)
        #expect(refused.status == .dead, "refused until an operator allows the address")
        #expect(refused.lastError?.contains("127.0.0.1 is a loopback address") == true, "\(refused.lastError ?? "")")
        #expect(refused.lastError?.contains("SG_ALLOWED_INTERNAL_ADDRESSES") == true)
        #expect(receiver.deliveries.isEmpty, "nothing reached the receiver")
        // Allowed by address and port, the same message goes.
        let allowed = WebhookConfiguration(
            connectTimeout: 1, timeout: 2, destinations: try DestinationPolicy(parsing: "127.0.0.1:\(receiver.port)"))
        _ = try await f.services.delivery.retry(id: id)
        try await running([worker(try f.delivery(), smtp: nil, webhooks: allowed)]) {
            try await waitUntil(within: 20) { try await f.message(id).status == .sent }
        }
        #expect(receiver.deliveries(to: "/hooks").count == 1)
        await receiver.shutdown()
    }

    @Test("500 then 200: tried again with the same webhook-id and delivered")
    func retried() async throws {
        let f = try await DeliveryFixture.make()
        defer { f.cleanUp() }
        let receiver = try await TestWebhookReceiver.start(routes: ["/flaky": "fail-then-ok"])
        let subscription = try await f.subscribe(receiver.url("/flaky"))
        let id = try await f.enqueue(f.webhook(subscription))
        try await running([worker(try f.delivery(), smtp: nil)]) {
            try await waitUntil(within: 20) { try await f.message(id).status == .sent }
        }
        let message = try await f.message(id)
        #expect(message.attempts == 2)
        let deliveries = receiver.deliveries(to: "/flaky")
        #expect(deliveries.map { $0["status"] as? Int } == [500, 200])
        #expect(deliveries.allSatisfy { $0["valid"] as? Bool == true && $0["id"] as? String == message.deliveryID })
        await receiver.shutdown()
    }

    @Test("410 Gone disables the subscription; its other messages die unsent")
    func gone() async throws {
        let f = try await DeliveryFixture.make()
        defer { f.cleanUp() }
        let receiver = try await TestWebhookReceiver.start(routes: ["/gone": "gone"])
        let subscription = try await f.subscribe(receiver.url("/gone"))
        let first = try await f.enqueue(f.webhook(subscription, body: #"{"n":1}"#))
        let second = try await f.enqueue(f.webhook(subscription, body: #"{"n":2}"#))
        // One lane: the second message is taken after the first one's answer is recorded.
        try await running([worker(try f.delivery(), smtp: nil, lanes: 1)]) {
            try await waitUntil(within: 20) {
                let a = try await f.message(first).status
                let b = try await f.message(second).status
                return a == .dead && b == .dead
            }
        }
        let found = try await f.services.webhooks.subscription(id: subscription.id, by: f.fixture.admin.actor)
        #expect(found.disabledAt != nil)
        #expect(found.disabledReason?.contains("410") == true)
        #expect(try await f.message(first).lastError?.contains("410") == true)
        #expect(try await f.message(second).lastError?.contains("disabled") == true)
        #expect(receiver.deliveries(to: "/gone").count == 1)
        // A disabled subscription hears of nothing more.
        let day = f.fixture.weekday(10)
        _ = try await f.services.holidays.createRequest(for: f.fixture.alice.id, start: day, end: day, comment: "", actor: f.fixture.alice.actor)
        #expect(try await f.services.delivery.messages(status: .pending).filter { $0.draft.channel == .webhook }.isEmpty)
        await receiver.shutdown()
    }

    @Test("429 with Retry-After (seconds or a date): the next try waits that long")
    func throttled() async throws {
        let f = try await DeliveryFixture.make()
        defer { f.cleanUp() }
        let receiver = try await TestWebhookReceiver.start(routes: ["/seconds": "throttle-then-ok", "/date": "throttle-date-then-ok"])
        let seconds = try await f.enqueue(f.webhook(try await f.subscribe(receiver.url("/seconds"))))
        let date = try await f.enqueue(f.webhook(try await f.subscribe(receiver.url("/date"))))
        // Retry-After is honoured up to the policy's longest wait.
        let policy = RetryPolicy(firstDelay: 0.1, maximumDelay: 10, lease: 30)
        try await running([worker(try f.delivery(policy: policy), smtp: nil)]) {
            try await waitUntil(within: 20) {
                let a = try await f.message(seconds).status
                let b = try await f.message(date).status
                return a == .sent && b == .sent
            }
        }
        for path in ["/seconds", "/date"] {
            let deliveries = receiver.deliveries(to: path)
            #expect(deliveries.map { $0["status"] as? Int } == [429, 200])
            let gap = (deliveries[1]["received_at"] as? Double ?? 0) - (deliveries[0]["received_at"] as? Double ?? 0)
            // One second asked (a date has whole seconds: two seconds ahead is at least one).
            #expect(gap >= 0.95, "\(path): \(gap)")
        }
        await receiver.shutdown()
    }

    @Test("a hanging endpoint times out on its lane while the other messages go")
    func hanging() async throws {
        let f = try await DeliveryFixture.make()
        defer { f.cleanUp() }
        let receiver = try await TestWebhookReceiver.start(routes: ["/hang": "hang", "/ok": "ok"])
        let hung = try await f.enqueue(f.webhook(try await f.subscribe(receiver.url("/hang"))))
        let ok = try await f.subscribe(receiver.url("/ok"))
        var others: [Int64] = []
        for index in 0..<8 { others.append(try await f.enqueue(f.webhook(ok, body: #"{"n":\#(index)}"#))) }
        let timeout = 3.0
        try await running([worker(try f.delivery(), smtp: nil, webhooks: WebhookConfiguration(connectTimeout: 1, timeout: timeout, destinations: .testServers))]) {
            try await waitUntil(within: 20) { receiver.deliveries(to: "/ok").count == others.count }
            // All of them while the hanging request waited for its time-out.
            let hangStarted = try #require(receiver.deliveries(to: "/hang").first?["received_at"] as? Double)
            let lastOK = receiver.deliveries(to: "/ok").compactMap { $0["received_at"] as? Double }.max() ?? .infinity
            #expect(lastOK - hangStarted < timeout)
            #expect(try await f.message(hung).status == .pending)
            try await waitUntil(within: 20) { try await f.message(hung).lastError != nil }
        }
        let message = try await f.message(hung)
        #expect(message.status == .pending)
        #expect(message.lastError?.contains("curl 28") == true, "\(message.lastError ?? "")")
        for id in others { #expect(try await f.message(id).status == .sent) }
        await receiver.shutdown()
    }

    @Test("another 4xx is final; a removed subscription's message dies unsent")
    func final() async throws {
        let f = try await DeliveryFixture.make()
        defer { f.cleanUp() }
        let receiver = try await TestWebhookReceiver.start(routes: ["/bad": "status:400"])
        let bad = try await f.enqueue(f.webhook(try await f.subscribe(receiver.url("/bad"))))
        let removed = try await f.subscribe(receiver.url("/removed"))
        let orphan = try await f.enqueue(f.webhook(removed))
        try await f.services.webhooks.remove(id: removed.id, by: f.fixture.admin.actor)
        try await running([worker(try f.delivery(), smtp: nil)]) {
            try await waitUntil(within: 20) {
                let a = try await f.message(bad).status
                let b = try await f.message(orphan).status
                return a == .dead && b == .dead
            }
        }
        #expect(try await f.message(bad).attempts == 1)
        #expect(try await f.message(bad).lastError?.hasPrefix("HTTP 400") == true)
        #expect(try await f.message(orphan).lastError?.contains("removed") == true)
        #expect(receiver.deliveries(to: "/removed").isEmpty)
        await receiver.shutdown()
    }
}
