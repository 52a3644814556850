import Foundation

/// The holiday rules. The API and `sgadmin` both call this type; neither writes a transition of its own.
public struct HolidayService: Sendable {
    public static let maximumCommentLength = 1000
    /// One request covers at most this many calendar days.
    public static let maximumSpanDays = 366
    public static let maximumAllowance = 366

    public let store: any HolidayStore
    public let clock: any NowProvider

    public init(store: any HolidayStore, clock: any NowProvider = SystemClock()) {
        self.store = store
        self.clock = clock
    }

    // MARK: Requests

    /// A whole-day holiday from `start` to `end`.
    public func createRequest(
        for employeeID: Int64, start: CalendarDate, end: CalendarDate, comment: String, actor: Actor
    ) async throws -> HolidayRequest {
        try await createRequest(for: employeeID, period: try LeavePeriod(start: start, end: end), comment: comment, actor: actor)
    }

    /// Creates a request of `leaveTypeID` (default: holiday) for `employeeID` after checking dates, overlap,
    /// balance and the type's cap in one transaction. A type that needs no approval is recorded as approved.
    public func createRequest(
        for employeeID: Int64, period: LeavePeriod, leaveTypeID: Int64? = nil, comment: String, actor: Actor
    ) async throws -> HolidayRequest {
        try await create(for: employeeID, period: period, leaveTypeID: leaveTypeID, comment: comment, actor: actor).request
    }

    /// `createRequest`, returning the request with who decides it. `within` runs in the transaction once the
    /// request is written.
    public func create(
        for employeeID: Int64, period: LeavePeriod, leaveTypeID: Int64? = nil, comment: String, actor: Actor,
        within: WithinChange<DecidableRequest>? = nil
    ) async throws -> DecidableRequest {
        let now = clock.now()
        try Self.checkText(comment, field: "comment")
        let comment = comment.trimmingCharacters(in: .whitespacesAndNewlines)
        let (start, end) = (period.start, period.end)
        guard start.days(to: end) < Self.maximumSpanDays else {
            throw SGError.invalid(field: "endDate", message: "one request can cover at most \(Self.maximumSpanDays) days; split it")
        }
        return try await store.write { tx in
            let employee = try Self.existingEmployee(tx, employeeID)
            guard actor.employeeID == employeeID || actor.isAdmin else {
                throw SGError.forbidden("Only an admin can request leave for another employee.")
            }
            guard employee.isActive else {
                throw SGError.conflict("Employee \(employee.username) is deactivated and cannot request leave.")
            }
            let typeID = leaveTypeID ?? LeaveType.holidayID
            guard let type = try tx.leaveType(id: typeID) else {
                throw SGError.invalid(field: "leaveTypeId", message: "there is no leave type \(typeID)")
            }
            guard !type.isRetired else {
                throw SGError.invalid(field: "leaveTypeId", message: "the leave type '\(type.name)' is retired and takes no new requests")
            }
            let company = try tx.company()
            let today = Self.today(now, company)
            guard start >= today else {
                throw SGError.invalid(field: "startDate", message: "\(start) is in the past (today is \(today))")
            }
            try EmploymentRules.check(period, within: try tx.employment(employeeID: employeeID), username: employee.username)
            let schedule = WorkingSchedule(company: company.workingWeek, changes: try tx.workingWeekChanges(employeeID: employeeID))
            let counter = WorkingDayCounter(schedule: schedule, publicHolidays: try tx.publicHolidays(employeeID: employeeID, from: start, to: end))
            let daysByYear = counter.halvesByYear(in: period)
            guard !daysByYear.isEmpty else {
                throw SGError.invalid(
                    field: "endDate",
                    message: "\(period) holds no working day (working week \(schedule.description(from: start, to: end)), public holidays excluded)")
            }
            if let clash = try tx.overlappingRequests(employeeID: employeeID, from: start, to: end).first(where: { $0.period.overlaps(period) }) {
                throw SGError.overlap(requestID: clash.id, start: clash.startDate, end: clash.endDate, status: clash.status)
            }
            try Self.checkCap(tx, type: type, employeeID: employeeID, adding: daysByYear)
            let status: HolidayStatus = type.needsApproval ? .pending : .approved
            let request = try tx.insertRequest(
                employeeID: employeeID, type: type, period: period, daysByYear: daysByYear, status: status,
                comment: comment, at: now)
            // Checked with the request written (the transaction undoes it if this throws): days taken in one year
            // leave fewer to carry into the next, which must still cover what is held there.
            if type.drawsOnAllowance { try Self.checkBalances(tx, employeeID: employeeID, company: company, on: today, holding: daysByYear, newRequest: true) }
            try tx.appendEvent(requestID: request.id, from: nil, to: status, actor: actor, at: now, note: comment)
            let approval = try tx.approvalContext(employeeID: employeeID, on: today)
            try Self.notify(tx, request: request, owner: employee, from: nil, actor: actor, note: comment, at: now, approval: approval)
            let created = DecidableRequest(request: request, approval: approval, version: 1, today: today)
            try within?(tx, created)
            return created
        }
    }

