import Foundation

/// When to try a message again, and when to give up.
public struct RetryPolicy: Sendable, Equatable {
    /// The wait after the first failure; each further failure doubles it, up to `maximumDelay`.
    public var firstDelay: TimeInterval
    public var maximumDelay: TimeInterval
    /// How long a worker holds a claimed message; longer than any one attempt may take.
    public var lease: TimeInterval

    /// A message still failing a day after it was written (or revived by an operator) is dead.
    public static let standardGiveUpAfter: TimeInterval = 86_400

    public init(firstDelay: TimeInterval = 30, maximumDelay: TimeInterval = 3600, lease: TimeInterval = 120) {
        self.firstDelay = firstDelay
        self.maximumDelay = maximumDelay
        self.lease = lease
    }

    /// The wait before attempt `attempts + 1`: exponential, with "equal jitter" (half fixed, half random) so that
    /// messages failing together do not return together. `jitter` is in 0...1. A receiver's Retry-After is
    /// honoured up to `maximumDelay`.
    public func delay(afterAttempts attempts: Int, retryAfter: TimeInterval?, jitter: Double) -> TimeInterval {
        let exponent = Double(min(max(attempts - 1, 0), 30))
        let base = min(maximumDelay, firstDelay * pow(2, exponent))
        let jittered = base / 2 + base / 2 * min(max(jitter, 0), 1)
        guard let retryAfter, retryAfter > 0 else { return jittered }
        return min(maximumDelay, max(jittered, retryAfter))
    }
}

/// The outbox's use cases: the delivery worker claims and records attempts; operators inspect, retry and purge.
public struct DeliveryService: Sendable {
    public static let maximumLimit = 1000
    /// Sent messages older than this are purged by the server.
    public static let sentRetention: TimeInterval = 30 * 86_400

    public let store: any OutboxStore
    public let clock: any NowProvider
    public let policy: RetryPolicy

    public init(store: any OutboxStore, clock: any NowProvider = SystemClock(), policy: RetryPolicy = RetryPolicy()) {
        self.store = store
        self.clock = clock
        self.policy = policy
    }

    // MARK: The worker

    /// Leases up to `limit` due messages of `channels` for `owner`.
    public func claim(
        owner: String, limit: Int, channels: Set<DeliveryChannel> = Set(DeliveryChannel.allCases)
    ) async throws -> [OutboxMessage] {
        let now = clock.now()
        let until = now.addingTimeInterval(policy.lease)
        guard limit > 0, !channels.isEmpty else { return [] }
        return try await store.write { tx in
            try tx.claimDue(owner: owner, now: now, leaseUntil: until, limit: limit, channels: channels)
        }
    }

    /// The subscription a webhook message is for (its URL and signing secret), disabled or not; nil when it was
    /// removed.
    public func webhook(id: Int64) async throws -> WebhookSubscription? {
        try await store.read { tx in try tx.webhook(id: id) }
    }

    /// The device a push message is for, if its employee still has it (a token registered since by someone else
    /// is theirs now, and gets nothing meant for the previous owner).
    public func pushDevice(for message: OutboxMessage) async throws -> Device? {
        guard let employeeID = message.draft.employeeID else { return nil }
        return try await store.read { tx in
            guard let found = try tx.pushDevice(token: message.draft.address), found.employeeID == employeeID else { return nil }
            return found.device
        }
    }

    /// Records one attempt's outcome; returns the message's status after it. A worker that lost its lease (it
    /// took longer than the lease) changes nothing.
    @discardableResult
    public func record(_ outcome: DeliveryOutcome, for message: OutboxMessage, owner: String, jitter: Double = Double.random(in: 0...1)) async throws -> OutboxStatus {
        let now = clock.now()
        let policy = policy
        return try await store.write { tx in
            switch outcome {
            case .delivered:
                _ = try tx.markSent(id: message.id, owner: owner, at: now)
                return .sent
            case .permanentFailure(let reason):
                _ = try tx.markDead(id: message.id, owner: owner, error: reason, at: now)
                return .dead
            case .gone(let reason):
                if let webhookID = message.draft.webhookID {
                    try tx.disableWebhook(id: webhookID, at: now, reason: reason)
                }
                if message.draft.channel == .push, let employeeID = message.draft.employeeID {
                    try tx.removePushDevice(token: message.draft.address, employeeID: employeeID)
                }
                _ = try tx.markDead(id: message.id, owner: owner, error: reason, at: now)
                return .dead
            case .temporaryFailure(let reason, let retryAfter):
                let next = now.addingTimeInterval(policy.delay(afterAttempts: message.attempts, retryAfter: retryAfter, jitter: jitter))
                // A day of tries, counted from the message (or from its revival by an operator).
                if next > message.giveUpAt {
                    _ = try tx.markDead(
                        id: message.id, owner: owner, error: "gave up after \(message.attempts) attempts: \(reason)", at: now)
                    return .dead
                }
                _ = try tx.reschedule(id: message.id, owner: owner, next: next, error: reason)
                return .pending
            }
        }
    }

    // MARK: Reminders

    /// The company's hour from which the day's reminders go out.
    public static let reminderHour = 8

