import CoreMetrics
import Foundation
import Logging
import SGCore
import ServiceLifecycle

/// The server's delivery of the outbox, as a service beside the HTTP server.
///
/// It leases due messages (`DeliveryService.claim`) only as many as it has idle lanes, so every message it holds
/// is being sent; sends them on its lanes, each a libcurl handle on a thread of its own; and records each outcome
/// (`DeliveryService.record`), which schedules the retries. A lane stuck on a slow endpoint leaves the others
/// working. When nothing is due it polls every `pollInterval`. Several workers, in one process or several, can
/// share a database: a lease is held by one owner at a time, and a worker that dies leaves its messages to the
/// others once the lease runs out. A graceful shutdown stops the claiming and waits for the sends under way (each
/// bounded by its time-out). Database failures are logged and waited out, never thrown.
public struct DeliveryWorker: Service {
    public struct Options: Sendable {
        /// This worker's name in the outbox's leases: unique to the process.
        public var owner: String
        /// How many messages are sent at once.
        public var lanes: Int
        /// The wait between looks at the outbox when nothing was due.
        public var pollInterval: Duration
        /// How often sent messages older than `DeliveryService.sentRetention` are deleted.
        public var purgeInterval: Duration
        /// The longest wait after repeated database failures.
        public var maximumBackoff: Duration
        /// Approvers get a daily digest of requests that have waited this many hours (nil: no reminders).
        public var reminderAfterHours: Int?
        /// How often the reminders are looked at (each approver's digest is written once a company day).
        public var reminderInterval: Duration

        /// The defaults, which the settings (SG_DELIVERY_POLL_MS, SG_REMINDER_AFTER_HOURS) name too.
        public static let defaultPollMilliseconds = 1000
        public static let defaultReminderAfterHours = 48

        public init(
            owner: String = DeliveryWorker.uniqueOwner(), lanes: Int = 4,
            pollInterval: Duration = .milliseconds(defaultPollMilliseconds),
            purgeInterval: Duration = .seconds(3600), maximumBackoff: Duration = .seconds(30),
            reminderAfterHours: Int? = defaultReminderAfterHours, reminderInterval: Duration = .seconds(300)
        ) {
            self.reminderAfterHours = reminderAfterHours
            self.reminderInterval = reminderInterval
            self.owner = owner
            self.lanes = lanes
            self.pollInterval = pollInterval
            self.purgeInterval = purgeInterval
            self.maximumBackoff = maximumBackoff
        }
    }

    public let delivery: DeliveryService
    /// Nil when the server sends no e-mail: its e-mail messages are left in the outbox.
    public let email: SMTPSender?
    public let webhooks: WebhookSender
    /// Nil when the server pushes to no platform: its push messages are left in the outbox.
    public let push: PushSender?
    public let options: Options
    private let logger: Logger
    /// `sg_deliveries_total` by channel and result (delivered, retry, dead, gone).
    private let results: [String: CoreMetrics.Counter]

    public init(
        delivery: DeliveryService, email: SMTPSender?, webhooks: WebhookSender = WebhookSender(), push: PushSender? = nil,
        options: Options = Options(),
        logger: Logger = Logger(label: "sgserver.delivery"), metrics: any MetricsFactory = NOOPMetricsHandler.instance
    ) {
        self.delivery = delivery
        self.email = email
        self.webhooks = webhooks
        self.push = push.flatMap { $0.configuration.platforms.isEmpty ? nil : $0 }
        self.options = options
        self.logger = logger
        var results: [String: CoreMetrics.Counter] = [:]
        for channel in DeliveryChannel.allCases {
            for result in ["delivered", "retry", "dead", "gone"] {
                results["\(channel.rawValue) \(result)"] = CoreMetrics.Counter(
                    label: "sg_deliveries_total", dimensions: [("channel", channel.rawValue), ("result", result)], factory: metrics)
            }
        }
        self.results = results
    }

    private func count(_ message: OutboxMessage, _ result: String) {
        results["\(message.draft.channel.rawValue) \(result)"]?.increment()
    }

    /// The channels this worker sends.
    public var channels: Set<DeliveryChannel> {
        var channels: Set<DeliveryChannel> = [.webhook]
        if email != nil { channels.insert(.email) }
        if push != nil { channels.insert(.push) }
        return channels
    }

