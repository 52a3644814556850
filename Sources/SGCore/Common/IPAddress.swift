#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

public enum IPAddress {
    /// One spelling per address, so that addresses compare as text: IPv6 as inet_ntop writes it (lower case,
    /// zeros compressed), and an IPv4-mapped IPv6 address ("::ffff:10.0.0.1", what a dual-stack listener
    /// reports for an IPv4 client) as its IPv4 address. Nil if `text` is not an IP address.
    public static func canonical(_ text: String) -> String? {
        var bytes = [UInt8](repeating: 0, count: 16)
        var output = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        if inet_pton(AF_INET, text, &bytes) == 1 {
            guard inet_ntop(AF_INET, bytes, &output, socklen_t(output.count)) != nil else { return nil }
            return String(decoding: output.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        guard inet_pton(AF_INET6, text, &bytes) == 1 else { return nil }
        if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF {
            return bytes[12...].map(String.init).joined(separator: ".")
        }
        guard inet_ntop(AF_INET6, bytes, &output, socklen_t(output.count)) != nil else { return nil }
        return String(decoding: output.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

extension IPAddress {
    /// What a client address counts as when failed logins and checks under way are counted: an IPv4 address
    /// whole, an IPv6 address by its /64, the smallest block a host is given (with privacy addresses it picks a
    /// new address in it at will, so counting whole IPv6 addresses would give it endless budgets).
    public static func throttleKey(_ address: String) -> String {
        guard let canonical = canonical(address) else { return address }
        var bytes = [UInt8](repeating: 0, count: 16)
        guard canonical.contains(":"), inet_pton(AF_INET6, canonical, &bytes) == 1 else { return canonical }
        let groups = stride(from: 0, to: 8, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
        return groups.joined(separator: ":") + "::/64"
    }
}
