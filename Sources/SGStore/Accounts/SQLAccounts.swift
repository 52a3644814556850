import Foundation
import SGCore
import SGSQLite

/// `AccountWriting` over one `SQLConnection`: employees as accounts, and the `directory_accounts` table (which
/// employees a directory manages, and the details only it holds).
struct SQLAccounts: AccountWriting {
    let connection: SQLConnection

    func employee(id: Int64) throws -> Employee? { try Rows.employee(connection, id: id) }

    func employee(username: String) throws -> Employee? { try Rows.employee(connection, username: username) }

    func company() throws -> CompanySettings { try Rows.company(connection) }

    func profile(employeeID: Int64) throws -> Profile? { try SQLPeople(connection: connection).profile(employeeID: employeeID) }

    func activeAdminCount() throws -> Int {
        try connection.with("SELECT count(*) FROM employees WHERE is_admin = 1 AND is_active = 1") { statement in
            _ = try statement.step()
            return Int(statement.int64(0))
        }
    }

    func employees(includeInactive: Bool) throws -> [Employee] {
        try connection.with(
            "SELECT \(Rows.employeeColumns) FROM employees WHERE ? = 1 OR is_active = 1 ORDER BY surname, name, id"
        ) { statement in
            statement.bind(1, includeInactive ? 1 : 0)
            var employees: [Employee] = []
            while try statement.step() { employees.append(Rows.employee(statement)) }
            return employees
        }
    }

    func passwordHash(username: String) throws -> String? {
        try connection.with("SELECT password_hash FROM employees WHERE username = ?") { statement in
            statement.bind(1, username)
            return try statement.step() ? statement.optionalText(0) : nil
        }
    }

    func highestPasswordCost() throws -> Int? {
        // "$2b$12$...": the cost is the two digits after the second "$".
        let isBcrypt = connection.dialect == .sqlite ? "password_hash GLOB '$2?$[0-9][0-9]$*'" : "password_hash ~ '^[$]2.[$][0-9][0-9][$]'"
        return try connection.with(
            "SELECT max(CAST(substr(password_hash, 5, 2) AS INTEGER)) FROM employees WHERE \(isBcrypt)"
        ) { statement in
            guard try statement.step(), !statement.isNull(0) else { return nil }
            return Int(statement.int64(0))
        }
    }

    static let directorySelect = """
        SELECT d.employee_id, e.username, d.dn, d.display_name, d.title, d.phone, e.is_active, d.synced_at
        FROM directory_accounts d JOIN employees e ON e.id = d.employee_id
        """

    static func directoryProfile(_ statement: SQLStatement) throws -> DirectoryProfile {
        DirectoryProfile(
            employeeID: statement.int64(0), username: statement.text(1), distinguishedName: statement.text(2),
            displayName: statement.optionalText(3), title: statement.optionalText(4), phone: statement.optionalText(5),
            isActive: statement.bool(6), syncedAt: try statement.optionalTimestamp(7))
    }

    func directoryProfile(username: String) throws -> DirectoryProfile? {
        try connection.with(Self.directorySelect + " WHERE e.username = ?") { statement in
            statement.bind(1, username)
            return try statement.step() ? try Self.directoryProfile(statement) : nil
        }
    }

    func directoryProfiles() throws -> [DirectoryProfile] {
        try connection.with(Self.directorySelect + " ORDER BY e.username") { statement in
            var profiles: [DirectoryProfile] = []
            while try statement.step() { profiles.append(try Self.directoryProfile(statement)) }
            return profiles
        }
    }

    // MARK: Writes

    func insertEmployee(_ new: NewEmployee, at: Date) throws -> Int64 {
        try connection.execute(
            """
            INSERT INTO employees (username, name, surname, email, is_admin, is_active, password_hash, created_at)
            VALUES (?, ?, ?, ?, ?, 1, ?, ?)
            """
        ) { statement in
            statement.bind(1, new.username)
            statement.bind(2, new.name)
            statement.bind(3, new.surname)
            statement.bind(4, new.email)
            statement.bind(5, new.isAdmin ? 1 : 0)
            statement.bind(6, new.passwordHash)
            statement.bind(7, Timestamp.format(at))
        }
        return try connection.lastInsertedRowID
    }

    func updateIdentity(employeeID: Int64, from account: DirectoryAccount, isAdmin: Bool) throws {
        try connection.execute("UPDATE employees SET name = ?, surname = ?, email = ?, is_admin = ? WHERE id = ?") { statement in
            statement.bind(1, account.name)
            statement.bind(2, account.surname)
            statement.bind(3, account.email)
            statement.bind(4, isAdmin ? 1 : 0)
            statement.bind(5, employeeID)
        }
    }

