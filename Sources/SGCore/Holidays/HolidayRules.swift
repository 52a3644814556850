/// Who may move a request where, as a pure function of the request, the actor and today's date.
/// `HolidayService.perform` calls it inside the write transaction; lists call it to show the moves a viewer has.
public enum HolidayRules {
    /// Why a move is refused. Deciding is separate from describing, so that a list can ask about every move of
    /// every request without building an error for each refusal.
    public enum Refusal: Sendable, Equatable {
        case decisionNeedsAdmin, notVisible, ownDecision, wrongState, approvedAndStarted
    }

    public static func check(_ action: HolidayAction, on request: HolidayRequest, by actor: Actor, today: CalendarDate) throws {
        guard let refusal = refusal(action, on: request, by: actor, today: today) else { return }
        switch refusal {
        case .decisionNeedsAdmin:
            throw SGError.forbidden("Only an admin can \(action.rawValue) a holiday request.")
        case .notVisible:
            throw SGError.notFound("Holiday request \(request.id) does not exist.")
        case .ownDecision:
            throw SGError.forbidden("An admin cannot \(action.rawValue) their own request; another admin must decide it.")
        case .wrongState:
            throw SGError.wrongState(requestID: request.id, status: request.status, action: action)
        case .approvedAndStarted:
            throw SGError.conflict(
                "Request \(request.id) is approved and started on \(request.startDate); only an admin can cancel it now.")
        }
    }

    /// Nil when `actor` may make the move today.
    public static func refusal(_ action: HolidayAction, on request: HolidayRequest, by actor: Actor, today: CalendarDate) -> Refusal? {
        let isOwner = actor.employeeID == request.employeeID
        // Decisions are refused to non-admins whoever owns the request (the same answer for every id);
        // another employee's request is otherwise not disclosed.
        if action.isDecision && !actor.isAdmin { return .decisionNeedsAdmin }
        guard mayRead(holidaysOf: request.employeeID, by: actor) else { return .notVisible }
        if action.isDecision && isOwner { return .ownDecision }
        guard action.from.contains(request.status) else { return .wrongState }
        // The owner (an admin too, for their own request) may withdraw an approved holiday only before its
        // first day; after that, another admin records the change.
        if action == .cancel && request.status == .approved && isOwner && today >= request.startDate { return .approvedAndStarted }
        return nil
    }

    /// An employee's requests, balances and history are theirs and the admins' to read. The API answers a
    /// refused request as "not found" and a refused balance or year view as "forbidden".
    public static func mayRead(holidaysOf employeeID: Int64, by actor: Actor) -> Bool {
        actor.isAdmin || actor.employeeID == employeeID
    }

    /// The moves `actor` can make on `request` today.
    public static func allowedActions(on request: HolidayRequest, by actor: Actor, today: CalendarDate) -> [HolidayAction] {
        HolidayAction.allCases.filter { refusal($0, on: request, by: actor, today: today) == nil }
    }
}
