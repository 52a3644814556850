import Foundation

/// The teams' data, read in one transaction.
public protocol TeamReading: CompanyReading, ApprovalReading {
    /// Every team with its members and approvers, by name.
    func teams() throws -> [Team]
    /// Up to `limit` teams by name, each with its members and approvers: those whose name sorts after `afterName`, and
    /// only the team of `memberID` when given.
    func teamPage(afterName: String?, memberID: Int64?, limit: Int) throws -> [Team]
    /// The teams whose requests `employeeID` decides on `day`: as their approver, or for an approver who delegated to
    /// them.
    func teamIDs(decidedBy employeeID: Int64, on day: CalendarDate) throws -> [Int64]
    func team(id: Int64) throws -> Team?
    /// The team of that name, compared without case.
    func team(named name: String) throws -> Team?
    func employee(id: Int64) throws -> Employee?
    func employee(username: String) throws -> Employee?
    /// Whether the employee approves for at least one team.
    func isApprover(employeeID: Int64) throws -> Bool
    func delegation(approverID: Int64) throws -> Delegation?
}

/// What putting an employee in a team by its name reads and writes (a directory's login, the team commands).
public protocol TeamAssigning {
    /// The team `employeeID` belongs to, if any.
    func teamID(employeeID: Int64) throws -> Int64?
    /// The id of the team of that name, compared without case.
    func teamID(named name: String) throws -> Int64?
    func insertTeam(name: String, twoStage: Bool) throws -> Int64
    /// Puts the employee in `teamID` (leaving any other team), or in none.
    func setTeam(employeeID: Int64, teamID: Int64?) throws
}

public protocol TeamWriting: TeamReading, TeamAssigning {    func updateTeam(id: Int64, name: String, twoStage: Bool) throws
    /// Deletes the team; its members belong to no team and its approvers approve for it no longer.
    func deleteTeam(id: Int64) throws
    /// Makes the employee an approver of the team (`true`) or not.
    func setApprover(teamID: Int64, employeeID: Int64, _ isApprover: Bool) throws
    /// Replaces the approver's delegation.
    func saveDelegation(_ delegation: Delegation) throws
    /// Whether there was one.
    func deleteDelegation(approverID: Int64) throws -> Bool
}

public typealias TeamStore = TransactionalStore<any TeamReading, any TeamWriting>

/// Which teams a listing shows: a page by name, after the last name of the page before, or the team of one member.
public struct TeamFilter: Sendable, Hashable {
    public static let maximumLimit = 200

    public var afterName: String?
    public var memberID: Int64?
    public var limit: Int

    public init(afterName: String? = nil, memberID: Int64? = nil, limit: Int = TeamFilter.maximumLimit) {
        self.afterName = afterName
        self.memberID = memberID
        self.limit = limit
    }
}

/// Teams, their members and approvers (admins), and the approvers' delegations. The API and `sgadmin` both call it.
public struct TeamService: Sendable {
    /// A delegation covers at most this many days.
    public static let maximumDelegationDays = 366

    public let store: any TeamStore
    public let clock: any NowProvider

    public init(store: any TeamStore, clock: any NowProvider = SystemClock()) {
        self.store = store
        self.clock = clock
    }

    public func teams(by actor: Actor) async throws -> [Team] {
        try Self.requireAdmin(actor)
        return try await store.read { tx in try tx.teams() }
    }

    /// The teams `actor` may read, by name: every team for an admin, the teams they decide for (as approver or
    /// delegate, today) for anyone else, "forbidden" for someone who decides for no team. `filter` narrows them.
    public func teams(_ filter: TeamFilter, by actor: Actor) async throws -> [Team] {
        guard (1...TeamFilter.maximumLimit).contains(filter.limit) else {
            throw SGError.invalid(field: "limit", message: "must be between 1 and \(TeamFilter.maximumLimit)")
        }
        let now = clock.now()
        return try await store.read { tx in
            if actor.isAdmin { return try tx.teamPage(afterName: filter.afterName, memberID: filter.memberID, limit: filter.limit) }
            let decided = try actor.employeeID.map { try tx.teamIDs(decidedBy: $0, on: try tx.today(at: now)) } ?? []
            guard !decided.isEmpty else {
                throw SGError.forbidden("This needs an admin account, or an approver's: you decide for no team.")
            }
            // An approver's teams are few: read them whole, then narrow and page them as the store would.
            let teams = try decided.compactMap { try tx.team(id: $0) }
                .filter { team in filter.memberID.map { id in team.members.contains { $0.id == id } } ?? true }
                .filter { team in filter.afterName.map { team.name > $0 } ?? true }
                .sorted { ($0.name, $0.id) < ($1.name, $1.id) }
            return Array(teams.prefix(filter.limit))
        }
    }

