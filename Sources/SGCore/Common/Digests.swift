import Crypto
import Foundation

/// SHA-256 digests and random secrets: bearer tokens and reset links are stored as their digests, and a photo's
/// version tag is taken from its bytes'.
public enum Digests {
    /// `count` bytes from the system's cryptographic generator.
    public static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    /// A new secret token, `prefix` and 256 random bits in base64url (URL-safe as it is), and the digest under
    /// which it is stored: 256 random bits need no slow hash, only one that cannot be reversed.
    public static func newToken(prefix: String) -> (token: String, digest: Data) {
        let token = prefix + base64URL(randomBytes(32))
        return (token, tokenDigest(token))
    }

    /// Whether `token` can be one `newToken(prefix:)` made: `prefix` and 43 base64url characters (or `length`).
    /// Anything else is refused without a lookup.
    public static func isTokenShaped(_ token: String, prefix: String, length: Int = 43) -> Bool {
        token.hasPrefix(prefix) && token.utf8.count == prefix.utf8.count + length
            && token.utf8.dropFirst(prefix.utf8.count).allSatisfy(base64URLAlphabet.contains)
    }

    private static let base64URLAlphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// What the store keeps for a token.
    public static func tokenDigest(_ token: String) -> Data {
        sha256(Array(token.utf8))
    }

    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    public static func sha256(_ bytes: some DataProtocol) -> Data {
        Data(SHA256.hash(data: bytes))
    }

    /// The first `bytes` bytes of the digest in lowercase hex.
    public static func sha256Hex(_ bytes: some DataProtocol, prefix: Int) -> String {
        SHA256.hash(data: bytes).prefix(prefix).map { String(format: "%02x", $0) }.joined()
    }
}
