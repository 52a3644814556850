import Foundation

/// The company's leave types: everyone reads them, admins define, change, retire and delete them.
public struct LeaveTypeService: Sendable {
    public let store: any LeaveTypeStore

    public init(store: any LeaveTypeStore) { self.store = store }

    public func list() async throws -> [LeaveType] {
        try await store.read { tx in try tx.leaveTypes() }
    }

    public func leaveType(id: Int64) async throws -> LeaveType {
        try await store.read { tx in try Self.existing(tx, id: id) }
    }

    /// A new type. Unset fields: draws on the allowance no, needs approval yes, private no, no cap.
    public func create(_ change: LeaveTypeChange, by actor: Actor) async throws -> LeaveType {
        try Self.requireAdmin(actor)
        guard let name = change.name else { throw SGError.invalid(field: "name", message: "a leave type needs a name") }
        let type = LeaveType(
            id: 0, name: try Self.checkName(name), drawsOnAllowance: change.drawsOnAllowance ?? false,
            needsApproval: change.needsApproval ?? true, isPrivate: change.isPrivate ?? false,
            yearlyCap: try Self.checkCap(change.yearlyCap ?? nil), isRetired: change.isRetired ?? false)
        return try await store.write { tx in
            try Self.requireFreeName(tx, type.name, except: nil)
            return try tx.insertLeaveType(type)
        }
    }

    /// Changes a type. Whether it draws on the allowance is fixed once a request uses it: changing it would
    /// rewrite every past balance.
    public func update(id: Int64, _ change: LeaveTypeChange, by actor: Actor) async throws -> LeaveType {
        try Self.requireAdmin(actor)
        let name = try change.name.map(Self.checkName)
        let cap = try change.yearlyCap.map(Self.checkCap)
        return try await store.write { tx in
            var type = try Self.existing(tx, id: id)
            if let name {
                try Self.requireFreeName(tx, name, except: id)
                type.name = name
            }
            if let draws = change.drawsOnAllowance, draws != type.drawsOnAllowance {
                if try tx.requestCount(leaveTypeID: id) > 0 {
                    throw SGError.conflict(
                        "Leave type '\(type.name)' is used by requests, so whether it draws on the allowance cannot change. "
                            + "Retire it and create another type instead.")
                }
                if id == LeaveType.holidayID {
                    throw SGError.conflict("The holiday type always draws on the allowance.")
                }
                type.drawsOnAllowance = draws
            }
            type.needsApproval = change.needsApproval ?? type.needsApproval
            type.isPrivate = change.isPrivate ?? type.isPrivate
            if let cap { type.yearlyCap = cap }
            if let retired = change.isRetired {
                if retired && id == LeaveType.holidayID {
                    throw SGError.conflict("The holiday type cannot be retired: requests that name no type are holidays.")
                }
                type.isRetired = retired
            }
            try tx.updateLeaveType(type)
            return type
        }
    }

    /// Deletes a type no request has ever used; one in use can only be retired.
    public func delete(id: Int64, by actor: Actor) async throws {
        try Self.requireAdmin(actor)
        try await store.write { tx in
            let type = try Self.existing(tx, id: id)
            if id == LeaveType.holidayID {
                throw SGError.conflict("The holiday type cannot be deleted: requests that name no type are holidays.")
            }
            let uses = try tx.requestCount(leaveTypeID: id)
            guard uses == 0 else {
                throw SGError.conflict(
                    "Leave type '\(type.name)' is used by \(uses) request\(uses == 1 ? "" : "s"), so it cannot be deleted; retire it instead.")
            }
            try tx.deleteLeaveType(id: id)
        }
    }

    // MARK: Rules

    static func existing(_ tx: any LeaveTypeReading, id: Int64) throws -> LeaveType {
        guard let type = try tx.leaveType(id: id) else { throw SGError.notFound("Leave type \(id) does not exist.") }
        return type
    }

    private static func requireAdmin(_ actor: Actor) throws {
        guard actor.isAdmin else { throw SGError.forbidden("Only an admin can change leave types.") }
    }

    static func checkName(_ name: String) throws -> String {
        try TextRules.line(name, field: "name", maximum: LeaveType.maximumNameLength)
    }

    static func checkCap(_ cap: HalfDays?) throws -> HalfDays? {
        guard let cap else { return nil }
        guard LeaveType.caps.contains(cap) else {
            throw SGError.invalid(field: "yearlyCap", message: "must be between 0.5 and 366 days, in half days")
        }
        return cap
    }

    private static func requireFreeName(_ tx: any LeaveTypeReading, _ name: String, except id: Int64?) throws {
        if let other = try tx.leaveType(named: name), other.id != id {
            throw SGError.conflict("A leave type named '\(other.name)' exists already (id \(other.id)).")
        }
    }
}
