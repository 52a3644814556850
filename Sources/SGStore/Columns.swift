import Foundation
import SGCore
import SGSQLite

/// The domain's values in SQLite columns: dates as 'YYYY-MM-DD' text, instants as `Timestamp` text, statuses by
/// name. Data that is not what the schema promises is reported, not guessed.
extension SQLStatement {
    func bind(_ index: Int32, _ value: CalendarDate) { bind(index, value.description) }

    func date(_ column: Int32) throws -> CalendarDate {
        guard let date = CalendarDate(isoBytes: bytes(column)) else { throw unreadable(column) }
        return date
    }

    func timestamp(_ column: Int32) throws -> Date {
        guard let instant = Timestamp.parse(bytes(column)) else { throw unreadable(column) }
        return instant
    }

    func optionalTimestamp(_ column: Int32) throws -> Date? {
        isNull(column) ? nil : try timestamp(column)
    }

    func status(_ column: Int32) throws -> HolidayStatus {
        guard let status = HolidayStatus(rawValue: text(column)) else { throw unreadable(column) }
        return status
    }

    private func unreadable(_ column: Int32) -> SGError {
        SGError.unreadableData("The database holds a value this program cannot read in \(columnName(column)): '\(text(column))'.")
    }
}

/// The company's settings, on a pooled read connection.
enum CachedCompany: ConnectionCacheKey {
    static var initialValue: CompanySettings? { nil }
}

/// The active admins, by id, on a pooled read connection: every request's `approvers` names them.
enum CachedActiveAdmins: ConnectionCacheKey {
    static var initialValue: [Employee]? { nil }
}
