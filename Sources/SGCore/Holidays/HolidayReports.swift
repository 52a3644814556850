import Foundation

public struct RequestFilter: Sendable, Hashable {
    public var status: HolidayStatus?
    public var year: Int?
    public var employeeID: Int64?
    /// Only the requests of the employee with this username (active or not).
    public var username: String?
    /// Only these employees' requests (an approver's teams, a team).
    public var employeeIDs: [Int64]?
    /// Only the requests of this team's members.
    public var teamID: Int64?
    /// Only requests of this leave type.
    public var leaveTypeID: Int64?
    /// Keyset pagination: only requests with a larger id.
    public var afterID: Int64?
    public var limit: Int

    public static let maximumLimit = 200

    public init(status: HolidayStatus? = nil, year: Int? = nil, employeeID: Int64? = nil, afterID: Int64? = nil, limit: Int = 50) {
        self.status = status
        self.year = year
        self.employeeID = employeeID
        self.afterID = afterID
        self.limit = limit
    }
}

/// A request with the employee it belongs to, for lists.
public struct RequestWithEmployee: Sendable {
    public let request: HolidayRequest
    public let employee: Employee
    /// Who decides the request; filled by `HolidayService`'s lists.
    public var approval: ApprovalContext

    public init(request: HolidayRequest, employee: Employee, approval: ApprovalContext = ApprovalContext(admins: [])) {
        self.request = request
        self.employee = employee
        self.approval = approval
    }
}

public struct RequestPage: Sendable {
    public let items: [RequestWithEmployee]
    /// How many requests match the filter in all pages.
    public let total: Int
    /// Pass as `afterID` for the next page; nil on the last page.
    public let nextAfterID: Int64?

    public init(items: [RequestWithEmployee], total: Int, nextAfterID: Int64?) {
        self.items = items
        self.total = total
        self.nextAfterID = nextAfterID
    }
}

/// A request with everything its detail screen shows, read in one snapshot: its history, its days per year, and
/// what an admin needs to decide it (the requester's other requests and balances in the years it draws on).
public struct RequestDetail: Sendable {
    public let request: HolidayRequest
    public let employee: Employee
    public let events: [HolidayEvent]
    public let daysByYear: [Int: HalfDays]
    /// The requester's other requests touching the years this one draws on.
    public let otherRequests: [HolidayRequest]
    /// The requester's balance in each year this one draws on.
    public let balances: [Balance]
    /// The company's today at the instant the detail was read.
    public let today: CalendarDate
    /// Who decides the requester's requests, today.
    public let approval: ApprovalContext

    /// The request's version (`DecidableRequest.version`).
    public var version: Int { events.count }
}

/// One employee's holiday year, for the admin's view of any employee.
public struct EmployeeYear: Sendable {
    public let view: HolidayService.YearView
    /// Every year with requests or an allowance of this employee, ascending.
    public let years: [Int]
}

/// One row of HR's yearly export.
public struct ExportRow: Sendable {
    public let employee: Employee
    public let request: HolidayRequest
    /// The request's working half days that fall in the exported year.
    public let daysInYear: HalfDays
    /// Whether the request's type draws on the allowance.
    public let drawsOnAllowance: Bool

    public init(employee: Employee, request: HolidayRequest, daysInYear: HalfDays, drawsOnAllowance: Bool) {
        self.drawsOnAllowance = drawsOnAllowance
        self.employee = employee
        self.request = request
        self.daysInYear = daysInYear
    }
}

extension HolidayService {
    /// Requests matching `filter`, a page at a time, with who decides each: every request for an admin; for an
    /// approver or a running substitute, the requests of the employees they decide for (`Approval`), so that
    /// `status=pending` is what they may decide.
    public func requests(_ filter: RequestFilter, by actor: Actor) async throws -> RequestPage {
        try await datedRequests(filter, by: actor).page
    }

    /// `requests`, with the company's day they were read on and its time zone: what the page says of each request
    /// (may it still be cancelled?) holds for that day only.
    public func datedRequests(_ filter: RequestFilter, by actor: Actor) async throws -> (page: RequestPage, today: CalendarDate, timeZone: TimeZone) {
        try Self.check(filter)
        let now = clock.now()
        return try await store.read { tx in
            let company = try tx.company()
            let today = Self.today(now, company)
            let page = try tx.requestPage(try Self.visible(tx, try Self.resolved(tx, filter), by: actor, today: today))
            return (
                RequestPage(items: try Self.withApproval(tx, page.items, today: today), total: page.total, nextAfterID: page.nextAfterID),
                today, company.timeZone)
        }
    }

    /// Every request matching `filter` (all pages), by id, from one snapshot, as `requests` restricts them. Who decides
    /// each is not read (`approval` is left empty): the command line's lists do not show it, and reading it for every
    /// employee of a long list would be much of the work of `sgadmin pending`.
    public func allRequests(_ filter: RequestFilter, by actor: Actor) async throws -> [RequestWithEmployee] {
        var filter = filter
        filter.afterID = nil
        filter.limit = Int(Int32.max)
        let all = filter
        let now = clock.now()
        return try await store.read { tx in
            try tx.requestPage(try Self.visible(tx, try Self.resolved(tx, all), by: actor, today: try tx.today(at: now))).items
        }
    }

