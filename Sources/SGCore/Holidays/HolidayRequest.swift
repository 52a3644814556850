import Foundation

public struct HolidayRequest: Sendable, Equatable {
    public var id: Int64
    public var employeeID: Int64
    public var leaveTypeID: Int64
    /// The type's name when the request was read.
    public var leaveTypeName: String
    public var startDate: CalendarDate
    public var endDate: CalendarDate
    public var startHalf: DayHalf
    public var endHalf: DayHalf
    /// Working half days, fixed when the request was made.
    public var duration: HalfDays
    public var status: HolidayStatus
    public var comment: String
    public var createdAt: Date
    public var updatedAt: Date
    public var decidedBy: String?
    public var decidedAt: Date?
    /// Whether the request's type needs approval (as the type says now): one that does not is decided by nobody but
    /// the admins once it is approved.
    public var typeNeedsApproval: Bool

    public init(
        id: Int64, employeeID: Int64, leaveTypeID: Int64 = LeaveType.holidayID, leaveTypeName: String = "holiday",
        startDate: CalendarDate, endDate: CalendarDate, startHalf: DayHalf = .morning, endHalf: DayHalf = .afternoon,
        duration: HalfDays, status: HolidayStatus, comment: String, createdAt: Date, updatedAt: Date, decidedBy: String?,
        decidedAt: Date?, typeNeedsApproval: Bool = true
    ) {
        self.typeNeedsApproval = typeNeedsApproval
        self.id = id
        self.employeeID = employeeID
        self.leaveTypeID = leaveTypeID
        self.leaveTypeName = leaveTypeName
        self.startDate = startDate
        self.endDate = endDate
        self.startHalf = startHalf
        self.endHalf = endHalf
        self.duration = duration
        self.status = status
        self.comment = comment
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.decidedBy = decidedBy
        self.decidedAt = decidedAt
    }

    public var period: LeavePeriod { LeavePeriod(unchecked: startDate, end: endDate, startHalf: startHalf, endHalf: endHalf) }

    /// Set on the copy `shownToOthers` makes of a request of a private leave type.
    public private(set) var isShownAsAbsence = false

    /// The request as anyone but its owner reads it in a message (e-mail, push, webhook): of a private leave type
    /// (sick leave) only that it is an absence, without its type or comment. One rule for every channel.
    public func shownToOthers(isPrivate: Bool) -> HolidayRequest {
        guard isPrivate else { return self }
        var shown = self
        shown.leaveTypeName = "absence"
        shown.comment = ""
        shown.isShownAsAbsence = true
        return shown
    }

    /// What people call the request in messages: "Holiday", "Sick leave", "Parental leave"; "Absence" for a private
    /// type shown to others.
    public var kindInWords: String {
        isShownAsAbsence ? "Absence" : Self.kindInWords(leaveTypeID: leaveTypeID, leaveTypeName: leaveTypeName)
    }

    /// `kindInWords` of a request of this leave type.
    public static func kindInWords(leaveTypeID: Int64, leaveTypeName: String) -> String {
        if leaveTypeID == LeaveType.holidayID { return "Holiday" }
        let name = leaveTypeName.prefix(1).uppercased() + leaveTypeName.dropFirst()
        return name.lowercased().hasSuffix("leave") ? name : name + " leave"
    }
}

/// A request as `HolidayService.preview` says it would be made: its status (pending, or approved for a type that
/// needs no approval), its working days in all and per year, the balances of the years it draws on with it held,
/// and who would be asked to decide it. Nothing of it is written.
public struct RequestPreview: Sendable {
    public let request: HolidayRequest
    public let daysByYear: [Int: HalfDays]
    /// Empty for a type that does not draw on the allowance.
    public let balancesAfter: [Balance]
    public let approvers: [Employee]

    public init(request: HolidayRequest, daysByYear: [Int: HalfDays], balancesAfter: [Balance], approvers: [Employee]) {
        self.request = request
        self.daysByYear = daysByYear
        self.balancesAfter = balancesAfter
        self.approvers = approvers
    }
}

/// One transition in a request's history. `from` is nil for the creation of the request.
public struct HolidayEvent: Sendable, Equatable {
    public var id: Int64
    public var requestID: Int64
    public var from: HolidayStatus?
    public var to: HolidayStatus
    public var actor: String
    public var actorEmployeeID: Int64?
    public var at: Date
    public var note: String

