import CLDAP
import Foundation
import SGCore

/// How the server talks to the company directory. Built from the SG_LDAP_* settings by SGSettings.
public struct LDAPConfiguration: Sendable, Equatable, HoldsSecrets {
    /// How a login finds the entry to bind as.
    public enum Mode: Sendable, Equatable {
        /// Bind as the service account, search `baseDN` with the filter (`{username}` escaped per RFC 4515),
        /// require exactly one entry, then bind as that entry with the user's password.
        case searchThenBind(filter: String)
        /// Bind straight away as the DN built from the template (`{username}` escaped per RFC 4514).
        case directBind(dnTemplate: String)
    }

    /// The attribute of a group entry that lists its members.
    public enum GroupMemberAttribute: String, Sendable, CaseIterable {
        /// groupOfNames: member DNs.
        case member
        /// groupOfUniqueNames: member DNs.
        case uniqueMember
        /// posixGroup: member usernames.
        case memberUid
    }

    /// Who is an admin in the app, re-read at every login.
    public enum AdminRule: Sendable, Equatable {
        /// The user's entry lists the group's DN in this attribute (Active Directory, OpenLDAP's memberof/dynlist).
        case memberOf(attribute: String, groupDN: String)
        /// The group entry lists the user in `memberAttribute`.
        case groupEntry(groupDN: String, memberAttribute: GroupMemberAttribute)

        /// Whether `entry` is in the admin group: for `.memberOf` from the entry itself (DNs compared as the
        /// directory compares them, without case or spacing); for `.groupEntry` by asking `groupLists` whether the
        /// group lists the entry's `member` value (login searches the group, sync looks in the members it read).
        func includes(
            _ entry: LDAPEntry, usernameAttribute: String,
            groupLists: (_ groupDN: String, _ attribute: GroupMemberAttribute, _ member: String) throws -> Bool
        ) rethrows -> Bool {
            switch self {
            case .memberOf(let attribute, let groupDN):
                let group = LDAPEscaping.normalizedDN(groupDN)
                return entry.values(attribute).contains { LDAPEscaping.normalizedDN($0) == group }
            case .groupEntry(let groupDN, let attribute):
                let member = Self.member(entry, attribute: attribute, usernameAttribute: usernameAttribute)
                return try !member.isEmpty && groupLists(groupDN, attribute, member)
            }
        }

        /// What a group lists for this entry in `attribute`: its username for memberUid, its DN otherwise; empty
        /// when the entry has no username.
        static func member(_ entry: LDAPEntry, attribute: GroupMemberAttribute, usernameAttribute: String) -> String {
            attribute == .memberUid ? (entry.first(usernameAttribute) ?? "") : entry.dn
        }

        /// A value of the group's member attribute, or `member(_:attribute:usernameAttribute:)`, in the form in which two are
        /// equal when the directory finds them equal at login: memberUid is compared exactly (caseExactIA5Match in
        /// RFC 2307), DNs without case or spacing.
        func comparableMember(_ value: String) -> String {
            if case .groupEntry(_, .memberUid) = self { return value }
            return LDAPEscaping.normalizedDN(value)
        }
    }

    public enum Scope: String, Sendable, CaseIterable {
        /// The whole subtree under the base.
        case sub
        /// Only the entries directly under the base.
        case one
    }

    /// Names of the directory attributes an employee is built from; defaults fit inetOrgPerson.
    public struct Attributes: Sendable, Equatable {
        public var username = "uid"
        public var givenName = "givenName"
        public var surname = "sn"
        public var fullName = "cn"
        public var email = "mail"
        public var title = "title"
        public var phone = "telephoneNumber"
        /// The attribute whose (first) value names the employee's team, set at each login and sync; nil: teams are
        /// managed in the app only.
        public var team: String?
        /// The attributes holding the first and last day of employment (YYYY-MM-DD, or a GeneralizedTime whose
        /// date part counts), set at each login and sync; nil: the dates are set in the app.
        public var employmentStart: String?
        public var employmentEnd: String?

        public init() {}

        public var all: [String] {
            [username, givenName, surname, fullName, email, title, phone] + [team, employmentStart, employmentEnd].compactMap { $0 }
        }
    }

    public struct TLS: Sendable, Equatable {
        /// Upgrade an ldap:// connection with StartTLS before anything is sent.
        public var startTLS = false
        /// PEM file of the certificate authorities to trust; nil uses the system's (libldap's TLS_CACERT).
        public var caFile: String?
        /// Check the server's certificate and name. Only turn off for a test directory.
        public var verifyCertificates = true

