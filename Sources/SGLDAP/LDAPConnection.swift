import CLDAP
import Foundation

/// A point in time by which a directory call must be over.
struct Deadline: Sendable {
    let instant: ContinuousClock.Instant

    init(secondsFromNow seconds: Double) {
        instant = ContinuousClock.now + .nanoseconds(Int64(max(0, seconds) * 1_000_000_000))
    }

    /// Seconds left, possibly negative.
    var remaining: Double {
        let left = instant - ContinuousClock.now
        return Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18
    }

    var hasPassed: Bool { remaining <= 0 }
}

/// A failed directory call, with libldap's result code and the server's diagnostic message.
public struct LDAPFailure: Error, Sendable, CustomStringConvertible {
    public let code: Int32
    /// What was being done: "connect", "StartTLS", "service bind", "search", ...
    public let step: String
    public let diagnostic: String

    init(code: Int32, step: String, diagnostic: String = "") {
        self.code = code
        self.step = step
        self.diagnostic = diagnostic
    }

    /// No answer in time (libldap's own timeout, or the login's overall deadline).
    static func timedOut(_ step: String) -> LDAPFailure {
        LDAPFailure(code: LDAP_TIMEOUT, step: step, diagnostic: "no answer within the timeout")
    }

    public var description: String {
        let text = String(cString: ldap_err2string(code))
        return "\(step): \(text) (\(code))" + (diagnostic.isEmpty ? "" : ": \(diagnostic)")
    }

    /// The directory could not be reached, dropped the connection, did not answer in time, or is too busy.
    public var isOutage: Bool {
        [LDAP_SERVER_DOWN, LDAP_TIMEOUT, LDAP_CONNECT_ERROR, LDAP_UNAVAILABLE, LDAP_BUSY, LDAP_TIMELIMIT_EXCEEDED,
         LDAP_LOCAL_ERROR, LDAP_ENCODING_ERROR, LDAP_DECODING_ERROR, LDAP_NO_MEMORY, LDAP_OTHER]
            .contains(code)
    }

    /// The connection is gone (for instance the directory restarted): a fresh connection may well work.
    var isConnectionLost: Bool { code == LDAP_SERVER_DOWN }
}

/// One directory entry: its DN and its attribute values as text. Attribute names are matched without case.
public struct LDAPEntry: Sendable, Equatable {
    public let dn: String
    /// Keyed by lower-cased attribute name.
    public let attributes: [String: [String]]

    public init(dn: String, attributes: [String: [String]]) {
        self.dn = dn
        var lowered: [String: [String]] = [:]
        for (name, values) in attributes { lowered[name.lowercased(), default: []] += values }
        self.attributes = lowered
    }

    public func values(_ attribute: String) -> [String] {
        attributes[attribute.lowercased()] ?? []
    }

    /// The first non-blank value, trimmed.
    public func first(_ attribute: String) -> String? {
        values(attribute).lazy.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.first { !$0.isEmpty }
    }
}

/// The entries of a search, and whether the size limit cut it short.
struct SearchOutcome: Sendable {
    var entries: [LDAPEntry]
    var truncated: Bool
}

/// One libldap connection (an `LDAP *` handle), used by one thread at a time: the pools hand it from one
/// blocking job to the next. Every call is synchronous and bounded by the configured timeouts and a deadline.
final class LDAPConnection: @unchecked Sendable {
    private var handle: OpaquePointer?
    private let configuration: LDAPConfiguration
    /// When the connection was last returned to a pool; idle connections are dropped after a while.
    var idleSince = ContinuousClock.now

    private init(handle: OpaquePointer, configuration: LDAPConfiguration) {
        self.handle = handle
        self.configuration = configuration
    }

    deinit { close() }

    func close() {
        if let handle {
            ldap_unbind_ext_s(handle, nil, nil)
            self.handle = nil
        }
    }

    /// Opens a connection (TCP, then TLS for ldaps:// or StartTLS) within the connect timeout.
    static func open(_ configuration: LDAPConfiguration, deadline: Deadline) throws -> LDAPConnection {
        var raw: OpaquePointer?
        let rc = ldap_initialize(&raw, configuration.url)
        guard rc == LDAP_SUCCESS, let raw else {
            throw LDAPFailure(code: rc, step: "connect", diagnostic: "libldap does not accept the URL \(configuration.url)")
        }
        let connection = LDAPConnection(handle: raw, configuration: configuration)
        try connection.prepare(deadline: deadline)
        return connection
    }

