import Foundation
import GRDB
import SGCore

/// A page of the team directory.
public struct DirectoryQuery: Sendable, Equatable {
    /// Words that must all occur in the name, surname, e-mail, position or username (case and accents ignored).
    public var search: String?
    /// Only active (true) or inactive (false) employees; nil for both.
    public var active: Bool?
    /// Keyset pagination: the employees after this one in directory order.
    public var afterID: Int64?
    public var limit: Int

    public static let maximumSearchLength = 100

    public init(search: String? = nil, active: Bool? = nil, afterID: Int64? = nil, limit: Int = 50) {
        self.search = search
        self.active = active
        self.afterID = afterID
        self.limit = limit
    }
}

public struct DirectoryPage: Sendable {
    public let items: [Profile]
    /// Employees matching the search and filter, in all pages.
    public let total: Int
    /// How many of those are active.
    public let active: Int
    /// Pass as `afterID` for the next page; nil on the last page.
    public let nextAfterID: Int64?
}

/// A stored photo, for serving.
public struct StoredPhoto: Sendable {
    public let version: PhotoVersion
    /// nil when the caller did not want the bytes (the client already has this version).
    public let data: Data?
}

/// One employee's holiday year, for the admin's view of any employee.
public struct EmployeeYear: Sendable {
    public let view: HolidayService.YearView
    /// Every year with requests or an allowance of this employee, ascending.
    public let years: [Int]
}

extension Queries {
    static let profileSelect = """
        SELECT e.id, e.username, e.name, e.surname, e.email, e.is_admin, e.is_active,
               e.position, e.birth_date, e.phone, e.twitter, e.linkedin,
               p.etag AS photo_etag, p.content_type AS photo_type
        FROM employees e LEFT JOIN employee_photos p ON p.employee_id = e.id
        """

    static func profile(from row: Row) -> Profile {
        let etag: String? = row["photo_etag"]
        return Profile(
            employee: employee(from: row), position: row["position"],
            birthDate: (row["birth_date"] as String?).flatMap(CalendarDate.init(iso:)), phone: row["phone"],
            twitter: row["twitter"], linkedin: row["linkedin"],
            photo: etag.map { PhotoVersion(etag: $0, contentType: row["photo_type"]) })
    }

    static func profile(_ db: Database, id: Int64) throws -> Profile? {
        try Row.fetchOne(db.cachedStatement(sql: profileSelect + " WHERE e.id = ?"), arguments: [id]).map(profile(from:))
    }

    static func employeeExists(_ db: Database, id: Int64) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM employees WHERE id = ?)"), arguments: [id]) ?? false
    }
}

extension AppDatabase {
    // MARK: Profiles

    public func profile(employeeID: Int64) async throws -> Profile? {
        try await read { (db: Database) in try Queries.profile(db, id: employeeID) }
    }

    /// Applies `patch` to an employee's profile under `ProfileRules`, in one transaction. `owned` are the fields
    /// the directory holds; birth dates are checked against today in the company's time zone.
    public func updateProfile(
        employeeID: Int64, _ patch: ProfilePatch, owned: Set<ProfileField>, directoryKind: String, at now: Date
    ) async throws -> Profile {
        try await write { (db: Database) in
            guard let current = try Queries.profile(db, id: employeeID) else {
                throw SGError.notFound("Employee \(employeeID) does not exist.")
            }
            let today = HolidayService.today(now, try Queries.company(db))
            let updated = try ProfileRules.apply(patch, to: current, owned: owned, directoryKind: directoryKind, today: today)
            guard updated != current else { return current }
            try db.execute(
                sql: """
                    UPDATE employees SET name = ?, surname = ?, position = ?, birth_date = ?, phone = ?, twitter = ?, linkedin = ?
                    WHERE id = ?
                    """,
                arguments: [
                    updated.employee.name, updated.employee.surname, updated.position, updated.birthDate?.description,
                    updated.phone, updated.twitter, updated.linkedin, employeeID,
                ])
            try Self.refreshFoldedColumns(db)  // the directory finds the new name or position at once
            return updated
        }
    }

    // MARK: Directory

