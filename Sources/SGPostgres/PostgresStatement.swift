import Foundation
import NIOCore
import PostgresNIO
import SGSQLite

/// A statement of a `PostgresSession`: bound like SQLite's, run at the first step, its rows then read one by one.
final class PostgresStatement: ExternalSQLStatement {
    private unowned let session: PostgresSession
    /// The statement's text for PostgreSQL (`$N` parameters).
    let sql: String
    private let parameterCount: Int
    /// Reads are prepared once by name; statements that change rows run unnamed (their row count is wanted).
    private let isRead: Bool
    /// Prepared by the types of the values bound (PostgreSQL fixes a parameter's type when it prepares): one for
    /// each combination met, in practice one.
    private var prepared: [[PostgresDataType]: PreparedQuery] = [:]

    private enum Bound {
        case integer(Int64?)
        case text(String?)
        case bytes(Data)
    }

    private var bound: [Bound?]
    private var rows: [PostgresRandomAccessRow] = []
    private var next = 0
    private var current: PostgresRandomAccessRow?
    private var ran = false
    /// Copies of the current row's text handed out by `bytes`, freed at the next step or reset.
    private var scratch: [UnsafeMutableBufferPointer<UInt8>] = []

    init(session: PostgresSession, sql: String) {
        let translated = PostgresSQL.translate(PostgresSQL.withoutIndexHints(sql))
        self.session = session
        self.sql = translated.sql
        self.parameterCount = translated.parameterCount
        self.isRead = PostgresSQL.isRead(translated.sql)
        self.bound = Array(repeating: nil, count: translated.parameterCount)
    }

    deinit { freeScratch() }

    func reset() {
        for index in bound.indices { bound[index] = nil }
        rows = []
        next = 0
        current = nil
        ran = false
        freeScratch()
    }

    func step() throws -> Bool {
        freeScratch()
        if !ran {
            ran = true
            if isRead {
                let values = bound.map(Self.data)
                let types = values.map(\.type)
                let query: PreparedQuery
                if let known = prepared[types] {
                    query = known
                } else {
                    query = try session.prepare(PostgresSQL.typed(sql, types))
                    prepared[types] = query
                }
                rows = try session.execute(query, values, sql: sql).map { $0.makeRandomAccess() }
            } else {
                var bindings = PostgresBindings(capacity: parameterCount)
                for value in bound { bindings.append(Self.data(value)) }
                rows = try session.run(PostgresQuery(unsafeSQL: sql, binds: bindings)).rows.map { $0.makeRandomAccess() }
            }
        }
        guard next < rows.count else {
            current = nil
            return false
        }
        current = rows[next]
        next += 1
        return true
    }

    private static func data(_ value: Bound?) -> PostgresData {
        switch value {
        case .none: PostgresData(type: .null, value: nil)
        case .integer(let value?): PostgresData(type: .int8, value: ByteBuffer(integer: value))
        case .integer(nil): PostgresData(type: .int8, value: nil)
        case .text(let value?): PostgresData(type: .text, value: ByteBuffer(string: value))
        case .text(nil): PostgresData(type: .text, value: nil)
        case .bytes(let value): PostgresData(type: .bytea, value: ByteBuffer(bytes: value))
        }
    }

    private func set(_ index: Int32, _ value: Bound) {
        // Like SQLite, a parameter the statement does not have is ignored.
        guard index >= 1, Int(index) <= bound.count else { return }
        bound[Int(index) - 1] = value
    }

    func bind(_ index: Int32, _ value: Int64?) { set(index, .integer(value)) }
    func bind(_ index: Int32, _ value: String?) { set(index, .text(value)) }
    func bind(_ index: Int32, blob: Data) { set(index, .bytes(blob)) }

    private func cell(_ column: Int32) -> PostgresCell? {
        guard let current, column >= 0, Int(column) < current.count else { return nil }
        return current[Int(column)]
    }

    func isNull(_ column: Int32) -> Bool { cell(column)?.bytes == nil }

    func int64(_ column: Int32) -> Int64 { cell(column).map(Self.integer) ?? 0 }

