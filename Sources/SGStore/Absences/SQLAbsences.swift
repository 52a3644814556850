import Foundation
import SGCore
import SGSQLite

/// `AbsenceWriting` over one `SQLConnection`: who is off, and the calendar feeds.
struct SQLAbsences: AbsenceWriting {
    let connection: SQLConnection

    func approvalContext(employeeID: Int64, on day: CalendarDate) throws -> ApprovalContext {
        try SQLTeams(connection: connection).approvalContext(employeeID: employeeID, on: day)
    }

    func teamStageEmployees(decidedBy employeeID: Int64, on day: CalendarDate) throws -> [Int64] {
        try SQLTeams(connection: connection).teamStageEmployees(decidedBy: employeeID, on: day)
    }

    func company() throws -> CompanySettings {
        try Rows.company(connection)
    }

    // MARK: Who is off

    private static let pageColumns = "\(Rows.employeeColumnsOfE), e.holiday_calendar_id, p.etag, p.content_type"

    /// `pageColumns` starting at column `start`.
    private static func absentEmployee(_ statement: SQLStatement, from start: Int32 = 0) -> AbsentEmployee {
        let first = start + Rows.employeeColumnCount
        return AbsentEmployee(
            employee: Rows.employee(statement, from: start), holidayCalendarID: statement.int64(first),
            photo: statement.optionalText(first + 1).map { PhotoVersion(etag: $0, contentType: statement.text(first + 2)) })
    }

    func absencePage(employeeID: Int64?, teamID: Int64?, afterID: Int64?, limit: Int) throws -> [AbsentEmployee]? {
        if let employeeID {
            if afterID != nil { return [] }  // the one employee was on the first page
            return try connection.with(
                "SELECT \(Self.pageColumns) FROM employees e LEFT JOIN employee_photos p ON p.employee_id = e.id WHERE e.id = ?"
            ) { statement in
                statement.bind(1, employeeID)
                return try statement.step() ? [Self.absentEmployee(statement)] : []
            }
        }
        var key = ""
        var keyID: Int64 = 0
        if let afterID {
            guard let found = try Rows.sortKey(connection, employeeID: afterID) else { return nil }
            (key, keyID) = (found, afterID)
        }
        // Every folded sort key is non-empty (the service fills missing ones first), so ('', 0) is before them all.
        return try connection.with(
            """
            SELECT \(Self.pageColumns) FROM employees e LEFT JOIN employee_photos p ON p.employee_id = e.id
            WHERE e.is_active = 1 AND (e.sort_key, e.id) > (?1, ?2)\(teamID == nil ? "" : " AND e.team_id = ?4")
            ORDER BY e.sort_key, e.id LIMIT ?3
            """
        ) { statement in
            statement.bind(1, key)
            statement.bind(2, keyID)
            statement.bind(3, limit)
            if let teamID { statement.bind(4, teamID) }
            var page: [AbsentEmployee] = []
            while try statement.step() { page.append(Self.absentEmployee(statement)) }
            return page
        }
    }

    private static let absenceColumns = """
        r.id, r.employee_id, r.leave_type_id, t.name, t.is_private, r.start_date, r.end_date, r.starts_afternoon, \
        r.ends_morning, r.status
        """
    private static let absenceColumnCount: Int32 = 10

    private static func absence(_ statement: SQLStatement) throws -> Absence {
        Absence(
            requestID: statement.int64(0), employeeID: statement.int64(1), leaveTypeID: statement.int64(2),
            leaveTypeName: statement.text(3), isPrivateType: statement.bool(4),
            period: LeavePeriod(
                unchecked: try statement.date(5), end: try statement.date(6), startHalf: statement.bool(7) ? .afternoon : .morning,
                endHalf: statement.bool(8) ? .morning : .afternoon),
            status: try statement.status(9))
    }

