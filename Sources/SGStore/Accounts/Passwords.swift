import Foundation
import HummingbirdBcrypt
import SGCore

/// bcrypt for local accounts. What may be hashed is decided by the core (`PasswordRules`, up to 256 bytes); bcrypt
/// itself reads only 72, so a longer password is hashed through its SHA-256 (see `bcryptInput`) rather than cut.
public enum Passwords {
    /// bcrypt reads no further than this many bytes.
    public static let bcryptLimit = 72
    /// No stored password is longer: a login with a longer one is wrong without hashing it.
    public static let maximumLength = PasswordRules.maximumBytes

    /// Hashes off the caller's thread: bcrypt is slow on purpose. Refuses what no account may have (the rules
    /// that need no username); services check the whole of `PasswordRules` first.
    public static func hash(_ password: String, cost: UInt8 = 12) async throws -> String {
        try validate(password)
        return await offload { Bcrypt.hash(bcryptInput(password), cost: cost) }
    }

    /// The rules that need no account: length and NUL.
    public static func validate(_ password: String) throws {
        try PasswordRules.check(password, username: nil, field: "password")
    }

    public static func verify(_ password: String, hash: String) async -> Bool {
        await offload { Bcrypt.verify(bcryptInput(password), hash: hash) }
    }

    /// What bcrypt is given. Up to 72 bytes, the password itself (plain bcrypt, so that every stored hash of such a
    /// password matches). Beyond, "sha256:" and the base64 of the password's SHA-256 (51 bytes, no NUL): every
    /// byte counts, where bcrypt alone would ignore all past the 72nd and take any password sharing the first 72
    /// bytes. Knowing that text is as good as knowing the password, as for any pre-hash.
    static func bcryptInput(_ password: String) -> String {
        guard password.utf8.count > bcryptLimit else { return password }
        return "sha256:" + Digests.sha256(Array(password.utf8)).base64EncodedString()
    }

    /// Runs CPU-heavy work on a Dispatch thread rather than on the cooperative pool or an event loop.
    static func offload<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async { continuation.resume(returning: work()) }
        }
    }
}

/// The core's `PasswordHashing` with bcrypt at `cost`.
public struct BcryptPasswordHasher: PasswordHashing {
    public let cost: UInt8

    public init(cost: UInt8 = 12) {
        self.cost = cost
    }

    public func hash(_ password: String) async -> String {
        let cost = cost
        return await Passwords.offload { Bcrypt.hash(Passwords.bcryptInput(password), cost: cost) }
    }

    public func verify(_ password: String, hash: String) async -> Bool {
        await Passwords.verify(password, hash: hash)
    }
}
