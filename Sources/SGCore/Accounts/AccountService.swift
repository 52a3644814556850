import Foundation

/// Accounts: local employees added by an operator, employees a directory vouches for, deactivation.
public struct AccountService: Sendable {
    public let store: any AccountStore
    public let clock: any NowProvider

    public init(store: any AccountStore, clock: any NowProvider = SystemClock()) {
        self.store = store
        self.clock = clock
    }

    public func employee(id: Int64) async throws -> Employee? {
        try await store.read { tx in try tx.employee(id: id) }
    }

    public func employee(username: String) async throws -> Employee? {
        try await store.read { tx in try tx.employee(username: username) }
    }

    public func employees(includeInactive: Bool = true) async throws -> [Employee] {
        try await store.read { tx in try tx.employees(includeInactive: includeInactive) }
    }

    public func addEmployee(_ new: NewEmployee) async throws -> Employee {
        let new = try EmployeeRules.validated(new)
        let now = clock.now()
        return try await store.write { tx in
            if try tx.employee(username: new.username) != nil {
                throw SGError.conflict("The username '\(new.username)' is taken.")
            }
            return try Self.existing(tx, try tx.insertEmployee(new, at: now))
        }
    }

    /// Creates or refreshes the employee a directory vouches for. Fields the directory holds are overwritten,
    /// so a change in the directory shows at the next login; the admin flag follows the directory too when it
    /// decides it. Fields only the app holds are left as they are.
    ///
    /// `owned` names the profile fields the directory holds: position and phone among them are taken from the
    /// entry's title and phone (and cleared when the entry has none); fields it does not hold are left as edited.
    public func provision(_ account: DirectoryAccount, owned: Set<ProfileField> = []) async throws -> Employee {
        let now = clock.now()
        return try await store.write { tx in
            let id: Int64
            if let existing = try tx.employee(username: account.username) {
                try Self.checkAdoption(tx, of: existing, by: account)
                try tx.updateIdentity(
                    employeeID: existing.id, from: account, isAdmin: account.decidesAdmin ? account.isAdmin : existing.isAdmin)
                id = existing.id
            } else {
                id = try tx.insertEmployee(
                    NewEmployee(
                        username: account.username, name: account.name, surname: account.surname, email: account.email,
                        isAdmin: account.decidesAdmin && account.isAdmin, passwordHash: nil),
                    at: now)
            }
            try tx.setDirectoryHeldFields(employeeID: id, owned.intersection([.position, .phone]), from: account)
            if account.directoryName != nil { try tx.saveDirectoryRecord(employeeID: id, account, at: now) }
            if let team = account.team { try TeamService.assign(tx, employeeID: id, toTeamNamed: team) }
            return try Self.existing(tx, id)
        }
    }

    /// Deactivates an account: its history stays, its sessions end (every token stops working at the next request),
    /// it cannot log in again.
    public func deactivate(username: String) async throws -> Employee {
        let now = clock.now()
        return try await store.write { tx in
            guard let employee = try tx.employee(username: username) else {
                throw SGError.notFound("No employee with username '\(username)'.")
            }
            guard employee.isActive else {
                throw SGError.conflict("\(employee.username) is already deactivated.")
            }
            try tx.deactivate(employeeID: employee.id, at: now)
            try tx.endSessions(employeeID: employee.id)
            return try Self.existing(tx, employee.id)
        }
    }

    public func directoryProfile(username: String) async throws -> DirectoryProfile? {
        try await store.read { tx in try tx.directoryProfile(username: username) }
    }

    public func directoryProfiles() async throws -> [DirectoryProfile] {
        try await store.read { tx in try tx.directoryProfiles() }
    }

    /// A directory entry takes over an account created in the app (switching to the directory keeps everyone's
    /// history) only when it is the same person: the same e-mail address. Otherwise an entry that merely shares
    /// the username took the account over, its admin role included (issue 18).
    private static func checkAdoption(_ tx: any AccountReading, of existing: Employee, by account: DirectoryAccount) throws {
        guard account.directoryName != nil, try tx.directoryProfile(username: existing.username) == nil else { return }
        let theirs = account.email.trimmingCharacters(in: .whitespaces).lowercased()
        guard theirs.isEmpty || theirs != existing.email.trimmingCharacters(in: .whitespaces).lowercased() else { return }
        throw SGError.forbidden(
            "The username \(existing.username) belongs to an account created in the app whose e-mail address is not the "
                + "directory's for this entry, so the entry cannot take it over. An administrator must rename one of them "
                + "or give the account the directory's e-mail address.")
    }

    private static func existing(_ tx: any AccountReading, _ id: Int64) throws -> Employee {
        guard let employee = try tx.employee(id: id) else { throw SGError.notFound("Employee \(id) does not exist.") }
        return employee
    }
}
