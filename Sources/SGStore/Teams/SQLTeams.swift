import Foundation
import SGCore
import SGSQLite

/// Teams (`teams`, `employees.team_id`, `team_approvers`) and delegations (`delegations`), and what the approval
/// rules read of them; the holiday and absence stores read the latter through this type.
struct SQLTeams: TeamWriting {
    let connection: SQLConnection

    func company() throws -> CompanySettings { try Rows.company(connection) }
    func employee(id: Int64) throws -> Employee? { try Rows.employee(connection, id: id) }
    func employee(username: String) throws -> Employee? { try Rows.employee(connection, username: username) }

    func teams() throws -> [Team] {
        let teams = try connection.with("SELECT id, name, two_stage FROM teams ORDER BY name, id") { statement in
            var teams: [Team] = []
            while try statement.step() { teams.append(Team(id: statement.int64(0), name: statement.text(1), twoStage: statement.bool(2))) }
            return teams
        }
        return try teams.map(withPeople)
    }

    func teamPage(afterName: String?, memberID: Int64?, limit: Int) throws -> [Team] {
        var conditions: [String] = []
        if afterName != nil { conditions.append("name > ?") }
        if memberID != nil { conditions.append("id = (SELECT team_id FROM employees WHERE id = ?)") }
        let condition = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        let teams = try connection.with("SELECT id, name, two_stage FROM teams\(condition) ORDER BY name, id LIMIT ?") { statement in
            var index: Int32 = 1
            if let afterName { statement.bind(index, afterName); index += 1 }
            if let memberID { statement.bind(index, memberID); index += 1 }
            statement.bind(index, Int64(limit))
            var teams: [Team] = []
            while try statement.step() { teams.append(Team(id: statement.int64(0), name: statement.text(1), twoStage: statement.bool(2))) }
            return teams
        }
        return try teams.map(withPeople)
    }

    func teamIDs(decidedBy employeeID: Int64, on day: CalendarDate) throws -> [Int64] {
        try connection.with(
            """
            SELECT team_id FROM team_approvers WHERE employee_id = ?1
            UNION
            SELECT a.team_id FROM delegations d JOIN team_approvers a ON a.employee_id = d.approver_id
            JOIN employees ap ON ap.id = d.approver_id AND ap.is_active = 1
            WHERE d.substitute_id = ?1 AND d.from_date <= ?2 AND d.until_date >= ?2
            ORDER BY 1
            """
        ) { statement in
            statement.bind(1, employeeID)
            statement.bind(2, day)
            var ids: [Int64] = []
            while try statement.step() { ids.append(statement.int64(0)) }
            return ids
        }
    }

    func team(id: Int64) throws -> Team? {
        try team(where: "id = ?") { $0.bind(1, id) }
    }

    func team(named name: String) throws -> Team? {
        try team(where: "name = ?") { $0.bind(1, name) }
    }

    private func team(where condition: String, _ bind: (SQLStatement) -> Void) throws -> Team? {
        let team = try connection.with("SELECT id, name, two_stage FROM teams WHERE \(condition)") { statement in
            bind(statement)
            return try statement.step() ? Team(id: statement.int64(0), name: statement.text(1), twoStage: statement.bool(2)) : nil
        }
        return try team.map(withPeople)
    }

    private func withPeople(_ team: Team) throws -> Team {
        var team = team
        team.members = try employees("SELECT \(Rows.employeeColumnsOfE) FROM employees e WHERE e.team_id = ?", team.id)
        team.approvers = try employees(
            "SELECT \(Rows.employeeColumnsOfE) FROM team_approvers a JOIN employees e ON e.id = a.employee_id WHERE a.team_id = ?",
            team.id)
        return team
    }

    private func employees(_ sql: String, _ id: Int64) throws -> [Employee] {
        try connection.with(sql + " ORDER BY e.surname, e.name, e.id") { statement in
            statement.bind(1, id)
            var employees: [Employee] = []
            while try statement.step() { employees.append(Rows.employee(statement)) }
            return employees
        }
    }

    func teamID(named name: String) throws -> Int64? {
        try connection.with("SELECT id FROM teams WHERE name = ?") { statement in
            statement.bind(1, name)
            return try statement.step() ? statement.int64(0) : nil
        }
    }

    func teamID(employeeID: Int64) throws -> Int64? {
        try connection.with("SELECT team_id FROM employees WHERE id = ?") { statement in
            statement.bind(1, employeeID)
            return try statement.step() ? statement.optionalInt64(0) : nil
        }
    }

    func isApprover(employeeID: Int64) throws -> Bool {
        try connection.with("SELECT EXISTS (SELECT 1 FROM team_approvers WHERE employee_id = ?)") { statement in
            statement.bind(1, employeeID)
            return try statement.step() && statement.bool(0)
        }
    }