    public func team(id: Int64, by actor: Actor) async throws -> Team {
        try Self.requireAdmin(actor)
        return try await store.read { tx in try Self.existingTeam(tx, id) }
    }

    /// The team of that name (without case) or of that id, for `sgadmin`.
    public func team(named nameOrID: String, by actor: Actor) async throws -> Team {
        try Self.requireAdmin(actor)
        return try await store.read { tx in try Self.namedTeam(tx, nameOrID) }
    }

    public func create(name: String, twoStage: Bool = false, by actor: Actor) async throws -> Team {
        try Self.requireAdmin(actor)
        let name = try Self.checkName(name)
        return try await store.write { tx in
            try Self.checkNameFree(tx, name, except: nil)
            return try Self.existingTeam(tx, try tx.insertTeam(name: name, twoStage: twoStage))
        }
    }

    /// Renames the team and/or switches its two-stage approval. Requests already approved by a manager stay so
    /// when two-stage approval is switched off: an admin decides them.
    public func update(id: Int64, name: String?, twoStage: Bool?, by actor: Actor) async throws -> Team {
        try Self.requireAdmin(actor)
        let name = try name.map(Self.checkName)
        return try await store.write { tx in
            let team = try Self.existingTeam(tx, id)
            if let name { try Self.checkNameFree(tx, name, except: id) }
            try tx.updateTeam(id: id, name: name ?? team.name, twoStage: twoStage ?? team.twoStage)
            return try Self.existingTeam(tx, id)
        }
    }

    /// Deletes the team: its members' requests go to the admins from now on.
    public func delete(id: Int64, by actor: Actor) async throws {
        try Self.requireAdmin(actor)
        try await store.write { tx in
            let team = try Self.existingTeam(tx, id)
            try tx.deleteTeam(id: id)
            for approver in team.approvers { try Self.endDelegationUnlessApprover(tx, approver.id) }
        }
    }

    /// Puts the employee in the team, moving them out of any other.
    public func addMember(teamID: Int64, employeeID: Int64, by actor: Actor) async throws -> Team {
        try Self.requireAdmin(actor)
        return try await store.write { tx in
            _ = try Self.existingTeam(tx, teamID)
            _ = try Self.existingEmployee(tx, employeeID)
            try tx.setTeam(employeeID: employeeID, teamID: teamID)
            return try Self.existingTeam(tx, teamID)
        }
    }

    public func removeMember(teamID: Int64, employeeID: Int64, by actor: Actor) async throws -> Team {
        try Self.requireAdmin(actor)
        return try await store.write { tx in
            _ = try Self.existingTeam(tx, teamID)
            guard try tx.teamID(employeeID: employeeID) == teamID else {
                throw SGError.notFound("Employee \(employeeID) is not a member of team \(teamID).")
            }
            try tx.setTeam(employeeID: employeeID, teamID: nil)
            return try Self.existingTeam(tx, teamID)
        }
    }

    public func addApprover(teamID: Int64, employeeID: Int64, by actor: Actor) async throws -> Team {
        try Self.requireAdmin(actor)
        return try await store.write { tx in
            _ = try Self.existingTeam(tx, teamID)
            let employee = try Self.existingEmployee(tx, employeeID)
            guard employee.isActive else {
                throw SGError.conflict("Employee \(employee.username) is deactivated and cannot approve.")
            }
            try tx.setApprover(teamID: teamID, employeeID: employeeID, true)
            return try Self.existingTeam(tx, teamID)
        }
    }

    public func removeApprover(teamID: Int64, employeeID: Int64, by actor: Actor) async throws -> Team {
        try Self.requireAdmin(actor)
        return try await store.write { tx in
            let team = try Self.existingTeam(tx, teamID)
            guard team.approvers.contains(where: { $0.id == employeeID }) else {
                throw SGError.notFound("Employee \(employeeID) is not an approver of team \(teamID).")
            }
            try tx.setApprover(teamID: teamID, employeeID: employeeID, false)
            try Self.endDelegationUnlessApprover(tx, employeeID)
            return try Self.existingTeam(tx, teamID)
        }
    }

