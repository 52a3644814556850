import Foundation
import Hummingbird
import SGCore

/// Admin: webhook subscriptions (the messages themselves leave through the outbox).
struct WebhooksController {
    let services: Services

    struct NewWebhook: JSONObjectBody {
        static let fields = ["url", "events", "format", "allowInsecure", "privateDetails"]
        static let what = "a webhook field"

        let url: String
        let events: [DeliveryEvent]
        let format: WebhookFormat?
        /// Plain http to a host other than this machine's loopback.
        let allowInsecure: Bool?
        /// Private leave types named in the messages, with comments and notes.
        let privateDetails: Bool?

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyKey.self)
            url = try container.decode(String.self, forKey: AnyKey("url"))
            events = try container.decode([DeliveryEvent].self, forKey: AnyKey("events"))
            format = try container.optional(WebhookFormat.self, "format")
            allowInsecure = try container.optional(Bool.self, "allowInsecure")
            privateDetails = try container.optional(Bool.self, "privateDetails")
        }
    }

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        /// Every subscription, disabled ones included; secrets are not shown.
        group.get("/webhooks") { _, context in
            let admin = try context.requireAdmin()
            let all = try await services.webhooks.list(by: admin.actor)
            return try JSON.response(DTO.WebhookList(items: all.map { DTO.WebhookBody($0, showSecret: false) }))
        }

        /// Subscribes a URL to events; the answer carries the signing secret, shown only this once.
        group.post("/webhooks") { request, context in
            let admin = try context.requireAdmin()
            let body = try await JSON.decode(NewWebhook.self, from: request, context: context)
            let created = try await services.webhooks.add(
                WebhookDraft(
                    url: body.url, events: body.events, format: body.format, allowInsecure: body.allowInsecure,
                    privateDetails: body.privateDetails),
                by: admin.actor)
            return try JSON.response(DTO.WebhookBody(created, showSecret: true), status: .created)
        }

        group.get("/webhooks/:id") { _, context in
            let admin = try context.requireAdmin()
            let found = try await services.webhooks.subscription(
                id: try context.parameters.id("id", what: "Webhook"), by: admin.actor)
            return try JSON.response(DTO.WebhookBody(found, showSecret: false))
        }

        /// Removes a subscription; its messages already in the outbox stay for inspection.
        group.delete("/webhooks/:id") { _, context in
            let admin = try context.requireAdmin()
            try await services.webhooks.remove(id: try context.parameters.id("id", what: "Webhook"), by: admin.actor)
            return Response(status: .noContent)
        }
    }
}