    func delegation(approverID: Int64) throws -> Delegation? {
        try connection.with("SELECT approver_id, substitute_id, from_date, until_date FROM delegations WHERE approver_id = ?") { statement in
            statement.bind(1, approverID)
            guard try statement.step() else { return nil }
            return Delegation(
                approverID: statement.int64(0), substituteID: statement.int64(1), from: try statement.date(2), until: try statement.date(3))
        }
    }

    // MARK: Approval

    /// The active admins; on a pooled read connection, remembered until the next change to the database, so that a
    /// page of requests of many employees reads them once; on the write connection until a change to any admin or
    /// anyone's admin flag (`WriterKept`), so that a write does not read them all again.
    private func activeAdmins() throws -> [Employee] {
        let cache = try connection.validatedCache()
        if let admins = cache?[CachedActiveAdmins.self] { return admins }
        if cache == nil, let kept = try WriterKept.current(connection) { return try kept.admins { try readActiveAdmins() } }
        let admins = try readActiveAdmins()
        cache?[CachedActiveAdmins.self] = admins
        return admins
    }

    private func readActiveAdmins() throws -> [Employee] {
        try connection.with(
            "SELECT \(Rows.employeeColumns) FROM employees WHERE is_admin = 1 AND is_active = 1 ORDER BY id"
        ) { statement in
            var admins: [Employee] = []
            while try statement.step() { admins.append(Rows.employee(statement)) }
            return admins
        }
    }

    func approvalContext(employeeID: Int64, on day: CalendarDate) throws -> ApprovalContext {
        let admins = try activeAdmins()
        let team = try connection.with("SELECT t.id, t.two_stage FROM employees e JOIN teams t ON t.id = e.team_id WHERE e.id = ?") { statement in
            statement.bind(1, employeeID)
            return try statement.step() ? (id: statement.int64(0), twoStage: statement.bool(1)) : nil
        }
        guard let team else { return ApprovalContext(admins: admins) }
        return try teamContext(teamID: team.id, twoStage: team.twoStage, on: day, admins: admins)
    }

    /// `approvalContext` for each of `employeeIDs`: the teams of all in one read, then each team's people once.
    func approvalContexts(employeeIDs: [Int64], on day: CalendarDate) throws -> [Int64: ApprovalContext] {
        guard !employeeIDs.isEmpty else { return [:] }
        let admins = try activeAdmins()
        let teams = try connection.with(
            """
            SELECT e.id, t.id, t.two_stage FROM employees e JOIN teams t ON t.id = e.team_id
            WHERE e.id IN (SELECT value FROM \(connection.dialect.jsonValues("?1")) AS ids)
            """
        ) { statement in
            statement.bind(1, jsonIDs: employeeIDs)
            var teams: [Int64: (id: Int64, twoStage: Bool)] = [:]
            while try statement.step() { teams[statement.int64(0)] = (statement.int64(1), statement.bool(2)) }
            return teams
        }
        var byTeam: [Int64: ApprovalContext] = [:]
        var contexts: [Int64: ApprovalContext] = [:]
        let withoutTeam = ApprovalContext(admins: admins)
        for employeeID in employeeIDs {
            guard let team = teams[employeeID] else {
                contexts[employeeID] = withoutTeam
                continue
            }
            if byTeam[team.id] == nil { byTeam[team.id] = try teamContext(teamID: team.id, twoStage: team.twoStage, on: day, admins: admins) }
            contexts[employeeID] = byTeam[team.id]
        }
        return contexts
    }

    /// Who decides for the members of a team on `day`: its approvers, those of them away, their running substitutes.
    private func teamContext(teamID: Int64, twoStage: Bool, on day: CalendarDate, admins: [Employee]) throws -> ApprovalContext {
        let approvers = try employees(
            """
            SELECT \(Rows.employeeColumnsOfE) FROM team_approvers a JOIN employees e ON e.id = a.employee_id
            WHERE a.team_id = ? AND e.is_active = 1
            """, teamID)
        // Away: an approved request of any type covering the day.
        let away = try connection.with(
            """
            SELECT DISTINCT r.employee_id FROM team_approvers a JOIN holiday_requests r ON r.employee_id = a.employee_id
            WHERE a.team_id = ?1 AND r.start_date BETWEEN ?3 AND ?2 AND r.end_date >= ?2 AND r.status = 'approved'
            """
        ) { statement in
            statement.bind(1, teamID)
            statement.bind(2, day)
            statement.bind(3, Rows.earliestStart(touching: day))
            var away = Set<Int64>()
            while try statement.step() { away.insert(statement.int64(0)) }
            return away
        }
        let substitutes = try connection.with(
            """
            SELECT d.approver_id, \(Rows.employeeColumnsOfE)
            FROM team_approvers a JOIN delegations d ON d.approver_id = a.employee_id JOIN employees e ON e.id = d.substitute_id
            WHERE a.team_id = ?1 AND d.from_date <= ?2 AND d.until_date >= ?2 AND e.is_active = 1
            """
        ) { statement in
            statement.bind(1, teamID)
            statement.bind(2, day)
            var substitutes: [Int64: [Employee]] = [:]
            while try statement.step() { substitutes[statement.int64(0), default: []].append(Rows.employee(statement, from: 1)) }
            return substitutes
        }
        return ApprovalContext(
            teamID: teamID, twoStage: twoStage, approvers: approvers, away: away, substitutes: substitutes, admins: admins)
    }

