import Foundation

/// "Who is off": a range of days, and a page of the active employees in directory order.
public struct AbsenceQuery: Sendable, Equatable {
    public var from: CalendarDate
    public var to: CalendarDate
    /// Only this employee (active or not); nil for everyone active.
    public var employeeID: Int64?
    /// Only the active members of this team (a team's calendar).
    public var teamID: Int64?
    /// Keyset pagination: the employees after this one in directory order.
    public var afterID: Int64?
    public var limit: Int

    /// A range covers at most this many days, both ends included.
    public static let maximumDays = 366
    public static let maximumLimit = 200
    public static let defaultLimit = 50

    public init(
        from: CalendarDate, to: CalendarDate, employeeID: Int64? = nil, teamID: Int64? = nil, afterID: Int64? = nil,
        limit: Int = AbsenceQuery.defaultLimit
    ) {
        self.from = from
        self.to = to
        self.employeeID = employeeID
        self.teamID = teamID
        self.afterID = afterID
        self.limit = limit
    }
}

/// An employee in the absence overview: who, which holiday calendar they belong to, and their photo if any.
public struct AbsentEmployee: Sendable, Equatable {
    public var employee: Employee
    public var holidayCalendarID: Int64
    public var photo: PhotoVersion?

    public init(employee: Employee, holidayCalendarID: Int64, photo: PhotoVersion?) {
        self.employee = employee
        self.holidayCalendarID = holidayCalendarID
        self.photo = photo
    }
}

/// A pending or approved request as the store reads it for the overview and the feeds: the whole request, even
/// when only part of it falls in the range asked for.
public struct Absence: Sendable, Equatable {
    public var requestID: Int64
    public var employeeID: Int64
    public var leaveTypeID: Int64
    public var leaveTypeName: String
    /// The type is private (sickness): colleagues see only that the employee is away.
    public var isPrivateType: Bool
    public var period: LeavePeriod
    public var status: HolidayStatus

    public init(
        requestID: Int64, employeeID: Int64, leaveTypeID: Int64, leaveTypeName: String, isPrivateType: Bool, period: LeavePeriod,
        status: HolidayStatus
    ) {
        self.requestID = requestID
        self.employeeID = employeeID
        self.leaveTypeID = leaveTypeID
        self.leaveTypeName = leaveTypeName
        self.isPrivateType = isPrivateType
        self.period = period
        self.status = status
    }
}

/// A holiday calendar with its public holidays in a range.
public struct CalendarHolidays: Sendable, Equatable {
    public var calendarID: Int64
    public var calendarName: String
    public var holidays: [PublicHoliday]

    public init(calendarID: Int64, calendarName: String, holidays: [PublicHoliday]) {
        self.calendarID = calendarID
        self.calendarName = calendarName
        self.holidays = holidays
    }
}

/// One page of the overview, already cut to what the viewer may see.
public struct AbsenceOverview: Sendable {
    /// How an absence shows: approved is confirmed, pending (only to admins and its owner) tentative.
    public enum Certainty: String, Sendable, Codable {
        case confirmed, tentative
    }

    /// An absence as the viewer sees it.
    public struct Entry: Sendable, Equatable {
        public var period: LeavePeriod
        public var certainty: Certainty
        /// The leave type's name; nil when the type is private and the viewer is neither an admin nor the employee.
        public var leaveTypeName: String?
        /// The request, for admins and the employee themself; nil for colleagues.
        public var requestID: Int64?
    }

    public struct Row: Sendable {
        public var employee: AbsentEmployee
        public var absences: [Entry]
    }

    public var from: CalendarDate
    public var to: CalendarDate
    public var rows: [Row]
    /// The holiday calendars the page's employees belong to, with their public holidays in the range.
    public var calendars: [CalendarHolidays]
    /// Pass as `afterID` for the next page; nil on the last page.
    public var nextAfterID: Int64?
}

/// The main screen's view of absences: who is away in the next days, and the viewer's own next absence.
public struct UpcomingAbsences: Sendable {
    /// The company's date.
    public var today: CalendarDate
    public var from: CalendarDate
    public var to: CalendarDate
    /// The employees away on a day of `from...to` with those absences, the ones who leave first first.
    public var away: [AbsenceOverview.Row]
    /// More employees are away than `away` holds.
    public var more: Bool
    /// The viewer's next approved absence: under way today, or the first to come.
    public var next: FeedRequest?
}