    private func prepare(deadline: Deadline) throws {
        guard let handle else { throw LDAPFailure(code: LDAP_SERVER_DOWN, step: "connect") }
        guard !deadline.hasPassed else { throw LDAPFailure.timedOut("connect") }
        _ = sg_ldap_set_int(handle, LDAP_OPT_PROTOCOL_VERSION, LDAP_VERSION3)
        _ = sg_ldap_referrals_off(handle)
        _ = sg_ldap_set_seconds(handle, LDAP_OPT_NETWORK_TIMEOUT, min(configuration.connectTimeout, deadline.remaining))
        // Unacknowledged data (a directory that vanished mid-request) fails the connection instead of hanging.
        _ = sg_ldap_set_int(handle, LDAP_OPT_TCP_USER_TIMEOUT, Int32(configuration.timeout * 1000))
        if configuration.tls.startTLS || configuration.listsLDAPS {
            let tls = configuration.tls
            _ = sg_ldap_set_int(
                handle, LDAP_OPT_X_TLS_REQUIRE_CERT, tls.verifyCertificates ? LDAP_OPT_X_TLS_DEMAND : LDAP_OPT_X_TLS_NEVER)
            if let caFile = tls.caFile, sg_ldap_set_string(handle, LDAP_OPT_X_TLS_CACERTFILE, caFile) != LDAP_OPT_SUCCESS {
                throw LDAPFailure(code: LDAP_LOCAL_ERROR, step: "TLS setup", diagnostic: "cannot use CA file \(caFile)")
            }
            // Applies the options above to this connection's own TLS context.
            if sg_ldap_set_int(handle, LDAP_OPT_X_TLS_NEWCTX, 0) != LDAP_OPT_SUCCESS {
                throw LDAPFailure(code: LDAP_LOCAL_ERROR, step: "TLS setup", diagnostic: "cannot create a TLS context (CA file?)")
            }
        }
        try setOperationTimeout(deadline, step: "connect")
        var rc = ldap_connect(handle)
        guard rc == LDAP_SUCCESS else { throw failure(rc, step: "connect") }
        if configuration.tls.startTLS {
            try setOperationTimeout(deadline, step: "StartTLS")
            rc = ldap_start_tls_s(handle, nil, nil)
            guard rc == LDAP_SUCCESS else { throw failure(rc, step: "StartTLS") }
        }
    }

    /// A simple bind. Callers refuse empty passwords before this: a DN with an empty password is an
    /// unauthenticated bind that many directories let "succeed".
    func bind(dn: String, password: String, deadline: Deadline, step: String) throws {
        guard let handle else { throw LDAPFailure(code: LDAP_SERVER_DOWN, step: step) }
        try setOperationTimeout(deadline, step: step)
        let length = password.utf8.count
        let rc = password.withCString { sg_ldap_simple_bind(handle, dn, $0, length) }
        guard rc == LDAP_SUCCESS else { throw failure(rc, step: step) }
    }

    /// A search that returns at most `sizeLimit` entries (0: the server's limit).
    func search(
        base: String, scope: Int32, filter: String, attributes: [String], sizeLimit: Int32 = 0,
        deadline: Deadline, step: String = "search"
    ) throws -> SearchOutcome {
        guard let handle else { throw LDAPFailure(code: LDAP_SERVER_DOWN, step: step) }
        let seconds = try setOperationTimeout(deadline, step: step)
        var result: OpaquePointer?
        let rc = withCStringArray(attributes) { names in
            sg_ldap_search(handle, base, scope, filter, names, nil, seconds, sizeLimit, &result)
        }
        defer { if let result { ldap_msgfree(result) } }
        guard rc == LDAP_SUCCESS || rc == LDAP_SIZELIMIT_EXCEEDED else { throw failure(rc, step: step) }
        return SearchOutcome(entries: result.map(entries(in:)) ?? [], truncated: rc == LDAP_SIZELIMIT_EXCEEDED)
    }

