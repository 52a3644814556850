import Foundation

/// Looks settings up, the command-line flag first and then the environment variable, and collects every problem
/// and warning on the way, so that an operator fixes a configuration in one go rather than one error per start.
public struct SettingsResolver: Sendable {
    /// The flags, keyed by their environment variable's name; nil for a flag not given. A setting with no key
    /// here has no flag (a password, which a command line would show to every user of the host).
    private let flags: [String: String?]
    private let environment: [String: String]
    public private(set) var problems: [String] = []
    /// Settings that work but deserve a line in the log.
    public private(set) var warnings: [String] = []

    public init(flags: [String: String?], environment: [String: String]) {
        self.flags = flags
        self.environment = environment
    }

    /// The setting as given; nil when neither its flag nor its variable is set.
    public func value(_ name: String) -> String? {
        (flags[name] ?? nil) ?? environment[name]
    }

    /// The setting without surrounding white space; nil when unset or blank.
    public func text(_ name: String) -> String? {
        guard let trimmed = value(name)?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty else { return nil }
        return trimmed
    }

    /// "SG_LDAP_URL / --ldap-url": how a setting is named in messages; a setting without a flag by its variable.
    public func label(_ name: String) -> String {
        guard name.hasPrefix("SG_"), flags.keys.contains(name) else { return name }
        return "\(name) / --" + name.dropFirst(3).lowercased().replacingOccurrences(of: "_", with: "-")
    }

    public mutating func problem(_ message: String) {
        problems.append(message)
    }

    public mutating func warn(_ message: String) {
        warnings.append(message)
    }

    /// The setting read by `parse` (from `text` when `trimmed`, else `value`), or `fallback` when unset. A value
    /// `parse` refuses is the problem "NAME / --flag 'value' " + `refusal`, and gives `fallback`.
    public mutating func parse<T>(
        _ name: String, trimmed: Bool = false, default fallback: T, _ refusal: String, _ parse: (String) -> T?
    ) -> T {
        guard let raw = trimmed ? text(name) : value(name) else { return fallback }
        if let parsed = parse(raw) { return parsed }
        problem("\(label(name)) '\(raw)' \(refusal)")
        return fallback
    }

    /// A whole number in `range`, or `fallback` when unset.
    public mutating func integer(_ name: String, trimmed: Bool = false, in range: ClosedRange<Int>, default fallback: Int) -> Int {
        parse(name, trimmed: trimmed, default: fallback, "is not a number between \(range.lowerBound) and \(range.upperBound)") {
            Int($0).flatMap { range.contains($0) ? $0 : nil }
        }
    }

    /// `value` when no problem was found; otherwise every problem.
    public func checked<T>(_ value: T?) throws(SettingsProblems) -> T {
        guard problems.isEmpty, let value else { throw SettingsProblems(messages: problems) }
        return value
    }
}

/// Every problem found in the settings, never just the first.
public struct SettingsProblems: Error, Sendable, Equatable {
    public let messages: [String]

    public init(messages: [String]) {
        self.messages = messages
    }

    /// "heading:" then one "  - problem" line each.
    public func report(_ heading: String) -> String {
        "\(heading):\n" + messages.map { "  - \($0)" }.joined(separator: "\n")
    }
}
