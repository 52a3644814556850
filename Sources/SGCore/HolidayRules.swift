/// Who may move a request where, as a pure function of the request, the actor and today's date.
/// `HolidayService.perform` calls it inside the write transaction; lists call it to show the moves a viewer has.
public enum HolidayRules {
    public static func check(_ action: HolidayAction, on request: HolidayRequest, by actor: Actor, today: CalendarDate) throws {
        let isOwner = actor.employeeID == request.employeeID
        // Decisions are refused to non-admins whoever owns the request (the same answer for every id);
        // another employee's request is otherwise not disclosed.
        if action.isDecision && !actor.isAdmin {
            throw SGError.forbidden("Only an admin can \(action.rawValue) a holiday request.")
        }
        guard isOwner || actor.isAdmin else {
            throw SGError.notFound("Holiday request \(request.id) does not exist.")
        }
        if action.isDecision {
            guard !isOwner else {
                throw SGError.forbidden("An admin cannot \(action.rawValue) their own request; another admin must decide it.")
            }
        }
        guard action.from.contains(request.status) else {
            throw SGError.wrongState(requestID: request.id, status: request.status, action: action)
        }
        // The owner (an admin too, for their own request) may withdraw an approved holiday only before its
        // first day; after that, another admin records the change.
        if action == .cancel && request.status == .approved && isOwner && today >= request.startDate {
            throw SGError.conflict(
                "Request \(request.id) is approved and started on \(request.startDate); only an admin can cancel it now.")
        }
    }

    /// The moves `actor` can make on `request` today.
    public static func allowedActions(on request: HolidayRequest, by actor: Actor, today: CalendarDate) -> [HolidayAction] {
        HolidayAction.allCases.filter { (try? check($0, on: request, by: actor, today: today)) != nil }
    }
}
