import Foundation

/// What decides who may decide one employee's requests on one day, read in the transaction of the decision
/// (`ApprovalReading.approvalContext`).
public struct ApprovalContext: Sendable, Equatable {
    /// The employee's team, if any.
    public var teamID: Int64?
    public var twoStage: Bool
    /// The team's active approvers.
    public var approvers: [Employee]
    /// The approvers on approved leave that day.
    public var away: Set<Int64>
    /// Active substitutes of the team's approvers whose delegation runs that day, by approver.
    public var substitutes: [Int64: [Employee]]
    /// The company's active admins.
    public var admins: [Employee]

    public init(
        teamID: Int64? = nil, twoStage: Bool = false, approvers: [Employee] = [], away: Set<Int64> = [],
        substitutes: [Int64: [Employee]] = [:], admins: [Employee]
    ) {
        self.teamID = teamID
        self.twoStage = twoStage
        self.approvers = approvers
        self.away = away
        self.substitutes = substitutes
        self.admins = admins
    }
}

/// Who decides a request: the one place the API, `sgadmin`, the lists and the messages ask.
///
/// - The team stage (a pending request; reverting a one-stage approval; taking back an approval by the manager)
///   belongs to the approvers of the requester's team and to the substitutes of those approvers whose delegation
///   runs. The second stage of a two-stage team (approving or rejecting a request approved by its manager, reverting
///   its final approval) belongs to the admins.
/// - An admin may always decide.
/// - Nobody decides their own request, and nobody decides it as the requester's substitute: an approver's request
///   goes to the team's other approvers. A request is asked of the approvers who are not away on approved leave and
///   of the running substitutes; when there is no such approver (no team, no other approver, all away), the admins
///   are asked too.
/// - The only exception: when the requester is an admin and nobody else could decide at that stage (the company's
///   single admin, with no approver above them), they may decide their own request, and the history records it.
///   Refusing would leave the request undecidable; HR products do the same for the top of the hierarchy.
public enum Approval {
    public enum Stage: Sendable, Equatable { case team, admins }

    /// Which stage a decision on a request in `status` belongs to.
    public static func stage(of action: HolidayAction, from status: HolidayStatus, twoStage: Bool) -> Stage {
        switch action {
        case .approve, .reject: status == .approvedByManager ? .admins : .team
        case .revert: status == .approved && twoStage ? .admins : .team
        case .cancel: .team
        }
    }

    /// The employees who decide at the team stage, besides the admins: the team's approvers and their running
    /// substitutes, never the requester (nor anyone acting for the requester).
    public static func teamDeciders(of requesterID: Int64, _ context: ApprovalContext) -> [Employee] {
        var deciders: [Employee] = []
        for approver in context.approvers where approver.id != requesterID {
            deciders.append(approver)
            deciders += context.substitutes[approver.id] ?? []
        }
        return unique(deciders.filter { $0.id != requesterID })
    }

    /// Who is asked to decide `request` now (the request's `approvers`): empty once it waits for nobody.
    ///
    /// A page of requests asks this for each item, mostly of the same few lists (the admins): a list that needs no
    /// change is passed on as it is, not copied.
    public static func asked(for request: HolidayRequest, _ context: ApprovalContext) -> [Employee] {
        let requesterID = request.employeeID
        let admins = without(requesterID, context.admins)
        var asked: [Employee]
        switch request.status {
        case .pending:
            let present = context.away.isEmpty
                ? without(requesterID, context.approvers)
                : context.approvers.filter { $0.id != requesterID && !context.away.contains($0.id) }
            let substitutes = context.substitutes.isEmpty
                ? []
                : context.approvers.filter { $0.id != requesterID }.flatMap { context.substitutes[$0.id] ?? [] }.filter { $0.id != requesterID }
            asked = substitutes.isEmpty ? present : present + substitutes
            if present.isEmpty { asked = asked.isEmpty ? admins : asked + admins }
        case .approvedByManager:
            asked = admins
        case .approved, .rejected, .cancelled:
            return []
        }
        if asked.isEmpty, let requester = context.admins.first(where: { $0.id == requesterID }) { asked = [requester] }
        return unique(asked)
    }

    /// `employees` without `id`; the same array when it is not there.
    private static func without(_ id: Int64, _ employees: [Employee]) -> [Employee] {
        employees.contains { $0.id == id } ? employees.filter { $0.id != id } : employees
    }