    /// "host:pid:random", so that two processes on one host, or two workers in one, never share leases.
    public static func uniqueOwner() -> String {
        var name = [CChar](repeating: 0, count: 256)
        let host = gethostname(&name, name.count - 1) == 0 ? name.withUnsafeBufferPointer { String(cString: $0.baseAddress!) } : "host"
        return "\(host):\(getpid()):\(UUID().uuidString.prefix(8).lowercased())"
    }

    private enum Event: Sendable {
        /// A send on this lane is over and its outcome recorded.
        case finished(lane: Int)
        /// Time to look at the outbox again.
        case tick
    }

    public func run() async {
        let lanes = (0..<max(1, options.lanes)).map { CurlLane(name: "sgdelivery.lane.\($0)") }
        let clock = ContinuousClock()
        logger.info(
            "Delivery worker started",
            metadata: [
                "owner": "\(options.owner)", "lanes": "\(lanes.count)", "email": "\(email != nil ? "on" : "off")",
                "push": "\(push?.configuration.platforms.map(\.rawValue).sorted().joined(separator: ",") ?? "off")",
            ])
        await withTaskGroup(of: Event.self) { group in
            var idle = Array(lanes.indices.reversed())
            var busy = 0
            var ticking = false
            var nextClaim = clock.now
            var nextPurge = clock.now
            var nextReminder = clock.now
            var failures = 0
            while true {
                let stopping = Task.isShuttingDownGracefully || Task.isCancelled
                if !stopping {
                    if clock.now >= nextPurge {
                        await purge()
                        nextPurge = clock.now.advanced(by: options.purgeInterval)
                    }
                    if let hours = options.reminderAfterHours, clock.now >= nextReminder {
                        await remind(waitingHours: hours)
                        nextReminder = clock.now.advanced(by: options.reminderInterval)
                    }
                    if !idle.isEmpty, clock.now >= nextClaim {
                        let limit = idle.count
                        do {
                            let messages = try await delivery.claim(owner: options.owner, limit: limit, channels: channels)
                            failures = 0
                            for message in messages {
                                let lane = idle.removeLast()
                                busy += 1
                                group.addTask {
                                    await self.deliver(message, on: lanes[lane])
                                    return .finished(lane: lane)
                                }
                            }
                            // A full claim may have left more: claim again as soon as a lane is idle.
                            nextClaim = messages.count < limit ? clock.now.advanced(by: options.pollInterval) : clock.now
                        } catch {
                            failures += 1
                            let backoff = min(options.maximumBackoff, options.pollInterval * (1 << min(failures, 16)))
                            logger.warning(
                                "Cannot read the outbox; trying again later",
                                metadata: ["error": "\(error)", "retryIn": "\(backoff)"])
                            nextClaim = clock.now.advanced(by: backoff)
                        }
                        continue
                    }
                    if !idle.isEmpty, !ticking {
                        ticking = true
                        let wait = clock.now.duration(to: nextClaim)
                        group.addTask {
                            await Self.sleep(wait)
                            return .tick
                        }
                    }
                }
                if stopping, busy == 0 { break }
                guard let event = await group.next() else { break }
                switch event {
                case .finished(let lane):
                    idle.append(lane)
                    busy -= 1
                case .tick:
                    ticking = false
                }
            }
            group.cancelAll()
        }
        for lane in lanes { await lane.close() }
        logger.info("Delivery worker stopped", metadata: ["owner": "\(options.owner)"])
    }

    /// Sleeps for `duration`, or less when a graceful shutdown begins or the task is cancelled.
    private static func sleep(_ duration: Duration) async {
        guard duration > .zero else { return }
        try? await cancelWhenGracefulShutdown { try await Task.sleep(for: duration) }
    }

    // MARK: One message

    private func deliver(_ message: OutboxMessage, on lane: CurlLane) async {
        let outcome = await attempt(message, on: lane)
        await record(outcome, for: message)
    }

