import Foundation

/// Where a subscription's messages go and in which form.
public enum WebhookFormat: String, Sendable, CaseIterable, Codable {
    /// Standard Webhooks: a signed JSON event.
    case standard
    /// A Slack-compatible incoming webhook: `{"text": …}`.
    case slack
}

public struct WebhookSubscription: Sendable, Equatable, HoldsSecrets {
    public let id: Int64
    public var url: String
    public var events: [DeliveryEvent]
    public var format: WebhookFormat
    /// `whsec_` and the base64 of the signing key. Returned once, at creation.
    public var secret: String
    public var createdAt: Date
    /// Set when the endpoint answered 410 Gone; a disabled subscription gets nothing.
    public var disabledAt: Date?
    public var disabledReason: String?
    /// Whether the messages name a private leave type and carry its comment and notes; otherwise such a request is
    /// an "absence", as in every other channel (`HolidayRequest.shownToOthers`).
    public var privateDetails: Bool

    public init(
        id: Int64, url: String, events: [DeliveryEvent], format: WebhookFormat, secret: String, createdAt: Date,
        disabledAt: Date? = nil, disabledReason: String? = nil, privateDetails: Bool = false
    ) {
        self.privateDetails = privateDetails
        self.id = id
        self.url = url
        self.events = events
        self.format = format
        self.secret = secret
        self.createdAt = createdAt
        self.disabledAt = disabledAt
        self.disabledReason = disabledReason
    }
}

/// A subscription as an admin asks for it.
public struct WebhookDraft: Sendable, Equatable {
    public var url: String
    public var events: [DeliveryEvent]
    public var format: WebhookFormat
    /// Plain http to a host other than this machine's loopback (a trusted internal network).
    public var allowInsecure: Bool
    /// Private leave types named, with their comments and notes, in the messages (an admin's explicit choice).
    public var privateDetails: Bool

    /// Unset: the standard format, https only, private types as absences.
    public init(
        url: String, events: [DeliveryEvent], format: WebhookFormat? = nil, allowInsecure: Bool? = nil, privateDetails: Bool? = nil
    ) {
        self.url = url
        self.events = events
        self.format = format ?? .standard
        self.allowInsecure = allowInsecure ?? false
        self.privateDetails = privateDetails ?? false
    }
}

public protocol WebhookReading {
    func webhooks() throws -> [WebhookSubscription]
    func webhook(id: Int64) throws -> WebhookSubscription?
}

public protocol WebhookTransaction: WebhookReading {
    func insertWebhook(
        url: String, events: [DeliveryEvent], format: WebhookFormat, privateDetails: Bool, secret: String, at: Date
    ) throws -> WebhookSubscription
    /// Deletes the subscription; its messages already in the outbox stay for inspection. Says whether it existed.
    func deleteWebhook(id: Int64) throws -> Bool
}

public typealias WebhookStore = TransactionalStore<any WebhookReading, any WebhookTransaction>

public enum WebhookRules {
    public static let maximumURLLength = 2048

    /// A subscription's URL: https, or plain http to this machine's loopback (or anywhere with `allowInsecure`); no
    /// user information, no fragment. A host written as an address must be one `destinations` allows (the sender
    /// checks the address it connects to again, for names too).
    public static func url(_ text: String, allowInsecure: Bool, destinations: DestinationPolicy = .publicOnly) throws -> String {
        let text = text.trimmingCharacters(in: .whitespaces)
        guard text.utf8.count <= maximumURLLength, let components = URLComponents(string: text),
              let scheme = components.scheme?.lowercased(), let host = components.host, !host.isEmpty
        else {
            throw SGError.invalid(field: "url", message: "must be an absolute http(s) URL of at most \(maximumURLLength) bytes")
        }
        guard components.user == nil, components.password == nil, components.fragment == nil else {
            throw SGError.invalid(field: "url", message: "must not carry a user, a password or a fragment")
        }
        guard scheme == "https" || scheme == "http" else {
            throw SGError.invalid(field: "url", message: "must be https (or http), not \(scheme)")
        }
        let address = DestinationPolicy.bytes(of: host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host)
        if let address, let kind = destinations.refusal(address: address, port: components.port ?? (scheme == "https" ? 443 : 80)) {
            throw SGError.invalid(field: "url", message: DestinationPolicy.sentence(address: host, kind: kind))
        }
        if scheme == "http" {
            let loopback = host.lowercased() == "localhost" || address.map { DestinationPolicy.internalKind($0) == "a loopback" } ?? false
            guard loopback || allowInsecure else {
                throw SGError.invalid(
                    field: "url", message: "must be https; plain http only to this machine, unless insecure URLs are allowed explicitly")
            }
        }
        return text
    }

    public static func events(_ events: [DeliveryEvent]) throws -> [DeliveryEvent] {
        guard !events.isEmpty else { throw SGError.invalid(field: "events", message: "name at least one event") }
        for event in events where !DeliveryEvent.subscribable.contains(event) {
            throw SGError.invalid(field: "events", message: "\(event.rawValue) cannot be subscribed to")
        }
        // In the order of `subscribable`, once each.
        return DeliveryEvent.subscribable.filter(events.contains)
    }

    /// A new signing secret: `whsec_` and 32 random bytes in base64 (Standard Webhooks).
    public static func newSecret() -> String {
        "whsec_" + Data(Digests.randomBytes(32)).base64EncodedString()
    }
}
