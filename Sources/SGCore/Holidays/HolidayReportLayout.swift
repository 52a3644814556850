import Foundation

/// HR's two reports of a year, column by column: one row per request touching the year, and one row per employee
/// with their balance. `sgadmin export` writes them as CSV; the API serves them as the same CSV and as JSON, whose
/// keys are the columns in camelCase.
public enum HolidayReportLayout {
    public static let requestColumns = [
        "username", "full_name", "email", "request_id", "leave_type", "start", "start_half", "end", "end_half",
        "working_days", "working_days_in_year", "draws_on_allowance", "status", "requested_at", "decided_by", "decided_at",
    ]

    public static func requestCells(_ row: ExportRow) -> [CSV.Cell] {
        let request = row.request
        return [
            .text(row.employee.username), .text(row.employee.fullName), .text(row.employee.email),
            .number(Int(request.id)), .text(request.leaveTypeName), .text(request.startDate.description),
            .text(request.startHalf.rawValue), .text(request.endDate.description), .text(request.endHalf.rawValue),
            .days(request.duration), .days(row.daysInYear), .flag(row.drawsOnAllowance), .text(request.status.rawValue),
            .text(Timestamp.format(request.createdAt)), request.decidedBy.map(CSV.Cell.text) ?? .absent,
            request.decidedAt.map { .text(Timestamp.format($0)) } ?? .absent,
        ]
    }

    public static let balanceColumns = [
        "username", "full_name", "email", "active", "year", "allowance", "carried_over", "expired", "expiring", "adjusted",
        "approved", "pending", "remaining", "allowance_formula", "earned", "requestable",
    ]

    public static func balanceCells(_ employee: Employee, _ balance: Balance, year: Int) -> [CSV.Cell] {
        [
            .text(employee.username), .text(employee.fullName), .text(employee.email), .flag(employee.isActive),
            .number(year), .days(balance.allowance), .days(balance.carriedOver), .days(balance.expired),
            .days(balance.expiring), .days(balance.adjusted), .days(balance.approved), .days(balance.pending), .days(balance.remaining),
            balance.allowanceFormula.map(CSV.Cell.text) ?? .absent, balance.accrual.map { .days($0.earned) } ?? .absent,
            .days(balance.requestable),
        ]
    }

    /// A column's JSON key: `working_days_in_year` → `workingDaysInYear`.
    public static func jsonKey(_ column: String) -> String {
        let words = column.split(separator: "_")
        return words.enumerated().map { index, word in index == 0 ? String(word) : word.prefix(1).uppercased() + word.dropFirst() }
            .joined()
    }
}
