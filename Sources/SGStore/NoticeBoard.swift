import Foundation
import GRDB
import SGCore

/// Where a page of the board ends: the board is ordered pinned first, then newest first, so a position is the
/// pinned flag and the id. Its text form ("1.42", "0.17") is what clients pass back as `after`.
public struct NoticeCursor: Sendable, Equatable {
    public var pinned: Bool
    public var id: Int64

    public init(pinned: Bool, id: Int64) {
        self.pinned = pinned
        self.id = id
    }

    public init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0] == "0" || parts[0] == "1", parts[1].allSatisfy(\.isASCII),
              let id = Int64(parts[1]), id > 0 else { return nil }
        self.init(pinned: parts[0] == "1", id: id)
    }

    public var text: String { "\(pinned ? 1 : 0).\(id)" }
}

public struct NoticeQuery: Sendable, Equatable {
    /// The employee reading: their personal notices are on the board too. nil: company notices only.
    public var viewerID: Int64?
    /// Also expired company notices (admins, `sgadmin notice list`).
    public var includeExpired: Bool
    public var after: NoticeCursor?
    public var limit: Int

    public init(viewerID: Int64?, includeExpired: Bool = false, after: NoticeCursor? = nil, limit: Int = 50) {
        self.viewerID = viewerID
        self.includeExpired = includeExpired
        self.after = after
        self.limit = limit
    }
}

public struct NoticePage: Sendable {
    public let items: [Notice]
    /// Notices on the viewer's board, in all pages.
    public let total: Int
    /// The viewer's personal notices not yet read.
    public let unread: Int
    /// Pass as `after` for the next page; nil on the last page.
    public let next: NoticeCursor?
}

