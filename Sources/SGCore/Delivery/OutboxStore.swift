import Foundation

/// Written by every transaction that reports an event, so a message exists exactly when its event does.
public protocol OutboxWriting {
    /// Adds one pending message, due at once, tried until `giveUpAt`. A draft whose `dedupeKey` is already in the
    /// outbox is ignored: returns whether it was written.
    @discardableResult
    func enqueue(_ draft: OutboxDraft, at: Date, giveUpAt: Date) throws -> Bool
}

extension OutboxWriting {
    /// Adds a message tried for the standard day.
    @discardableResult
    public func enqueue(_ draft: OutboxDraft, at: Date) throws -> Bool {
        try enqueue(draft, at: at, giveUpAt: at.addingTimeInterval(RetryPolicy.standardGiveUpAfter))
    }
}

/// Who may hear of an event, read in the event's transaction.
public protocol AudienceReading {
    /// How this deployment delivers: written by the server at start, read by both binaries.
    func deliveryConfiguration() throws -> DeliveryConfiguration
    func recipient(employeeID: Int64) throws -> Recipient?
    /// The active ones of `employeeIDs`, in the order given: one read for a request's deciders.
    func recipients(employeeIDs: [Int64]) throws -> [Recipient]
    /// Every active employee, for company-wide news.
    func everyone() throws -> [Recipient]
    /// The active subscriptions that want `event`.
    func webhookSubscriptions(for event: DeliveryEvent) throws -> [WebhookSubscription]
    /// The devices of an active employee, oldest registration first (none while their push switch is off).
    func pushDevices(employeeID: Int64) throws -> [Device]
    /// Whether requests of the leave type are private (colleagues see only an absence).
    func leaveTypeIsPrivate(id: Int64) throws -> Bool
}

/// What the delivery worker and `sgadmin outbox` read.
public protocol OutboxReading: CompanyReading {
    /// How this deployment delivers, as the server last wrote it.
    func deliveryConfiguration() throws -> DeliveryConfiguration
    func outboxMessage(id: Int64) throws -> OutboxMessage?
    /// Messages by id, after `afterID`, optionally of one status.
    func outboxMessages(status: OutboxStatus?, afterID: Int64?, limit: Int) throws -> [OutboxMessage]
    /// How many messages there are of each status.
    func outboxCounts() throws -> [OutboxStatus: Int]
    /// A subscription, disabled or not: the worker signs a webhook message with its secret.
    func webhook(id: Int64) throws -> WebhookSubscription?
    /// The device with this token and who registered it last, or nil: the worker pushes only to a device still
    /// registered by the message's employee.
    func pushDevice(token: String) throws -> (employeeID: Int64, device: Device)?
}

public protocol OutboxTransaction: OutboxReading, OutboxWriting, AudienceReading, ApprovalReading {
    /// Leases up to `limit` pending messages of `channels` that are due and not leased by a live worker, oldest
    /// due first, and counts an attempt on each. (A server without e-mail leaves e-mail to one that has it.)
    func claimDue(owner: String, now: Date, leaseUntil: Date, limit: Int, channels: Set<DeliveryChannel>) throws -> [OutboxMessage]
    /// Each of these changes a message only while `owner` holds its lease (nil: whoever holds it), and says
    /// whether it did.
    func markSent(id: Int64, owner: String, at: Date) throws -> Bool
    func reschedule(id: Int64, owner: String, next: Date, error: String) throws -> Bool
    func markDead(id: Int64, owner: String?, error: String, at: Date) throws -> Bool
    /// A dead message (or every dead one, when `id` is nil) back to pending, due now, with a new day of tries.
    func revive(id: Int64?, at: Date, giveUpAt: Date) throws -> Int
    /// Deletes sent messages sent before `date`; returns how many.
    func purgeSent(before date: Date) throws -> Int
    /// Switches a subscription off (its endpoint answered 410 Gone).
    func disableWebhook(id: Int64, at: Date, reason: String) throws
    /// Removes a device the push service no longer knows, if the employee still has it.
    func removePushDevice(token: String, employeeID: Int64) throws
    /// Pending requests of active employees created before `instant`, oldest first, with their owners.
    func waitingRequests(createdBefore instant: Date) throws -> [(request: HolidayRequest, owner: Employee)]
    /// Writes the server's delivery configuration, for `sgadmin` and the other servers to read.
    func saveDeliveryConfiguration(_ configuration: DeliveryConfiguration) throws
}

public typealias OutboxStore = TransactionalStore<any OutboxReading, any OutboxTransaction>

/// Someone who may get e-mail or push.
public struct Recipient: Sendable, Equatable {
    public let employeeID: Int64
    public let name: String
    public let email: String
    /// Their switch for e-mail in `/v1/me/settings`.
    public let wantsEmail: Bool
    /// What their push messages are written in.
    public let language: Language

    public init(employeeID: Int64, name: String, email: String, wantsEmail: Bool, language: Language = .en) {
        self.employeeID = employeeID
        self.name = name
        self.email = email
        self.wantsEmail = wantsEmail
        self.language = language
    }

    /// They want e-mail and have an address to receive it.
    public var reachableByEmail: Bool { wantsEmail && !email.isEmpty }
}

/// How this deployment delivers, as the server last wrote it.
public struct DeliveryConfiguration: Sendable, Equatable {
    /// Whether the server sends e-mail (it has an SMTP URL).
    public var emailEnabled: Bool
    /// The base of links in messages (`SG_PUBLIC_URL`), without a trailing slash; "" when not set.
    public var publicURL: String
    /// The device platforms the server pushes to (those configured); push messages are written only for these.
    public var pushPlatforms: Set<DevicePlatform>
    /// The server's VAPID public key (base64url, uncompressed P-256) for browsers to subscribe with; "" without
    /// Web Push.
    public var vapidPublicKey: String

    public init(emailEnabled: Bool = false, publicURL: String = "", pushPlatforms: Set<DevicePlatform> = [], vapidPublicKey: String = "") {
        self.emailEnabled = emailEnabled
        self.publicURL = publicURL
        self.pushPlatforms = pushPlatforms
        self.vapidPublicKey = vapidPublicKey
    }

    /// The link to `path` (e.g. "/holidays/42") under `publicURL`, or nil when the server has no public URL.
    public func link(_ path: String) -> String? { Self.link(publicURL, path) }

    /// The link to `path` under `base` (a public URL without a trailing slash), or nil when `base` is empty.
    public static func link(_ base: String, _ path: String) -> String? { base.isEmpty ? nil : base + path }

    public static let off = DeliveryConfiguration()
}