    /// `filter` with its username as an id. A username nobody has lists nothing, as an id nobody has does (ids start
    /// at 1), so that neither tells an approver who exists outside their teams.
    private static func resolved(_ tx: any HolidayReading, _ filter: RequestFilter) throws -> RequestFilter {
        guard let username = filter.username else { return filter }
        var filter = filter
        filter.username = nil
        let id = try tx.employee(username: username)?.id ?? 0
        if let asked = filter.employeeID, asked != id { filter.employeeID = 0 } else { filter.employeeID = id }
        return filter
    }

    /// `filter` narrowed to what `actor` may list; "forbidden" for someone who decides for nobody.
    private static func visible(_ tx: any HolidayReading, _ filter: RequestFilter, by actor: Actor, today: CalendarDate) throws -> RequestFilter {
        guard !actor.isAdmin else { return filter }
        let decided = try actor.employeeID.map { try tx.teamStageEmployees(decidedBy: $0, on: today) } ?? []
        guard !decided.isEmpty else {
            throw SGError.forbidden("This needs an admin account, or an approver's: you decide nobody's requests.")
        }
        var filter = filter
        filter.employeeIDs = filter.employeeIDs.map { Array(Set($0).intersection(decided)).sorted() } ?? decided
        return filter
    }

    /// The items with who decides each, the employees' contexts read together.
    private static func withApproval(_ tx: any HolidayReading, _ items: [RequestWithEmployee], today: CalendarDate) throws -> [RequestWithEmployee] {
        let contexts = try tx.approvalContexts(employeeIDs: items.map(\.employee.id), on: today)
        return try items.map { item in
            var item = item
            item.approval = try contexts[item.employee.id] ?? tx.approvalContext(employeeID: item.employee.id, on: today)
            return item
        }
    }

    private static func check(_ filter: RequestFilter) throws {
        if let year = filter.year { try checkYear(year) }
        // A page of nothing is a count.
        guard (0...RequestFilter.maximumLimit).contains(filter.limit) else {
            throw SGError.invalid(field: "limit", message: "must be between 0 and \(RequestFilter.maximumLimit)")
        }
    }

    /// One request with its history, days per year, and the requester's other requests and balances in the
    /// years it draws on, as of now. Another employee's request is "not found" for someone who may not read it (`Approval.mayRead`).
    public func requestDetail(id: Int64, by viewer: Actor) async throws -> RequestDetail {
        let now = clock.now()
        let detail = try await store.read { tx -> RequestDetail? in
            let company = try tx.company()
            let today = Self.today(now, company)
            guard let request = try tx.request(id: id), let employee = try tx.employee(id: request.employeeID) else { return nil }
            let approval = try tx.approvalContext(employeeID: request.employeeID, on: today)
            guard Approval.mayRead(holidaysOf: request.employeeID, by: viewer, approval) else { return nil }
            let daysByYear = try tx.daysByYear(requestID: id)
            let years = daysByYear.isEmpty ? [request.startDate.year] : daysByYear.keys.sorted()
            let others = try tx.requests(employeeID: request.employeeID, touchingYears: years.first!...years.last!)
                .filter { $0.id != request.id }
            return RequestDetail(
                request: request, employee: employee, events: try tx.events(requestID: id), daysByYear: daysByYear,
                otherRequests: others,
                // One ledger for every year the request draws on.
                balances: try Self.balances(tx, employeeID: request.employeeID, company: company, on: today, through: years.last!)
                    .filter { years.contains($0.year) },
                today: today, approval: approval)
        }
        guard let detail else { throw SGError.notFound("Holiday request \(id) does not exist.") }
        return detail
    }

    /// Whether `actor` may read HR's reports of `year`: an admin, and a supported year. Checked before a report
    /// starts, so that a refusal is an error rather than a report cut short.
    public static func checkReport(year: Int, by actor: Actor) throws {
        guard actor.isAdmin else { throw SGError.forbidden("Only an admin can read HR's reports.") }
        try checkYear(year)
    }

    /// Any employee's year view (inactive ones included) with the years that hold their data, in one snapshot:
    /// an admin's, the employee's own, or their team approvers'.
    public func employeeYear(employeeID: Int64, year: Int?, by viewer: Actor) async throws -> EmployeeYear {
        let now = clock.now()
        return try await store.read { tx in
            try Self.checkMayRead(tx, employeeID: employeeID, by: viewer, now: now, what: "holidays")
            _ = try Self.existingEmployee(tx, employeeID)
            return EmployeeYear(
                view: try Self.yearView(tx, employeeID: employeeID, year: year, now: now),
                years: try tx.yearsWithData(employeeID: employeeID))
        }
    }

    /// Every request touching `year` for HR's report, handed to `row` one at a time from one snapshot, so that a
    /// year of a large company never sits in memory at once. Admins only.
    public func export(year: Int, by actor: Actor, _ row: @escaping @Sendable (ExportRow) throws -> Void) async throws {
        try Self.checkReport(year: year, by: actor)
        try await store.read { tx in try tx.exportRows(year: year, row) }
    }

    /// Every employee's balance for `year` (inactive ones included), by surname. Admins only.
    public func balances(year: Int, by actor: Actor) async throws -> [(Employee, Balance)] {
        try Self.checkReport(year: year, by: actor)
        let now = clock.now()
        return try await store.read { tx -> [(Employee, Balance)] in
            let company = try tx.company()
            let today = Self.today(now, company)
            return try tx.employees().map { employee in
                (employee, try Self.balance(tx, employeeID: employee.id, year: year, company: company, on: today))
            }
        }
    }
}