    /// What a request would be if it were made now, without making it: the same checks as `create` (dates, overlap,
    /// balance, cap) in the same kind of transaction, which is then rolled back. A client shows it before sending,
    /// so that the count of working days and the balance after are the server's, never the client's guess.
    public func preview(
        for employeeID: Int64, period: LeavePeriod, leaveTypeID: Int64? = nil, comment: String, actor: Actor
    ) async throws -> RequestPreview {
        do {
            _ = try await create(
                for: employeeID, period: period, leaveTypeID: leaveTypeID, comment: comment, actor: actor
            ) { tx, created in
                guard let tx = tx as? any HolidayReading else { throw SGError.conflict("The store cannot preview a request.") }
                let company = try tx.company()
                let today = Self.today(clock.now(), company)
                let days = try tx.daysByYear(requestID: created.request.id)
                let drawsOnAllowance = try tx.leaveType(id: created.request.leaveTypeID)?.drawsOnAllowance ?? false
                let balances = drawsOnAllowance
                    ? try days.keys.sorted().map { try Self.balance(tx, employeeID: employeeID, year: $0, company: company, on: today) } : []
                throw PreviewMade(preview: RequestPreview(
                    request: created.request, daysByYear: days, balancesAfter: balances, approvers: created.approvers))
            }
        } catch let made as PreviewMade {
            return made.preview
        }
        throw SGError.conflict("The preview could not be made.")
    }

    /// Carries a preview out of the transaction it rolls back.
    private struct PreviewMade: Error {
        let preview: RequestPreview
    }

    /// Refuses a request's days when a balance from its first year on is below zero with them held (they are
    /// already written): in a year it draws on, as "balance exceeded" with what remained before it; in a later
    /// year, whose carried-over days it took, as a conflict. For a new request (`newRequest`), under an accrual
    /// plan, a year it draws on must also keep what is not earned yet beyond the plan's advance: else "not yet
    /// earned", with the day it would fit. Deciding a request made before a plan changed does not apply the plan.
    static func checkBalances(
        _ tx: any HolidayReading, employeeID: Int64, company: CompanySettings, on today: CalendarDate, holding daysByYear: [Int: HalfDays],
        newRequest: Bool
    ) throws {
        guard let first = daysByYear.keys.min() else { return }
        let ledger = try balances(tx, employeeID: employeeID, company: company, on: today, through: first, includingLaterYears: true)
        if let overdrawn = ledger.first(where: { $0.year >= first && $0.remaining < .zero }) {
            if let days = daysByYear[overdrawn.year] {
                throw SGError.balanceExceeded(
                    year: overdrawn.year, requested: days, remaining: overdrawn.remaining + days,
                    allowance: overdrawn.available)
            }
            throw SGError.conflict(overdrawnMessage(overdrawn))
        }
        guard newRequest else { return }
        for balance in ledger {
            guard let days = daysByYear[balance.year], let accrual = balance.accrual, balance.remaining < accrual.withheld else { continue }
            let fitsFrom = accrual.plan.firstDay(
                fitting: .zero, in: balance, employment: try tx.employment(employeeID: employeeID), after: today)
            throw SGError.notYetEarned(
                year: balance.year, requested: days, requestable: max(.zero, balance.remaining + days - accrual.withheld), fitsFrom: fitsFrom)
        }
    }

    /// Refuses days beyond the type's yearly cap. `adding` is what a new request adds; for a request already held
    /// (a decision), pass its days and `recheck`: what is held must still fit after the cap was lowered.
    static func checkCap(
        _ tx: any HolidayReading, type: LeaveType, employeeID: Int64, adding daysByYear: [Int: HalfDays], recheck: Bool = false
    ) throws {
        guard let cap = type.yearlyCap else { return }
        for (year, days) in daysByYear.sorted(by: { $0.key < $1.key }) {
            let held = try tx.heldDays(employeeID: employeeID, year: year, leaveTypeID: type.id) + (recheck ? .zero : days)
            if held > cap {
                throw SGError.conflict(
                    "\(days.inWords) of \(type.name) in \(year) would exceed its yearly cap of \(cap.inWords) "
                        + "(\((held - days).inWords) already pending or approved).")
            }
        }
    }