/// A calendar feed an employee subscribed to from a calendar app: its secret is shown once, when it is made, and
/// kept only as a digest.
public struct CalendarFeed: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable, Codable {
        /// The employee's own requests: pending, approved, and cancelled or rejected ones for a while.
        case personal
        /// Everyone's approved absences and the employee's public holidays.
        case company
    }

    public var id: Int64
    public var employeeID: Int64
    public var kind: Kind
    public var createdAt: Date

    public init(id: Int64, employeeID: Int64, kind: Kind, createdAt: Date) {
        self.id = id
        self.employeeID = employeeID
        self.kind = kind
        self.createdAt = createdAt
    }

    /// Feeds are reached at `/ical/<secret>.ics`; the secret starts with this.
    public static let secretPrefix = "sgc_"
    /// At most this many live feeds per employee.
    public static let maximumPerEmployee = 10
    /// Of which at most this many company feeds: each is everyone's absences behind one secret, a phone and a
    /// computer's calendar apps need no more.
    public static let maximumCompanyPerEmployee = 2

    public static func path(secret: String) -> String { "/ical/\(secret).ics" }
}

/// A request as a feed shows it: the absence, who it is (company feed), and what calendars need to keep their copy
/// current.
public struct FeedRequest: Sendable, Equatable {
    public var absence: Absence
    /// The employee's full name, for the company feed.
    public var employeeName: String
    /// Working half days, fixed when the request was made.
    public var duration: HalfDays
    public var createdAt: Date
    public var updatedAt: Date
    /// Entries in the request's history: 1 when made, one more with every move.
    public var changes: Int

    public init(absence: Absence, employeeName: String, duration: HalfDays, createdAt: Date, updatedAt: Date, changes: Int) {
        self.absence = absence
        self.employeeName = employeeName
        self.duration = duration
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.changes = changes
    }
}

/// The feed a secret opens, and its owner.
public struct FeedOwner: Sendable {
    public var feed: CalendarFeed
    public var owner: Employee

    public init(feed: CalendarFeed, owner: Employee) {
        self.feed = feed
        self.owner = owner
    }
}

/// What the overview and the feeds read, in one snapshot.
public protocol AbsenceReading: CompanyReading, ApprovalReading {
    /// Up to `limit` employees in directory order (folded sort key, then id) after `afterID` (from the start when
    /// nil): the active ones, or only `employeeID` (active or not) when given. Nil when `afterID` names no employee.
    func absencePage(employeeID: Int64?, teamID: Int64?, afterID: Int64?, limit: Int) throws -> [AbsentEmployee]?
    /// With one statement, whatever the range: the approved requests of `employeeIDs` sharing a day with
    /// `start...end`, and the pending and approved-by-manager ones too of everyone (`pendingOfEveryone`) or of
    /// `pendingOf`; by employee, then start date.
    func absences(
        employeeIDs: [Int64], from start: CalendarDate, to end: CalendarDate, pendingOfEveryone: Bool, pendingOf: [Int64]
    ) throws -> [Absence]
    /// The calendars `calendarIDs` (by id) with their public holidays in `start...end`, by date.
    func calendarHolidays(calendarIDs: [Int64], from start: CalendarDate, to end: CalendarDate) throws -> [CalendarHolidays]
    /// The calendar the employee belongs to; nil when there is no such employee.
    func holidayCalendarID(employeeID: Int64) throws -> Int64?

    /// The base of the server's public links, for a new feed's address.
    func deliveryConfiguration() throws -> DeliveryConfiguration
    /// The employee's live feeds, oldest first.
    func calendarFeeds(employeeID: Int64) throws -> [CalendarFeed]
    /// The feed whose secret has this digest, with its owner.
    func calendarFeed(secretDigest: Data) throws -> FeedOwner?
    /// The employee's requests ending on `start` or later that are pending or approved, or were cancelled or
    /// rejected at `changedSince` or later; by start date.
    func personalFeedRequests(employeeID: Int64, from start: CalendarDate, changedSince: Date) throws -> [FeedRequest]
    /// The approved requests of active employees sharing a day with `start...end`, by start date.
    func companyFeedRequests(from start: CalendarDate, to end: CalendarDate) throws -> [FeedRequest]
    /// The approved requests of active employees sharing a day with `start...end`, each with its employee, by start
    /// date, of the first `employeeLimit` employees to appear; `more` when others follow. Reads no more of the company
    /// than the employees it returns.
    func approvedAbsences(
        from start: CalendarDate, to end: CalendarDate, employeeLimit: Int
    ) throws -> (found: [(employee: AbsentEmployee, absence: Absence)], more: Bool)
}

public protocol AbsenceWriting: AbsenceReading {
    func insertCalendarFeed(employeeID: Int64, kind: CalendarFeed.Kind, secretDigest: Data, at: Date) throws -> CalendarFeed
    /// Removes the employee's feed; false when they have none with that id.
    func deleteCalendarFeed(id: Int64, employeeID: Int64) throws -> Bool
}

public typealias AbsenceStore = TransactionalStore<any AbsenceReading, any AbsenceWriting>
