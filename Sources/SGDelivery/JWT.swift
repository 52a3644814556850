import Crypto
import Foundation
import SGCore
import _CryptoExtras

/// Compact JSON Web Tokens (RFC 7519) as the push services take them: ES256 for APNs' provider token and VAPID,
/// RS256 for the FCM service account's OAuth assertion.
enum JWT {
    enum Value: Encodable, Sendable {
        case text(String)
        case number(Int64)

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .text(let text): try container.encode(text)
            case .number(let number): try container.encode(number)
            }
        }
    }

    static func es256(header: [String: Value] = [:], claims: [String: Value], key: P256.Signing.PrivateKey) throws -> String {
        let input = try signingInput(header: header.merging(["alg": .text("ES256"), "typ": .text("JWT")]) { _, fixed in fixed }, claims: claims)
        // JWS wants the signature as r and s, 32 bytes each, not DER.
        return input + "." + Base64URL.encode(try key.signature(for: Data(input.utf8)).rawRepresentation)
    }

    static func rs256(claims: [String: Value], key: _RSA.Signing.PrivateKey) throws -> String {
        let input = try signingInput(header: ["alg": .text("RS256"), "typ": .text("JWT")], claims: claims)
        return input + "." + Base64URL.encode(try key.signature(for: Data(input.utf8), padding: .insecurePKCS1v1_5).rawRepresentation)
    }

    private static func signingInput(header: [String: Value], claims: [String: Value]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Base64URL.encode(try encoder.encode(header)) + "." + Base64URL.encode(try encoder.encode(claims))
    }
}

/// Bearer tokens reused until shortly before they expire, by audience ("" when there is one), shared by the lanes.
actor CachedTokens {
    private var tokens: [String: (token: String, until: Date)] = [:]

    /// The token for `audience`, if one is held that is good at `now`.
    func current(_ audience: String = "", at now: Date) -> String? {
        guard let held = tokens[audience], now < held.until else { return nil }
        return held.token
    }

    func keep(_ token: String, _ audience: String = "", until: Date) { tokens[audience] = (token, until) }

    /// Forgets `token` (the service refused it), unless another lane has replaced it already.
    func discard(_ token: String, _ audience: String = "") {
        if tokens[audience]?.token == token { tokens[audience] = nil }
    }
}