    /// Applies `action` to request `id` as `actor`, or throws without writing anything.
    /// Another employee's request is "not found" for someone who may not read it: its existence is not disclosed.
    @discardableResult
    public func perform(_ action: HolidayAction, on id: Int64, by actor: Actor, note: String = "") async throws -> HolidayRequest {
        try await move(action, on: id, by: actor, note: note).request
    }

    /// `perform`, returning the request with who decides it after the move. With `ifMatch`, the move is made only
    /// when it accepts the request's current version, else it is refused as changed since read (after the rights and
    /// the input: someone not entitled hears "forbidden" or "not found", a move refused anyway why, whatever version
    /// they name). `within` runs in the transaction once the move is written.
    public func move(
        _ action: HolidayAction, on id: Int64, by actor: Actor, note: String = "", ifMatch: (@Sendable (Int) -> Bool)? = nil,
        within: WithinChange<DecidableRequest>? = nil
    ) async throws -> DecidableRequest {
        let now = clock.now()
        try Self.checkText(note, field: action == .reject ? "reason" : "note")
        let note = note.trimmingCharacters(in: .whitespacesAndNewlines)
        return try await store.write { tx in
            let company = try tx.company()
            let today = Self.today(now, company)
            // Checked before the lookup, so that someone who decides for nobody cannot probe which ids exist.
            if action.isDecision && !actor.isAdmin,
               try actor.employeeID.map({ try tx.teamStageEmployees(decidedBy: $0, on: today).isEmpty }) ?? true {
                throw SGError.forbidden(
                    "Only an approver of the requester's team, their substitute or an admin can \(action.rawValue) a holiday request.")
            }
            guard var request = try tx.request(id: id) else {
                throw SGError.notFound("Holiday request \(id) does not exist.")
            }
            let approval = try tx.approvalContext(employeeID: request.employeeID, on: today)
            try HolidayRules.check(action, on: request, by: actor, today: today, approval: approval)
            // After the rights: someone not entitled hears "forbidden" whatever they sent.
            if action == .reject && note.isEmpty {
                throw SGError.invalid(field: "reason", message: "a rejection needs a reason the employee can read")
            }
            let version = try tx.requestVersion(id: id)
            if let ifMatch, !ifMatch(version) {
                throw SGError.preconditionFailed(
                    "Request \(id) has changed since it was read: it is \(request.status.rawValue) now, at version \(version). "
                        + "Read it again and decide on what it is now.")
            }
            let from = request.status
            let to = action.target(from: from, twoStage: approval.twoStage, byAdmin: actor.isAdmin)
            let decision = action.decision(by: actor)
            try tx.updateStatus(requestID: id, to: to, at: now, decision: decision)
            try tx.appendEvent(requestID: id, from: from, to: to, actor: actor, at: now, note: note)
            if action == .approve || action == .revert, let type = try tx.leaveType(id: request.leaveTypeID) {
                // The allowance or the type's cap may have been lowered since the request was made: the days it
                // holds must still fit.
                let days = try tx.daysByYear(requestID: id)
                try Self.checkCap(tx, type: type, employeeID: request.employeeID, adding: days, recheck: true)
                if type.drawsOnAllowance { try Self.checkBalances(tx, employeeID: request.employeeID, company: company, on: today, holding: days, newRequest: false) }
            }
            request.status = to
            request.updatedAt = now
            switch decision {
            case .decided(let by):
                request.decidedBy = by
                request.decidedAt = now
            case .undecided:
                request.decidedBy = nil
                request.decidedAt = nil
            case .kept:
                break
            }
            // After the checks that may still refuse the move.
            try Self.notify(tx, request: request, from: from, actor: actor, note: note, at: now, approval: approval)
            let moved = DecidableRequest(
                request: request, approval: approval, version: version + 1, today: today,
                employee: try tx.employee(id: request.employeeID))
            try within?(tx, moved)
            return moved
        }
    }

    /// The answer kept under the employee's retry key, while it stands (`IdempotencyRecord.lifetime`).
    public func idempotencyRecord(employeeID: Int64, key: String) async throws -> IdempotencyRecord? {
        let now = clock.now()
        return try await store.read { tx in try tx.idempotencyRecord(employeeID: employeeID, key: key) }.flatMap { $0.isCurrent(at: now) ? $0 : nil }
    }

    /// What an employee sees of a year: today, their requests touching the year (default: this year) and the
    /// year's balance, from one snapshot.
    public struct YearView: Sendable {
        public let today: CalendarDate
        public let year: Int
        public let requests: [HolidayRequest]
        public let balance: Balance
        /// The company's, in which `today` was taken: what the view says of each request (may it still be
        /// cancelled?) holds while `today.isToday(at:in:)` this zone.
        public let timeZone: TimeZone
        /// Who decides the employee's requests, as of `today`.
        public let approval: ApprovalContext
    }

