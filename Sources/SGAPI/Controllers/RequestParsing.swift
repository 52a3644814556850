import Foundation
import Hummingbird
import SGCore

/// A JSON object key of any name, for bodies whose keys are checked one by one.
struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

extension KeyedDecodingContainer where Key == AnyKey {
    /// Absent: nil; a value: the value; `null` is refused (the contract does not allow it where this is used).
    func optional<T: Decodable>(_ type: T.Type, _ name: String) throws -> T? {
        let key = AnyKey(name)
        guard contains(key) else { return nil }
        if try decodeNil(forKey: key) { throw SGError.invalid(field: name, message: "cannot be null; leave it out instead") }
        return try decode(type, forKey: key)
    }

    /// A value that must be present and not null.
    func required<T: Decodable>(_ type: T.Type, _ name: String) throws -> T {
        guard let value = try optional(type, name) else { throw SGError.invalid(field: name, message: "is required") }
        return value
    }

    /// Absent: keep; `null`: clear; a value: set.
    func change<T: Decodable & Sendable & Equatable>(_ type: T.Type, _ name: String) throws -> Change<T> {
        let key = AnyKey(name)
        guard contains(key) else { return .keep }
        return try decodeNil(forKey: key) ? .clear : .set(decode(T.self, forKey: key))
    }

    /// `change` of a `YYYY-MM-DD` date; a text that is not one is a 422 naming the field.
    func dateChange(_ name: String) throws -> Change<CalendarDate> {
        switch try change(String.self, name) {
        case .keep: .keep
        case .clear: .clear
        case .set(let text): .set(try CalendarDate.parse(text, field: name))
        }
    }
}

extension Request {
    /// A `true`/`false` query parameter, or nil when absent; anything else is a 422.
    func booleanQuery(_ name: String) throws -> Bool? {
        guard let text = uri.queryParameters.get(name) else { return nil }
        switch text {
        case "true": return true
        case "false": return false
        default: throw SGError.invalid(field: name, message: "'\(text)' is not true or false")
        }
    }
}
