#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Which addresses the server may connect to when it makes a request on someone's behalf (a news feed, a webhook,
/// a browser's Web Push endpoint): any public address, and of the internal ones (loopback, private, link-local
/// with the cloud metadata services, multicast, reserved) only those an admin allowed by setting. The check is made
/// on the address actually connected to, at every connection and redirect, never on a name.
public struct DestinationPolicy: Sendable, Equatable {
    /// An allowed internal destination: a network, or one address and port.
    public struct Allowance: Sendable, Equatable {
        /// 16 bytes; an IPv4 network is kept as its IPv4-mapped IPv6 form.
        let network: [UInt8]
        let prefixLength: Int
        let port: Int?
    }

    public let allowances: [Allowance]

    /// No internal address: what the server does unless told otherwise.
    public static let publicOnly = DestinationPolicy(allowances: [])

    init(allowances: [Allowance]) { self.allowances = allowances }

    /// The setting's text: comma-separated networks (`10.0.0.0/8`, `fd00::/8`), addresses (`127.0.0.1`) or
    /// address and port (`127.0.0.1:8443`, `[::1]:8443`). Throws a sentence naming the entry it cannot read.
    public init(parsing text: String) throws(DestinationPolicyError) {
        var allowances: [Allowance] = []
        for entry in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !entry.isEmpty {
            guard let allowance = Self.allowance(entry) else { throw DestinationPolicyError(entry: entry) }
            allowances.append(allowance)
        }
        self.allowances = allowances
    }

    private static func allowance(_ entry: String) -> Allowance? {
        if let slash = entry.firstIndex(of: "/") {
            guard let bytes = bytes(of: String(entry[..<slash])), let length = Int(entry[entry.index(after: slash)...]) else { return nil }
            let isIPv4 = !entry[..<slash].contains(":")
            let maximum = isIPv4 ? 32 : 128
            guard (0...maximum).contains(length) else { return nil }
            return Allowance(network: bytes, prefixLength: isIPv4 ? length + 96 : length, port: nil)
        }
        if let bytes = bytes(of: entry) { return Allowance(network: bytes, prefixLength: 128, port: nil) }
        // ADDRESS:PORT or [IPv6]:PORT.
        guard let colon = entry.lastIndex(of: ":"), let port = Int(entry[entry.index(after: colon)...]), (1...65535).contains(port) else {
            return nil
        }
        var host = String(entry[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) } else if host.contains(":") { return nil }
        guard let bytes = bytes(of: host) else { return nil }
        return Allowance(network: bytes, prefixLength: 128, port: port)
    }

    /// The 16 bytes of an IPv6 address, or of an IPv4 address mapped into IPv6; nil for anything else.
    public static func bytes(of text: String) -> [UInt8]? {
        var v4 = [UInt8](repeating: 0, count: 4)
        if inet_pton(AF_INET, text, &v4) == 1 { return mapped(v4) }
        var v6 = [UInt8](repeating: 0, count: 16)
        return inet_pton(AF_INET6, text, &v6) == 1 ? v6 : nil
    }

    static func mapped(_ v4: [UInt8]) -> [UInt8] { [UInt8](repeating: 0, count: 10) + [0xFF, 0xFF] + v4 }

    /// Nil when the server may connect to `address` (16 bytes, IPv4 as mapped) on `port`; otherwise what kind of
    /// internal address it is, for the refusal's words.
    public func refusal(address: [UInt8], port: Int) -> String? {
        guard let kind = Self.internalKind(address) else { return nil }
        let allowed = allowances.contains { allowance in
            (allowance.port == nil || allowance.port == port) && Self.matches(address, allowance.network, allowance.prefixLength)
        }
        return allowed ? nil : kind
    }

    /// The refusal's sentence for `address`, naming the setting that allows it.
    public static func sentence(address: String, kind: String) -> String {
        "\(address) is \(kind) address; the server connects to internal addresses only where SG_ALLOWED_INTERNAL_ADDRESSES allows"
    }

    private static func matches(_ address: [UInt8], _ network: [UInt8], _ length: Int) -> Bool {
        var bits = length
        for index in 0..<16 {
            guard bits > 0 else { return true }
            let mask: UInt8 = bits >= 8 ? 0xFF : ~(0xFF >> UInt8(bits))
            if address[index] & mask != network[index] & mask { return false }
            bits -= 8
        }
        return true
    }

    /// What kind of internal address `address` is (with an article, for a sentence), or nil for a public one.
    /// IPv4 inside IPv6 (mapped, NAT64, 6to4, compatible) is judged as its IPv4 address.
    public static func internalKind(_ address: [UInt8]) -> String? {
        precondition(address.count == 16)
        let prefix = Array(address[0..<12])
        if prefix == [UInt8](repeating: 0, count: 10) + [0xFF, 0xFF] || prefix == [0x00, 0x64, 0xFF, 0x9B] + [UInt8](repeating: 0, count: 8) {
            return ipv4Kind(Array(address[12..<16]))
        }
        if address[0] == 0x20 && address[1] == 0x02 { return ipv4Kind(Array(address[2..<6])).map { $0 + " (6to4)" } }
        if address[0..<12].allSatisfy({ $0 == 0 }) {
            if address[12..<15].allSatisfy({ $0 == 0 }) && address[15] <= 1 { return address[15] == 1 ? "a loopback" : "an unspecified" }
            return ipv4Kind(Array(address[12..<16]))
        }
        switch (address[0], address[1]) {
        case (0xFE, let second) where second & 0xC0 == 0x80: return "a link-local"
        case (0xFE, let second) where second & 0xC0 == 0xC0: return "a site-local"
        case (let first, _) where first & 0xFE == 0xFC: return "a private (unique local)"
        case (0xFF, _): return "a multicast"
        case (0x20, 0x01) where address[2] == 0x0D && address[3] == 0xB8: return "a documentation"
        case (0x01, 0x00) where address[2..<8].allSatisfy({ $0 == 0 }): return "a discard"
        default: return nil
        }
    }

    private static func ipv4Kind(_ v4: [UInt8]) -> String? {
        switch (v4[0], v4[1]) {
        case (0, _): return "an unspecified"
        case (10, _), (172, 16...31), (192, 168): return "a private"
        case (100, 64...127): return "a shared (carrier-grade NAT)"
        case (127, _): return "a loopback"
        case (169, 254): return "a link-local (cloud metadata)"
        case (192, 0) where v4[2] == 0 || v4[2] == 2: return "a reserved"
        case (198, 18...19): return "a benchmarking"
        case (198, 51) where v4[2] == 100, (203, 0) where v4[2] == 113: return "a documentation"
        case (224...239, _): return "a multicast"
        case (240...255, _): return "a reserved"
        default: return nil
        }
    }
}

public struct DestinationPolicyError: Error, Sendable, CustomStringConvertible {
    public let entry: String
    public var description: String {
        "'\(entry)' is not a network (10.0.0.0/8), an address (127.0.0.1) or an address and port (127.0.0.1:8443, [::1]:8443)"
    }
}
