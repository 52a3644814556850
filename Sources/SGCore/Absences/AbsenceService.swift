import Foundation

/// Who is off (the team calendar) and the calendar feeds that carry it into calendar apps.
public struct AbsenceService: Sendable {
    public let store: any AbsenceStore
    /// Fills missing folded sort keys before a page is read in directory order.
    public let people: PeopleService
    public let clock: any NowProvider

    public init(store: any AbsenceStore, people: PeopleService, clock: any NowProvider = SystemClock()) {
        self.store = store
        self.people = people
        self.clock = clock
    }

    // MARK: Who is off

    /// A page of active employees in directory order (or the one asked for) with their pending and approved
    /// requests sharing a day with the range, and the public holidays of their calendars in it, as `viewer` may
    /// see them: approved requests are confirmed; pending ones (and those approved by a manager) are tentative and
    /// shown only to admins, to their owner and to those who decide the owner's requests (`Approval`); colleagues
    /// never see a private leave type's name nor which request it is.
    public func absences(_ query: AbsenceQuery, viewer: Actor) async throws -> AbsenceOverview {
        guard query.from <= query.to else {
            throw SGError.invalid(field: "to", message: "\(query.to) is before from (\(query.from))")
        }
        guard query.from.days(to: query.to) < AbsenceQuery.maximumDays else {
            throw SGError.invalid(field: "to", message: "a range covers at most \(AbsenceQuery.maximumDays) days; ask for several")
        }
        guard (1...AbsenceQuery.maximumLimit).contains(query.limit) else {
            throw SGError.invalid(field: "limit", message: "must be between 1 and \(AbsenceQuery.maximumLimit)")
        }
        try await people.refreshFoldedCopiesIfNeeded()
        let now = clock.now()
        return try await store.read { tx in
            guard let page = try tx.absencePage(
                employeeID: query.employeeID, teamID: query.teamID, afterID: query.afterID, limit: query.limit + 1) else {
                throw SGError.invalid(field: "after", message: "\(query.afterID ?? 0) is not an employee id; pass the nextAfter of the previous page")
            }
            if let id = query.employeeID, page.isEmpty, query.afterID == nil {
                throw SGError.notFound("Employee \(id) does not exist.")
            }
            let employees = Array(page.prefix(query.limit))
            // The viewer's own, and those of the employees whose requests they decide.
            let decided = try viewer.isAdmin ? [] : viewer.employeeID.map { [$0] + (try tx.teamStageEmployees(decidedBy: $0, on: try tx.today(at: now))) } ?? []
            let found = try tx.absences(
                employeeIDs: employees.map(\.employee.id), from: query.from, to: query.to, pendingOfEveryone: viewer.isAdmin,
                pendingOf: decided)
            let byEmployee = Dictionary(grouping: found, by: \.employeeID)
            let seen = Set(decided)
            let rows = employees.map { employee in
                AbsenceOverview.Row(
                    employee: employee,
                    absences: (byEmployee[employee.employee.id] ?? []).compactMap {
                        Self.entry($0, viewer: viewer, decides: seen.contains($0.employeeID))
                    })
            }
            let calendarIDs = Set(employees.map(\.holidayCalendarID)).sorted()
            return AbsenceOverview(
                from: query.from, to: query.to, rows: rows,
                calendars: try tx.calendarHolidays(calendarIDs: calendarIDs, from: query.from, to: query.to),
                nextAfterID: page.count > query.limit ? employees.last?.employee.id : nil)
        }
    }

    /// What `viewer` sees of one absence; nil when nothing (another employee's pending request, for a non-admin).
    /// `decides`: the viewer decides the owner's requests (or is the owner).
    static func entry(_ absence: Absence, viewer: Actor, decides: Bool = false) -> AbsenceOverview.Entry? {
        let isOwn = viewer.employeeID == absence.employeeID
        let seesAll = viewer.isAdmin || isOwn || decides
        switch absence.status {
        case .approved: break
        case .pending, .approvedByManager: guard seesAll else { return nil }
        case .rejected, .cancelled: return nil
        }
        return AbsenceOverview.Entry(
            period: absence.period, certainty: absence.status == .approved ? .confirmed : .tentative,
            leaveTypeName: seesAll || !absence.isPrivateType ? absence.leaveTypeName : nil,
            requestID: seesAll ? absence.requestID : nil)
    }

    // MARK: The main screen