    /// A search in pages of `pageSize` (RFC 2696 paged results), so directories with a size limit below the
    /// number of users (Active Directory: 1000) return them all. `page` receives each page as it arrives.
    func pagedSearch(
        base: String, scope: Int32, filter: String, attributes: [String], pageSize: Int32 = 500,
        timeoutPerPage: Double, page: ([LDAPEntry]) throws -> Void
    ) throws {
        guard let handle else { throw LDAPFailure(code: LDAP_SERVER_DOWN, step: "search") }
        var cookie = berval(bv_len: 0, bv_val: nil)
        defer { if cookie.bv_val != nil { ber_memfree(cookie.bv_val) } }
        while true {
            let deadline = Deadline(secondsFromNow: timeoutPerPage)
            let seconds = try setOperationTimeout(deadline, step: "search")
            var control: UnsafeMutablePointer<LDAPControl>?
            let created = cookie.bv_val == nil
                ? ldap_create_page_control(handle, pageSize, nil, 0, &control)
                : ldap_create_page_control(handle, pageSize, &cookie, 0, &control)
            guard created == LDAP_SUCCESS, let control else { throw failure(created, step: "paged search") }
            var result: OpaquePointer?
            var controls: [UnsafeMutablePointer<LDAPControl>?] = [control, nil]
            let rc = withCStringArray(attributes) { names in
                controls.withUnsafeMutableBufferPointer { list in
                    sg_ldap_search(handle, base, scope, filter, names, list.baseAddress, seconds, 0, &result)
                }
            }
            ldap_control_free(control)
            defer { if let result { ldap_msgfree(result) } }
            guard rc == LDAP_SUCCESS, let result else { throw failure(rc, step: "search") }
            try page(entries(in: result))
            if cookie.bv_val != nil { ber_memfree(cookie.bv_val); cookie = berval(bv_len: 0, bv_val: nil) }
            let more = sg_ldap_page_cookie(handle, result, &cookie)
            if more < 0 { throw failure(sg_ldap_parse_code(handle, result), step: "paged search") }
            if more == 0 { return }
        }
    }

    // MARK: - Helpers

    /// Bounds the next synchronous call by the operation timeout and what is left of the deadline.
    @discardableResult
    private func setOperationTimeout(_ deadline: Deadline, step: String) throws -> Double {
        guard let handle else { throw LDAPFailure(code: LDAP_SERVER_DOWN, step: step) }
        let left = deadline.remaining
        guard left > 0.005 else { throw LDAPFailure.timedOut(step) }
        let seconds = min(configuration.timeout, left)
        _ = sg_ldap_set_seconds(handle, LDAP_OPT_TIMEOUT, seconds)
        return seconds
    }

    private func failure(_ rc: Int32, step: String) -> LDAPFailure {
        var diagnostic = ""
        if let handle, let message = sg_ldap_diagnostic(handle) {
            diagnostic = String(cString: message)
            ldap_memfree(message)
        }
        return LDAPFailure(code: rc, step: step, diagnostic: diagnostic)
    }

    private func entries(in result: OpaquePointer) -> [LDAPEntry] {
        guard let handle else { return [] }
        var entries: [LDAPEntry] = []
        var current = ldap_first_entry(handle, result)
        while let entry = current {
            var dn = ""
            if let raw = ldap_get_dn(handle, entry) {
                dn = String(cString: raw)
                ldap_memfree(raw)
            }
            var attributes: [String: [String]] = [:]
            var ber: OpaquePointer?
            var name = ldap_first_attribute(handle, entry, &ber)
            while let attribute = name {
                let key = String(cString: attribute)
                if let values = ldap_get_values_len(handle, entry, attribute) {
                    var index = 0
                    while let value = values[index] {
                        let bytes = UnsafeRawBufferPointer(start: value.pointee.bv_val, count: Int(value.pointee.bv_len))
                        attributes[key, default: []].append(String(decoding: bytes, as: UTF8.self))
                        index += 1
                    }
                    ldap_value_free_len(values)
                }
                ldap_memfree(attribute)
                name = ldap_next_attribute(handle, entry, ber)
            }
            if let ber { ber_free(ber, 0) }
            entries.append(LDAPEntry(dn: dn, attributes: attributes))
            current = ldap_next_entry(handle, entry)
        }
        return entries
    }
}

/// Calls `body` with a NULL-terminated `char *[]` of `strings` (NULL itself when `strings` is empty).
private func withCStringArray<T>(_ strings: [String], _ body: (UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> T) -> T {
    guard !strings.isEmpty else { return body(nil) }
    var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
    pointers.append(nil)
    defer { for pointer in pointers { free(pointer) } }
    return pointers.withUnsafeMutableBufferPointer { body($0.baseAddress) }
}
