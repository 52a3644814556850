import Foundation

/// The data the holiday rules read, inside one database transaction (one consistent snapshot).
/// Every method runs in the transaction opened by `HolidayStore.read` or `write`.
public protocol HolidayReading: CompanyReading, LeaveTypeReading, ApprovalReading, IdempotencyRecordReading {
    func employee(id: Int64) throws -> Employee?
    func employee(username: String) throws -> Employee?
    /// When the employee is employed (no dates for an unknown id).
    func employment(employeeID: Int64) throws -> Employment
    /// The public holidays in `start...end` of the calendar the employee belongs to.
    func publicHolidays(employeeID: Int64, from start: CalendarDate, to end: CalendarDate) throws -> Set<CalendarDate>
    /// The employee's own working weeks (part time), by the day each starts.
    func workingWeekChanges(employeeID: Int64) throws -> [WorkingWeekChange]
    /// What the balance over the years reads of one employee (`LedgerRecords`), as of `carryOver`'s expiry (the
    /// company's, which the caller has read).
    func ledgerRecords(employeeID: Int64, carryOver: CarryOverPolicy) throws -> LedgerRecords
    /// Employees holding (pending or approved) days of a type drawing on the allowance, in any year.
    func employeesHoldingDays() throws -> [Int64]
    /// The employee's allowance history (of one year, or all), oldest first.
    func allowanceChanges(employeeID: Int64, year: Int?) throws -> [AllowanceChange]
    /// Half days held (pending and approved) in `year` by the employee's requests of one type.
    func heldDays(employeeID: Int64, year: Int, leaveTypeID: Int64) throws -> HalfDays
    /// The employee's pending or approved requests that share at least one day with `start...end`.
    func overlappingRequests(employeeID: Int64, from start: CalendarDate, to end: CalendarDate) throws -> [HolidayRequest]
    /// The employee's requests (any status) with at least one day in `years`, by start date.
    func requests(employeeID: Int64, touchingYears years: ClosedRange<Int>) throws -> [HolidayRequest]
    func request(id: Int64) throws -> HolidayRequest?
    /// The request's version: the number of moves in its history, its creation included (0: no such request).
    func requestVersion(id: Int64) throws -> Int
    func daysByYear(requestID: Int64) throws -> [Int: HalfDays]
    func companyContact() throws -> CompanyContact
    /// The addresses of the company's news feeds, in order.
    func companyFeedURLs() throws -> [String]
    /// A calendar's public holidays in `start...end`, by date.
    func publicHolidayList(calendarID: Int64, from start: CalendarDate, to end: CalendarDate) throws -> [PublicHoliday]
    /// Every holiday calendar, by id.
    func holidayCalendars() throws -> [HolidayCalendar]
    func holidayCalendar(id: Int64) throws -> HolidayCalendar?
    /// The calendar of that name, compared without case.
    func holidayCalendar(named name: String) throws -> HolidayCalendar?
    /// The calendar the employee belongs to; nil when there is no such employee.
    func holidayCalendarID(employeeID: Int64) throws -> Int64?

    // Lists and reports.

    /// Requests matching `filter` ordered by id, the page after `filter.afterID`, with the count of all matches.
    func requestPage(_ filter: RequestFilter) throws -> RequestPage
    /// A request's history, oldest first.
    func events(requestID: Int64) throws -> [HolidayEvent]
    /// Every year in which the employee has requests or an allowance, ascending.
    func yearsWithData(employeeID: Int64) throws -> [Int]
    /// Every request touching `year`, by employee (surname, name, id) then start date, one at a time.
    func exportRows(year: Int, _ row: (ExportRow) throws -> Void) throws
    /// Every employee (inactive ones included), by surname, name and id.
    func employees() throws -> [Employee]
}

/// The reads and writes of the holiday rules, inside one write transaction opened by `HolidayStore.write`.
/// Every move of a request writes its messages into the outbox here too.
public protocol HolidayTransaction: HolidayReading, OutboxWriting, AudienceReading, IdempotencyRecordWriting {
    /// A new request in `status` (pending, or approved for a type that needs no approval), with its half days
    /// per year.
    func insertRequest(
        employeeID: Int64, type: LeaveType, period: LeavePeriod, daysByYear: [Int: HalfDays], status: HolidayStatus,
        comment: String, at: Date
    ) throws -> HolidayRequest
    /// Moves the request to `status`, with what the move does to who decided it.
    func updateStatus(requestID: Int64, to status: HolidayStatus, at: Date, decision: DecisionChange) throws
    func appendEvent(requestID: Int64, from: HolidayStatus?, to: HolidayStatus, actor: Actor, at: Date, note: String) throws
    func setAllowance(employeeID: Int64, year: Int, days: Int) throws
    /// Records the employee's working week from `change.startsOn` on, replacing a change of that same day.
    func saveWorkingWeek(_ change: WorkingWeekChange) throws
    /// Appends to the allowance history; returns the entry with its id.
    func appendAllowanceChange(_ change: AllowanceChange) throws -> AllowanceChange
    func setDefaultAllowance(_ days: Int) throws
    /// Puts a notice on an employee's board, in the transaction of the transition it reports.
    func appendNotice(_ notice: PersonalNotice) throws
    /// Writes every company field (settings, contact details and feed addresses; a feed kept keeps its copy).
    func saveCompany(_ company: Company) throws
    func insertPublicHoliday(_ holiday: PublicHoliday, calendarID: Int64) throws
    func deletePublicHoliday(date: CalendarDate, calendarID: Int64) throws
    func insertHolidayCalendar(name: String) throws -> HolidayCalendar
    func renameHolidayCalendar(id: Int64, to name: String) throws
    /// Deletes a calendar no employee belongs to, with its public holidays.
    func deleteHolidayCalendar(id: Int64) throws
    func setHolidayCalendar(employeeID: Int64, calendarID: Int64) throws
}

/// What the store reads for one employee's balances over the years.
public struct LedgerRecords: Sendable {
    /// The year the employee's record starts (their creation), or an earlier year with data.
    public var firstYear: Int
    /// Every year with an allowance set, an adjustment or held days. `heldByExpiry` counts only the requests that
    /// end by the year's carry-over expiry.
    public var records: [Int: YearRecord]
    /// Held requests of types drawing on the allowance that run across a year's expiry date, with that year and
    /// their half days in it: the rules count the part up to the expiry.
    public var acrossExpiry: [(year: Int, request: HolidayRequest, halvesInYear: HalfDays)]
    public var employment: Employment
    /// The employee's own accrual plan; nil for the company's.
    public var accrual: AccrualPlan?

    public init(
        firstYear: Int, records: [Int: YearRecord], acrossExpiry: [(year: Int, request: HolidayRequest, halvesInYear: HalfDays)],
        employment: Employment, accrual: AccrualPlan?
    ) {
        self.employment = employment
        self.accrual = accrual
        self.firstYear = firstYear
        self.records = records
        self.acrossExpiry = acrossExpiry
    }
}

/// The holiday rules' data.
public typealias HolidayStore = TransactionalStore<any HolidayReading, any HolidayTransaction>