    public init(id: Int64, requestID: Int64, from: HolidayStatus?, to: HolidayStatus, actor: String, actorEmployeeID: Int64?, at: Date, note: String) {
        self.id = id
        self.requestID = requestID
        self.from = from
        self.to = to
        self.actor = actor
        self.actorEmployeeID = actorEmployeeID
        self.at = at
        self.note = note
    }
}

/// An employee-year's balance of the allowance, in half days, as of a day: the allowance (the employee's own for
/// the year, else the company default), plus the days carried over from the year before less those of them that
/// expire unused, plus the adjustments, less what is approved and pending. Only leave types that draw on the allowance count as
/// approved or pending here.
public struct Balance: Sendable, Equatable {
    public var year: Int
    public var allowance: HalfDays
    /// How `allowance` was pro-rated from the company's (`ProRata`); nil when it is the whole figure or the admin's own.
    public var allowanceFormula: String?
    /// Unused days of the year before, up to the company's cap (`BalanceLedger`).
    public var carriedOver: HalfDays
    /// The carried days not used by `carryOverExpiresOn`, once that day has passed; zero until then.
    public var expired: HalfDays
    /// The carried days not used by requests on days up to `carryOverExpiresOn`, until that day; zero after it.
    /// Requests on those days use them first; what is left expires then.
    public var expiring: HalfDays
    /// The last day the carried days can be used; nil when nothing is carried.
    public var carryOverExpiresOn: CalendarDate?
    /// The sum of the year's adjustments (negative when days were removed).
    public var adjusted: HalfDays
    public var approved: HalfDays
    public var pending: HalfDays
    /// What an accrual plan has earned of `allowance` so far; nil when the allowance is granted whole (`AccrualPlan`).
    public var accrual: AccrualState?
    public var remaining: HalfDays { available - approved - pending }
    /// What may still be requested: `remaining`, less what the plan has not earned yet beyond its advance.
    public var requestable: HalfDays { max(.zero, remaining - (accrual?.withheld ?? .zero)) }
    /// What the year holds to be taken: the allowance and the carried days that do not lapse, with the adjustments.
    public var available: HalfDays { allowance + carriedOver - expired - expiring + adjusted }

    public init(
        year: Int, allowance: HalfDays, allowanceFormula: String? = nil, carriedOver: HalfDays = .zero, expired: HalfDays = .zero, expiring: HalfDays = .zero,
        carryOverExpiresOn: CalendarDate? = nil, adjusted: HalfDays = .zero, approved: HalfDays, pending: HalfDays
    ) {
        self.year = year
        self.allowance = allowance
        self.allowanceFormula = allowanceFormula
        self.carriedOver = carriedOver
        self.expired = expired
        self.expiring = expiring
        self.carryOverExpiresOn = carryOverExpiresOn
        self.adjusted = adjusted
        self.approved = approved
        self.pending = pending
    }
}

/// One entry of an employee-year's allowance history: an allowance set, or days added or removed with a reason.
public struct AllowanceChange: Sendable, Equatable {
    public enum Kind: String, Sendable, Codable {
        /// `days` is the year's new allowance.
        case set
        /// `days` were added (or, negative, removed).
        case adjust
    }

    public var id: Int64
    public var employeeID: Int64
    public var year: Int
    public var kind: Kind
    public var days: HalfDays
    public var reason: String
    public var actor: String
    public var actorEmployeeID: Int64?
    public var at: Date

    public init(
        id: Int64, employeeID: Int64, year: Int, kind: Kind, days: HalfDays, reason: String, actor: String,
        actorEmployeeID: Int64?, at: Date
    ) {
        self.id = id
        self.employeeID = employeeID
        self.year = year
        self.kind = kind
        self.days = days
        self.reason = reason
        self.actor = actor
        self.actorEmployeeID = actorEmployeeID
        self.at = at
    }
}

/// Half days held (pending and approved) by one employee in one year.
public struct HeldDays: Sendable, Equatable {
    public var approved: HalfDays
    public var pending: HalfDays
    public var total: HalfDays { approved + pending }

    public init(approved: HalfDays = .zero, pending: HalfDays = .zero) {
        self.approved = approved
        self.pending = pending
    }
}
