import Foundation

public enum NoticeKind: String, Sendable, Codable {
    /// Posted by an admin for everyone.
    case company
    /// Written by the holiday rules for one employee when their request moves.
    case personal
}

/// One notice on the board.
public struct Notice: Sendable, Equatable {
    public var id: Int64
    public var kind: NoticeKind
    /// The employee a personal notice is for; nil for company notices.
    public var employeeID: Int64?
    public var title: String
    public var body: String
    public var pinned: Bool
    /// The last day a company notice is shown, in the company's time zone.
    public var expiresOn: CalendarDate?
    /// Who posted it or made the transition.
    public var author: String
    public var createdAt: Date
    public var updatedAt: Date
    /// When the employee marked a personal notice read; always nil for company notices.
    public var readAt: Date?
    /// The transition a personal notice reports.
    public var transition: Transition?

    public struct Transition: Sendable, Equatable {
        public var requestID: Int64
        public var startDate: CalendarDate
        public var endDate: CalendarDate
        public var from: HolidayStatus?
        public var to: HolidayStatus
        /// The note of the transition: the reason, for a rejection.
        public var note: String

        public init(requestID: Int64, startDate: CalendarDate, endDate: CalendarDate, from: HolidayStatus?, to: HolidayStatus, note: String) {
            self.requestID = requestID
            self.startDate = startDate
            self.endDate = endDate
            self.from = from
            self.to = to
            self.note = note
        }
    }

    public init(
        id: Int64, kind: NoticeKind, employeeID: Int64?, title: String, body: String, pinned: Bool, expiresOn: CalendarDate?,
        author: String, createdAt: Date, updatedAt: Date, readAt: Date?, transition: Transition?
    ) {
        self.id = id
        self.kind = kind
        self.employeeID = employeeID
        self.title = title
        self.body = body
        self.pinned = pinned
        self.expiresOn = expiresOn
        self.author = author
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.readAt = readAt
        self.transition = transition
    }

    /// Company notices are shown through their last day; personal notices never expire.
    public func isExpired(today: CalendarDate) -> Bool {
        expiresOn.map { $0 < today } ?? false
    }
}

/// A company notice as an admin writes it.
public struct NoticeDraft: Sendable, Equatable {
    public var title: String
    public var body: String
    public var pinned: Bool
    public var expiresOn: CalendarDate?

    public init(title: String, body: String, pinned: Bool = false, expiresOn: CalendarDate? = nil) {
        self.title = title
        self.body = body
        self.pinned = pinned
        self.expiresOn = expiresOn
    }
}

/// A partial edit of a company notice.
public struct NoticePatch: Sendable, Equatable {
    public var title: String?
    public var body: String?
    public var pinned: Bool?
    public var expiresOn: Change<CalendarDate> = .keep

    public init(title: String? = nil, body: String? = nil, pinned: Bool? = nil, expiresOn: Change<CalendarDate> = .keep) {
        self.title = title
        self.body = body
        self.pinned = pinned
        self.expiresOn = expiresOn
    }
}

/// What a company notice must be. Posting and editing are for admins (checked by the store with the actor).
public enum NoticeRules {
    public static let maximumTitleLength = 200
    public static let maximumBodyLength = 10_000

    /// `checkingExpiry`: false when the expiry date is the notice's own, unchanged (see `apply`).
    public static func validated(_ draft: NoticeDraft, today: CalendarDate, checkingExpiry: Bool = true) throws -> NoticeDraft {
        var draft = draft
        draft.title = try TextRules.line(draft.title, field: "title", maximum: maximumTitleLength)
        draft.body = try TextRules.paragraphs(draft.body, field: "body", maximum: maximumBodyLength)
        if checkingExpiry, let expiresOn = draft.expiresOn, expiresOn < today {
            throw SGError.invalid(
                field: "expiresOn", message: "\(expiresOn) has passed (today is \(today)): the notice would never show; delete it instead")
        }
        return draft
    }

