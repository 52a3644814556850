import Foundation
import Hummingbird
import SGCore

/// Admin: the outbox as `sgadmin outbox` shows it: what waits, what was sent, what died and why, and a retry.
struct OutboxController {
    let services: Services

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        /// Messages by id, newest last, a page at a time, with how many there are in each status.
        group.get("/outbox/messages") { request, context in
            _ = try context.requireAdmin()
            let status = try request.uri.queryParameters.get("status").map { text in
                guard let status = OutboxStatus(rawValue: text) else {
                    throw SGError.invalid(field: "status", message: "'\(text)' is not one of \(OutboxStatus.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                return status
            }
            let after = try request.integerQuery("after", in: 0...Int(Int64.max)).map(Int64.init)
            let limit = try request.integerQuery("limit", in: 1...DeliveryService.maximumLimit) ?? 50
            let page = try await services.core.delivery.page(status: status, afterID: after, limit: limit)
            return try JSON.response(DTO.OutboxPage(
                items: page.items.map(DTO.OutboxMessageBody.init), nextAfter: page.nextAfterID,
                counts: Dictionary(uniqueKeysWithValues: OutboxStatus.allCases.map { ($0.rawValue, page.counts[$0] ?? 0) })))
        }

        group.get("/outbox/messages/:id") { _, context in
            _ = try context.requireAdmin()
            let message = try await services.core.delivery.message(id: try context.parameters.id("id", what: "Outbox message"))
            return try JSON.response(DTO.OutboxMessageBody(message))
        }

        /// A dead message back to pending, due now, with a new day of tries.
        group.post("/outbox/messages/:id/retry") { _, context in
            _ = try context.requireAdmin()
            let message = try await services.core.delivery.retry(id: try context.parameters.id("id", what: "Outbox message"))
            return try JSON.response(DTO.OutboxMessageBody(message))
        }

        /// Every dead message back to pending.
        group.post("/outbox/retry-dead") { _, context in
            _ = try context.requireAdmin()
            return try JSON.response(DTO.Retried(retried: try await services.core.delivery.retryDead()))
        }
    }
}
