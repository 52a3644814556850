import Foundation

/// How a message leaves the server.
public enum DeliveryChannel: String, Sendable, CaseIterable, Codable {
    case email
    case webhook
    /// To one device of an employee (APNs, FCM or Web Push): `address` is the device's token.
    case push
}

/// What happened, as webhook subscribers name it. E-mail uses the same names in the outbox.
public enum DeliveryEvent: String, Sendable, CaseIterable, Codable {
    case holidayRequested = "holiday.requested"
    case holidayApproved = "holiday.approved"
    case holidayRejected = "holiday.rejected"
    case holidayReverted = "holiday.reverted"
    case holidayCancelled = "holiday.cancelled"
    case noticePublished = "notice.published"
    /// E-mail only: the daily digest of requests waiting for a decision.
    case holidayReminder = "holiday.reminder"
    /// E-mail only: a password-reset link.
    case passwordReset = "password.reset"

    /// The events a webhook may subscribe to.
    public static let subscribable: [DeliveryEvent] = [
        .holidayRequested, .holidayApproved, .holidayRejected, .holidayReverted, .holidayCancelled, .noticePublished,
    ]
}

public enum OutboxStatus: String, Sendable, CaseIterable, Codable {
    /// Waiting for its next attempt (or being attempted under a lease).
    case pending
    case sent
    /// Given up on: a permanent failure, or a day of temporary ones. Kept for inspection and `retry`.
    case dead
}

/// A page of the outbox: its messages, the id to read the next page after (nil on the last), and the number of
/// messages in each status, all of the outbox.
public struct OutboxPage: Sendable {
    public let items: [OutboxMessage]
    public let nextAfterID: Int64?
    public let counts: [OutboxStatus: Int]
}

/// A message to be written into the outbox in the transaction of the event it reports.
public struct OutboxDraft: Sendable, Equatable {
    public var channel: DeliveryChannel
    public var event: DeliveryEvent
    /// The employee it is for (e-mail, push), or nil.
    public var employeeID: Int64?
    /// The subscription it is for (webhooks), or nil.
    public var webhookID: Int64?
    /// An e-mail address, a URL, or a device's token (push).
    public var address: String
    /// The recipient's display name (e-mail), the device's platform (push), or "".
    public var recipientName: String
    /// The e-mail's subject, the push's title, or "" for a webhook.
    public var subject: String
    /// The e-mail's plain text, the webhook's JSON body, or the push's `PushNotification` as JSON.
    public var body: String
    /// At most one message with this key is ever written (reminders: one digest a day per approver).
    public var dedupeKey: String?

    public init(
        channel: DeliveryChannel, event: DeliveryEvent, employeeID: Int64? = nil, webhookID: Int64? = nil,
        address: String, recipientName: String = "", subject: String = "", body: String, dedupeKey: String? = nil
    ) {
        self.channel = channel
        self.event = event
        self.employeeID = employeeID
        self.webhookID = webhookID
        self.address = address
        self.recipientName = recipientName
        self.subject = subject
        self.body = body
        self.dedupeKey = dedupeKey
    }
}

/// A message in the outbox.
public struct OutboxMessage: Sendable, Equatable {
    public let id: Int64
    public var draft: OutboxDraft
    public var status: OutboxStatus
    /// Attempts begun so far (a claim counts, so a server killed mid-send is counted too).
    public var attempts: Int
    public var createdAt: Date
    public var nextAttemptAt: Date
    /// A temporary failure after this makes the message dead.
    public var giveUpAt: Date
    public var sentAt: Date?
    public var lastError: String?
    /// The worker holding the message, until `leaseUntil`.
    public var leaseOwner: String?
    public var leaseUntil: Date?

    public init(
        id: Int64, draft: OutboxDraft, status: OutboxStatus, attempts: Int, createdAt: Date, nextAttemptAt: Date,
        giveUpAt: Date, sentAt: Date? = nil, lastError: String? = nil, leaseOwner: String? = nil, leaseUntil: Date? = nil
    ) {
        self.id = id
        self.draft = draft
        self.status = status
        self.attempts = attempts
        self.createdAt = createdAt
        self.nextAttemptAt = nextAttemptAt
        self.giveUpAt = giveUpAt
        self.sentAt = sentAt
        self.lastError = lastError
        self.leaseOwner = leaseOwner
        self.leaseUntil = leaseUntil
    }

    /// Stable across every attempt, so a receiver can drop a repeat: the e-mail's Message-ID local part and the
    /// webhook's `webhook-id`.
    public var deliveryID: String { "msg_\(id)_\(Int64(createdAt.timeIntervalSince1970))" }
}

/// What one attempt came to.
public enum DeliveryOutcome: Sendable, Equatable {
    case delivered
    /// Worth trying again later; `retryAfter` is the receiver's wish (HTTP Retry-After), if it said one.
    case temporaryFailure(String, retryAfter: TimeInterval? = nil)
    case permanentFailure(String)
    /// The webhook answered 410 Gone (the subscription is switched off), or the push service says the device is
    /// no longer registered (the device is removed); the message is dead.
    case gone(String)
}