    /// The cell's value as SQLite would give it as an integer: numeric (a SUM of bigints) and text through their
    /// text.
    private static func integer(_ cell: PostgresCell) -> Int64 {
        guard var buffer = cell.bytes else { return 0 }
        switch cell.dataType {
        case .int8: return buffer.readInteger(as: Int64.self) ?? 0
        case .int4: return Int64(buffer.readInteger(as: Int32.self) ?? 0)
        case .int2: return Int64(buffer.readInteger(as: Int16.self) ?? 0)
        case .bool: return (buffer.readInteger(as: UInt8.self) ?? 0) != 0 ? 1 : 0
        default: return integer(text(cell))
        }
    }

    /// A binary numeric (base-10000 digits) as text; results are asked in binary whatever the cell's format says.
    private static func numeric(_ buffer: ByteBuffer) -> String {
        var buffer = buffer
        guard let count = buffer.readInteger(as: Int16.self), let weight = buffer.readInteger(as: Int16.self),
            let sign = buffer.readInteger(as: UInt16.self), let scale = buffer.readInteger(as: Int16.self)
        else { return "" }
        guard sign != 0xC000 else { return "NaN" }
        var digits: [Int16] = []
        for _ in 0..<Int(count) { digits.append(buffer.readInteger(as: Int16.self) ?? 0) }
        // Digit i stands for digit * 10000^(weight - i).
        var whole = ""
        for position in 0...max(Int(weight), 0) {
            let digit = position < digits.count && Int(weight) >= 0 ? digits[position] : 0
            whole += position == 0 ? String(digit) : String(repeating: "0", count: 4 - String(digit).count) + String(digit)
        }
        if weight < 0 { whole = "0" }
        var fraction = ""
        if scale > 0 {
            for position in (Int(weight) + 1)..<(Int(weight) + 1 + (Int(scale) + 3) / 4) {
                let index = position
                let digit = index >= 0 && index < digits.count ? digits[index] : 0
                fraction += String(repeating: "0", count: 4 - String(digit).count) + String(digit)
            }
            fraction = "." + fraction.prefix(Int(scale))
        }
        return (sign == 0x4000 ? "-" : "") + whole + fraction
    }

    private static func integer(_ text: String) -> Int64 {
        switch text {
        case "t": 1
        case "f": 0
        default: Int64(text.split(separator: ".").first.map(String.init) ?? "") ?? 0
        }
    }

    /// The cell's value as SQLite would give it as text.
    private static func text(_ cell: PostgresCell) -> String {
        guard let buffer = cell.bytes else { return "" }
        switch cell.dataType {
        case .int8, .int4, .int2, .bool: return String(integer(cell))
        case .numeric: return numeric(buffer)
        default: return String(buffer: buffer)
        }
    }

    func bytes(_ column: Int32) -> UnsafeBufferPointer<UInt8> {
        guard let cell = cell(column), let buffer = cell.bytes else { return UnsafeBufferPointer(start: nil, count: 0) }
        let copy: UnsafeMutableBufferPointer<UInt8>
        switch cell.dataType {
        case .text, .varchar, .name, .bpchar, .bytea:
            copy = .allocate(capacity: buffer.readableBytes)
            _ = copy.initialize(from: buffer.readableBytesView)
        default:
            let utf8 = Array(Self.text(cell).utf8)
            copy = .allocate(capacity: utf8.count)
            _ = copy.initialize(from: utf8)
        }
        scratch.append(copy)
        return UnsafeBufferPointer(copy)
    }

    func blob(_ column: Int32) -> Data {
        guard let cell = cell(column), let buffer = cell.bytes else { return Data() }
        return Data(buffer.readableBytesView)
    }

    func columnName(_ column: Int32) -> String { cell(column)?.columnName ?? "column \(column)" }

    private func freeScratch() {
        for copy in scratch { copy.deallocate() }
        scratch.removeAll(keepingCapacity: true)
    }
}

/// The store's SQLite text as PostgreSQL takes it.
enum PostgresSQL {
    /// `?N` becomes `$N` and each bare `?` the next number (as SQLite numbers them), outside quoted text,
    /// quoted names and comments.
    static func translate(_ sql: String) -> (sql: String, parameterCount: Int) {
        var output = ""
        output.reserveCapacity(sql.utf8.count + 8)
        var highest = 0
        let characters = Array(sql.unicodeScalars)
        var index = 0
        while index < characters.count {
            let character = characters[index]
            switch character {
            case "'", "\"":
                // Copy the quoted part whole ('' and "" escape the quote inside).
                output.unicodeScalars.append(character)
                index += 1
                while index < characters.count {
                    output.unicodeScalars.append(characters[index])
                    if characters[index] == character { break }
                    index += 1
                }
                index += 1
            case "-" where index + 1 < characters.count && characters[index + 1] == "-":
                while index < characters.count && characters[index] != "\n" {
                    output.unicodeScalars.append(characters[index])
                    index += 1
                }
            case "?":
                index += 1
                var digits = ""
                while index < characters.count, ("0"..."9").contains(characters[index]) {
                    digits.unicodeScalars.append(characters[index])
                    index += 1
                }
                let number = digits.isEmpty ? highest + 1 : Int(digits)!
                highest = max(highest, number)
                output += "$\(number)"
            default:
                output.unicodeScalars.append(character)
                index += 1
            }
        }
        return (output, highest)
    }

