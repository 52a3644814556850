import Foundation

/// Who hears of what, and what they read: the messages of one event, written into the outbox in the event's
/// transaction by the rules that make the event (so the server and `sgadmin` announce alike).
///
/// - The people asked to decide (`Approval.asked`: the team's approvers who are not away and their running
///   substitutes, else the admins) hear of new requests, of requests approved by the manager (two-stage teams)
///   and of the cancellation of a request they were asked about, except of their own doing or their own request.
/// - The owner hears of every move of their request that someone else made (decisions, reverts, an admin's cancel).
/// - Every active employee hears of a new company notice.
/// - E-mail goes only to those whose switch is on, and only when the server sends e-mail; push goes to every device
///   of theirs (registered only while their push switch is on) on the platforms the server pushes to, one message
///   per device; webhooks get every event they subscribed to.
public enum Announcements {
    /// The event a move of a request announces.
    public static func event(from: HolidayStatus?, to: HolidayStatus) -> DeliveryEvent? {
        switch (from, to) {
        case (nil, .pending): .holidayRequested
        case (_, .approved), (_, .approvedByManager): .holidayApproved
        case (_, .rejected): .holidayRejected
        case (.approved?, .pending): .holidayReverted
        case (_, .cancelled): .holidayCancelled
        default: nil
        }
    }

    /// Enqueues the messages of a move of `request` made by `actor`. The owner is read (`owner`) only when someone
    /// is to hear of it: with e-mail off and no subscription, a move costs two small reads and nothing more.
    public static func holiday(
        _ tx: any OutboxWriting & AudienceReading, request: HolidayRequest, owner ownerLookup: () throws -> Employee?,
        from: HolidayStatus?, actor: Actor, note: String, at now: Date, deciders: [Int64]
    ) throws {
        guard let event = event(from: from, to: request.status) else { return }
        let configuration = try tx.deliveryConfiguration()
        let subscriptions = try tx.webhookSubscriptions(for: event)
        let pushOn = !configuration.pushPlatforms.isEmpty
        guard configuration.emailEnabled || pushOn || !subscriptions.isEmpty, let owner = try ownerLookup() else { return }
        let link = configuration.link("/holidays/\(request.id)")
        var recipients: [Recipient] = []
        if configuration.emailEnabled || pushOn {
            if actor.employeeID != owner.id, event != .holidayRequested, let person = try tx.recipient(employeeID: owner.id) {
                recipients.append(person)
            }
            if event == .holidayRequested || event == .holidayCancelled || request.status == .approvedByManager {
                recipients += try tx.recipients(employeeIDs: deciders.filter { $0 != owner.id && $0 != actor.employeeID })
            }
        }
        // Only the owner reads a private type's name, comment and notes in a message; a webhook only when opted in.
        let othersHear = recipients.contains { $0.employeeID != owner.id } || subscriptions.contains { !$0.privateDetails }
        let isPrivate = othersHear ? try tx.leaveTypeIsPrivate(id: request.leaveTypeID) : false
        let shown = request.shownToOthers(isPrivate: isPrivate)
        let othersNote = isPrivate ? "" : note
        // The mail names no recipient: written once for the owner and once for all the deciders, in each language.
        var mails: [MailKey: HolidayMail.Text] = [:]
        for person in recipients {
            let toOwner = person.employeeID == owner.id
            if configuration.emailEnabled, person.reachableByEmail {
                let key = MailKey(toOwner: toOwner, language: person.language)
                let mail = mails[key] ?? HolidayMail(
                    event: event, request: toOwner ? request : shown, owner: owner, actor: actor, note: toOwner ? note : othersNote,
                    link: link, toOwner: toOwner, language: person.language).text
                mails[key] = mail
                try tx.enqueue(
                    OutboxDraft(
                        channel: .email, event: event, employeeID: person.employeeID, address: person.email,
                        recipientName: person.name, subject: mail.subject, body: mail.body),
                    at: now)
            }
            if pushOn {
                let push = HolidayPush(
                    event: event, request: toOwner ? request : shown, owner: owner, actor: actor, note: toOwner ? note : othersNote,
                    toOwner: toOwner, language: person.language)
                try self.push(tx, push.notification, event: event, to: person, platforms: configuration.pushPlatforms, at: now)
            }
        }
        for subscription in subscriptions {
            let (request, note) = subscription.privateDetails ? (request, note) : (shown, othersNote)
            let payload = WebhookPayload(
                type: event, timestamp: now,
                data: .holiday(.init(request: .init(request), employee: .init(owner), actor: actor.name, note: note, link: link)))
            let summary = HolidayMail(event: event, request: request, owner: owner, actor: actor, note: note, link: link, toOwner: false)
            try tx.enqueue(
                OutboxDraft(
                    channel: .webhook, event: event, webhookID: subscription.id, address: subscription.url,
                    body: try payload.body(format: subscription.format, text: summary.slackText)),
                at: now)
        }
    }

    private struct MailKey: Hashable {
        let toOwner: Bool
        let language: Language
    }