    /// Per employee of the page (a JSON array of ids), a range of holiday_requests_employee (employee_id, start_date):
    /// a request reaching the range's first day began at most a request's longest span before it.
    static let absencesSQL = DialectSQL { dialect in
        """
        SELECT \(absenceColumns)
        FROM \(dialect.jsonValues("?1")) page
        JOIN holiday_requests r ON r.employee_id = page.value AND r.start_date BETWEEN ?2 AND ?3 AND r.end_date >= ?4
        JOIN leave_types t ON t.id = r.leave_type_id
        WHERE r.status = 'approved'
           OR (r.status IN ('pending', 'approved-by-manager') AND (?5 = 1 OR r.employee_id IN (SELECT value FROM \(dialect.jsonValues("?6")) AS ids)))
        ORDER BY r.employee_id, r.start_date, r.id
        """
    }

    func absences(
        employeeIDs: [Int64], from start: CalendarDate, to end: CalendarDate, pendingOfEveryone: Bool, pendingOf: [Int64]
    ) throws -> [Absence] {
        guard !employeeIDs.isEmpty else { return [] }
        return try connection.with(Self.absencesSQL[connection.dialect]) { statement in
            statement.bind(1, jsonIDs: employeeIDs)
            statement.bind(2, Rows.earliestStart(touching: start))
            statement.bind(3, end)
            statement.bind(4, start)
            statement.bind(5, pendingOfEveryone ? 1 : 0)
            statement.bind(6, jsonIDs: pendingOf)
            var found: [Absence] = []
            while try statement.step() { found.append(try Self.absence(statement)) }
            return found
        }
    }

    func calendarHolidays(calendarIDs: [Int64], from start: CalendarDate, to end: CalendarDate) throws -> [CalendarHolidays] {
        guard !calendarIDs.isEmpty else { return [] }
        return try connection.with(
            """
            SELECT c.id, c.name, p.date, p.name FROM holiday_calendars c
            LEFT JOIN public_holidays p ON p.calendar_id = c.id AND p.date BETWEEN ?2 AND ?3
            WHERE c.id IN (SELECT value FROM \(connection.dialect.jsonValues("?1")) AS ids)
            ORDER BY c.id, p.date
            """
        ) { statement in
            statement.bind(1, jsonIDs: calendarIDs)
            statement.bind(2, start)
            statement.bind(3, end)
            var calendars: [CalendarHolidays] = []
            while try statement.step() {
                let id = statement.int64(0)
                if calendars.last?.calendarID != id {
                    calendars.append(CalendarHolidays(calendarID: id, calendarName: statement.text(1), holidays: []))
                }
                if !statement.isNull(2) {
                    calendars[calendars.count - 1].holidays.append(PublicHoliday(date: try statement.date(2), name: statement.text(3)))
                }
            }
            return calendars
        }
    }

    func holidayCalendarID(employeeID: Int64) throws -> Int64? {
        try SQLHolidayTransaction(connection: connection).holidayCalendarID(employeeID: employeeID)
    }

    // MARK: Calendar feeds

    func deliveryConfiguration() throws -> DeliveryConfiguration {
        try SQLOutbox(connection: connection).deliveryConfiguration()
    }

    private static func feed(_ statement: SQLStatement) throws -> CalendarFeed {
        guard let kind = CalendarFeed.Kind(rawValue: statement.text(2)) else {
            throw SGError.unreadableData("A calendar feed holds a kind this program cannot read: '\(statement.text(2))'.")
        }
        return CalendarFeed(id: statement.int64(0), employeeID: statement.int64(1), kind: kind, createdAt: try statement.timestamp(3))
    }

    func calendarFeeds(employeeID: Int64) throws -> [CalendarFeed] {
        try connection.with("SELECT id, employee_id, kind, created_at FROM calendar_feeds WHERE employee_id = ? ORDER BY id") { statement in
            statement.bind(1, employeeID)
            var feeds: [CalendarFeed] = []
            while try statement.step() { feeds.append(try Self.feed(statement)) }
            return feeds
        }
    }

    func calendarFeed(secretDigest: Data) throws -> FeedOwner? {
        try connection.with(
            """
            SELECT f.id, f.employee_id, f.kind, f.created_at, \(Rows.employeeColumnsOfE)
            FROM calendar_feeds f JOIN employees e ON e.id = f.employee_id WHERE f.secret_digest = ?
            """
        ) { statement in
            statement.bind(1, blob: secretDigest)
            guard try statement.step() else { return nil }
            return FeedOwner(feed: try Self.feed(statement), owner: Rows.employee(statement, from: 4))
        }
    }