    /// Who of the company is away on a day of `today...today + days` (approved absences of active employees, as
    /// `viewer` may see them, the employees who leave first first, at most `limit` of them), and the viewer's own
    /// next approved absence (the one under way, or the first to come), in one read.
    public func upcoming(viewer: Actor, days: Int = 7, limit: Int = 50) async throws -> UpcomingAbsences {
        let now = clock.now()
        return try await store.read { tx in
            let today = try tx.today(at: now)
            let end = today.adding(days: days) ?? today
            var rows: [AbsenceOverview.Row] = []
            var index: [Int64: Int] = [:]
            let (found, more) = try tx.approvedAbsences(from: today, to: end, employeeLimit: limit)
            for (employee, absence) in found {
                guard let entry = Self.entry(absence, viewer: viewer) else { continue }
                if let at = index[employee.employee.id] {
                    rows[at].absences.append(entry)
                } else {
                    index[employee.employee.id] = rows.count
                    rows.append(AbsenceOverview.Row(employee: employee, absences: [entry]))
                }
            }
            let next = try viewer.employeeID.flatMap { id in
                try tx.personalFeedRequests(employeeID: id, from: today, changedSince: .distantFuture).first { $0.absence.status == .approved }
            }
            return UpcomingAbsences(today: today, from: today, to: end, away: rows, more: more, next: next)
        }
    }

    // MARK: Calendar feeds

    /// A new feed for the employee: its path carries the secret, which is returned this once and stored only as a
    /// digest; `url` is the path under the server's public URL, when one is configured.
    public func createFeed(kind: CalendarFeed.Kind, employeeID: Int64) async throws -> (feed: CalendarFeed, path: String, url: String?) {
        let (secret, digest) = Digests.newToken(prefix: CalendarFeed.secretPrefix)
        let path = CalendarFeed.path(secret: secret)
        let now = clock.now()
        return try await store.write { tx in
            let feeds = try tx.calendarFeeds(employeeID: employeeID)
            if feeds.count >= CalendarFeed.maximumPerEmployee {
                throw SGError.conflict(
                    "You already have \(CalendarFeed.maximumPerEmployee) calendar feeds; revoke one you no longer use first.")
            }
            if kind == .company, feeds.count(where: { $0.kind == .company }) >= CalendarFeed.maximumCompanyPerEmployee {
                throw SGError.conflict(
                    "You already have \(CalendarFeed.maximumCompanyPerEmployee) company calendar feeds; revoke one you no longer use first.")
            }
            let feed = try tx.insertCalendarFeed(employeeID: employeeID, kind: kind, secretDigest: digest, at: now)
            return (feed, path, try tx.deliveryConfiguration().link(path))
        }
    }

    /// The employee's live feeds, oldest first (without their secrets, which are not kept).
    public func feeds(employeeID: Int64) async throws -> [CalendarFeed] {
        try await store.read { tx in try tx.calendarFeeds(employeeID: employeeID) }
    }

    /// Revokes one of the employee's feeds: its address answers 404 from now on. Another employee's feed is "not
    /// found" like an unknown one.
    public func revokeFeed(id: Int64, employeeID: Int64) async throws {
        try await store.write { tx in
            guard try tx.deleteCalendarFeed(id: id, employeeID: employeeID) else {
                throw SGError.notFound("Calendar feed \(id) does not exist.")
            }
        }
    }

    /// The iCalendar text of the feed whose secret this is. An unknown or revoked secret, or one whose owner was
    /// deactivated, is "not found" and says nothing more.
    public func feedDocument(secret: String) async throws -> [UInt8] {
        let unknown = SGError.notFound("There is no calendar feed at this address; it may have been revoked.")
        guard Digests.isTokenShaped(secret, prefix: CalendarFeed.secretPrefix) else { throw unknown }
        let digest = Digests.tokenDigest(secret)
        let now = clock.now()
        return try await store.read { tx in
            guard let found = try tx.calendarFeed(secretDigest: digest), found.owner.isActive else { throw unknown }
            let company = try tx.company()
            let today = HolidayService.today(now, company)
            switch found.feed.kind {
            case .personal:
                let requests = try tx.personalFeedRequests(
                    employeeID: found.owner.id, from: today.adding(days: -CalendarFeedDocument.personalPastDays) ?? today,
                    changedSince: now.addingTimeInterval(-Double(CalendarFeedDocument.cancelledKeptDays) * 86_400))
                return CalendarFeedDocument.personal(companyName: company.name, owner: found.owner, requests: requests)
            case .company:
                let start = today.adding(days: -CalendarFeedDocument.companyPastDays) ?? today
                let end = today.adding(days: CalendarFeedDocument.companyFutureDays) ?? today
                let requests = try tx.companyFeedRequests(from: start, to: end)
                let calendarID = try tx.holidayCalendarID(employeeID: found.owner.id) ?? HolidayCalendar.defaultID
                let calendar = try tx.calendarHolidays(calendarIDs: [calendarID], from: start, to: end).first
                return CalendarFeedDocument.company(
                    companyName: company.name, requests: requests,
                    calendar: calendar ?? CalendarHolidays(calendarID: calendarID, calendarName: "", holidays: []))
            }
        }
    }
}
