import Foundation
import HummingbirdBcrypt
import SGCore

public enum Passwords {
    public static let minimumLength = 8
    public static let maximumLength = 72  // bcrypt reads no further

    /// Hashes off the caller's thread: bcrypt is slow on purpose.
    public static func hash(_ password: String, cost: UInt8 = 12) async throws -> String {
        try validate(password)
        return await offload { Bcrypt.hash(password, cost: cost) }
    }

    public static func validate(_ password: String) throws {
        guard password.utf8.count >= minimumLength else {
            throw SGError.invalid(field: "password", message: "at least \(minimumLength) characters")
        }
        guard password.utf8.count <= maximumLength else {
            throw SGError.invalid(field: "password", message: "at most \(maximumLength) bytes")
        }
        guard !password.unicodeScalars.contains("\u{0}") else {
            throw SGError.invalid(field: "password", message: "must not contain the NUL character (U+0000)")
        }
    }

    public static func verify(_ password: String, hash: String) async -> Bool {
        await offload { Bcrypt.verify(password, hash: hash) }
    }

    /// Runs CPU-heavy work on a Dispatch thread rather than on the cooperative pool or an event loop.
    static func offload<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async { continuation.resume(returning: work()) }
        }
    }
}