extension AppDatabase {
    /// Posts a company notice (admins only).
    public func postNotice(_ draft: NoticeDraft, by actor: Actor, at now: Date) async throws -> Notice {
        try NoticeRules.checkAdmin(actor)
        return try await write { (db: Database) in
            let draft = try NoticeRules.validated(draft, today: HolidayService.today(now, try Queries.company(db)))
            let stamp = Timestamp.format(now)
            try db.execute(
                sql: """
                    INSERT INTO notices (kind, title, body, pinned, expires_on, author, author_employee_id, created_at, updated_at)
                    VALUES ('company', ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [draft.title, draft.body, draft.pinned, draft.expiresOn?.description, actor.name, actor.employeeID, stamp, stamp])
            return try Self.notice(db, id: db.lastInsertedRowID)!
        }
    }

    /// Edits a company notice (admins only); the edited notice is checked as a whole.
    public func editNotice(id: Int64, _ patch: NoticePatch, by actor: Actor, at now: Date) async throws -> Notice {
        try NoticeRules.checkAdmin(actor)
        return try await write { (db: Database) in
            guard let notice = try Self.notice(db, id: id), notice.kind == .company else {
                throw SGError.notFound("Company notice \(id) does not exist.")
            }
            let draft = try NoticeRules.apply(patch, to: notice, today: HolidayService.today(now, try Queries.company(db)))
            try db.execute(
                sql: "UPDATE notices SET title = ?, body = ?, pinned = ?, expires_on = ?, updated_at = ? WHERE id = ?",
                arguments: [draft.title, draft.body, draft.pinned, draft.expiresOn?.description, Timestamp.format(now), id])
            return try Self.notice(db, id: id)!
        }
    }

    /// Deletes a company notice (admins only). Personal notices are records of transitions and stay.
    public func deleteNotice(id: Int64, by actor: Actor) async throws {
        try NoticeRules.checkAdmin(actor)
        try await write { (db: Database) in
            try db.execute(sql: "DELETE FROM notices WHERE id = ? AND kind = 'company'", arguments: [id])
            guard db.changesCount > 0 else { throw SGError.notFound("Company notice \(id) does not exist.") }
        }
    }

    /// The board as `query.viewerID` sees it: live company notices and their own personal notices, pinned first,
    /// then newest first.
    public func notices(_ query: NoticeQuery, at now: Date) async throws -> NoticePage {
        try await read { (db: Database) in
            let today = HolidayService.today(now, try Queries.company(db))
            let (visible, arguments) = Self.visibility(viewerID: query.viewerID, includeExpired: query.includeExpired, today: today)
            let total = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM notices n WHERE \(visible)", arguments: arguments) ?? 0
            let unread = try query.viewerID.map {
                try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM notices WHERE kind = 'personal' AND employee_id = ? AND read_at IS NULL",
                    arguments: [$0]) ?? 0
            } ?? 0
            var condition = visible
            var pageArguments = arguments
            if let after = query.after {
                condition = "(\(visible)) AND (n.pinned < ? OR (n.pinned = ? AND n.id < ?))"
                pageArguments += [after.pinned, after.pinned, after.id]
            }
            pageArguments += [query.limit + 1]
            let rows = try Row.fetchAll(
                db, sql: Self.noticeSelect + " WHERE \(condition) ORDER BY n.pinned DESC, n.id DESC LIMIT ?", arguments: pageArguments)
            let items = try rows.prefix(query.limit).map(Self.notice(from:))
            let next = rows.count > query.limit ? items.last.map { NoticeCursor(pinned: $0.pinned, id: $0.id) } : nil
            return NoticePage(items: items, total: total, unread: unread, next: next)
        }
    }

    /// One notice, if `viewerID` may see it (an expired company notice only with `includeExpired`).
    public func notice(id: Int64, viewerID: Int64?, includeExpired: Bool, at now: Date) async throws -> Notice {
        try await read { (db: Database) in
            let today = HolidayService.today(now, try Queries.company(db))
            let (visible, arguments) = Self.visibility(viewerID: viewerID, includeExpired: includeExpired, today: today)
            guard let row = try Row.fetchOne(db, sql: Self.noticeSelect + " WHERE n.id = ? AND (\(visible))", arguments: [id] + arguments)
            else { throw SGError.notFound("Notice \(id) does not exist.") }
            return try Self.notice(from: row)
        }
    }

    /// Sets or clears the read flag of one of the employee's personal notices.
    public func markNotice(id: Int64, read: Bool, employeeID: Int64, at now: Date) async throws -> Notice {
        try await write { (db: Database) in
            guard let notice = try Self.notice(db, id: id),
                  notice.kind == .company || notice.employeeID == employeeID
            else { throw SGError.notFound("Notice \(id) does not exist.") }
            guard notice.kind == .personal else {
                throw SGError.conflict("Notice \(id) is a company notice: only personal notices have a read flag.")
            }
            try db.execute(
                sql: "UPDATE notices SET read_at = \(read ? "COALESCE(read_at, ?)" : "NULL") WHERE id = ?",
                arguments: read ? [Timestamp.format(now), id] : [id])
            return try Self.notice(db, id: id)!
        }
    }

    static let noticeSelect = """
        SELECT n.*, r.start_date AS r_start, r.end_date AS r_end
        FROM notices n LEFT JOIN holiday_requests r ON r.id = n.request_id
        """

    /// The notices `viewerID` sees, as a condition on `n`. Each part reads its own partial index, so the
    /// board does not scan every employee's personal notices.
    static func visibility(viewerID: Int64?, includeExpired: Bool, today: CalendarDate) -> (String, StatementArguments) {
        var sql = "SELECT id FROM notices WHERE kind = 'company' AND (? OR expires_on IS NULL OR expires_on >= ?)"
        var arguments: StatementArguments = [includeExpired, today.description]
        if let viewerID {
            sql += " UNION ALL SELECT id FROM notices WHERE kind = 'personal' AND employee_id = ?"
            arguments += [viewerID]
        }
        return ("n.id IN (\(sql))", arguments)
    }

    static func notice(_ db: Database, id: Int64) throws -> Notice? {
        try Row.fetchOne(db, sql: noticeSelect + " WHERE n.id = ?", arguments: [id]).map(notice(from:))
    }

    static func notice(from row: Row) throws -> Notice {
        let id: Int64 = row["id"]
        guard let kind = NoticeKind(rawValue: row["kind"]), let created = Timestamp.parse(row["created_at"]),
              let updated = Timestamp.parse(row["updated_at"])
        else { throw SGError.conflict("Notice \(id) holds data this program cannot read.") }
        var transition: Notice.Transition?
        if let requestID: Int64 = row["request_id"], let to = (row["to_status"] as String?).flatMap(HolidayStatus.init(rawValue:)),
           let start = (row["r_start"] as String?).flatMap(CalendarDate.init(iso:)),
           let end = (row["r_end"] as String?).flatMap(CalendarDate.init(iso:)) {
            transition = Notice.Transition(
                requestID: requestID, startDate: start, endDate: end,
                from: (row["from_status"] as String?).flatMap(HolidayStatus.init(rawValue:)), to: to, note: row["note"] ?? "")
        }
        return Notice(
            id: id, kind: kind, employeeID: row["employee_id"], title: row["title"], body: row["body"], pinned: row["pinned"],
            expiresOn: (row["expires_on"] as String?).flatMap(CalendarDate.init(iso:)), author: row["author"],
            createdAt: created, updatedAt: updated, readAt: (row["read_at"] as String?).flatMap(Timestamp.parse),
            transition: transition)
    }
}
