import Foundation
import SGCore
import SGSQLite

/// The company's leave types in `leave_types`.
struct SQLLeaveTypes: LeaveTypeWriting {
    let connection: SQLConnection

    private static let columns = "id, name, draws_on_allowance, needs_approval, is_private, yearly_cap_halves, retired"

    private static func leaveType(_ statement: SQLStatement) -> LeaveType {
        LeaveType(
            id: statement.int64(0), name: statement.text(1), drawsOnAllowance: statement.bool(2),
            needsApproval: statement.bool(3), isPrivate: statement.bool(4),
            yearlyCap: statement.isNull(5) ? nil : HalfDays(halves: statement.int(5)), isRetired: statement.bool(6))
    }

    func leaveTypes() throws -> [LeaveType] {
        try connection.with("SELECT \(Self.columns) FROM leave_types ORDER BY id") { statement in
            var types: [LeaveType] = []
            while try statement.step() { types.append(Self.leaveType(statement)) }
            return types
        }
    }

    func leaveType(id: Int64) throws -> LeaveType? {
        try connection.with("SELECT \(Self.columns) FROM leave_types WHERE id = ?") { statement in
            statement.bind(1, id)
            return try statement.step() ? Self.leaveType(statement) : nil
        }
    }

    func leaveType(named name: String) throws -> LeaveType? {
        try connection.with("SELECT \(Self.columns) FROM leave_types WHERE name = ?") { statement in
            statement.bind(1, name)
            return try statement.step() ? Self.leaveType(statement) : nil
        }
    }

    func requestCount(leaveTypeID: Int64) throws -> Int {
        try connection.with("SELECT COUNT(*) FROM holiday_requests WHERE leave_type_id = ?") { statement in
            statement.bind(1, leaveTypeID)
            return try statement.step() ? statement.int(0) : 0
        }
    }

    func insertLeaveType(_ type: LeaveType) throws -> LeaveType {
        try connection.execute(
            """
            INSERT INTO leave_types (name, draws_on_allowance, needs_approval, is_private, yearly_cap_halves, retired)
            VALUES (?, ?, ?, ?, ?, ?)
            """
        ) { statement in bind(type, statement) }
        var inserted = type
        inserted.id = try connection.lastInsertedRowID
        return inserted
    }

    func updateLeaveType(_ type: LeaveType) throws {
        try connection.execute(
            """
            UPDATE leave_types SET name = ?, draws_on_allowance = ?, needs_approval = ?, is_private = ?,
                                   yearly_cap_halves = ?, retired = ?
            WHERE id = ?
            """
        ) { statement in
            bind(type, statement)
            statement.bind(7, type.id)
        }
    }

    func deleteLeaveType(id: Int64) throws {
        try connection.execute("DELETE FROM leave_types WHERE id = ?") { statement in statement.bind(1, id) }
    }

    private func bind(_ type: LeaveType, _ statement: SQLStatement) {
        statement.bind(1, type.name)
        statement.bind(2, type.drawsOnAllowance ? 1 : 0)
        statement.bind(3, type.needsApproval ? 1 : 0)
        statement.bind(4, type.isPrivate ? 1 : 0)
        statement.bind(5, type.yearlyCap.map { Int64($0.halves) })
        statement.bind(6, type.isRetired ? 1 : 0)
    }
}