        public init(startTLS: Bool = false, caFile: String? = nil, verifyCertificates: Bool = true) {
            self.startTLS = startTLS
            self.caFile = caFile
            self.verifyCertificates = verifyCertificates
        }
    }

    /// One or more ldap:// or ldaps:// URLs separated by spaces; libldap tries them in order.
    public var url: String
    public var baseDN: String
    /// The service account; nil searches anonymously.
    public var bindDN: String?
    public var bindPassword: String?
    public var mode: Mode
    public var scope: Scope
    public var admin: AdminRule?
    public var attributes: Attributes
    public var tls: TLS
    /// Seconds to open a connection (TCP and TLS).
    public var connectTimeout: Double
    /// Seconds for each directory operation (bind, search).
    public var timeout: Double
    /// Filter for `sgadmin ldap sync`; nil uses the user filter with `{username}` as `*`.
    public var syncFilter: String?
    /// Threads that make the blocking directory calls; also the most connections kept open per kind.
    public var threads: Int
    /// Retry-After sent with 503 when the directory cannot be reached.
    public var retryAfterSeconds: Int
    /// The company's own page for changing a directory password (SG_LDAP_PASSWORD_URL): where the app's password
    /// routes, which refuse, send employees. Nil when the company has none to name.
    public var passwordURL: String?

    public init(
        url: String, baseDN: String, bindDN: String? = nil, bindPassword: String? = nil,
        mode: Mode = .searchThenBind(filter: "(uid={username})"), scope: Scope = .sub, admin: AdminRule? = nil,
        attributes: Attributes = Attributes(), tls: TLS = TLS(), connectTimeout: Double = 3, timeout: Double = 3,
        syncFilter: String? = nil, threads: Int = 4, retryAfterSeconds: Int = 15, passwordURL: String? = nil
    ) {
        self.url = url
        self.baseDN = baseDN
        self.bindDN = bindDN
        self.bindPassword = bindPassword
        self.mode = mode
        self.scope = scope
        self.admin = admin
        self.attributes = attributes
        self.tls = tls
        self.connectTimeout = connectTimeout
        self.timeout = timeout
        self.syncFilter = syncFilter
        self.threads = max(1, threads)
        self.retryAfterSeconds = max(1, retryAfterSeconds)
        self.passwordURL = passwordURL
    }

    /// The longest a login waits for the directory before answering 503: one connect and one operation's worth.
    public var loginBudget: Double { connectTimeout + timeout }

    /// The filter `sgadmin ldap sync` lists users with.
    public var effectiveSyncFilter: String? {
        if let syncFilter { return syncFilter }
        if case .searchThenBind(let filter) = mode {
            return filter.replacingOccurrences(of: LDAPEscaping.placeholder, with: "*")
        }
        return nil
    }

    /// The attributes a login asks for: the mapped ones and, if admin comes from it, the memberOf attribute.
    var requestedAttributes: [String] {
        var names = attributes.all
        if case .memberOf(let attribute, _)? = admin { names.append(attribute) }
        var seen = Set<String>()
        return names.filter { seen.insert($0.lowercased()).inserted }
    }

    /// True when no URL uses TLS and StartTLS is off: passwords would cross the network in clear.
    public var sendsPasswordsInClear: Bool {
        !tls.startTLS && Self.urls(in: url).contains { !Self.isLDAPS($0) }
    }

    /// The URLs of a space- or comma-separated list.
    public static func urls(in text: String) -> [String] {
        text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" }).map(String.init)
    }

    /// Whether `url` speaks TLS from the first byte (ldaps://).
    public static func isLDAPS(_ url: String) -> Bool { url.lowercased().hasPrefix("ldaps://") }

    /// Whether any of the configured URLs is ldaps://.
    var listsLDAPS: Bool { Self.urls(in: url).contains(where: Self.isLDAPS) }
}

extension LDAPConfiguration {
    /// True when libldap parses `dn` as an LDAPv3 distinguished name.
    public static func isValidDN(_ dn: String) -> Bool {
        sg_ldap_valid_dn(dn) != 0
    }

    /// True when `url` is one ldap:// or ldaps:// URL that libldap can parse.
    public static func isLDAPURL(_ url: String) -> Bool {
        let lower = url.lowercased()
        return (lower.hasPrefix("ldap://") || lower.hasPrefix("ldaps://")) && ldap_is_ldap_url(url) != 0
    }
}
