import Foundation

/// Webhook subscriptions, managed by admins from the API and `sgadmin`.
public struct WebhookService: Sendable {
    public let store: any WebhookStore
    public let clock: any NowProvider
    /// The internal addresses a subscription may name (the server's SG_ALLOWED_INTERNAL_ADDRESSES).
    public let destinations: DestinationPolicy

    public init(store: any WebhookStore, clock: any NowProvider = SystemClock(), destinations: DestinationPolicy = .publicOnly) {
        self.store = store
        self.clock = clock
        self.destinations = destinations
    }

    private static func checkAdmin(_ actor: Actor) throws {
        guard actor.isAdmin else { throw SGError.forbidden("Only an admin can manage webhooks.") }
    }

    /// Subscribes `draft.url` to its events; the returned subscription carries its secret, shown only now.
    public func add(_ draft: WebhookDraft, by actor: Actor) async throws -> WebhookSubscription {
        try Self.checkAdmin(actor)
        let url = try WebhookRules.url(draft.url, allowInsecure: draft.allowInsecure, destinations: destinations)
        let events = try WebhookRules.events(draft.events)
        let secret = WebhookRules.newSecret()
        let now = clock.now()
        return try await store.write { tx in
            try tx.insertWebhook(url: url, events: events, format: draft.format, privateDetails: draft.privateDetails, secret: secret, at: now)
        }
    }

    /// Every subscription, disabled ones included.
    public func list(by actor: Actor) async throws -> [WebhookSubscription] {
        try Self.checkAdmin(actor)
        return try await store.read { tx in try tx.webhooks() }
    }

    public func subscription(id: Int64, by actor: Actor) async throws -> WebhookSubscription {
        try Self.checkAdmin(actor)
        return try await store.read { tx in
            guard let found = try tx.webhook(id: id) else { throw SGError.notFound("Webhook \(id) does not exist.") }
            return found
        }
    }

    /// Removes a subscription; what it already has in the outbox stays there for inspection.
    public func remove(id: Int64, by actor: Actor) async throws {
        try Self.checkAdmin(actor)
        try await store.write { tx in
            guard try tx.deleteWebhook(id: id) else { throw SGError.notFound("Webhook \(id) does not exist.") }
        }
    }
}
