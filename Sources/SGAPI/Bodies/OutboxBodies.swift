import Foundation
import SGCore

extension DTO {
    /// A message of the outbox as an admin reads it. A password-reset e-mail's body (its link) and a push device's
    /// token are never shown: whoever read them could use them.
    struct OutboxMessageBody: Encodable {
        let id: Int64
        let status: OutboxStatus
        let channel: String
        let event: String
        @Nullable var recipient: String?
        let to: String
        let subject: String
        @Nullable var body: String?
        let attempts: Int
        let createdAt: String
        let nextAttemptAt: String
        let giveUpAt: String
        @Nullable var sentAt: String?
        @Nullable var lastError: String?

        init(_ message: OutboxMessage) {
            let draft = message.draft
            id = message.id
            status = message.status
            channel = draft.channel.rawValue
            event = draft.event.rawValue
            recipient = draft.recipientName.isEmpty ? nil : draft.recipientName
            to = draft.channel == .push ? "a \(draft.recipientName) device" : draft.address
            subject = draft.subject
            body = draft.event == .passwordReset || draft.channel == .push ? nil : draft.body
            attempts = message.attempts
            createdAt = Timestamp.format(message.createdAt)
            nextAttemptAt = Timestamp.format(message.nextAttemptAt)
            giveUpAt = Timestamp.format(message.giveUpAt)
            sentAt = message.sentAt.map(Timestamp.format)
            lastError = message.lastError
        }
    }

    struct OutboxPage: Encodable {
        let items: [OutboxMessageBody]
        @Nullable var nextAfter: Int64?
        /// Messages in each status, in all.
        let counts: [String: Int]
    }

    struct Retried: Encodable {
        let retried: Int
    }
}