    private func attempt(_ message: OutboxMessage, on lane: CurlLane) async -> DeliveryOutcome {
        switch message.draft.channel {
        case .email:
            guard let email else { return .temporaryFailure("e-mail is off on this server (no SG_SMTP_URL)") }
            return await email.send(message, on: lane)
        case .webhook:
            guard let id = message.draft.webhookID else {
                return .permanentFailure("the message names no webhook subscription")
            }
            let subscription: WebhookSubscription?
            do {
                subscription = try await delivery.webhook(id: id)
            } catch {
                return .temporaryFailure("webhook \(id) could not be read: \(error)")
            }
            guard let subscription else { return .permanentFailure("webhook \(id) was removed") }
            if subscription.disabledAt != nil {
                return .permanentFailure("webhook \(id) is disabled: \(subscription.disabledReason ?? "by an admin")")
            }
            return await webhooks.send(message, secret: subscription.secret, at: delivery.clock.now(), on: lane)
        case .push:
            guard let push else { return .temporaryFailure("push is off on this server (no platform configured)") }
            let device: Device?
            do {
                device = try await delivery.pushDevice(for: message)
            } catch {
                return .temporaryFailure("the device could not be read: \(error)")
            }
            guard let device else { return .permanentFailure("the device is no longer registered for this employee") }
            return await push.send(message, to: device, at: delivery.clock.now(), on: lane)
        }
    }

    /// Records `outcome`, trying again a few times if the database is busy or failing. A worker that cannot record
    /// leaves the message leased: it is tried again when the lease ends (sent twice, at worst; the Message-ID and
    /// webhook-id let receivers drop the repeat).
    private func record(_ outcome: DeliveryOutcome, for message: OutboxMessage) async {
        var metadata: Logger.Metadata = [
            "message": "\(message.id)", "channel": "\(message.draft.channel.rawValue)",
            "event": "\(message.draft.event.rawValue)", "attempt": "\(message.attempts)",
        ]
        var wait = Duration.milliseconds(200)
        for round in 1...4 {
            do {
                let status = try await delivery.record(outcome, for: message, owner: options.owner)
                switch (outcome, status) {
                case (.delivered, _):
                    count(message, "delivered")
                    logger.info("Delivered", metadata: metadata)
                case (.temporaryFailure(let reason, _), .pending):
                    count(message, "retry")
                    metadata["error"] = "\(reason)"
                    logger.notice("Delivery failed; will try again", metadata: metadata)
                case (.temporaryFailure(let reason, _), _), (.permanentFailure(let reason), _):
                    count(message, "dead")
                    metadata["error"] = "\(reason)"
                    logger.warning("Delivery failed for good; the message is dead", metadata: metadata)
                case (.gone(let reason), _) where message.draft.channel == .push:
                    count(message, "gone")
                    metadata["error"] = "\(reason)"
                    metadata["platform"] = "\(message.draft.recipientName)"
                    logger.notice("The push service no longer knows the device; it is removed", metadata: metadata)
                case (.gone(let reason), _):
                    count(message, "gone")
                    metadata["error"] = "\(reason)"
                    metadata["webhook"] = "\(message.draft.webhookID.map(String.init) ?? "?")"
                    logger.warning("The webhook's endpoint is gone; its subscription is disabled", metadata: metadata)
                }
                return
            } catch {
                metadata["error"] = "\(error)"
                if round == 4 {
                    logger.error("Cannot record a delivery; the message is tried again when its lease ends", metadata: metadata)
                    return
                }
                logger.warning("Cannot record a delivery yet", metadata: metadata)
                try? await Task.sleep(for: wait)
                wait *= 4
            }
        }
    }

    private func remind(waitingHours: Int) async {
        do {
            let written = try await delivery.remind(waitingHours: waitingHours)
            if written > 0 { logger.info("Wrote reminder digests", metadata: ["count": "\(written)"]) }
        } catch {
            logger.warning("Cannot write the reminders; trying again later", metadata: ["error": "\(error)"])
        }
    }

    private func purge() async {
        do {
            let purged = try await delivery.purgeSent(
                before: delivery.clock.now().addingTimeInterval(-DeliveryService.sentRetention))
            if purged > 0 { logger.info("Purged sent messages", metadata: ["count": "\(purged)"]) }
        } catch {
            logger.warning("Cannot purge sent messages", metadata: ["error": "\(error)"])
        }
    }
}