    public func yearView(employeeID: Int64, year: Int?) async throws -> YearView {
        let now = clock.now()
        return try await store.read { tx in try Self.yearView(tx, employeeID: employeeID, year: year, now: now) }
    }

    /// An employee's year (default: the company's current year) as of `now`, read in `tx`.
    public static func yearView(_ tx: any HolidayReading, employeeID: Int64, year: Int?, now: Date) throws -> YearView {
        if let year { try checkYear(year) }
        let company = try tx.company()
        let today = today(now, company)
        let year = year ?? today.year
        return YearView(
            today: today, year: year, requests: try tx.requests(employeeID: employeeID, touchingYears: year...year),
            balance: try balance(tx, employeeID: employeeID, year: year, company: company, on: today),
            timeZone: company.timeZone, approval: try tx.approvalContext(employeeID: employeeID, on: today))
    }

    // MARK: Notices and messages

    /// Writes the owner's personal notice for a move of their request, and the messages it announces (outbox), in
    /// the caller's transaction.
    /// `owner`: the request's owner when the caller has read them already.
    static func notify(
        _ tx: any HolidayTransaction, request: HolidayRequest, owner: Employee? = nil, from: HolidayStatus?, actor: Actor,
        note: String, at: Date, approval: ApprovalContext
    ) throws {
        let to = request.status
        // The owner is "You" in their notice (and gets none for their own new request): only another actor's name
        // is read, which spares the commonest write, an employee's own request, a read.
        let byOwner = actor.employeeID == request.employeeID
        let displayName = byOwner ? actor.name : try actor.employeeID.flatMap { try tx.employee(id: $0) }?.fullName ?? actor.name
        if let notice = HolidayNotices.notice(
            for: request, from: from, to: to, actor: actor, actorDisplayName: displayName, note: note, at: at) {
            try tx.appendNotice(notice)
        }
        // A cancellation is told to those who decide the request while it waits.
        var asked = request
        if to == .cancelled { asked.status = from == .approvedByManager ? .approvedByManager : .pending }
        try Announcements.holiday(
            tx, request: request, owner: { try owner ?? tx.employee(id: request.employeeID) }, from: from, actor: actor,
            note: note, at: at, deciders: Approval.asked(for: asked, approval).map(\.id))
    }

    // MARK: Shared helpers

    /// Comments, notes and reasons: at most `maximumCommentLength` Unicode code points as sent, before trimming.
    /// That is how the API contract's `maxLength` counts, so a text the contract refuses is refused here too. No
    /// NUL: C string APIs take it for the end of the text, so "a\u{0}b" could be acknowledged and stored as "a".
    static func checkText(_ text: String, field: String) throws {
        guard text.unicodeScalars.count <= maximumCommentLength else {
            throw SGError.invalid(field: field, message: "at most \(maximumCommentLength) characters (Unicode code points)")
        }
        guard !text.unicodeScalars.contains("\u{0}") else {
            throw SGError.invalid(field: field, message: "must not contain the NUL character (U+0000)")
        }
    }

    /// Refuses `viewer` another employee's `what` unless they are an admin or decide that employee's requests.
    static func checkMayRead(_ tx: any HolidayReading, employeeID: Int64, by viewer: Actor, now: Date, what: String) throws {
        guard try tx.mayRead(holidaysOf: employeeID, by: viewer, on: try tx.today(at: now)) else {
            throw SGError.forbidden("Only an admin or an approver of their team can read another employee's \(what).")
        }
    }

    /// The employee `id`, or "not found".
    static func existingEmployee(_ tx: any HolidayReading, _ id: Int64) throws -> Employee {
        guard let employee = try tx.employee(id: id) else { throw SGError.notFound("Employee \(id) does not exist.") }
        return employee
    }

    static func overdrawnMessage(_ balance: Balance) -> String {
        "This would leave \(balance.year) with \(balance.remaining) days: fewer unused days would carry into it "
            + "(\(balance.carriedOver) now) than its \(balance.approved) approved and \(balance.pending) pending days need. "
            + "Cancel or reject requests of \(balance.year) first."
    }

    public static func today(_ now: Date, _ company: CompanySettings) -> CalendarDate {
        CalendarDate(now, in: company.timeZone)
    }

    public static let supportedYears = 1970...9999

    public static func checkYear(_ year: Int) throws {
        guard supportedYears.contains(year) else {
            throw SGError.invalid(field: "year", message: "\(year) is not a year between \(supportedYears.lowerBound) and \(supportedYears.upperBound)")
        }
    }
}
