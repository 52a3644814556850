import Foundation
import SGCore
import SGSQLite

/// `PeopleWriting` over one `SQLConnection`: profiles, the people list's folded copies and photos.
struct SQLPeople: PeopleWriting {
    let connection: SQLConnection

    func company() throws -> CompanySettings { try Rows.company(connection) }

    static let profileSelect = """
        SELECT \(Rows.employeeColumnsOfE), e.position, e.birth_date, e.phone, e.twitter, e.linkedin, p.etag, p.content_type, e.language,
            e.employment_start, e.employment_end, e.accrual
        FROM employees e LEFT JOIN employee_photos p ON p.employee_id = e.id
        """

    /// A profile from `profileSelect`'s columns.
    static func profile(_ statement: SQLStatement) throws -> Profile {
        let first = Rows.employeeColumnCount
        return Profile(
            employee: Rows.employee(statement), position: statement.optionalText(first),
            birthDate: statement.isNull(first + 1) ? nil : try statement.date(first + 1), phone: statement.optionalText(first + 2),
            twitter: statement.optionalText(first + 3), linkedin: statement.optionalText(first + 4),
            photo: statement.isNull(first + 5)
                ? nil : PhotoVersion(etag: statement.text(first + 5), contentType: statement.text(first + 6)),
            language: Language(rawValue: statement.text(first + 7)) ?? .en,
            employment: try Rows.employment(statement, from: first + 8), accrual: Rows.accrual(statement, first + 10))
    }

    func profile(employeeID: Int64) throws -> Profile? {
        try connection.with(Self.profileSelect + " WHERE e.id = ?") { statement in
            statement.bind(1, employeeID)
            return try statement.step() ? try Self.profile(statement) : nil
        }
    }

    func employeeExists(id: Int64) throws -> Bool {
        try connection.with("SELECT 1 FROM employees WHERE id = ?") { statement in
            statement.bind(1, id)
            return try statement.step()
        }
    }

    private static let foldingColumns = "SELECT id, username, name, surname, email, position FROM employees"
    /// An employee whose folded copies are missing (the partial index `employees_unfolded` has the same condition).
    private static let isUnfolded = "(search_text IS NULL OR sort_key IS NULL)"

    private static func foldingSource(_ statement: SQLStatement) -> FoldingSource {
        FoldingSource(
            employeeID: statement.int64(0), username: statement.text(1), name: statement.text(2),
            surname: statement.text(3), email: statement.text(4), position: statement.optionalText(5))
    }

    func unfolded(limit: Int) throws -> [FoldingSource] {
        try connection.with(
            Self.foldingColumns + " WHERE \(Self.isUnfolded) ORDER BY id LIMIT ?"
        ) { statement in
            statement.bind(1, limit)
            var sources: [FoldingSource] = []
            while try statement.step() { sources.append(Self.foldingSource(statement)) }
            return sources
        }
    }

    func unfolded(employeeID: Int64) throws -> FoldingSource? {
        try connection.with(
            Self.foldingColumns + " WHERE id = ? AND \(Self.isUnfolded)"
        ) { statement in
            statement.bind(1, employeeID)
            return try statement.step() ? Self.foldingSource(statement) : nil
        }
    }

    func hasUnfolded() throws -> Bool {
        try connection.with("SELECT 1 FROM employees WHERE \(Self.isUnfolded) LIMIT 1") { statement in
            try statement.step()
        }
    }

