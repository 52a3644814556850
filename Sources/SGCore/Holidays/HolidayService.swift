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
            if type.drawsOnAllowance { try Self.checkBalances(tx, employeeID: employeeID, company: company, holding: daysByYear) }
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
                let days = try tx.daysByYear(requestID: created.request.id)
                let drawsOnAllowance = try tx.leaveType(id: created.request.leaveTypeID)?.drawsOnAllowance ?? false
                let balances = drawsOnAllowance
                    ? try days.keys.sorted().map { try Self.balance(tx, employeeID: employeeID, year: $0, company: company) } : []
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
    /// year, whose carried-over days it took, as a conflict.
    static func checkBalances(
        _ tx: any HolidayReading, employeeID: Int64, company: CompanySettings, holding daysByYear: [Int: HalfDays]
    ) throws {
        guard let first = daysByYear.keys.min(),
              let overdrawn = try firstOverdrawn(tx, employeeID: employeeID, company: company, from: first)
        else { return }
        if let days = daysByYear[overdrawn.year] {
            throw SGError.balanceExceeded(
                year: overdrawn.year, requested: days, remaining: overdrawn.remaining + days,
                allowance: overdrawn.allowance + overdrawn.carriedOver - overdrawn.expired + overdrawn.adjusted)
        }
        throw SGError.conflict(overdrawnMessage(overdrawn))
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
            let decides = action == .approve || action == .reject
            try tx.updateStatus(requestID: id, to: to, at: now, decidedBy: decides ? actor.name : nil)
            try tx.appendEvent(requestID: id, from: from, to: to, actor: actor, at: now, note: note)
            if action == .approve || action == .revert, let type = try tx.leaveType(id: request.leaveTypeID) {
                // The allowance or the type's cap may have been lowered since the request was made: the days it
                // holds must still fit.
                let days = try tx.daysByYear(requestID: id)
                try Self.checkCap(tx, type: type, employeeID: request.employeeID, adding: days, recheck: true)
                if type.drawsOnAllowance { try Self.checkBalances(tx, employeeID: request.employeeID, company: company, holding: days) }
            }
            request.status = to
            request.updatedAt = now
            if decides {
                request.decidedBy = actor.name
                request.decidedAt = now
            }
            // After the checks that may still refuse the move.
            try Self.notify(tx, request: request, from: from, actor: actor, note: note, at: now, approval: approval)
            let moved = DecidableRequest(request: request, approval: approval, version: version + 1, today: today)
            try within?(tx, moved)
            return moved
        }
    }

    /// The answer kept under the employee's retry key, while it stands (`KeptResponse.lifetime`).
    public func keptResponse(employeeID: Int64, key: String) async throws -> KeptResponse? {
        let now = clock.now()
        return try await store.read { tx in try tx.keptResponse(employeeID: employeeID, key: key) }.flatMap { $0.isCurrent(at: now) ? $0 : nil }
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
            balance: try balance(tx, employeeID: employeeID, year: year, company: company),
            timeZone: company.timeZone, approval: try tx.approvalContext(employeeID: employeeID, on: today))
    }

    // MARK: Balances and allowances

    public func balance(employeeID: Int64, year: Int, by viewer: Actor? = nil) async throws -> Balance {
        try Self.checkYear(year)
        let now = clock.now()
        return try await store.read { tx in
            if let viewer { try Self.checkMayRead(tx, employeeID: employeeID, by: viewer, now: now, what: "balance") }
            _ = try Self.existingEmployee(tx, employeeID)
            return try Self.balance(tx, employeeID: employeeID, year: year, company: try tx.company())
        }
    }

    /// Sets one employee-year's allowance, recorded in its history. With the year's adjustments it may not drop
    /// below the days already approved or pending.
    @discardableResult
    public func setAllowance(employeeID: Int64, year: Int, days: Int, by actor: Actor) async throws -> Balance {
        try Self.checkYear(year)
        guard actor.isAdmin else { throw SGError.forbidden("Only an admin can change allowances.") }
        guard (0...Self.maximumAllowance).contains(days) else {
            throw SGError.invalid(field: "days", message: "must be between 0 and \(Self.maximumAllowance)")
        }
        let now = clock.now()
        return try await store.write { tx in
            _ = try Self.existingEmployee(tx, employeeID)
            try tx.setAllowance(employeeID: employeeID, year: year, days: days)
            _ = try tx.appendAllowanceChange(AllowanceChange(
                id: 0, employeeID: employeeID, year: year, kind: .set, days: .days(days), reason: "", actor: actor.name,
                actorEmployeeID: actor.employeeID, at: now))
            return try Self.balanceAfterChange(tx, employeeID: employeeID, year: year) { overdrawn in
                "\(overdrawn.approved) approved and \(overdrawn.pending) pending days are already held in \(year); "
                    + "an allowance of \(days) would leave \(overdrawn.remaining). Cancel or reject requests first."
            }
        }
    }

    /// Adds days to an employee-year's allowance, or removes them (negative `days`), with a reason the employee
    /// can read. Removing may not take the balance below what is already approved or pending.
    public func adjustAllowance(
        employeeID: Int64, year: Int, days: HalfDays, reason: String, by actor: Actor
    ) async throws -> (change: AllowanceChange, balance: Balance) {
        try Self.checkYear(year)
        guard actor.isAdmin else { throw SGError.forbidden("Only an admin can change allowances.") }
        guard days != .zero, abs(days.halves) <= 2 * Self.maximumAllowance else {
            throw SGError.invalid(field: "days", message: "must be a non-zero number of days between -366 and 366, in steps of 0.5")
        }
        try Self.checkText(reason, field: "reason")
        let reason = reason.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !reason.isEmpty else {
            throw SGError.invalid(field: "reason", message: "an adjustment needs a reason the employee can read")
        }
        let now = clock.now()
        return try await store.write { tx in
            _ = try Self.existingEmployee(tx, employeeID)
            let change = try tx.appendAllowanceChange(AllowanceChange(
                id: 0, employeeID: employeeID, year: year, kind: .adjust, days: days, reason: reason, actor: actor.name,
                actorEmployeeID: actor.employeeID, at: now))
            let balance = try Self.balanceAfterChange(tx, employeeID: employeeID, year: year) { overdrawn in
                "Removing \((-days).inWords) from \(year) would leave \(overdrawn.remaining) days: \(overdrawn.approved) "
                    + "approved and \(overdrawn.pending) pending days are held. Cancel or reject requests first."
            }
            return (change, balance)
        }
    }

    /// Sets an employee's own working week from `startsOn` (today or later) on; nil goes back to the company's.
    /// Requests already made keep the days they were counted with. Returns the employee's working weeks.
    public func setWorkingWeek(
        employeeID: Int64, from startsOn: CalendarDate, week: WorkingWeek?, by actor: Actor
    ) async throws -> [WorkingWeekChange] {
        guard actor.isAdmin else { throw SGError.forbidden("Only an admin can change an employee's working week.") }
        let now = clock.now()
        return try await store.write { tx in
            _ = try Self.existingEmployee(tx, employeeID)
            let today = Self.today(now, try tx.company())
            guard startsOn >= today else {
                throw SGError.invalid(
                    field: "startsOn", message: "\(startsOn) is in the past (today is \(today)): a working week changes from today on")
            }
            try tx.saveWorkingWeek(WorkingWeekChange(employeeID: employeeID, startsOn: startsOn, week: week, setBy: actor.name, setAt: now))
            return try tx.workingWeekChanges(employeeID: employeeID)
        }
    }

    /// An employee's own working weeks, by the day each starts: theirs, the admins' and their team approvers' to read.
    public func workingWeeks(employeeID: Int64, by viewer: Actor) async throws -> (company: WorkingWeek, changes: [WorkingWeekChange]) {
        let now = clock.now()
        return try await store.read { tx in
            try Self.checkMayRead(tx, employeeID: employeeID, by: viewer, now: now, what: "working week")
            _ = try Self.existingEmployee(tx, employeeID)
            return (try tx.company().workingWeek, try tx.workingWeekChanges(employeeID: employeeID))
        }
    }

    /// An employee's allowance history (one year, or every year), oldest first: theirs, the admins' and their team approvers' to read.
    public func allowanceChanges(employeeID: Int64, year: Int?, by viewer: Actor) async throws -> [AllowanceChange] {
        if let year { try Self.checkYear(year) }
        let now = clock.now()
        return try await store.read { tx in
            try Self.checkMayRead(tx, employeeID: employeeID, by: viewer, now: now, what: "allowance history")
            _ = try Self.existingEmployee(tx, employeeID)
            return try tx.allowanceChanges(employeeID: employeeID, year: year)
        }
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
    /// That is how the API contract's `maxLength` counts, so a text the contract refuses is refused here too
    /// (counting grapheme clusters after trimming let 1,001 code points with a combining accent or a trailing
    /// space through). No NUL: SQLite's C API stopped at it, so "a\u{0}b" was acknowledged and stored as "a".
    static func checkText(_ text: String, field: String) throws {
        guard text.unicodeScalars.count <= maximumCommentLength else {
            throw SGError.invalid(field: field, message: "at most \(maximumCommentLength) characters (Unicode code points)")
        }
        guard !text.unicodeScalars.contains("\u{0}") else {
            throw SGError.invalid(field: field, message: "must not contain the NUL character (U+0000)")
        }
    }

    public static func balance(_ tx: any HolidayReading, employeeID: Int64, year: Int, company: CompanySettings) throws -> Balance {
        try balances(tx, employeeID: employeeID, company: company, through: year).last!
    }

    /// The employee's balances from the year their record starts (or `year`, if earlier) through `year` (nil: the
    /// first year) and, if asked, every later year with data, oldest first: each year's unused days carry into the
    /// next (`BalanceLedger`).
    static func balances(
        _ tx: any HolidayReading, employeeID: Int64, company: CompanySettings, through year: Int?, includingLaterYears: Bool = false
    ) throws -> [Balance] {
        let policy = company.carryOver
        let data = try tx.ledgerRecords(employeeID: employeeID, carryOver: policy)
        var records = data.records
        let schedule = data.acrossExpiry.isEmpty
            ? WorkingSchedule(company: company.workingWeek)
            : WorkingSchedule(company: company.workingWeek, changes: try tx.workingWeekChanges(employeeID: employeeID))
        // Carried days are used first on days up to the expiry: a request across the expiry counts its part up to
        // it, recounted on the calendar (never more than it holds in that year).
        for (recordYear, request, halvesInYear) in data.acrossExpiry {
            let expiry = policy.expiry(in: recordYear)
            let from = max(request.startDate, CalendarDate.firstOfYear(recordYear)!)
            let part = LeavePeriod(
                unchecked: from, end: expiry, startHalf: from == request.startDate ? request.startHalf : .morning, endHalf: .afternoon)
            let counter = WorkingDayCounter(schedule: schedule, publicHolidays: try tx.publicHolidays(employeeID: employeeID, from: from, to: expiry))
            records[recordYear, default: YearRecord()].heldByExpiry += min(counter.halvesByYear(in: part)[recordYear] ?? .zero, halvesInYear)
        }
        let upTo = year ?? data.firstYear
        let first = min(data.firstYear, upTo)
        let last = includingLaterYears ? max(upTo, records.keys.max() ?? upTo) : upTo
        return BalanceLedger.balances(
            years: first...last, records: records, defaultAllowance: company.defaultAllowance, policy: policy)
    }

    /// The first balance from `year` on (nil: from the employee's first year, through the last year with data)
    /// that is below zero, if any.
    static func firstOverdrawn(_ tx: any HolidayReading, employeeID: Int64, company: CompanySettings, from year: Int?) throws -> Balance? {
        try balances(tx, employeeID: employeeID, company: company, through: year, includingLaterYears: true)
            .first { $0.year >= (year ?? Int.min) && $0.remaining < .zero }
    }

    /// The employee's balance of `year` after a change to its allowance (already written in `tx`), read from the same
    /// ledger as the check that no year from `year` on is left below zero; a refusal in `year` itself is worded by
    /// `sameYear`, in a later year by `overdrawnMessage`.
    static func balanceAfterChange(
        _ tx: any HolidayReading, employeeID: Int64, year: Int, sameYear: (Balance) -> String
    ) throws -> Balance {
        let ledger = try balances(tx, employeeID: employeeID, company: try tx.company(), through: year, includingLaterYears: true)
        if let overdrawn = ledger.first(where: { $0.year >= year && $0.remaining < .zero }) {
            throw SGError.conflict(overdrawn.year == year ? sameYear(overdrawn) : overdrawnMessage(overdrawn))
        }
        return ledger.first { $0.year == year }!
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