    /// Employees in directory order (surname, name, id; case and accents ignored), a page at a time.
    public func directory(_ query: DirectoryQuery) async throws -> DirectoryPage {
        if let search = query.search, !TextRules.fits(search, DirectoryQuery.maximumSearchLength) {
            throw SGError.invalid(field: "q", message: "at most \(DirectoryQuery.maximumSearchLength) characters")
        }
        let terms = query.search.map(TextFolding.terms) ?? []
        if try await read({ (db: Database) in try Self.hasUnfoldedEmployees(db) }) {
            try await write { (db: Database) in try Self.refreshFoldedColumns(db) }
        }
        return try await read { (db: Database) in
            var conditions: [String] = []
            var arguments: StatementArguments = []
            if let active = query.active {
                conditions.append("e.is_active = ?")
                arguments += [active]
            }
            for term in terms {
                conditions.append("instr(e.search_text, ?) > 0")
                arguments += [term]
            }
            let filter = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
            let counts = try Row.fetchOne(
                db, sql: "SELECT COUNT(*) AS total, COALESCE(SUM(e.is_active), 0) AS active FROM employees e" + filter,
                arguments: arguments)
            var pageConditions = conditions
            var pageArguments = arguments
            if let afterID = query.afterID {
                guard let key = try String.fetchOne(db, sql: "SELECT sort_key FROM employees WHERE id = ?", arguments: [afterID]) else {
                    throw SGError.invalid(field: "after", message: "\(afterID) is not an employee id; pass the nextAfter of the previous page")
                }
                pageConditions.append("(e.sort_key, e.id) > (?, ?)")
                pageArguments += [key, afterID]
            }
            let pageFilter = pageConditions.isEmpty ? "" : " WHERE " + pageConditions.joined(separator: " AND ")
            pageArguments += [query.limit + 1]
            let rows = try Row.fetchAll(
                db, sql: Queries.profileSelect + pageFilter + " ORDER BY e.sort_key, e.id LIMIT ?", arguments: pageArguments)
            let items = rows.prefix(query.limit).map(Queries.profile(from:))
            return DirectoryPage(
                items: Array(items), total: counts?["total"] ?? 0, active: counts?["active"] ?? 0,
                nextAfterID: rows.count > query.limit ? items.last?.employee.id : nil)
        }
    }

    static func hasUnfoldedEmployees(_ db: Database) throws -> Bool {
        try Bool.fetchOne(
            db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM employees WHERE search_text IS NULL OR sort_key IS NULL)")) ?? false
    }

    /// Fills the folded copies that a change of name, surname, e-mail, username or position cleared (see the
    /// trigger in 0002_people.sql), and those of employees added since the last fill.
    static func refreshFoldedColumns(_ db: Database) throws {
        let rows = try Row.fetchAll(
            db, sql: "SELECT id, name, surname, email, username, position FROM employees WHERE search_text IS NULL OR sort_key IS NULL")
        for row in rows {
            let position: String? = row["position"]
            let words: [String] = [row["name"], row["surname"], row["email"], row["username"], position ?? ""]
            // U+0001 sorts before every character a name can hold, so "surname U+0001 name" orders as (surname, name).
            let sortKey = TextFolding.fold(row["surname"]) + "\u{1}" + TextFolding.fold(row["name"])
            try db.execute(
                sql: "UPDATE employees SET search_text = ?, sort_key = ? WHERE id = ?",
                arguments: [TextFolding.fold(words.joined(separator: " ")), sortKey, row["id"] as Int64])
        }
    }

    // MARK: Photos

    /// Stores a new photo for the employee after checking its bytes (`PhotoRules`); returns its version.
    public func setPhoto(employeeID: Int64, bytes: [UInt8], at now: Date) async throws -> (PhotoVersion, PhotoRules.Inspected) {
        let inspected = try PhotoRules.inspect(bytes)
        let etag = SHA256.digest(bytes).prefix(16).map { String(format: "%02x", $0) }.joined()
        let data = Data(bytes)
        try await write { (db: Database) in
            guard try Queries.employeeExists(db, id: employeeID) else {
                throw SGError.notFound("Employee \(employeeID) does not exist.")
            }
            try db.execute(
                sql: """
                    INSERT INTO employee_photos (employee_id, etag, content_type, width, height, byte_count, updated_at, data)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (employee_id) DO UPDATE SET
                        etag = excluded.etag, content_type = excluded.content_type, width = excluded.width,
                        height = excluded.height, byte_count = excluded.byte_count, updated_at = excluded.updated_at,
                        data = excluded.data
                    """,
                arguments: [
                    employeeID, etag, inspected.contentType, inspected.width, inspected.height, bytes.count,
                    Timestamp.format(now), data,
                ])
        }
        return (PhotoVersion(etag: etag, contentType: inspected.contentType), inspected)
    }

    /// Removes the employee's photo; true when there was one.
    @discardableResult
    public func deletePhoto(employeeID: Int64) async throws -> Bool {
        try await write { (db: Database) in
            try db.execute(sql: "DELETE FROM employee_photos WHERE employee_id = ?", arguments: [employeeID])
            return db.changesCount > 0
        }
    }