    /// The absence's columns, then the owner's name and surname, the duration, the instants and the history's length.
    private static let feedColumns = """
        \(absenceColumns), e.name, e.surname, r.halves, r.created_at, r.updated_at, \
        (SELECT COUNT(*) FROM holiday_events h WHERE h.request_id = r.id)
        """

    private static func feedRequest(_ statement: SQLStatement) throws -> FeedRequest {
        let first = absenceColumnCount
        return FeedRequest(
            absence: try absence(statement), employeeName: statement.text(first) + " " + statement.text(first + 1),
            duration: HalfDays(halves: statement.int(first + 2)), createdAt: try statement.timestamp(first + 3),
            updatedAt: try statement.timestamp(first + 4), changes: statement.int(first + 5))
    }

    func personalFeedRequests(employeeID: Int64, from start: CalendarDate, changedSince: Date) throws -> [FeedRequest] {
        try connection.with(
            """
            SELECT \(Self.feedColumns)
            FROM holiday_requests r JOIN employees e ON e.id = r.employee_id JOIN leave_types t ON t.id = r.leave_type_id
            WHERE r.employee_id = ?1 AND r.start_date >= ?2 AND r.end_date >= ?3
              AND (\(Rows.holdsDays) OR r.updated_at >= ?4)
            ORDER BY r.start_date, r.id
            """
        ) { statement in
            statement.bind(1, employeeID)
            statement.bind(2, Rows.earliestStart(touching: start))
            statement.bind(3, start)
            statement.bind(4, Timestamp.format(changedSince))
            var requests: [FeedRequest] = []
            while try statement.step() { requests.append(try Self.feedRequest(statement)) }
            return requests
        }
    }

    /// The approved requests starting in the window (less a request's longest span). Without statistics the planner
    /// would take holiday_requests_status and read every approved request the company ever had.
    static let companyFeedSQL = """
        SELECT \(feedColumns)
        FROM holiday_requests r INDEXED BY holiday_requests_approved_start JOIN employees e ON e.id = r.employee_id JOIN leave_types t ON t.id = r.leave_type_id
        WHERE r.status = 'approved' AND r.start_date BETWEEN ?1 AND ?2 AND r.end_date >= ?3 AND e.is_active = 1
        ORDER BY r.start_date, r.id
        """

    func companyFeedRequests(from start: CalendarDate, to end: CalendarDate) throws -> [FeedRequest] {
        try connection.with(Self.companyFeedSQL) { statement in
            statement.bind(1, Rows.earliestStart(touching: start))
            statement.bind(2, end)
            statement.bind(3, start)
            var requests: [FeedRequest] = []
            while try statement.step() { requests.append(try Self.feedRequest(statement)) }
            return requests
        }
    }

    /// Requests of at least this many calendar days are also in holiday_requests_approved_long,
    /// ordered by their end: the few under way that began earlier than this before a day are found there, so the
    /// requests starting from that far back to the window's end are all the rest.
    static let longSpanDays = 14

    /// Who is away in a window (?1 the first day less `longSpanDays` - 1, ?2 the first day) through a request that
    /// began before ?1, by start and id: from holiday_requests_approved_long (the employee is in it), with a point
    /// read of the employee for `is_active`.
    static let awayLongSQL = """
        SELECT r.employee_id
        FROM holiday_requests r INDEXED BY holiday_requests_approved_long JOIN employees e ON e.id = r.employee_id
        WHERE r.status = 'approved' AND julianday(r.end_date) - julianday(r.start_date) >= \(longSpanDays)
          AND r.end_date >= ?2 AND r.start_date < ?1 AND e.is_active = 1
        ORDER BY r.start_date, r.id
        """