    /// Whether `actor` may make the decision `action` on `request`, whatever its state (the state machine is
    /// checked after this, so that an entitled actor hears 409 and anyone else 403).
    public static func mayDecide(_ action: HolidayAction, on request: HolidayRequest, by actor: Actor, _ context: ApprovalContext) -> Bool {
        // The operator of `sgadmin`, who is no employee.
        guard let actorID = actor.employeeID else { return actor.isAdmin }
        let stage = stage(of: action, from: request.status, twoStage: context.twoStage)
        let team = stage == .team ? teamDeciders(of: request.employeeID, context) : []
        if actorID == request.employeeID {
            let otherAdmins = context.admins.contains { $0.id != actorID }
            return actor.isAdmin && !otherAdmins && team.isEmpty
        }
        return actor.isAdmin || team.contains { $0.id == actorID }
    }

    /// Whether `viewer` may read `employeeID`'s requests, balances and history: the employee, an admin, and the
    /// team-stage deciders of the employee's requests.
    public static func mayRead(holidaysOf employeeID: Int64, by viewer: Actor, _ context: ApprovalContext) -> Bool {
        viewer.isAdmin || viewer.employeeID == employeeID
            || teamDeciders(of: employeeID, context).contains { $0.id == viewer.employeeID }
    }

    /// Each employee once, first place kept; the same array when none repeats.
    private static func unique(_ employees: [Employee]) -> [Employee] {
        guard employees.count > 1 else { return employees }
        // Lists are short (a team's approvers, the admins): comparing pairs costs less than building a set.
        let repeats = employees.indices.dropFirst().contains { index in
            employees[..<index].contains { $0.id == employees[index].id }
        }
        guard repeats else { return employees }
        var seen = Set<Int64>()
        return employees.filter { seen.insert($0.id).inserted }
    }
}

/// Reads what `Approval` needs, in the caller's transaction.
public protocol ApprovalReading {
    /// The team, approvers, absences, delegations and admins that decide `employeeID`'s requests on `day`.
    func approvalContext(employeeID: Int64, on day: CalendarDate) throws -> ApprovalContext
    /// `approvalContext` for each of `employeeIDs` (a page of requests), read together where the store can.
    func approvalContexts(employeeIDs: [Int64], on day: CalendarDate) throws -> [Int64: ApprovalContext]
    /// The employees whose requests `employeeID` decides at the team stage on `day` (as an approver of their team
    /// or a running substitute of one), never `employeeID` themself.
    func teamStageEmployees(decidedBy employeeID: Int64, on day: CalendarDate) throws -> [Int64]
}

extension ApprovalReading {
    public func approvalContexts(employeeIDs: [Int64], on day: CalendarDate) throws -> [Int64: ApprovalContext] {
        var contexts: [Int64: ApprovalContext] = [:]
        for id in employeeIDs where contexts[id] == nil { contexts[id] = try approvalContext(employeeID: id, on: day) }
        return contexts
    }

    /// Whether `viewer` may read `employeeID`'s holidays on `day`; reads only for someone who is neither the
    /// employee nor an admin.
    public func mayRead(holidaysOf employeeID: Int64, by viewer: Actor, on day: CalendarDate) throws -> Bool {
        if viewer.isAdmin || viewer.employeeID == employeeID { return true }
        return Approval.mayRead(holidaysOf: employeeID, by: viewer, try approvalContext(employeeID: employeeID, on: day))
    }
}

/// A request as a change left it, with who decides it, read in the change's transaction.
public struct DecidableRequest: Sendable {
    public let request: HolidayRequest
    public let approval: ApprovalContext
    /// The number of moves in its history, its creation included: every move makes a new version.
    public let version: Int
    /// The company's today when it changed.
    public let today: CalendarDate
    /// Whose request it is, read with it (nil where the caller has them already).
    public let employee: Employee?

    public init(request: HolidayRequest, approval: ApprovalContext, version: Int, today: CalendarDate, employee: Employee? = nil) {
        self.request = request
        self.approval = approval
        self.version = version
        self.today = today
        self.employee = employee
    }

    /// Who is asked to decide it now.
    public var approvers: [Employee] { Approval.asked(for: request, approval) }
}