    /// The same people `teamContext` names as deciders: the approver's own teams, and as a substitute the teams of an
    /// active approver whose delegation runs. Two indexed reads joined by UNION: with the delegating approver compared
    /// inside the team subquery, SQLite would scan every employee.
    func teamStageEmployees(decidedBy employeeID: Int64, on day: CalendarDate) throws -> [Int64] {
        try connection.with(
            """
            SELECT e.id FROM employees e
            WHERE e.team_id IN (SELECT team_id FROM team_approvers WHERE employee_id = ?1) AND e.id != ?1
            UNION
            SELECT e.id FROM delegations d JOIN team_approvers a ON a.employee_id = d.approver_id
            JOIN employees ap ON ap.id = d.approver_id AND ap.is_active = 1
            JOIN employees e ON e.team_id = a.team_id
            WHERE d.substitute_id = ?1 AND d.from_date <= ?2 AND d.until_date >= ?2 AND e.id != d.approver_id AND e.id != ?1
            ORDER BY 1
            """
        ) { statement in
            statement.bind(1, employeeID)
            statement.bind(2, day)
            var ids: [Int64] = []
            while try statement.step() { ids.append(statement.int64(0)) }
            return ids
        }
    }

    // MARK: Writes

    func insertTeam(name: String, twoStage: Bool) throws -> Int64 {
        try connection.execute("INSERT INTO teams (name, two_stage) VALUES (?, ?)") { statement in
            statement.bind(1, name)
            statement.bind(2, twoStage ? 1 : 0)
        }
        return try connection.lastInsertedRowID
    }

    func updateTeam(id: Int64, name: String, twoStage: Bool) throws {
        try connection.execute("UPDATE teams SET name = ?, two_stage = ? WHERE id = ?") { statement in
            statement.bind(1, name)
            statement.bind(2, twoStage ? 1 : 0)
            statement.bind(3, id)
        }
    }

    func deleteTeam(id: Int64) throws {
        for sql in ["UPDATE employees SET team_id = NULL WHERE team_id = ?", "DELETE FROM team_approvers WHERE team_id = ?", "DELETE FROM teams WHERE id = ?"] {
            try connection.execute(sql) { $0.bind(1, id) }
        }
    }

    func setTeam(employeeID: Int64, teamID: Int64?) throws {
        try connection.execute("UPDATE employees SET team_id = ? WHERE id = ?") { statement in
            statement.bind(1, teamID)
            statement.bind(2, employeeID)
        }
    }

    func setApprover(teamID: Int64, employeeID: Int64, _ isApprover: Bool) throws {
        let sql = isApprover
            ? "INSERT INTO team_approvers (team_id, employee_id) VALUES (?, ?) ON CONFLICT DO NOTHING"
            : "DELETE FROM team_approvers WHERE team_id = ? AND employee_id = ?"
        try connection.execute(sql) { statement in
            statement.bind(1, teamID)
            statement.bind(2, employeeID)
        }
    }

    func saveDelegation(_ delegation: Delegation) throws {
        try connection.execute(
            """
            INSERT INTO delegations (approver_id, substitute_id, from_date, until_date) VALUES (?, ?, ?, ?)
            ON CONFLICT (approver_id) DO UPDATE
            SET substitute_id = excluded.substitute_id, from_date = excluded.from_date, until_date = excluded.until_date
            """
        ) { statement in
            statement.bind(1, delegation.approverID)
            statement.bind(2, delegation.substituteID)
            statement.bind(3, delegation.from)
            statement.bind(4, delegation.until)
        }
    }

    func deleteDelegation(approverID: Int64) throws -> Bool {
        try connection.execute("DELETE FROM delegations WHERE approver_id = ?") { $0.bind(1, approverID) }
        return connection.changes > 0
    }
}
