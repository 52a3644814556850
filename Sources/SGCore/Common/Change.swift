import Foundation

/// A field of a partial update: left as it is, cleared, or set. JSON: key absent, `null`, or a value.
public enum Change<Value: Sendable & Equatable>: Sendable, Equatable {
    case keep
    case clear
    case set(Value)

    /// The field after the change.
    public func applied(to current: Value?) -> Value? {
        switch self {
        case .keep: current
        case .clear: nil
        case .set(let value): value
        }
    }
}

extension Change where Value == String {
    /// An optional text field after the change: kept, cleared (by null, or by text that is empty once trimmed),
    /// or set to what `check` makes of the text.
    public func applied(to current: String?, checkedBy check: (String) throws -> String) throws -> String? {
        switch self {
        case .keep: current
        case .clear: nil
        case .set(let text): text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : try check(text)
        }
    }
}

/// Checks for the free text people type into profiles, notices and company details. Each returns the value as
/// stored (trimmed) or throws `SGError.invalid` naming the field.
