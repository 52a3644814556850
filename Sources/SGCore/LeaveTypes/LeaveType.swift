import Foundation

/// A kind of leave the company keeps: holiday, sickness, unpaid leave, parental leave, training…
public struct LeaveType: Sendable, Equatable {
    public var id: Int64
    public var name: String
    /// Its days count against the yearly allowance (holiday does; sickness and unpaid leave do not).
    public var drawsOnAllowance: Bool
    /// A request of this type waits for a decision; otherwise it is recorded as approved at once.
    public var needsApproval: Bool
    /// Colleagues see only that the employee is away, never the type (sickness).
    public var isPrivate: Bool
    /// At most this much of the type per employee and year, pending and approved together; nil: no cap.
    public var yearlyCap: HalfDays?
    /// A retired type stays on the requests that used it but takes no new ones.
    public var isRetired: Bool

    public init(
        id: Int64, name: String, drawsOnAllowance: Bool, needsApproval: Bool, isPrivate: Bool, yearlyCap: HalfDays?,
        isRetired: Bool
    ) {
        self.id = id
        self.name = name
        self.drawsOnAllowance = drawsOnAllowance
        self.needsApproval = needsApproval
        self.isPrivate = isPrivate
        self.yearlyCap = yearlyCap
        self.isRetired = isRetired
    }

    /// The type a request gets when it names none; the migration that added types gave it to every stored request.
    public static let holidayID: Int64 = 1
    public static let sickID: Int64 = 2
    public static let unpaidID: Int64 = 3

    public static let maximumNameLength = 60
    /// A cap is between half a day and a year's days.
    public static let caps = HalfDays(halves: 1)...HalfDays.days(366)
}

/// A new type, or the fields of a change to one (nil: unchanged).
public struct LeaveTypeChange: Sendable, Equatable {
    public var name: String?
    public var drawsOnAllowance: Bool?
    public var needsApproval: Bool?
    public var isPrivate: Bool?
    /// `.some(nil)` removes the cap.
    public var yearlyCap: HalfDays??
    public var isRetired: Bool?

    public init(
        name: String? = nil, drawsOnAllowance: Bool? = nil, needsApproval: Bool? = nil, isPrivate: Bool? = nil,
        yearlyCap: HalfDays?? = nil, isRetired: Bool? = nil
    ) {
        self.name = name
        self.drawsOnAllowance = drawsOnAllowance
        self.needsApproval = needsApproval
        self.isPrivate = isPrivate
        self.yearlyCap = yearlyCap
        self.isRetired = isRetired
    }
}

public protocol LeaveTypeReading {
    /// Every type, retired ones included, by id.
    func leaveTypes() throws -> [LeaveType]
    func leaveType(id: Int64) throws -> LeaveType?
    func leaveType(named name: String) throws -> LeaveType?
    /// Requests (any status) of the type.
    func requestCount(leaveTypeID: Int64) throws -> Int
}

public protocol LeaveTypeWriting: LeaveTypeReading {
    func insertLeaveType(_ type: LeaveType) throws -> LeaveType
    func updateLeaveType(_ type: LeaveType) throws
    func deleteLeaveType(id: Int64) throws
}

public typealias LeaveTypeStore = TransactionalStore<any LeaveTypeReading, any LeaveTypeWriting>
