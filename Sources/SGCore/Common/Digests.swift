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
            && Base64URL.isBase64URL(token.utf8.dropFirst(prefix.utf8.count))
    }

    /// What the store keeps for a token.
    public static func tokenDigest(_ token: String) -> Data {
        sha256(Array(token.utf8))
    }

    static func base64URL(_ bytes: [UInt8]) -> String { Base64URL.encode(bytes) }

    public static func sha256(_ bytes: some DataProtocol) -> Data {
        Data(SHA256.hash(data: bytes))
    }

    /// The first `bytes` bytes of the digest in lowercase hex.
    public static func sha256Hex(_ bytes: some DataProtocol, prefix: Int) -> String {
        SHA256.hash(data: bytes).prefix(prefix).map { String(format: "%02x", $0) }.joined()
    }
}

/// base64url without padding (RFC 4648 §5), as JWTs and Web Push keys are written.
public enum Base64URL {
    private static let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Whether every byte is of the base64url alphabet (no padding).
    static func isBase64URL(_ bytes: some Sequence<UInt8>) -> Bool { bytes.allSatisfy(alphabet.contains) }

    public static func encode(_ bytes: some DataProtocol) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The bytes of base64url text, padded or not; nil when it is not base64url.
    public static func decode(_ text: String) -> [UInt8]? {
        let unpadded = String(text.reversed().drop { $0 == "=" }.reversed())
        guard isBase64URL(unpadded.utf8), unpadded.utf8.count % 4 != 1 else { return nil }
        var base64 = unpadded.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64).map(Array.init)
    }
}