    func setDirectoryHeldFields(employeeID: Int64, _ fields: Set<ProfileField>, from account: DirectoryAccount) throws {
        if fields.contains(.position) {
            try connection.execute("UPDATE employees SET position = ? WHERE id = ?") { statement in
                statement.bind(1, account.title)
                statement.bind(2, employeeID)
            }
        }
        if fields.contains(.phone) {
            try connection.execute("UPDATE employees SET phone = ? WHERE id = ?") { statement in
                statement.bind(1, account.phone)
                statement.bind(2, employeeID)
            }
        }
    }

    // Teams, as a directory assigns them (SQLTeams).

    func teamID(employeeID: Int64) throws -> Int64? { try SQLTeams(connection: connection).teamID(employeeID: employeeID) }
    func teamID(named name: String) throws -> Int64? { try SQLTeams(connection: connection).teamID(named: name) }
    func insertTeam(name: String, twoStage: Bool) throws -> Int64 { try SQLTeams(connection: connection).insertTeam(name: name, twoStage: twoStage) }
    func setTeam(employeeID: Int64, teamID: Int64?) throws { try SQLTeams(connection: connection).setTeam(employeeID: employeeID, teamID: teamID) }

    // Folded copies, as every write of an employee's names fills them (SQLPeople).

    func unfolded(employeeID: Int64) throws -> FoldingSource? { try SQLPeople(connection: connection).unfolded(employeeID: employeeID) }
    func setFoldedCopies(employeeID: Int64, searchText: String, sortKey: String) throws {
        try SQLPeople(connection: connection).setFoldedCopies(employeeID: employeeID, searchText: searchText, sortKey: sortKey)
    }

    func saveDirectoryRecord(employeeID: Int64, _ account: DirectoryAccount, at: Date) throws {
        guard let dn = account.directoryName else { return }
        try connection.execute(
            """
            INSERT INTO directory_accounts (employee_id, dn, display_name, title, phone, synced_at)
            VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT (employee_id) DO UPDATE SET
                dn = excluded.dn, display_name = excluded.display_name, title = excluded.title,
                phone = excluded.phone, synced_at = excluded.synced_at
            """
        ) { statement in
            statement.bind(1, employeeID)
            statement.bind(2, dn)
            statement.bind(3, account.displayName)
            statement.bind(4, account.title)
            statement.bind(5, account.phone)
            statement.bind(6, Timestamp.format(at))
        }
    }

    func saveEmployee(_ profile: Profile) throws {
        try SQLPeople(connection: connection).saveProfile(profile)
        try connection.execute("UPDATE employees SET email = ?, is_admin = ? WHERE id = ?") { statement in
            statement.bind(1, profile.employee.email)
            statement.bind(2, profile.employee.isAdmin ? 1 : 0)
            statement.bind(3, profile.employee.id)
        }
    }

    func setEmployment(employeeID: Int64, _ employment: Employment) throws {
        try connection.execute("UPDATE employees SET employment_start = ?, employment_end = ? WHERE id = ?") { statement in
            statement.bind(1, employment.start?.description)
            statement.bind(2, employment.end?.description)
            statement.bind(3, employeeID)
        }
    }

    func setAccrual(employeeID: Int64, _ plan: AccrualPlan?) throws {
        try connection.execute("UPDATE employees SET accrual = ? WHERE id = ?") { statement in
            statement.bind(1, plan?.code)
            statement.bind(2, employeeID)
        }
    }

    var holidays: any HolidayReading { SQLHolidayTransaction(connection: connection) }

    func reactivate(employeeID: Int64) throws {
        try connection.execute("UPDATE employees SET is_active = 1, deactivated_at = NULL WHERE id = ?") { statement in
            statement.bind(1, employeeID)
        }
    }

    func deactivate(employeeID: Int64, at: Date) throws {
        try connection.execute("UPDATE employees SET is_active = 0, deactivated_at = ? WHERE id = ?") { statement in
            statement.bind(1, Timestamp.format(at))
            statement.bind(2, employeeID)
        }
    }

    func endSessions(employeeID: Int64) throws {
        try connection.execute("DELETE FROM sessions WHERE employee_id = ?") { statement in statement.bind(1, employeeID) }
    }

    func revokeCalendarFeeds(employeeID: Int64) throws {
        try connection.execute("DELETE FROM calendar_feeds WHERE employee_id = ?") { statement in statement.bind(1, employeeID) }
    }

    func endDelegations(involving employeeID: Int64) throws {
        try connection.execute("DELETE FROM delegations WHERE approver_id = ?1 OR substitute_id = ?1") { statement in
            statement.bind(1, employeeID)
        }
    }
}
