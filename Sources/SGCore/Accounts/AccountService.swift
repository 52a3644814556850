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

    /// Adds a local account with its first password (`sgadmin user add`, `POST /v1/employees`). Refused while
    /// logins go to a directory that creates the employees itself: nobody would ever be asked the local password.
    public func addLocalAccount(
        _ new: NewEmployee, password: String, passwords: PasswordService, directory: any EmployeeDirectory, by actor: Actor
    ) async throws -> Employee {
        try Self.requireAdmin(actor)
        guard !directory.provisionsEmployees else {
            throw SGError.conflict(
                "Logins go to the company directory (\(directory.kind)), which creates each employee at their first login: "
                    + "add \(new.username) there. A local account could not log in.")
        }
        var new = try EmployeeRules.validated(new)  // before the bcrypt work
        new.passwordHash = try await passwords.hashForNewAccount(password, username: new.username)
        return try await addEmployee(new)
    }

    public func addEmployee(_ new: NewEmployee) async throws -> Employee {
        let new = try EmployeeRules.validated(new)
        let now = clock.now()
        return try await store.write { tx in
            if try tx.employee(username: new.username) != nil {
                throw SGError.conflict("The username '\(new.username)' is taken.")
            }
            let id = try tx.insertEmployee(new, at: now)
            if new.employment != Employment() { try tx.setEmployment(employeeID: id, new.employment) }
            try FoldedCopies.refresh(tx, employeeID: id)
            return try Self.existing(tx, id)
        }
    }

    /// Creates or refreshes the employee a directory vouches for. Fields the directory holds are overwritten,
    /// so a change in the directory shows at the next login; the admin flag follows the directory too when it
    /// decides it. Fields only the app holds are left as they are.
    ///
    /// `owned` names the profile fields the directory holds: position and phone among them are taken from the
    /// entry's title and phone (and cleared when the entry has none); fields it does not hold are left as edited.
    /// Employment dates the directory holds are taken too, unless they would leave a request outside them or a
    /// year short of what it holds (see `provisioned`).
    public func provision(_ account: DirectoryAccount, owned: Set<ProfileField> = []) async throws -> Employee {
        try await provisioned(account, owned: owned).employee
    }

    /// `provision`, with why the directory's employment dates were not taken (nil when they were, or are as
    /// before): the employee keeps their dates until the request in the way is cancelled or rejected, and the
    /// login goes on.
    public func provisioned(
        _ account: DirectoryAccount, owned: Set<ProfileField> = []
    ) async throws -> (employee: Employee, employmentKept: String?) {
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
            let kept = account.employment == EmploymentChange()
                ? nil : try Self.applyDirectoryEmployment(tx, employeeID: id, account, now: now)
            try FoldedCopies.refresh(tx, employeeID: id)
            return (try Self.existing(tx, id), kept)
        }
    }

    /// Writes the directory's employment dates under the rules an admin's change meets; returns why not instead
    /// of throwing, so that a login is never refused for them.
    static func applyDirectoryEmployment(
        _ tx: any AccountWriting, employeeID id: Int64, _ account: DirectoryAccount, now: Date
    ) throws -> String? {
        let current = try tx.holidays.employment(employeeID: id)
        // Most logins bring the dates as they are: no need to read the employee's requests then.
        guard account.employment.applied(to: current) != current else { return nil }
        let updated: Employment
        do {
            let held = try tx.holidays.requests(employeeID: id, touchingYears: HolidayService.supportedYears)
            updated = try EmploymentRules.apply(account.employment, to: current, username: account.username, held: held)
        } catch let error as SGError {
            return error.message
        }
        try tx.setEmployment(employeeID: id, updated)
        do {
            try HolidayService.checkContractChange(tx.holidays, employeeID: id, from: nil, now: now)
        } catch let error as SGError {
            try tx.setEmployment(employeeID: id, current)
            return error.message
        }
        return nil
    }

    /// Deactivates an account: its history stays, its sessions end (every token stops working at the next request),
    /// it cannot log in again. The last active admin stays unless `keepingAnAdmin` is false: a directory's sync
    /// deactivates whoever left it.
    public func deactivate(username: String, keepingAnAdmin: Bool = true) async throws -> Employee {
        let now = clock.now()
        return try await store.write { tx in
            guard let employee = try tx.employee(username: username) else {
                throw SGError.notFound("No employee with username '\(username)'.")
            }
            guard employee.isActive else {
                throw SGError.conflict("\(employee.username) is already deactivated.")
            }
            if keepingAnAdmin { try Self.checkAnotherAdminRemains(tx, besides: employee, by: nil) }
            try Self.deactivate(tx, employee.id, at: now)
            return try Self.existing(tx, employee.id)
        }
    }

    /// An admin's change of an employee, all of it or nothing, in one transaction: the HR fields (under the profile
    /// rules, fields the directory holds refused), the admin flag, deactivation (their sessions end) and reactivation.
    /// The last active admin can be neither demoted nor deactivated, and an admin neither demotes nor deactivates
    /// themself; a directory employee is reactivated only while the directory still lists them.
    public func update(
        employeeID: Int64, _ change: EmployeeChange, by actor: Actor, directory: any EmployeeDirectory
    ) async throws -> Profile {
        try Self.requireAdmin(actor)
        if actor.employeeID == employeeID && (change.isActive == false || change.isAdmin == false) {
            throw SGError.conflict(
                "You cannot deactivate yourself or give up your own admin role: another admin does that, so that no one "
                    + "locks themselves out by mistake.")
        }
        if change.isActive == true { try await checkDirectoryStillLists(employeeID: employeeID, directory) }
        let now = clock.now()
        return try await store.write { tx in
            guard let current = try tx.profile(employeeID: employeeID) else {
                throw SGError.notFound("Employee \(employeeID) does not exist.")
            }
            let before = current.employee
            var updated = try ProfileRules.apply(
                change.profile, to: current, owned: directory.ownedFields, directoryKind: directory.kind,
                today: try tx.today(at: now))
            updated.employee.isAdmin = change.isAdmin ?? before.isAdmin
            if !updated.employee.isAdmin || change.isActive == false {
                try Self.checkAnotherAdminRemains(tx, besides: before, by: actor)
            }
            if updated != current {
                try tx.saveEmployee(updated)
                try FoldedCopies.refresh(tx, employeeID: employeeID)
            }
            let target = change.employment.applied(to: current.employment)
            if target != current.employment {
                if directory.holdsEmploymentStart && target.start != current.employment.start {
                    throw ProfileRules.heldByDirectory("employmentStart", kind: directory.kind)
                }
                if directory.holdsEmploymentEnd && target.end != current.employment.end {
                    throw ProfileRules.heldByDirectory("employmentEnd", kind: directory.kind)
                }
                let held = try tx.holidays.requests(employeeID: employeeID, touchingYears: HolidayService.supportedYears)
                let employment = try EmploymentRules.apply(
                    change.employment, to: current.employment, username: before.username, held: held)
                try tx.setEmployment(employeeID: employeeID, employment)
                try HolidayService.checkContractChange(tx.holidays, employeeID: employeeID, from: nil, now: now)
            }
            // A plan changes when days are earned, never the year's balance: nothing to check against it.
            if change.accrual.applied(to: current.accrual) != current.accrual {
                try tx.setAccrual(employeeID: employeeID, change.accrual.applied(to: current.accrual))
            }
            switch change.isActive {
            case false? where before.isActive: try Self.deactivate(tx, employeeID, at: now)
            case true? where !before.isActive: try tx.reactivate(employeeID: employeeID)
            default: break
            }
            guard let saved = try tx.profile(employeeID: employeeID) else {
                throw SGError.notFound("Employee \(employeeID) does not exist.")
            }
            return saved
        }
    }

    private static func deactivate(_ tx: any AccountWriting, _ employeeID: Int64, at now: Date) throws {
        try tx.deactivate(employeeID: employeeID, at: now)
        try tx.endSessions(employeeID: employeeID)
        try tx.revokeCalendarFeeds(employeeID: employeeID)
        try tx.endDelegations(involving: employeeID)
    }

    /// Someone must be left to administer the company: `employee`, an active admin about to stop being one, must
    /// not be the last.
    private static func checkAnotherAdminRemains(_ tx: any AccountReading, besides employee: Employee, by actor: Actor?) throws {
        guard employee.isAdmin, employee.isActive, try tx.activeAdminCount() <= 1 else { return }
        let who = actor?.employeeID == employee.id ? "You are" : "\(employee.username) is"
        throw SGError.conflict(
            "\(who) the last active admin, so the account can be neither demoted nor deactivated: make another employee "
                + "an admin first.")
    }

    /// A directory employee comes back only while the directory still has their entry: without it they could not
    /// log in, and the next sync would deactivate them again.
    private func checkDirectoryStillLists(employeeID: Int64, _ directory: any EmployeeDirectory) async throws {
        guard directory.provisionsEmployees, let employee = try await employee(id: employeeID), !employee.isActive,
              try await directoryProfile(username: employee.username) != nil else { return }
        if let problem = await directory.readinessProblem() {
            throw SGError.unavailable(
                "The company directory (\(directory.kind)) cannot be asked whether it still lists \(employee.username): \(problem)",
                retryAfterSeconds: 5)
        }
        if await directory.stillLists(username: employee.username) == false {
            throw SGError.conflict(
                "The company directory (\(directory.kind)) no longer lists \(employee.username), so the account cannot be "
                    + "reactivated: restore the entry in the directory first.")
        }
    }

    private static func requireAdmin(_ actor: Actor) throws {
        guard actor.isAdmin else { throw SGError.forbidden("Only an admin can add or change employees.") }
    }

    public func directoryProfile(username: String) async throws -> DirectoryProfile? {
        try await store.read { tx in try tx.directoryProfile(username: username) }
    }

    public func directoryProfiles() async throws -> [DirectoryProfile] {
        try await store.read { tx in try tx.directoryProfiles() }
    }

    /// A directory entry takes over an account created in the app (switching to the directory keeps everyone's
    /// history) only when it is the same person: the same e-mail address, so that an entry that merely shares the
    /// username cannot take the account over, its admin role included.
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
