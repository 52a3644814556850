/// Where a holiday request stands. Rejected and cancelled are final. `approvedByManager` exists only in teams with
/// two-stage approval: the team's approver has approved, an admin decides next.
public enum HolidayStatus: String, Codable, Sendable, CaseIterable {
    case pending
    case approvedByManager = "approved-by-manager"
    case approved, rejected, cancelled

    /// The moves that can ever leave this state, whoever asks.
    public var allowedActions: [HolidayAction] {
        HolidayAction.allCases.filter { $0.from.contains(self) }
    }

    /// How a balance counts the days of a request in this state, or nil when it holds none. The one statement of the
    /// rule: the store's queries, the schema's triggers and the invariants are all written from it.
    public var heldAs: HeldAs? {
        switch self {
        case .approved: .approved
        case .pending, .approvedByManager: .pending
        case .rejected, .cancelled: nil
        }
    }

    public enum HeldAs: Sendable { case approved, pending }

    /// Pending, approved-by-manager and approved requests hold their days: they count against the allowance and
    /// block overlaps. Approved-by-manager days count as pending in a balance.
    public var holdsDays: Bool { heldAs != nil }

    /// Waiting for someone's decision.
    public var awaitsDecision: Bool { self == .pending || self == .approvedByManager }

    /// A status as a client or an operator writes it, exactly; anything else is an error naming `field`.
    public static func parse(_ text: String, field: String) throws -> HolidayStatus {
        guard let status = HolidayStatus(rawValue: text) else {
            throw SGError.invalid(field: field, message: "'\(text)' is not one of \(allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return status
    }
}

/// A move of a request from one state to another.
public enum HolidayAction: String, Codable, Sendable, CaseIterable {
    case approve, reject, revert, cancel

    public var from: Set<HolidayStatus> {
        switch self {
        case .approve, .reject: [.pending, .approvedByManager]
        case .revert: [.approvedByManager, .approved]
        case .cancel: [.pending, .approvedByManager, .approved]
        }
    }

    /// Where the move leads in a team with one stage (an approval is final).
    public var to: HolidayStatus {
        switch self {
        case .approve: .approved
        case .reject: .rejected
        case .revert: .pending
        case .cancel: .cancelled
        }
    }

    /// Where the move leads from `status`: in a team with two-stage approval, an approver's approval of a pending
    /// request is the first stage (`approvedByManager`); an admin's approval is always final.
    public func target(from status: HolidayStatus, twoStage: Bool, byAdmin: Bool) -> HolidayStatus {
        if self == .approve && status == .pending && twoStage && !byAdmin { return .approvedByManager }
        return to
    }

    /// Approve, reject and revert are decisions (`Approval`); cancel is the owner's (or an admin's).
    public var isDecision: Bool { self != .cancel }

    /// What the move does to who decided the request: an approval or a rejection names its decider, a revert takes
    /// the request back to undecided, a cancellation keeps the decision it ends (the history has every move).
    public func decision(by actor: Actor) -> DecisionChange {
        switch self {
        case .approve, .reject: .decided(by: actor.name)
        case .revert: .undecided
        case .cancel: .kept
        }
    }
}

/// A request's `decidedBy` and `decidedAt` after a move.
public enum DecisionChange: Sendable, Equatable {
    case decided(by: String)
    case undecided
    case kept
}
