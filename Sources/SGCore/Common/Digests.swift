import Crypto
import Foundation

/// SHA-256 digests: bearer tokens are stored as theirs, and a photo's version tag is taken from its bytes'.
public enum Digests {
    public static func sha256(_ bytes: some DataProtocol) -> Data {
        Data(SHA256.hash(data: bytes))
    }

    /// The first `bytes` bytes of the digest in lowercase hex.
    public static func sha256Hex(_ bytes: some DataProtocol, prefix: Int) -> String {
        SHA256.hash(data: bytes).prefix(prefix).map { String(format: "%02x", $0) }.joined()
    }
}