    func peoplePage(_ query: PeopleQuery, terms: [String]) throws -> PeoplePage? {
        var conditions: [String] = []
        var binders: [(SQLStatement, Int32) -> Void] = []
        if let active = query.active {
            conditions.append("e.is_active = ?")
            binders.append { $0.bind($1, active ? 1 : 0) }
        }
        for term in terms {
            conditions.append(connection.dialect.contains("e.search_text", "?"))
            binders.append { $0.bind($1, term) }
        }
        func bindAll(_ statement: SQLStatement, _ binders: [(SQLStatement, Int32) -> Void]) {
            for (index, bind) in binders.enumerated() { bind(statement, Int32(index + 1)) }
        }
        func filter(_ conditions: [String]) -> String {
            conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        }
        let (total, active) = try connection.with(
            "SELECT COUNT(*), COALESCE(SUM(e.is_active), 0) FROM employees e" + filter(conditions)
        ) { statement in
            bindAll(statement, binders)
            _ = try statement.step()
            return (statement.int(0), statement.int(1))
        }
        if let afterID = query.afterID {
            guard let key = try Rows.sortKey(connection, employeeID: afterID) else { return nil }
            conditions.append("(e.sort_key, e.id) > (?, ?)")
            binders.append { $0.bind($1, key) }
            binders.append { $0.bind($1, afterID) }
        }
        binders.append { $0.bind($1, query.limit + 1) }
        let rows = try connection.with(Self.profileSelect + filter(conditions) + " ORDER BY e.sort_key, e.id LIMIT ?") { statement in
            bindAll(statement, binders)
            var rows: [Profile] = []
            while try statement.step() { rows.append(try Self.profile(statement)) }
            return rows
        }
        let items = Array(rows.prefix(query.limit))
        return PeoplePage(
            items: items, total: total, active: active, nextAfterID: rows.count > query.limit ? items.last?.employee.id : nil)
    }

    func photoVersion(employeeID: Int64) throws -> PhotoVersion? {
        try connection.with("SELECT etag, content_type FROM employee_photos WHERE employee_id = ?") { statement in
            statement.bind(1, employeeID)
            return try statement.step() ? PhotoVersion(etag: statement.text(0), contentType: statement.text(1)) : nil
        }
    }

    func photoData(employeeID: Int64) throws -> Data? {
        try connection.with("SELECT data FROM employee_photos WHERE employee_id = ?") { statement in
            statement.bind(1, employeeID)
            return try statement.step() ? statement.blob(0) : nil
        }
    }

    // MARK: Writes

    func saveProfile(_ profile: Profile) throws {
        try connection.execute(
            """
            UPDATE employees SET name = ?, surname = ?, position = ?, birth_date = ?, phone = ?, twitter = ?, linkedin = ?,
                language = ?
            WHERE id = ?
            """
        ) { statement in
            statement.bind(1, profile.employee.name)
            statement.bind(2, profile.employee.surname)
            statement.bind(3, profile.position)
            statement.bind(4, profile.birthDate?.description)
            statement.bind(5, profile.phone)
            statement.bind(6, profile.twitter)
            statement.bind(7, profile.linkedin)
            statement.bind(8, profile.language.rawValue)
            statement.bind(9, profile.employee.id)
        }
    }

    func setFoldedCopies(employeeID: Int64, searchText: String, sortKey: String) throws {
        try connection.execute("UPDATE employees SET search_text = ?, sort_key = ? WHERE id = ?") { statement in
            statement.bind(1, searchText)
            statement.bind(2, sortKey)
            statement.bind(3, employeeID)
        }
    }

    func savePhoto(employeeID: Int64, version: PhotoVersion, inspected: PhotoRules.Inspected, bytes: [UInt8], at: Date) throws {
        try connection.execute(
            """
            INSERT INTO employee_photos (employee_id, etag, content_type, width, height, byte_count, updated_at, data)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (employee_id) DO UPDATE SET
                etag = excluded.etag, content_type = excluded.content_type, width = excluded.width,
                height = excluded.height, byte_count = excluded.byte_count, updated_at = excluded.updated_at,
                data = excluded.data
            """
        ) { statement in
            statement.bind(1, employeeID)
            statement.bind(2, version.etag)
            statement.bind(3, version.contentType)
            statement.bind(4, inspected.width)
            statement.bind(5, inspected.height)
            statement.bind(6, bytes.count)
            statement.bind(7, Timestamp.format(at))
            statement.bind(8, blob: Data(bytes))
        }
    }

    func deletePhoto(employeeID: Int64) throws -> Bool {
        try connection.execute("DELETE FROM employee_photos WHERE employee_id = ?") { statement in statement.bind(1, employeeID) }
        return connection.changes > 0
    }
}
