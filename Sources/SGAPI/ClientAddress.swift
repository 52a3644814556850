import Foundation
import Hummingbird
import SGCore

/// Where a request comes from, for throttling failed logins per client.
enum ClientAddress {
    /// The connection's peer; behind a trusted reverse proxy, the nearest address in X-Forwarded-For that is
    /// not itself a trusted proxy. A client cannot forge its way past this: entries it writes itself end up to
    /// the left of the ones our proxies append, and only those are read until an untrusted one is met.
    /// Addresses are compared and returned in `IPAddress.canonical` form; `trustedProxies` must be in it.
    static func of(_ request: Request, peer: String?, trustedProxies: Set<String>) -> String? {
        let peer = peer.map { IPAddress.canonical($0) ?? $0 }
        guard let peer, trustedProxies.contains(peer) else { return peer }
        let chain = request.headers
            .filter { $0.name.canonicalName == "x-forwarded-for" }
            .flatMap { $0.value.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
            .map { IPAddress.canonical($0) ?? $0 }
        for address in chain.reversed() where !trustedProxies.contains(address) {
            return address
        }
        return chain.first ?? peer
    }
}