    /// Once a company day, from `reminderHour`: each person asked to decide (`Approval.asked`) who wants e-mail gets
    /// one digest of the requests asked of them that have waited more than `waitingHours` for a decision. Safe to call often and from several
    /// servers: a digest is keyed by approver and day, so a second call writes nothing. Returns how many were written.
    @discardableResult
    public func remind(waitingHours: Int) async throws -> Int {
        let now = clock.now()
        return try await store.write { tx in
            let company = try tx.company()
            let today = HolidayService.today(now, company)
            let configuration = try tx.deliveryConfiguration()
            let sinceMidnight = now.timeIntervalSince(today.start(in: company.timeZone))
            guard configuration.emailEnabled, sinceMidnight >= Double(Self.reminderHour) * 3600 else { return 0 }
            let waiting = try tx.waitingRequests(createdBefore: now.addingTimeInterval(-Double(waitingHours) * 3600))
            guard !waiting.isEmpty else { return 0 }
            var asked: [Int64: [(request: HolidayRequest, owner: Employee)]] = [:]
            var contexts: [Int64: ApprovalContext] = [:]
            var privateTypes: [Int64: Bool] = [:]
            for item in waiting {
                let context = try contexts[item.owner.id] ?? tx.approvalContext(employeeID: item.owner.id, on: today)
                contexts[item.owner.id] = context
                let isPrivate = try privateTypes[item.request.leaveTypeID] ?? tx.leaveTypeIsPrivate(id: item.request.leaveTypeID)
                privateTypes[item.request.leaveTypeID] = isPrivate
                // The digest goes to others than the owner: a private type is an absence there, as in every message.
                let shown = (request: item.request.shownToOthers(isPrivate: isPrivate), owner: item.owner)
                for person in Approval.asked(for: item.request, context) where person.id != item.owner.id {
                    asked[person.id, default: []].append(shown)
                }
            }
            var written = 0
            for (id, theirs) in asked.sorted(by: { $0.key < $1.key }) {
                guard let approver = try tx.recipient(employeeID: id), approver.reachableByEmail else { continue }
                let digest = ReminderMail(
                    requests: theirs, waitingHours: waitingHours, publicURL: configuration.publicURL, language: approver.language)
                let key = "reminder:\(approver.employeeID):\(today)"
                // A digest already written today (by this server or another) is not written again.
                if try tx.enqueue(
                    OutboxDraft(
                        channel: .email, event: .holidayReminder, employeeID: approver.employeeID, address: approver.email,
                        recipientName: approver.name, subject: digest.subject, body: digest.body, dedupeKey: key),
                    at: now) {
                    written += 1
                }
            }
            return written
        }
    }

    // MARK: Operators

    public func messages(status: OutboxStatus? = nil, afterID: Int64? = nil, limit: Int = 100) async throws -> [OutboxMessage] {
        try Self.checkLimit(limit)
        return try await store.read { tx in try tx.outboxMessages(status: status, afterID: afterID, limit: limit) }
    }

    /// Up to `limit` messages by id after `afterID`, whether more follow, and how many each status holds, read in one
    /// transaction so that the counts describe the same outbox as the page.
    public func page(status: OutboxStatus? = nil, afterID: Int64? = nil, limit: Int) async throws -> OutboxPage {
        try Self.checkLimit(limit)
        return try await store.read { tx in
            // One more than asked tells whether a next page exists.
            let found = try tx.outboxMessages(status: status, afterID: afterID, limit: limit + 1)
            let items = Array(found.prefix(limit))
            return OutboxPage(items: items, nextAfterID: found.count > limit ? items.last?.id : nil, counts: try tx.outboxCounts())
        }
    }

    private static func checkLimit(_ limit: Int) throws {
        guard (1...maximumLimit).contains(limit) else {
            throw SGError.invalid(field: "limit", message: "must be between 1 and \(maximumLimit)")
        }
    }

    public func message(id: Int64) async throws -> OutboxMessage {
        try await store.read { tx in
            guard let message = try tx.outboxMessage(id: id) else { throw SGError.notFound("Outbox message \(id) does not exist.") }
            return message
        }
    }

    public func counts() async throws -> [OutboxStatus: Int] {
        try await store.read { tx in try tx.outboxCounts() }
    }

    /// A dead message back to pending, due now, with a new day of tries.
    public func retry(id: Int64) async throws -> OutboxMessage {
        let now = clock.now()
        return try await store.write { tx in
            guard let message = try tx.outboxMessage(id: id) else { throw SGError.notFound("Outbox message \(id) does not exist.") }
            guard message.status == .dead else {
                throw SGError.conflict("Outbox message \(id) is \(message.status.rawValue); only a dead message can be retried.")
            }
            _ = try tx.revive(id: id, at: now, giveUpAt: now.addingTimeInterval(RetryPolicy.standardGiveUpAfter))
            return try tx.outboxMessage(id: id)!
        }
    }

    /// Every dead message back to pending; returns how many.
    public func retryDead() async throws -> Int {
        let now = clock.now()
        return try await store.write { tx in try tx.revive(id: nil, at: now, giveUpAt: now.addingTimeInterval(RetryPolicy.standardGiveUpAfter)) }
    }

    /// Deletes the messages sent before `instant`; returns how many.
    public func purgeSent(before instant: Date) async throws -> Int {
        try await store.write { tx in try tx.purgeSent(before: instant) }
    }

    /// Deletes the messages sent before the start of `day` in the company's time zone; returns how many.
    public func purgeSent(before day: CalendarDate) async throws -> Int {
        try await store.write { tx in try tx.purgeSent(before: day.start(in: try tx.company().timeZone)) }
    }

    /// How the servers deliver, as the last one started wrote it.
    public func configuration() async throws -> DeliveryConfiguration {
        try await store.read { tx in try tx.deliveryConfiguration() }
    }

    /// Writes how this server delivers, for `sgadmin` and the other servers to compose messages alike.
    public func announce(_ configuration: DeliveryConfiguration) async throws {
        try await store.write { tx in try tx.saveDeliveryConfiguration(configuration) }
    }
}