    /// SQLite's `INDEXED BY name` (a hint to its planner) left out: PostgreSQL has no such clause and plans by
    /// its statistics.
    static func withoutIndexHints(_ sql: String) -> String {
        guard sql.contains("INDEXED BY") else { return sql }
        return sql.replacing(/\sINDEXED BY [A-Za-z0-9_]+/, with: "")
    }

    /// `sql` with each `$N` cast to the type of the value bound to it (as the unnamed statements send their types),
    /// for statements prepared by name. An unbound parameter (NULL) is left for PostgreSQL to infer.
    static func typed(_ sql: String, _ types: [PostgresDataType]) -> String {
        var output = ""
        var rest = Substring(sql)
        while let dollar = rest.firstIndex(of: "$") {
            output += rest[..<dollar]
            let digits = rest[rest.index(after: dollar)...].prefix { $0.isASCII && $0.isNumber }
            output += "$" + digits
            rest = rest[digits.endIndex...]
            if let number = Int(digits), number >= 1, number <= types.count, let name = castName(types[number - 1]) {
                output += "::" + name
            }
        }
        return output + rest
    }

    private static func castName(_ type: PostgresDataType) -> String? {
        switch type {
        case .int8: "int8"
        case .text: "text"
        case .bytea: "bytea"
        default: nil
        }
    }

    /// The statements of a script, split at the semicolons that end them (not those in quoted text, quoted
    /// names, comments or $$-quoted function bodies). Comments and blank statements are left out.
    static func statements(of script: String) -> [String] {
        var statements: [String] = []
        var current = ""
        let characters = Array(script.unicodeScalars)
        var index = 0
        func finish() {
            let trimmed = current.trimmingCharacters(in: .whitespacesAndNewlines)
            if !trimmed.isEmpty { statements.append(trimmed) }
            current = ""
        }
        while index < characters.count {
            let character = characters[index]
            if character == "-", index + 1 < characters.count, characters[index + 1] == "-" {
                while index < characters.count && characters[index] != "\n" { index += 1 }
                continue
            }
            if character == "'" || character == "\"" {
                current.unicodeScalars.append(character)
                index += 1
                while index < characters.count {
                    current.unicodeScalars.append(characters[index])
                    if characters[index] == character { break }
                    index += 1
                }
                index += 1
                continue
            }
            if character == "$" {
                // A dollar quote: $$ or $tag$, up to the same again.
                var end = index + 1
                while end < characters.count, characters[end] == "_" || characters[end].properties.isAlphabetic { end += 1 }
                if end < characters.count, characters[end] == "$" {
                    let tag = String(String.UnicodeScalarView(characters[index...end]))
                    let rest = String(String.UnicodeScalarView(characters[(end + 1)...]))
                    if let close = rest.range(of: tag) {
                        let body = rest[..<close.upperBound]
                        current += tag + body
                        index = end + 1 + body.unicodeScalars.count
                        continue
                    }
                }
            }
            if character == ";" {
                finish()
                index += 1
                continue
            }
            current.unicodeScalars.append(character)
            index += 1
        }
        finish()
        return statements
    }

    /// Whether the statement only reads rows (SELECT, or WITH ... SELECT), so it may be prepared by name.
    static func isRead(_ sql: String) -> Bool {
        let start = sql.drop { $0.isWhitespace || $0 == "(" }.prefix(6).uppercased()
        guard start.hasPrefix("SELECT") || start.hasPrefix("WITH") else { return false }
        let upper = sql.uppercased()
        return !upper.contains("INSERT ") && !upper.contains("UPDATE ") && !upper.contains("DELETE ") && !upper.contains("FOR UPDATE")
    }
}