    /// Puts the employee in the team of that name, creating it (one stage, no approver yet), or in none (an empty
    /// name): what a directory says at each login, in the caller's transaction.
    public static func assign(_ tx: any TeamAssigning, employeeID: Int64, toTeamNamed name: String) throws {
        // What a directory holds must not stop a login: a longer name is cut to the longest a team's may be.
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        let name = String(String.UnicodeScalarView(trimmed.unicodeScalars.prefix(Team.maximumNameLength)))
        var id: Int64? = nil
        if let valid = try? checkName(name) {
            id = try tx.teamID(named: valid) ?? tx.insertTeam(name: valid, twoStage: false)
        }
        if try tx.teamID(employeeID: employeeID) != id { try tx.setTeam(employeeID: employeeID, teamID: id) }
    }

    // MARK: Delegation

    /// The approver's delegation, if any (running or not).
    public func delegation(of approver: Actor) async throws -> Delegation? {
        let approverID = try Self.employeeID(approver)
        return try await store.read { tx in try tx.delegation(approverID: approverID) }
    }

    /// Names `substituteID` to decide for the approver from `from` through `until`, replacing any delegation.
    public func delegate(from approver: Actor, to substituteID: Int64, from start: CalendarDate, until end: CalendarDate) async throws -> Delegation {
        let approverID = try Self.employeeID(approver)
        guard start <= end else {
            throw SGError.invalid(field: "until", message: "\(end) is before from (\(start))")
        }
        guard start.days(to: end) < Self.maximumDelegationDays else {
            throw SGError.invalid(field: "until", message: "a delegation covers at most \(Self.maximumDelegationDays) days")
        }
        let now = clock.now()
        return try await store.write { tx in
            guard try tx.isApprover(employeeID: approverID) else {
                throw SGError.forbidden("Only an approver of a team can name a substitute.")
            }
            guard substituteID != approverID else {
                throw SGError.invalid(field: "to", message: "you cannot be your own substitute")
            }
            let today = try tx.today(at: now)
            guard end >= today else {
                throw SGError.invalid(field: "until", message: "\(end) is in the past (today is \(today))")
            }
            guard let substitute = try tx.employee(id: substituteID), substitute.isActive else {
                throw SGError.invalid(field: "to", message: "there is no active employee \(substituteID)")
            }
            let delegation = Delegation(approverID: approverID, substituteID: substitute.id, from: start, until: end)
            try tx.saveDelegation(delegation)
            return delegation
        }
    }

    /// Ends the approver's delegation.
    public func endDelegation(of approver: Actor) async throws {
        let approverID = try Self.employeeID(approver)
        try await store.write { tx in
            guard try tx.deleteDelegation(approverID: approverID) else {
                throw SGError.notFound("You have no delegation.")
            }
        }
    }

    // MARK: Helpers

    /// A delegation hands on what its approver decides: once they approve for no team, it ends.
    static func endDelegationUnlessApprover(_ tx: any TeamWriting, _ employeeID: Int64) throws {
        if try !tx.isApprover(employeeID: employeeID) { _ = try tx.deleteDelegation(approverID: employeeID) }
    }

    static func requireAdmin(_ actor: Actor) throws {
        guard actor.isAdmin else { throw SGError.forbidden("Only an admin can manage teams.") }
    }

    static func employeeID(_ actor: Actor) throws -> Int64 {
        guard let id = actor.employeeID else { throw SGError.forbidden("Only an employee has a delegation.") }
        return id
    }

    static func checkName(_ name: String) throws -> String {
        let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        // Unicode code points, as the contract's maxLength and the database's length() count them.
        guard (1...Team.maximumNameLength).contains(name.unicodeScalars.count),
              !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw SGError.invalid(
                field: "name", message: "a team's name has 1 to \(Team.maximumNameLength) characters (Unicode code points) and no control characters")
        }
        return name
    }

    static func checkNameFree(_ tx: any TeamReading, _ name: String, except id: Int64?) throws {
        if let other = try tx.team(named: name), other.id != id {
            throw SGError.conflict("There is already a team named '\(other.name)' (id \(other.id)).")
        }
    }

    static func existingTeam(_ tx: any TeamReading, _ id: Int64) throws -> Team {
        guard let team = try tx.team(id: id) else { throw SGError.notFound("Team \(id) does not exist.") }
        return team
    }

    static func namedTeam(_ tx: any TeamReading, _ nameOrID: String) throws -> Team {
        if let team = try tx.team(named: nameOrID) { return team }
        if let id = Int64(nameOrID), let team = try tx.team(id: id) { return team }
        throw SGError.notFound("There is no team named '\(nameOrID)'.")
    }

    static func existingEmployee(_ tx: any TeamReading, _ id: Int64) throws -> Employee {
        guard let employee = try tx.employee(id: id) else { throw SGError.notFound("Employee \(id) does not exist.") }
        return employee
    }
}
