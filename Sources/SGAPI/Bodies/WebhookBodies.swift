import Foundation
import SGCore

extension DTO {
    struct WebhookBody: Encodable {
        let id: Int64
        let url: String
        let events: [DeliveryEvent]
        let format: WebhookFormat
        /// Only in the answer to the creation.
        let secret: String?
        let createdAt: String
        @Nullable var disabledAt: String?
        @Nullable var disabledReason: String?
        let privateDetails: Bool

        init(_ subscription: WebhookSubscription, showSecret: Bool) {
            id = subscription.id
            url = subscription.url
            events = subscription.events
            format = subscription.format
            secret = showSecret ? subscription.secret : nil
            createdAt = Timestamp.format(subscription.createdAt)
            disabledAt = subscription.disabledAt.map(Timestamp.format)
            disabledReason = subscription.disabledReason
            privateDetails = subscription.privateDetails
        }
    }

    struct WebhookList: Encodable {
        let items: [WebhookBody]
    }
}
