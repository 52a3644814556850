import Foundation

/// The notice board: company notices for everyone, personal notices (written by the holiday rules) for their
/// employee. The API and `sgadmin` both call this type.
public struct NoticeService: Sendable {
    public let store: any NoticeStore
    public let clock: any NowProvider

    public static let maximumLimit = 200

    public init(store: any NoticeStore, clock: any NowProvider = SystemClock()) {
        self.store = store
        self.clock = clock
    }

    /// Posts a company notice (admins only).
    public func post(_ draft: NoticeDraft, by actor: Actor) async throws -> Notice {
        try NoticeRules.checkAdmin(actor)
        let now = clock.now()
        return try await store.write { tx in
            let draft = try NoticeRules.validated(draft, today: try tx.today(at: now))
            let notice = try Self.existing(tx, try tx.insertCompanyNotice(draft, author: actor, at: now))
            try Announcements.notice(tx, notice: notice, at: now)
            return notice
        }
    }

    /// Edits a company notice (admins only); the edited notice is checked as a whole.
    public func edit(id: Int64, _ patch: NoticePatch, by actor: Actor) async throws -> Notice {
        try NoticeRules.checkAdmin(actor)
        let now = clock.now()
        return try await store.write { tx in
            guard let notice = try tx.notice(id: id), notice.kind == .company else {
                throw SGError.notFound("Company notice \(id) does not exist.")
            }
            try tx.updateCompanyNotice(id: id, try NoticeRules.apply(patch, to: notice, today: try tx.today(at: now)), at: now)
            return try Self.existing(tx, id)
        }
    }

    /// Deletes a company notice (admins only). Personal notices are records of transitions and stay.
    public func delete(id: Int64, by actor: Actor) async throws {
        try NoticeRules.checkAdmin(actor)
        try await store.write { tx in
            guard try tx.deleteCompanyNotice(id: id) else { throw SGError.notFound("Company notice \(id) does not exist.") }
        }
    }

    /// The board as `viewer` sees it: live company notices and, for an employee, their personal notices, pinned
    /// first, then newest first. `includeExpired` (admins only) adds expired company notices.
    public func board(for viewer: Actor, includeExpired: Bool = false, after: NoticeCursor? = nil, limit: Int = 50) async throws -> NoticePage {
        if includeExpired { try NoticeRules.checkListsExpired(viewer) }
        guard (1...Self.maximumLimit).contains(limit) else {
            throw SGError.invalid(field: "limit", message: "must be between 1 and \(Self.maximumLimit)")
        }
        let now = clock.now()
        return try await store.read { tx in
            try tx.board(
                NoticeVisibility(viewerID: viewer.employeeID, includeExpired: includeExpired, today: try tx.today(at: now)),
                after: after, limit: limit)
        }
    }

    /// One notice as `viewer` sees it: admins also see expired company notices.
    public func notice(id: Int64, for viewer: Actor) async throws -> Notice {
        let now = clock.now()
        let found = try await store.read { tx in
            try tx.notice(
                id: id,
                visibility: NoticeVisibility(
                    viewerID: viewer.employeeID, includeExpired: NoticeRules.seesExpired(viewer), today: try tx.today(at: now)))
        }
        guard let notice = found else {
            throw SGError.notFound("Notice \(id) does not exist.")
        }
        return notice
    }

    /// Sets or clears the read flag of one of the employee's personal notices.
    public func mark(id: Int64, read: Bool, by employeeID: Int64) async throws -> Notice {
        let now = clock.now()
        return try await store.write { tx in
            guard let notice = try tx.notice(id: id), notice.kind == .company || notice.employeeID == employeeID else {
                throw SGError.notFound("Notice \(id) does not exist.")
            }
            guard notice.kind == .personal else {
                throw SGError.conflict("Notice \(id) is a company notice: only personal notices have a read flag.")
            }
            try tx.setRead(noticeID: id, at: read ? now : nil)
            return try Self.existing(tx, id)
        }
    }

    private static func existing(_ tx: any NoticeReading, _ id: Int64) throws -> Notice {
        guard let notice = try tx.notice(id: id) else { throw SGError.notFound("Notice \(id) does not exist.") }
        return notice
    }
}