    /// The employee's photo, with its bytes when `wantsData` says so for its version (a client revalidating
    /// the version it has needs none); `SGError.notFound` when the employee does not exist or has no photo.
    public func photo(
        employeeID: Int64, wantsData: @escaping @Sendable (PhotoVersion) -> Bool = { _ in true }
    ) async throws -> StoredPhoto {
        try await read { (db: Database) in
            guard let row = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT etag, content_type FROM employee_photos WHERE employee_id = ?"),
                arguments: [employeeID])
            else {
                guard try Queries.employeeExists(db, id: employeeID) else {
                    throw SGError.notFound("Employee \(employeeID) does not exist.")
                }
                throw SGError.notFound("Employee \(employeeID) has no photo.")
            }
            let version = PhotoVersion(etag: row["etag"], contentType: row["content_type"])
            guard wantsData(version) else { return StoredPhoto(version: version, data: nil) }
            let data = try Data.fetchOne(
                db.cachedStatement(sql: "SELECT data FROM employee_photos WHERE employee_id = ?"), arguments: [employeeID])
            return StoredPhoto(version: version, data: data)
        }
    }

    // MARK: Notification settings

    public func notificationSettings(employeeID: Int64) async throws -> NotificationSettings {
        try await read { (db: Database) in try Self.notificationSettings(db, employeeID: employeeID) }
    }

    /// Turns notifications on or off; off removes every device of the employee in the same transaction.
    public func setNotifications(employeeID: Int64, enabled: Bool) async throws -> NotificationSettings {
        try await write { (db: Database) in
            try db.execute(sql: "UPDATE employees SET notifications = ? WHERE id = ?", arguments: [enabled, employeeID])
            if !enabled {
                try db.execute(sql: "DELETE FROM devices WHERE employee_id = ?", arguments: [employeeID])
            }
            // Not found for an unknown employee, which rolls back the writes above (they changed nothing).
            return try Self.notificationSettings(db, employeeID: employeeID)
        }
    }

    /// Registers a push token for the employee; registering it again refreshes it (and moves it to this
    /// employee if another one had it: the token names an app install, and the last login owns it). Returns
    /// the device and whether it is new for this employee.
    public func registerDevice(employeeID: Int64, token: String, platform: DevicePlatform, at now: Date) async throws -> (Device, created: Bool) {
        let token = try DeviceRules.token(token)
        return try await write { (db: Database) in
            guard let enabled = try Bool.fetchOne(
                db, sql: "SELECT notifications FROM employees WHERE id = ?", arguments: [employeeID])
            else { throw SGError.notFound("Employee \(employeeID) does not exist.") }
            guard enabled else {
                throw SGError.conflict("Notifications are off for this account: turn them on (PUT /v1/me/settings) before registering a device.")
            }
            let owner = try Int64.fetchOne(db, sql: "SELECT employee_id FROM devices WHERE token = ?", arguments: [token])
            let stamp = Timestamp.format(now)
            try db.execute(
                sql: """
                    INSERT INTO devices (token, employee_id, platform, created_at, updated_at) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT (token) DO UPDATE SET
                        employee_id = excluded.employee_id, platform = excluded.platform, updated_at = excluded.updated_at,
                        created_at = CASE WHEN devices.employee_id = excluded.employee_id THEN devices.created_at ELSE excluded.created_at END
                    """,
                arguments: [token, employeeID, platform.rawValue, stamp, stamp])
            let device = try Row.fetchOne(db, sql: "SELECT * FROM devices WHERE token = ?", arguments: [token]).map(Self.device(from:))!
            return (device, owner != employeeID)
        }
    }

    /// Removes one of the employee's devices; another employee's token is "not found" like an unknown one.
    public func removeDevice(employeeID: Int64, token: String) async throws {
        try await write { (db: Database) in
            try db.execute(sql: "DELETE FROM devices WHERE token = ? AND employee_id = ?", arguments: [token, employeeID])
            guard db.changesCount > 0 else {
                throw SGError.notFound("No device with that token is registered for this account.")
            }
        }
    }

    static func notificationSettings(_ db: Database, employeeID: Int64) throws -> NotificationSettings {
        guard let enabled = try Bool.fetchOne(db, sql: "SELECT notifications FROM employees WHERE id = ?", arguments: [employeeID]) else {
            throw SGError.notFound("Employee \(employeeID) does not exist.")
        }
        let devices = try Row.fetchAll(
            db, sql: "SELECT * FROM devices WHERE employee_id = ? ORDER BY created_at, token", arguments: [employeeID]
        ).map(device(from:))
        return NotificationSettings(notifications: enabled, devices: devices)
    }

    static func device(from row: Row) -> Device {
        Device(
            token: row["token"], platform: DevicePlatform(rawValue: row["platform"]) ?? .ios,
            createdAt: Timestamp.parse(row["created_at"]) ?? Date(timeIntervalSince1970: 0),
            updatedAt: Timestamp.parse(row["updated_at"]) ?? Date(timeIntervalSince1970: 0))
    }

    // MARK: Admin views

    /// The year view of any employee (active or not), as `HolidayService.yearView` gives it, in one snapshot
    /// with the years that hold their data.
    public func employeeYear(employeeID: Int64, year: Int?, at now: Date) async throws -> EmployeeYear {
        try reading { connection in
            guard try Rows.employee(connection, id: employeeID) != nil else {
                throw SGError.notFound("Employee \(employeeID) does not exist.")
            }
            let view = try HolidayService.yearView(
                SQLHolidayTransaction(connection: connection), employeeID: employeeID, year: year, now: now)
            let years = try connection.with(
                """
                SELECT year FROM holiday_request_days WHERE employee_id = ?
                UNION SELECT year FROM allowances WHERE employee_id = ?
                ORDER BY year
                """
            ) { statement in
                statement.bind(1, employeeID)
                statement.bind(2, employeeID)
                var years: [Int] = []
                while try statement.step() { years.append(statement.int(0)) }
                return years
            }
            return EmployeeYear(view: view, years: years)
        }
    }
}
