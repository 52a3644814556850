import Foundation

/// What a push shows and carries: a short title and line in the recipient's language, and the request the app
/// opens when it is tapped. The outbox keeps it as JSON in the message's body.
public struct PushNotification: Codable, Sendable, Equatable {
    public var title: String
    public var body: String
    /// The holiday request it is about, if any.
    public var requestId: Int64?
    /// The event's name, e.g. `holiday.approved`.
    public var event: String

    public init(title: String, body: String, requestId: Int64? = nil, event: String) {
        self.title = title
        self.body = body
        self.requestId = requestId
        self.event = event
    }

    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(self)) ?? Data("{}".utf8), as: UTF8.self)
    }

    public init?(json: String) {
        guard let decoded = try? JSONDecoder().decode(Self.self, from: Data(json.utf8)) else { return nil }
        self = decoded
    }
}

/// The push of one move of a request, in English or Spanish. The owner reads their own request; an approver reads
/// the requester's name, dates and days, and a private leave type (sick leave) only as an absence. No comment,
/// reason or note of someone else's request goes into a push.
struct HolidayPush {
    let event: DeliveryEvent
    let request: HolidayRequest
    let owner: Employee
    let actor: Actor
    let note: String
    let toOwner: Bool
    let language: Language

    var notification: PushNotification {
        PushNotification(title: title, body: body, requestId: request.id, event: event.rawValue)
    }

    private var es: Bool { language == .es }

    private var kind: String { MessageWords.kind(request, language) }

    private var dates: String {
        let start = request.startDate, end = request.endDate
        if start == end { return es ? "el \(start)" : "on \(start)" }
        return es ? "del \(start) al \(end)" : "\(start) to \(end)"
    }

    private var days: String { MessageWords.days(request.duration, language) }

    var title: String {
        switch (event, toOwner) {
        case (.holidayRequested, _), (.holidayApproved, false):
            return (es ? "Por decidir: " : "To decide: ") + owner.fullName
        case (.holidayCancelled, false): return (es ? "Cancelada: " : "Cancelled: ") + owner.fullName
        case (.holidayApproved, true) where request.status == .approvedByManager:
            return es ? "Aprobada por tu responsable" : "Approved by your manager"
        case (.holidayApproved, true): return es ? "Solicitud aprobada" : "Request approved"
        case (.holidayRejected, _): return es ? "Solicitud rechazada" : "Request rejected"
        case (.holidayReverted, _): return es ? "Solicitud de nuevo pendiente" : "Request back to pending"
        case (.holidayCancelled, true): return es ? "Solicitud cancelada" : "Request cancelled"
        default: return es ? "Solicitud \(request.id)" : "Request \(request.id)"
        }
    }

    var body: String {
        var line = "\(kind) \(dates) (\(days))"
        switch (event, toOwner) {
        case (.holidayApproved, false) where request.status == .approvedByManager:
            line += es ? ", aprobada por el responsable." : ", approved by the manager."
        case (.holidayApproved, true) where request.status == .approvedByManager:
            line += es ? ". Decide después un administrador." : ". An admin decides next."
        case (.holidayRequested, _), (.holidayApproved, false), (.holidayCancelled, false):
            line += "."
        case (.holidayRejected, _) where !note.isEmpty:
            line += (es ? ", por \(actor.name): " : ", by \(actor.name): ") + note
        default:
            line += es ? ", por \(actor.name)." : ", by \(actor.name)."
        }
        return String(line.prefix(Self.maximumBodyLength))
    }

    /// Push services cap a payload at 4 KiB (APNs, FCM, Web Push after encryption); a line longer than this says
    /// nothing more useful on a lock screen.
    static let maximumBodyLength = 300
}