    /// One message per device of `person` on the platforms the server pushes to. The worker reads the device again
    /// when it sends, so a device removed or registered by someone else meanwhile gets nothing.
    static func push(
        _ tx: any OutboxWriting & AudienceReading, _ notification: PushNotification, event: DeliveryEvent, to person: Recipient,
        platforms: Set<DevicePlatform>, at now: Date
    ) throws {
        for device in try tx.pushDevices(employeeID: person.employeeID) where platforms.contains(device.platform) {
            try tx.enqueue(
                OutboxDraft(
                    channel: .push, event: event, employeeID: person.employeeID, address: device.token,
                    recipientName: device.platform.rawValue, subject: notification.title, body: notification.json),
                at: now)
        }
    }

    /// Enqueues the messages of a new company notice.
    public static func notice(_ tx: any OutboxWriting & AudienceReading, notice: Notice, at now: Date) throws {
        let configuration = try tx.deliveryConfiguration()
        let link = configuration.link("/notices/\(notice.id)")
        if configuration.emailEnabled {
            for person in try tx.everyone() where person.reachableByEmail {
                let mail = NoticeMail(notice: notice, link: link, reader: person.name, language: person.language)
                try tx.enqueue(
                    OutboxDraft(
                        channel: .email, event: .noticePublished, employeeID: person.employeeID, address: person.email,
                        recipientName: person.name, subject: mail.subject, body: mail.body),
                    at: now)
            }
        }
        let subscriptions = try tx.webhookSubscriptions(for: .noticePublished)
        guard !subscriptions.isEmpty else { return }
        let payload = WebhookPayload(type: .noticePublished, timestamp: now, data: .notice(.init(notice, link: link)))
        let text = "New notice: \(notice.title)" + (link.map { " <\($0)|read it>" } ?? "")
        for subscription in subscriptions {
            try tx.enqueue(
                OutboxDraft(
                    channel: .webhook, event: .noticePublished, webhookID: subscription.id, address: subscription.url,
                    body: try payload.body(format: subscription.format, text: text)),
                at: now)
        }
    }
}

/// A webhook's JSON body (Standard Webhooks: `type`, `timestamp`, `data`). The request and the employee appear as
/// the API shows them.
public struct WebhookPayload: Encodable, Sendable {
    public let type: DeliveryEvent
    public let timestamp: Date
    public let data: Content

    public enum Content: Encodable, Sendable {
        case holiday(HolidayContent)
        case notice(NoticeContent)

        public func encode(to encoder: any Encoder) throws {
            switch self {
            case .holiday(let content): try content.encode(to: encoder)
            case .notice(let content): try content.encode(to: encoder)
            }
        }
    }

    public struct HolidayContent: Encodable, Sendable {
        let request: RequestJSON
        let employee: EmployeeJSON
        /// Who made the move.
        let actor: String
        let note: String
        let link: String?
    }

    public struct NoticeContent: Encodable, Sendable {
        let id: Int64
        let title: String
        let body: String
        let pinned: Bool
        let expiresOn: String?
        let author: String
        let link: String?

        init(_ notice: Notice, link: String?) {
            id = notice.id
            title = notice.title
            body = notice.body
            pinned = notice.pinned
            expiresOn = notice.expiresOn?.description
            author = notice.author
            self.link = link
        }
    }

    struct RequestJSON: Encodable, Sendable {
        let id: Int64
        let employeeId: Int64
        let startDate: String
        let endDate: String
        /// Null for a private type shown as an absence.
        let leaveTypeId: NullableID
        let leaveType: String
        let startHalf: DayHalf
        let endHalf: DayHalf
        /// In days, in steps of 0.5.
        let workingDays: Double
        let status: HolidayStatus
        let comment: String
        let createdAt: String
        let updatedAt: String
        let decidedBy: String?
        let decidedAt: String?

        init(_ request: HolidayRequest) {
            id = request.id
            employeeId = request.employeeID
            startDate = request.startDate.description
            endDate = request.endDate.description
            leaveTypeId = NullableID(value: request.isShownAsAbsence ? nil : request.leaveTypeID)
            leaveType = request.leaveTypeName
            startHalf = request.startHalf
            endHalf = request.endHalf
            workingDays = request.duration.days
            status = request.status
            comment = request.comment
            createdAt = Timestamp.format(request.createdAt)
            updatedAt = Timestamp.format(request.updatedAt)
            decidedBy = request.decidedBy
            decidedAt = request.decidedAt.map(Timestamp.format)
        }
    }

    /// An id written as `null` when absent, where a synthesized `Encodable` would leave the key out.
    struct NullableID: Encodable, Sendable {
        let value: Int64?

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            if let value { try container.encode(value) } else { try container.encodeNil() }
        }
    }

    struct EmployeeJSON: Encodable, Sendable {
        let id: Int64
        let username: String
        let name: String
        let surname: String

        init(_ employee: Employee) {
            id = employee.id
            username = employee.username
            name = employee.name
            surname = employee.surname
        }
    }

    private enum CodingKeys: String, CodingKey { case type, timestamp, data }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(type, forKey: .type)
        try container.encode(Timestamp.format(timestamp), forKey: .timestamp)
        try container.encode(data, forKey: .data)
    }

    /// The body a subscription of `format` gets: this payload, or Slack's `{"text": …}`.
    func body(format: WebhookFormat, text: String) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = switch format {
        case .standard: try encoder.encode(self)
        case .slack: try encoder.encode(["text": text])
        }
        return String(decoding: data, as: UTF8.self)
    }
}
