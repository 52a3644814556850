import Foundation
import SGCore
import SGDelivery
import SGStore
import SGTestSupport
import Testing

/// The worker's own promises: exactly once across workers, a dead worker's messages taken over with the same ids,
/// e-mail left alone when off, database failures waited out, old sent messages purged.
@Suite("Delivery worker", .serialized, .enabled(if: Harness.shouldRun, "needs .venv (scripts/venv.sh)"))
struct WorkerTests {
    @Test("two workers on one database file: each message delivered exactly once")
    func twoWorkers() async throws {
        let f = try await DeliveryFixture.make()
        defer { f.cleanUp() }
        let smtp = try await TestSMTPServer.start()
        let receiver = try await TestWebhookReceiver.start(routes: [:])
        let subscription = try await f.subscribe(receiver.url("/hooks"))
        for index in 0..<30 { try await f.enqueue(f.email(to: "p\(index)@example.com")) }
        for index in 0..<10 { try await f.enqueue(f.webhook(subscription, body: #"{"n":\#(index)}"#)) }
        let configuration = try smtp.configuration()
        let first = worker(try f.delivery(), smtp: configuration, owner: "worker-a", lanes: 2)
        // The second one opens the file again, as a second server process would.
        let second = worker(try f.delivery(separateFile: true), smtp: configuration, owner: "worker-b", lanes: 2)
        try await running([first, second]) {
            try await waitUntil(within: 60) { try await f.counts()[.sent] == 40 }
        }
        let mail = smtp.messages
        #expect(mail.count == 30)
        #expect(Set(mail.compactMap { $0["message_id"] as? String }).count == 30)
        #expect(Set(mail.compactMap { $0["to_address"] as? String }).count == 30)
        let hooks = receiver.deliveries
        #expect(hooks.count == 10)
        #expect(Set(hooks.compactMap { $0["id"] as? String }).count == 10)
        #expect(try await f.services.delivery.messages().allSatisfy { $0.attempts == 1 })
        await smtp.shutdown()
        await receiver.shutdown()
    }

    @Test("a worker that died mid-send: after its lease another sends the messages, with the same Message-ID and webhook-id")
    func takeOver() async throws {
        let f = try await DeliveryFixture.make()
        defer { f.cleanUp() }
        let smtp = try await TestSMTPServer.start()
        let receiver = try await TestWebhookReceiver.start(routes: [:])
        let mailID = try await f.enqueue(f.email(to: "jose@example.com"))
        let hookID = try await f.enqueue(f.webhook(try await f.subscribe(receiver.url("/hooks"))))
        // The dead worker claimed both, and never said what became of them.
        let dead = try f.delivery()
        let claimed = try await dead.claim(owner: "dead-worker", limit: 10)
        #expect(claimed.map(\.id).sorted() == [mailID, hookID])
        let started = ContinuousClock.now
        try await running([worker(try f.delivery(), smtp: try smtp.configuration(), owner: "survivor")]) {
            try await Task.sleep(for: .seconds(1))
            // Still leased.
            #expect(smtp.messages.isEmpty && receiver.deliveries.isEmpty)
            try await waitUntil(within: 20) { try await f.counts()[.sent] == 2 }
        }
        #expect(ContinuousClock.now - started >= .seconds(DeliveryFixture.policy.lease - 0.5))
        let mail = try #require(claimed.first { $0.id == mailID })
        let hook = try #require(claimed.first { $0.id == hookID })
        #expect(smtp.messages.map { $0["message_id"] as? String } == ["<\(mail.deliveryID)@sgemployee.test>"])
        #expect(receiver.deliveries.map { $0["id"] as? String } == [hook.deliveryID])
        #expect(try await f.message(mailID).attempts == 2)
        // The dead worker waking up late changes nothing: its lease is gone.
        try await dead.record(.temporaryFailure("late"), for: mail, owner: "dead-worker")
        #expect(try await f.message(mailID).status == .sent)
        #expect(try await f.message(mailID).lastError == nil)
        await smtp.shutdown()
        await receiver.shutdown()
    }

    @Test("a lane keeps its connections: one SMTP session and one HTTP connection for many messages")
    func connectionsReused() async throws {
        let f = try await DeliveryFixture.make()
        defer { f.cleanUp() }
        let smtp = try await TestSMTPServer.start()
        let receiver = try await TestWebhookReceiver.start(routes: [:])
        let subscription = try await f.subscribe(receiver.url("/hooks"))
        // Alternating, so the lane goes from SMTP to HTTP and back between messages.
        for index in 0..<5 {
            try await f.enqueue(f.email(to: "p\(index)@example.com"))
            try await f.enqueue(f.webhook(subscription, body: #"{"n":\#(index)}"#))
        }
        try await running([worker(try f.delivery(), smtp: try smtp.configuration(), lanes: 1)]) {
            try await waitUntil(within: 20) { try await f.counts()[.sent] == 10 }
        }
        #expect(Set(smtp.messages.compactMap { $0["peer"] as? Int }).count == 1, "\(smtp.messages.map { $0["peer"] ?? "" })")
        #expect(Set(receiver.deliveries.compactMap { $0["peer"] as? Int }).count == 1)
        await smtp.shutdown()
        await receiver.shutdown()
    }

    @Test("a graceful shutdown takes nothing new and waits for the sends under way, whose outcome it records")
    func gracefulShutdown() async throws {
        let f = try await DeliveryFixture.make()
        defer { f.cleanUp() }
        let receiver = try await TestWebhookReceiver.start(routes: ["/hang": "hang"])
        let hung = try await f.enqueue(f.webhook(try await f.subscribe(receiver.url("/hang"))))
        let timeout = 2.0
        let shutdown = try await running(
            [worker(try f.delivery(), smtp: nil, webhooks: WebhookConfiguration(connectTimeout: 1, timeout: timeout, destinations: .testServers))]
        ) { () async throws -> ContinuousClock.Instant in
            try await waitUntil(within: 20) { !receiver.deliveries.isEmpty }
            return ContinuousClock.now
        }
        // `running` returned when the worker did: after the hanging request's time-out, not before.
        let waited = ContinuousClock.now - shutdown
        #expect(waited >= .seconds(timeout - 0.5))
        #expect(waited < .seconds(timeout + 3))
        let message = try await f.message(hung)
        #expect(message.status == .pending)
        #expect(message.leaseOwner == nil)
        #expect(message.lastError?.contains("curl 28") == true)
        // Tried once: after the shutdown began nothing more was taken, this message included.
        #expect(receiver.deliveries.count == 1)
        await receiver.shutdown()
    }

    @Test("e-mail off: webhooks go, e-mail messages are not even claimed")
    func emailOff() async throws {
        let f = try await DeliveryFixture.make()
        defer { f.cleanUp() }
        let receiver = try await TestWebhookReceiver.start(routes: [:])
        let mail = try await f.enqueue(f.email(to: "someone@example.com"))
        let hook = try await f.enqueue(f.webhook(try await f.subscribe(receiver.url("/hooks"))))
        try await running([worker(try f.delivery(), smtp: nil)]) {
            try await waitUntil(within: 20) { try await f.message(hook).status == .sent }
            try await Task.sleep(for: .milliseconds(300))
        }
        let message = try await f.message(mail)
        #expect(message.status == .pending)
        #expect(message.attempts == 0)
        #expect(message.leaseOwner == nil)
        await receiver.shutdown()
    }

    @Test("a failing database is logged and waited out; the worker goes on when it answers again")
    func databaseFailures() async throws {
        let f = try await DeliveryFixture.make()
        defer { f.cleanUp() }
        let receiver = try await TestWebhookReceiver.start(routes: [:])
        let hook = try await f.enqueue(f.webhook(try await f.subscribe(receiver.url("/hooks"))))
        let store = FailingStore(f.database.outboxStore, failures: 4)
        let delivery = DeliveryService(store: store, clock: SystemClock(), policy: DeliveryFixture.policy)
        try await running([worker(delivery, smtp: nil)]) {
            try await waitUntil(within: 20) { try await f.message(hook).status == .sent }
        }
        #expect(store.failed == 4)
        #expect(receiver.deliveries.count == 1)
        await receiver.shutdown()
    }

    @Test("sent messages older than the retention are purged when the worker starts")
    func purge() async throws {
        let f = try await DeliveryFixture.make()
        defer { f.cleanUp() }
        let old = try await f.enqueue(f.email(to: "old@example.com"))
        let recent = try await f.enqueue(f.email(to: "recent@example.com"))
        let now = Date()
        let aged = now.addingTimeInterval(-DeliveryService.sentRetention - 3600)
        try await f.database.outboxStore.write { tx in
            _ = try tx.claimDue(owner: "earlier", now: now, leaseUntil: now.addingTimeInterval(60), limit: 10, channels: [.email])
            _ = try tx.markSent(id: old, owner: "earlier", at: aged)
            _ = try tx.markSent(id: recent, owner: "earlier", at: now)
        }
        try await running([worker(try f.delivery(), smtp: nil)]) {
            try await waitUntil(within: 20) { try await f.counts()[.sent] == 1 }
        }
        await #expect(throws: SGError.self) { try await f.message(old) }
        #expect(try await f.message(recent).status == .sent)
    }
}

/// The outbox's store, failing its first `failures` reads and writes as a locked or broken database would.
final class FailingStore: TransactionalStore, @unchecked Sendable {
    typealias Reading = any OutboxReading
    typealias Writing = any OutboxTransaction

    private let inner: any OutboxStore
    private let lock = NSLock()
    private var remaining: Int
    private(set) var failed = 0

    init(_ inner: any OutboxStore, failures: Int) {
        self.inner = inner
        remaining = failures
    }

    private func fail() throws {
        try lock.withLock {
            guard remaining > 0 else { return }
            remaining -= 1
            failed += 1
            throw SGError.unavailable("database is locked", retryAfterSeconds: 1)
        }
    }

    func read<T: Sendable>(_ body: @escaping @Sendable (Reading) throws -> T) async throws -> T {
        try fail()
        return try await inner.read(body)
    }

    func write<T: Sendable>(_ body: @escaping @Sendable (Writing) throws -> T) async throws -> T {
        try fail()
        return try await inner.write(body)
    }
}