    /// The draft after `patch`, checked as a whole. An expired notice can still be corrected or pinned: only an
    /// expiry date the patch sets must not have passed.
    public static func apply(_ patch: NoticePatch, to notice: Notice, today: CalendarDate) throws -> NoticeDraft {
        try validated(
            NoticeDraft(
                title: patch.title ?? notice.title, body: patch.body ?? notice.body, pinned: patch.pinned ?? notice.pinned,
                expiresOn: patch.expiresOn.applied(to: notice.expiresOn)),
            today: today, checkingExpiry: patch.expiresOn != .keep)
    }

    /// Expired company notices stay visible to admins (to correct, renew or delete them), to no one else.
    public static func seesExpired(_ actor: Actor) -> Bool { actor.isAdmin }

    /// Asking for a listing with the expired notices: admins only.
    public static func checkListsExpired(_ actor: Actor) throws {
        guard seesExpired(actor) else { throw SGError.forbidden("Only an admin can list expired notices.") }
    }

    public static func checkAdmin(_ actor: Actor) throws {
        guard actor.isAdmin else { throw SGError.forbidden("Only an admin can post, edit or delete company notices.") }
    }
}

/// A personal notice about to be written, in the transaction of the transition it reports.
public struct PersonalNotice: Sendable, Equatable {
    public var employeeID: Int64
    public var requestID: Int64
    public var from: HolidayStatus?
    public var to: HolidayStatus
    public var author: String
    public var authorEmployeeID: Int64?
    public var title: String
    public var body: String
    public var note: String
    /// A move the employee made themself is on their board already read.
    public var read: Bool
    public var at: Date
}

/// The personal notices the holiday rules write: every move of an employee's request is on their board.
public enum HolidayNotices {
    /// The notice for `request` moving `from` → `to` by `actor`, or nil when there is nothing to tell: an
    /// employee is not told about a request they made themself. `actorDisplayName` is the actor's full name
    /// when they are an employee.
    public static func notice(
        for request: HolidayRequest, from: HolidayStatus?, to: HolidayStatus, actor: Actor, actorDisplayName: String,
        note: String, at: Date
    ) -> PersonalNotice? {
        let byOwner = actor.employeeID == request.employeeID
        if from == nil && byOwner { return nil }
        let days = request.period.description
        // (title, verb): "Holiday approved: …" / "Ada Admin approved your request 42 …"
        let (what, verb): (String, String)
        switch (from, to) {
        case (nil, _): (what, verb) = ("requested", "requested")
        case (_, .approved): (what, verb) = ("approved", "approved")
        case (_, .approvedByManager): (what, verb) = ("approved by the manager", "approved")
        case (_, .rejected): (what, verb) = ("rejected", "rejected")
        case (_, .pending): (what, verb) = ("moved back to pending", "reverted")
        case (_, .cancelled): (what, verb) = ("cancelled", "cancelled")
        }
        let title = "\(request.kindInWords) \(what): \(days)"
        let who = byOwner ? "You" : actorDisplayName
        let length = request.duration.inWorkingDays
        let kind = request.leaveTypeID == LeaveType.holidayID ? "a holiday" : request.kindInWords.lowercased()
        var body = from == nil
            ? to == .approved
                ? "\(who) recorded \(kind) for you (request \(request.id)): \(days), \(length); it needs no approval."
                : "\(who) requested \(kind) for you (request \(request.id)): \(days), \(length), pending your admin's decision."
            : "\(who) \(verb) your request \(request.id) for \(days) (\(length)): \(from?.rawValue ?? "new") → \(to.rawValue)."
        if !note.isEmpty {
            body += to == .rejected ? " Reason: \(note)" : " Note: \(note)"
        }
        return PersonalNotice(
            employeeID: request.employeeID, requestID: request.id, from: from, to: to, author: actor.name,
            authorEmployeeID: actor.employeeID, title: title, body: body, note: note, read: byOwner, at: at)
    }
}
