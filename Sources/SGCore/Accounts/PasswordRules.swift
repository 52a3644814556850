import Foundation

/// What a new password must be, wherever it is set: a reset, a change by its owner, `sgadmin user password` and
/// `sgadmin user add`. Checked here once; the store only hashes what passed.
public enum PasswordRules {
    /// Counted in Unicode code points, as the contract's `minLength` counts.
    public static let minimumCharacters = 10
    /// Counted in UTF-8 bytes. bcrypt reads only 72; the store hashes a longer password's SHA-256 instead of
    /// cutting it (see `Passwords`), so every byte up to this limit counts.
    public static let maximumBytes = 256

    /// Throws a field-level `SGError.invalid` naming `field` when `password` breaks a rule. `username` is the
    /// account's, which the password must not be (compared without regard to case).
    public static func check(_ password: String, username: String?, field: String) throws {
        guard password.unicodeScalars.count >= minimumCharacters else {
            throw SGError.invalid(field: field, message: "at least \(minimumCharacters) characters")
        }
        guard password.utf8.count <= maximumBytes else {
            throw SGError.invalid(field: field, message: "at most \(maximumBytes) bytes in UTF-8")
        }
        guard !password.unicodeScalars.contains("\u{0}") else {
            throw SGError.invalid(field: field, message: "must not contain the NUL character (U+0000)")
        }
        if let username, password.lowercased() == username.lowercased() {
            throw SGError.invalid(field: field, message: "must not be the username")
        }
    }
}
