import SGSQLite

/// A statement whose text differs between SQLite and PostgreSQL, both written once, when the type is first used.
struct DialectSQL: Sendable {
    let sqlite: String
    let postgres: String

    init(_ make: (SQLDialect) -> String) {
        sqlite = make(.sqlite)
        postgres = make(.postgres)
    }

    subscript(dialect: SQLDialect) -> String { dialect == .sqlite ? sqlite : postgres }
}

extension SQLDialect {
    /// A table of one column, `value`, with the elements of the JSON array bound to `parameter` (ids as integers,
    /// or text): SQLite's `json_each`, PostgreSQL's `jsonb_array_elements_text`. One statement for any number of
    /// values.
    func jsonValues(_ parameter: String, integers: Bool = true) -> String {
        switch self {
        case .sqlite:
            "json_each(\(parameter))"
        case .postgres:
            "(SELECT \(integers ? "CAST(value AS BIGINT)" : "value") AS value FROM jsonb_array_elements_text(CAST(\(parameter) AS jsonb)) AS value)"
        }
    }

    /// Whether the text `haystack` contains the text `needle` (SQLite's instr, PostgreSQL's strpos).
    func contains(_ haystack: String, _ needle: String) -> String {
        switch self {
        case .sqlite: "instr(\(haystack), \(needle)) > 0"
        case .postgres: "strpos(\(haystack), \(needle)) > 0"
        }
    }

    /// `left` differs from `right`, NULL being a value like any other: SQLite's `IS NOT`, PostgreSQL's
    /// `IS DISTINCT FROM`.
    func distinct(_ left: String, _ right: String) -> String {
        self == .sqlite ? "\(left) IS NOT \(right)" : "\(left) IS DISTINCT FROM \(right)"
    }

    /// `column` equal to `parameter` ignoring the case of ASCII letters (SQLite's NOCASE).
    func equalIgnoringCase(_ column: String, _ parameter: String) -> String {
        switch self {
        case .sqlite: "\(column) = \(parameter) COLLATE NOCASE"
        case .postgres: "lower(\(column)) = lower(\(parameter))"
        }
    }
}

extension SQLStatement {
    /// Binds `ids` as the JSON array that `SQLDialect.jsonValues` reads: one prepared statement for any number of them.
    func bind(_ index: Int32, jsonIDs ids: [Int64]) {
        bind(index, "[" + ids.map(String.init).joined(separator: ",") + "]")
    }
}