    /// Who begins an approved absence on one day (?1) that lasts at least until the window's first day (?2), by id:
    /// one range of holiday_requests_approved_start (that start, then ends from ?2 on), so the requests that began
    /// that day and ended before the window are never read. One range over the fortnight's starts would read those
    /// too, and their number grows with the company's.
    static let awayStartingSQL = """
        SELECT r.employee_id
        FROM holiday_requests r INDEXED BY holiday_requests_approved_start JOIN employees e ON e.id = r.employee_id
        WHERE r.status = 'approved' AND r.start_date = ?1 AND r.end_date >= ?2 AND e.is_active = 1
        ORDER BY r.id
        """

    /// The approved absences in the window of the employees found by `awayLongSQL` and `awayStartingSQL` (a JSON
    /// array of ids), each with its employee and photo, by start date: per employee, a range of
    /// holiday_requests_employee.
    static let awayAbsencesSQL = DialectSQL { dialect in
        """
        SELECT \(absenceColumns), \(pageColumns)
        FROM \(dialect.jsonValues("?1")) page
        JOIN holiday_requests r ON r.employee_id = page.value AND r.start_date BETWEEN ?2 AND ?3 AND r.end_date >= ?4
        JOIN employees e ON e.id = r.employee_id JOIN leave_types t ON t.id = r.leave_type_id
        LEFT JOIN employee_photos p ON p.employee_id = e.id
        WHERE r.status = 'approved'
        ORDER BY r.start_date, r.id
        """
    }

    /// A busy week has far more employees away than are shown: the employees are read in the order their first
    /// absence in the window starts (the long ones under way first, then one start day after another from a
    /// fortnight back) and the reads stop at the first employee beyond the limit, so the cost is the shown
    /// employees' and the days', not the company's.
    func approvedAbsences(
        from start: CalendarDate, to end: CalendarDate, employeeLimit: Int
    ) throws -> (found: [(employee: AbsentEmployee, absence: Absence)], more: Bool) {
        var shown: [Int64] = []
        var seen = Set<Int64>()
        var more = false
        /// Takes the employees `sql` gives, in order; false once one beyond the limit is seen.
        func take(_ sql: String, _ first: CalendarDate) throws -> Bool {
            try connection.with(sql) { statement in
                statement.bind(1, first)
                statement.bind(2, start)
                while try statement.step() {
                    let employeeID = statement.int64(0)
                    guard seen.insert(employeeID).inserted else { continue }
                    guard shown.count < employeeLimit else {
                        more = true
                        return false
                    }
                    shown.append(employeeID)
                }
                return true
            }
        }
        var day = start.adding(days: -(Self.longSpanDays - 1)) ?? start
        if try take(Self.awayLongSQL, day) {
            while day <= end, try take(Self.awayStartingSQL, day) {
                guard let next = day.adding(days: 1) else { break }
                day = next
            }
        }
        guard !shown.isEmpty else { return ([], false) }
        return try connection.with(Self.awayAbsencesSQL[connection.dialect]) { statement in
            statement.bind(1, jsonIDs: shown)
            statement.bind(2, Rows.earliestStart(touching: start))
            statement.bind(3, end)
            statement.bind(4, start)
            var found: [(employee: AbsentEmployee, absence: Absence)] = []
            while try statement.step() {
                found.append((Self.absentEmployee(statement, from: Self.absenceColumnCount), try Self.absence(statement)))
            }
            return (found, more)
        }
    }

    // MARK: Writes

    func insertCalendarFeed(employeeID: Int64, kind: CalendarFeed.Kind, secretDigest: Data, at: Date) throws -> CalendarFeed {
        try connection.execute("INSERT INTO calendar_feeds (employee_id, kind, secret_digest, created_at) VALUES (?, ?, ?, ?)") { statement in
            statement.bind(1, employeeID)
            statement.bind(2, kind.rawValue)
            statement.bind(3, blob: secretDigest)
            statement.bind(4, Timestamp.format(at))
        }
        return CalendarFeed(id: try connection.lastInsertedRowID, employeeID: employeeID, kind: kind, createdAt: at)
    }

    func deleteCalendarFeed(id: Int64, employeeID: Int64) throws -> Bool {
        try connection.execute("DELETE FROM calendar_feeds WHERE id = ? AND employee_id = ?") { statement in
            statement.bind(1, id)
            statement.bind(2, employeeID)
        }
        return connection.changes > 0
    }
}
