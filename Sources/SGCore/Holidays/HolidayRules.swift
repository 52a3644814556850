/// Who may move a request where, as a pure function of the request, the actor, today's date and who decides the
/// requester's requests (`Approval`). `HolidayService.perform` calls it inside the write transaction; lists call it
/// to show the moves a viewer has.
public enum HolidayRules {
    /// Why a move is refused. Deciding is separate from describing, so that a list can ask about every move of
    /// every request without building an error for each refusal.
    public enum Refusal: Sendable, Equatable {
        case decisionNotEntitled, notVisible, ownDecision, wrongState, approvedAndStarted
    }

    public static func check(
        _ action: HolidayAction, on request: HolidayRequest, by actor: Actor, today: CalendarDate, approval: ApprovalContext
    ) throws {
        guard let refusal = refusal(action, on: request, by: actor, today: today, approval: approval) else { return }
        switch refusal {
        case .decisionNotEntitled:
            if action == .revert && !request.typeNeedsApproval {
                throw SGError.forbidden(
                    "Request \(request.id) is \(request.kindInWords.lowercased()), which needs no approval: only an admin can revert it.")
            }
            throw SGError.forbidden(
                "Only an approver of the requester's team, their substitute or an admin can \(action.rawValue) request \(request.id).")
        case .notVisible:
            throw SGError.notFound("Holiday request \(request.id) does not exist.")
        case .ownDecision:
            throw SGError.forbidden(
                "Nobody can \(action.rawValue) their own request; the team's other approvers or an admin decide it.")
        case .wrongState:
            throw SGError.wrongState(requestID: request.id, status: request.status, action: action)
        case .approvedAndStarted:
            throw SGError.conflict(
                "Request \(request.id) is approved and started on \(request.startDate); only an admin can cancel it now.")
        }
    }

    /// Nil when `actor` may make the move today.
    public static func refusal(
        _ action: HolidayAction, on request: HolidayRequest, by actor: Actor, today: CalendarDate, approval: ApprovalContext
    ) -> Refusal? {
        let isOwner = actor.employeeID == request.employeeID
        if action.isDecision {
            // Someone not entitled hears "forbidden" of a request they may read, and "not found" of one they may not,
            // as of an id that does not exist: an approver learns nothing of other teams' requests.
            guard Approval.mayDecide(action, on: request, by: actor, approval) else {
                if isOwner { return .ownDecision }
                return Approval.mayRead(holidaysOf: request.employeeID, by: actor, approval) ? .decisionNotEntitled : .notVisible
            }
            // A type that needs no approval (sick leave) was approved by no approver: only an admin takes it back.
            if action == .revert && !request.typeNeedsApproval && !actor.isAdmin { return .decisionNotEntitled }
        } else if !Approval.mayRead(holidaysOf: request.employeeID, by: actor, approval) {
            return .notVisible
        } else if !isOwner && !actor.isAdmin {
            // An approver reads their team's requests; cancelling stays the owner's and the admins'.
            return .decisionNotEntitled
        }
        guard action.from.contains(request.status) else { return .wrongState }
        // The owner (an admin too, for their own request) may withdraw an approved holiday only before its
        // first day; after that, another admin records the change.
        if action == .cancel && request.status == .approved && isOwner && today >= request.startDate { return .approvedAndStarted }
        return nil
    }

    /// The moves `actor` can make on `request` today.
    public static func allowedActions(
        on request: HolidayRequest, by actor: Actor, today: CalendarDate, approval: ApprovalContext
    ) -> [HolidayAction] {
        HolidayAction.allCases.filter { refusal($0, on: request, by: actor, today: today, approval: approval) == nil }
    }
}
