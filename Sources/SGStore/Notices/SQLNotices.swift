import Foundation
import SGCore
import SGSQLite

/// `NoticeWriting` over one `SQLConnection`.
struct SQLNotices: NoticeWriting {
    let connection: SQLConnection

    func company() throws -> CompanySettings { try Rows.company(connection) }

    static let noticeSelect = """
        SELECT n.id, n.kind, n.employee_id, n.title, n.body, n.pinned, n.expires_on, n.author, n.created_at, n.updated_at,
               n.read_at, n.request_id, n.from_status, n.to_status, n.note, r.start_date, r.end_date
        FROM notices n LEFT JOIN holiday_requests r ON r.id = n.request_id
        """

    /// A notice from `noticeSelect`'s columns.
    static func notice(_ statement: SQLStatement) throws -> Notice {
        guard let kind = NoticeKind(rawValue: statement.text(1)) else {
            throw SGError.unreadableData("Notice \(statement.int64(0)) holds data this program cannot read.")
        }
        var transition: Notice.Transition?
        if !statement.isNull(11) && !statement.isNull(15) {
            transition = Notice.Transition(
                requestID: statement.int64(11), startDate: try statement.date(15), endDate: try statement.date(16),
                from: statement.isNull(12) ? nil : try statement.status(12), to: try statement.status(13),
                note: statement.optionalText(14) ?? "")
        }
        return Notice(
            id: statement.int64(0), kind: kind, employeeID: statement.optionalInt64(2), title: statement.text(3),
            body: statement.text(4), pinned: statement.bool(5),
            expiresOn: statement.isNull(6) ? nil : try statement.date(6), author: statement.text(7),
            createdAt: try statement.timestamp(8), updatedAt: try statement.timestamp(9),
            readAt: try statement.optionalTimestamp(10), transition: transition)
    }

    /// The notices `visibility` shows, as a condition on `n`, with its parameters bound from `first`. Each part
    /// reads its own partial index, so the board does not scan every employee's personal notices.
    private static func visible(_ visibility: NoticeVisibility) -> String {
        var sql = "SELECT id FROM notices WHERE kind = 'company' AND (? = 1 OR expires_on IS NULL OR expires_on >= ?)"
        if visibility.viewerID != nil { sql += " UNION ALL SELECT id FROM notices WHERE kind = 'personal' AND employee_id = ?" }
        return "n.id IN (\(sql))"
    }

    /// Binds `visible`'s parameters from `first`; returns the next free index.
    private static func bind(_ visibility: NoticeVisibility, _ statement: SQLStatement, from first: Int32) -> Int32 {
        statement.bind(first, visibility.includeExpired ? 1 : 0)
        statement.bind(first + 1, visibility.today)
        guard let viewerID = visibility.viewerID else { return first + 2 }
        statement.bind(first + 2, viewerID)
        return first + 3
    }

    func notice(id: Int64) throws -> Notice? {
        try connection.with(Self.noticeSelect + " WHERE n.id = ?") { statement in
            statement.bind(1, id)
            return try statement.step() ? try Self.notice(statement) : nil
        }
    }

    func notice(id: Int64, visibility: NoticeVisibility) throws -> Notice? {
        try connection.with(Self.noticeSelect + " WHERE n.id = ? AND \(Self.visible(visibility))") { statement in
            statement.bind(1, id)
            _ = Self.bind(visibility, statement, from: 2)
            return try statement.step() ? try Self.notice(statement) : nil
        }
    }

    func board(_ visibility: NoticeVisibility, after: NoticeCursor?, limit: Int) throws -> NoticePage {
        let condition = Self.visible(visibility)
        let total = try connection.with("SELECT COUNT(*) FROM notices n WHERE \(condition)") { statement in
            _ = Self.bind(visibility, statement, from: 1)
            _ = try statement.step()
            return statement.int(0)
        }
        let unread = try visibility.viewerID.map { viewerID in
            try connection.with(
                "SELECT COUNT(*) FROM notices WHERE kind = 'personal' AND employee_id = ? AND read_at IS NULL"
            ) { statement in
                statement.bind(1, viewerID)
                _ = try statement.step()
                return statement.int(0)
            }
        } ?? 0
        let page = after == nil ? condition : "(\(condition)) AND (n.pinned < ? OR (n.pinned = ? AND n.id < ?))"
        let rows = try connection.with(Self.noticeSelect + " WHERE \(page) ORDER BY n.pinned DESC, n.id DESC LIMIT ?") { statement in
            var index = Self.bind(visibility, statement, from: 1)
            if let after {
                statement.bind(index, after.pinned ? 1 : 0)
                statement.bind(index + 1, after.pinned ? 1 : 0)
                statement.bind(index + 2, after.id)
                index += 3
            }
            statement.bind(index, limit + 1)
            var rows: [Notice] = []
            while try statement.step() { rows.append(try Self.notice(statement)) }
            return rows
        }
        let items = Array(rows.prefix(limit))
        let next = rows.count > limit ? items.last.map { NoticeCursor(pinned: $0.pinned, id: $0.id) } : nil
        return NoticePage(items: items, total: total, unread: unread, next: next)
    }

    // MARK: Writes

    func insertCompanyNotice(_ draft: NoticeDraft, author: Actor, at: Date) throws -> Int64 {
        let stamp = Timestamp.format(at)
        try connection.execute(
            """
            INSERT INTO notices (kind, title, body, pinned, expires_on, author, author_employee_id, created_at, updated_at)
            VALUES ('company', ?, ?, ?, ?, ?, ?, ?, ?)
            """
        ) { statement in
            statement.bind(1, draft.title)
            statement.bind(2, draft.body)
            statement.bind(3, draft.pinned ? 1 : 0)
            statement.bind(4, draft.expiresOn?.description)
            statement.bind(5, author.name)
            statement.bind(6, author.employeeID)
            statement.bind(7, stamp)
            statement.bind(8, stamp)
        }
        return try connection.lastInsertedRowID
    }

    func updateCompanyNotice(id: Int64, _ draft: NoticeDraft, at: Date) throws {
        try connection.execute("UPDATE notices SET title = ?, body = ?, pinned = ?, expires_on = ?, updated_at = ? WHERE id = ?") { statement in
            statement.bind(1, draft.title)
            statement.bind(2, draft.body)
            statement.bind(3, draft.pinned ? 1 : 0)
            statement.bind(4, draft.expiresOn?.description)
            statement.bind(5, Timestamp.format(at))
            statement.bind(6, id)
        }
    }

    func deleteCompanyNotice(id: Int64) throws -> Bool {
        try connection.execute("DELETE FROM notices WHERE id = ? AND kind = 'company'") { statement in statement.bind(1, id) }
        return connection.changes > 0
    }

    func setRead(noticeID: Int64, at: Date?) throws {
        try connection.execute("UPDATE notices SET read_at = CASE WHEN ? IS NULL THEN NULL ELSE COALESCE(read_at, ?) END WHERE id = ?") { statement in
            let stamp = at.map(Timestamp.format)
            statement.bind(1, stamp)
            statement.bind(2, stamp)
            statement.bind(3, noticeID)
        }
    }
}
