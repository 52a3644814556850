/// Where a holiday request stands. Rejected and cancelled are final.
public enum HolidayStatus: String, Codable, Sendable, CaseIterable {
    case pending, approved, rejected, cancelled

    /// The moves that can ever leave this state, whoever asks.
    public var allowedActions: [HolidayAction] {
        HolidayAction.allCases.filter { $0.from.contains(self) }
    }

    /// Pending and approved requests hold their days: they count against the allowance and block overlaps.
    public var holdsDays: Bool { self == .pending || self == .approved }

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
        case .approve, .reject: [.pending]
        case .revert: [.approved]
        case .cancel: [.pending, .approved]
        }
    }

    public var to: HolidayStatus {
        switch self {
        case .approve: .approved
        case .reject: .rejected
        case .revert: .pending
        case .cancel: .cancelled
        }
    }

    /// Approve, reject and revert are an admin's decisions; cancel is the owner's (or an admin's).
    public var isDecision: Bool { self != .cancel }
}
