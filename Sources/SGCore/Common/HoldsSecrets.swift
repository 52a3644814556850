/// A value that holds a secret (a password, a private key, a signing secret): printed, interpolated, dumped or
/// reflected, it shows only its type's name, so no log line at any level can carry the secret. Conform and write
/// nothing more; a type that has something safe to say may give its own `description`.
public protocol HoldsSecrets: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {}

extension HoldsSecrets {
    public var description: String { "\(Self.self)(secrets not shown)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}
