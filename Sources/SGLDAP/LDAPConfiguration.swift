import CLDAP
import Foundation

/// How the server talks to the company directory. Built by `LDAPConfiguration.resolve` from SG_LDAP_* settings.
public struct LDAPConfiguration: Sendable, Equatable {
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

        public init() {}

        public var all: [String] { [username, givenName, surname, fullName, email, title, phone] }
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

    public init(
        url: String, baseDN: String, bindDN: String? = nil, bindPassword: String? = nil,
        mode: Mode = .searchThenBind(filter: "(uid={username})"), scope: Scope = .sub, admin: AdminRule? = nil,
        attributes: Attributes = Attributes(), tls: TLS = TLS(), connectTimeout: Double = 3, timeout: Double = 3,
        syncFilter: String? = nil, threads: Int = 4, retryAfterSeconds: Int = 15
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

    static func urls(in text: String) -> [String] {
        text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" }).map(String.init)
    }

    /// Whether `url` speaks TLS from the first byte (ldaps://).
    static func isLDAPS(_ url: String) -> Bool { url.lowercased().hasPrefix("ldaps://") }

    /// Whether any of the configured URLs is ldaps://.
    var listsLDAPS: Bool { Self.urls(in: url).contains(where: Self.isLDAPS) }
}

// MARK: - Settings

extension LDAPConfiguration {
    /// The outcome of reading the settings: a configuration, or every problem found (never just the first).
    public struct Resolution: Sendable {
        public var configuration: LDAPConfiguration?
        public var problems: [String]
        /// Not wrong, but worth a line in the log (e.g. passwords sent in clear).
        public var warnings: [String]
    }

    /// Reads SG_LDAP_* settings through `value` (flag, then environment: the caller decides) and names each
    /// setting in messages through `label` (e.g. "SG_LDAP_URL / --ldap-url").
    public static func resolve(
        value: (String) -> String?, label: (String) -> String = { $0 }
    ) -> Resolution {
        var problems: [String] = []
        var warnings: [String] = []
        func text(_ name: String) -> String? {
            guard let raw = value(name) else { return nil }
            let trimmed = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            return trimmed.isEmpty ? nil : trimmed
        }
        func flag(_ name: String, default fallback: Bool) -> Bool {
            guard let raw = text(name) else { return fallback }
            switch raw.lowercased() {
            case "1", "true", "yes", "on": return true
            case "0", "false", "no", "off": return false
            default:
                problems.append("\(label(name)) '\(raw)' is not a yes/no value (true, false, 1, 0, yes, no, on, off)")
                return fallback
            }
        }
        func seconds(_ name: String, default fallback: Double) -> Double {
            guard let raw = text(name) else { return fallback }
            guard let number = Double(raw), number >= 0.1, number <= 60 else {
                problems.append("\(label(name)) '\(raw)' is not a number of seconds between 0.1 and 60")
                return fallback
            }
            return number
        }
        func distinguishedName(_ name: String) -> String? {
            guard let dn = text(name) else { return nil }
            if !isValidDN(dn) { problems.append("\(label(name)) '\(dn)' is not a distinguished name (RFC 4514)") }
            return dn
        }
        func attribute(_ name: String, default fallback: String) -> String {
            guard let raw = text(name) else { return fallback }
            if !isAttributeDescription(raw) {
                problems.append("\(label(name)) '\(raw)' is not an attribute name (letters, digits, '-', or an OID)")
            }
            return raw
        }

        // Where the directory is.
        let url = text("SG_LDAP_URL")
        if let url {
            let urls = urls(in: url)
            for item in urls {
                let lower = item.lowercased()
                if !(lower.hasPrefix("ldap://") || lower.hasPrefix("ldaps://")) || ldap_is_ldap_url(item) == 0 {
                    problems.append("\(label("SG_LDAP_URL")) '\(item)' is not an ldap:// or ldaps:// URL")
                }
            }
        } else {
            problems.append("\(label("SG_LDAP_URL")) is missing (e.g. ldaps://ldap.example.com)")
        }

        // How logins find their entry.
        let filter = text("SG_LDAP_USER_FILTER")
        let template = text("SG_LDAP_USER_DN_TEMPLATE")
        var mode = Mode.searchThenBind(filter: filter ?? "(uid={username})")
        if filter != nil, template != nil {
            problems.append(
                "\(label("SG_LDAP_USER_FILTER")) and \(label("SG_LDAP_USER_DN_TEMPLATE")) are both set: "
                    + "set the filter to search then bind, or the template to bind directly, not both")
        }
        if let template {
            mode = .directBind(dnTemplate: template)
            if !template.contains(LDAPEscaping.placeholder) {
                problems.append("\(label("SG_LDAP_USER_DN_TEMPLATE")) '\(template)' has no {username} placeholder")
            } else if !isValidDN(LDAPEscaping.distinguishedName(template, username: "x")) {
                problems.append("\(label("SG_LDAP_USER_DN_TEMPLATE")) '\(template)' is not a distinguished name once {username} is filled in")
            }
        } else if let filter {
            if !filter.contains(LDAPEscaping.placeholder) {
                problems.append("\(label("SG_LDAP_USER_FILTER")) '\(filter)' has no {username} placeholder")
            } else if !isPlausibleFilter(filter) {
                problems.append("\(label("SG_LDAP_USER_FILTER")) '\(filter)' is not a parenthesized filter with balanced parentheses")
            }
        }

        let baseDN = distinguishedName("SG_LDAP_BASE_DN")
        if baseDN == nil, case .searchThenBind = mode {
            problems.append("\(label("SG_LDAP_BASE_DN")) is missing (where users are searched, e.g. dc=example,dc=com)")
        }
        var scope = Scope.sub
        if let raw = text("SG_LDAP_SEARCH_SCOPE") {
            if let parsed = Scope(rawValue: raw.lowercased()) { scope = parsed } else {
                problems.append("\(label("SG_LDAP_SEARCH_SCOPE")) '\(raw)' is not one of sub, one")
            }
        }

        // The service account.
        let bindDN = distinguishedName("SG_LDAP_BIND_DN")
        var bindPassword = value("SG_LDAP_BIND_PASSWORD").flatMap { $0.isEmpty ? nil : $0 }
        if let file = text("SG_LDAP_BIND_PASSWORD_FILE") {
            if bindPassword != nil {
                problems.append("\(label("SG_LDAP_BIND_PASSWORD")) and \(label("SG_LDAP_BIND_PASSWORD_FILE")) are both set: use one")
            } else if let data = FileManager.default.contents(atPath: file) {
                var password = String(decoding: data, as: UTF8.self)
                while password.hasSuffix("\n") || password.hasSuffix("\r") { password.removeLast() }
                if password.isEmpty {
                    problems.append("\(label("SG_LDAP_BIND_PASSWORD_FILE")) '\(file)' is empty")
                } else {
                    bindPassword = password
                }
            } else {
                problems.append("\(label("SG_LDAP_BIND_PASSWORD_FILE")) '\(file)' cannot be read")
            }
        }
        if bindDN != nil, bindPassword == nil, text("SG_LDAP_BIND_PASSWORD_FILE") == nil {
            problems.append(
                "\(label("SG_LDAP_BIND_DN")) is set but \(label("SG_LDAP_BIND_PASSWORD")) or \(label("SG_LDAP_BIND_PASSWORD_FILE")) is missing")
        }
        if bindDN == nil, bindPassword != nil {
            problems.append("a bind password is set but \(label("SG_LDAP_BIND_DN")) is missing")
        }
        if bindDN == nil, case .searchThenBind = mode {
            warnings.append("no service account (SG_LDAP_BIND_DN): user searches are anonymous")
        }

        // Admin role.
        var admin: AdminRule?
        let adminGroup = distinguishedName("SG_LDAP_ADMIN_GROUP")
        let memberAttribute = text("SG_LDAP_GROUP_MEMBER_ATTRIBUTE")
        let memberOfAttribute = text("SG_LDAP_MEMBER_OF_ATTRIBUTE")
        var groupMember = GroupMemberAttribute.member
        if let memberAttribute {
            if let parsed = GroupMemberAttribute.allCases.first(where: { $0.rawValue.lowercased() == memberAttribute.lowercased() }) {
                groupMember = parsed
            } else {
                problems.append("\(label("SG_LDAP_GROUP_MEMBER_ATTRIBUTE")) '\(memberAttribute)' is not one of member, uniqueMember, memberUid")
            }
        }
        if let memberOfAttribute, !isAttributeDescription(memberOfAttribute) {
            problems.append("\(label("SG_LDAP_MEMBER_OF_ATTRIBUTE")) '\(memberOfAttribute)' is not an attribute name")
        }
        if memberAttribute != nil, memberOfAttribute != nil {
            problems.append(
                "\(label("SG_LDAP_GROUP_MEMBER_ATTRIBUTE")) and \(label("SG_LDAP_MEMBER_OF_ATTRIBUTE")) are both set: "
                    + "read membership from the group entry or from the user's entry, not both")
        }
        if let adminGroup {
            admin = memberOfAttribute.map { .memberOf(attribute: $0, groupDN: adminGroup) }
                ?? .groupEntry(groupDN: adminGroup, memberAttribute: groupMember)
        } else if memberAttribute != nil || memberOfAttribute != nil {
            problems.append("\(label("SG_LDAP_ADMIN_GROUP")) is missing: the group membership settings need the admin group's DN")
        }

        var attributes = Attributes()
        attributes.username = attribute("SG_LDAP_ATTR_USERNAME", default: attributes.username)
        attributes.givenName = attribute("SG_LDAP_ATTR_GIVEN_NAME", default: attributes.givenName)
        attributes.surname = attribute("SG_LDAP_ATTR_SURNAME", default: attributes.surname)
        attributes.fullName = attribute("SG_LDAP_ATTR_FULL_NAME", default: attributes.fullName)
        attributes.email = attribute("SG_LDAP_ATTR_EMAIL", default: attributes.email)
        attributes.title = attribute("SG_LDAP_ATTR_TITLE", default: attributes.title)
        attributes.phone = attribute("SG_LDAP_ATTR_PHONE", default: attributes.phone)

        // TLS.
        var tls = TLS()
        tls.startTLS = flag("SG_LDAP_START_TLS", default: false)
        tls.verifyCertificates = flag("SG_LDAP_TLS_VERIFY", default: true)
        if let caFile = text("SG_LDAP_CA_FILE") {
            if FileManager.default.isReadableFile(atPath: caFile) { tls.caFile = caFile } else {
                problems.append("\(label("SG_LDAP_CA_FILE")) '\(caFile)' cannot be read")
            }
        }
        if tls.startTLS, let url, urls(in: url).contains(where: isLDAPS) {
            problems.append("\(label("SG_LDAP_START_TLS")) is on but \(label("SG_LDAP_URL")) is ldaps://, which is TLS already: turn one off")
        }
        if !tls.verifyCertificates {
            warnings.append("SG_LDAP_TLS_VERIFY is off: the directory's certificate is not checked")
        }

        let timeout = seconds("SG_LDAP_TIMEOUT", default: 3)
        let connectTimeout = seconds("SG_LDAP_CONNECT_TIMEOUT", default: 3)
        let syncFilter = text("SG_LDAP_SYNC_FILTER")
        if let syncFilter, !isPlausibleFilter(syncFilter) {
            problems.append("\(label("SG_LDAP_SYNC_FILTER")) '\(syncFilter)' is not a parenthesized filter with balanced parentheses")
        }
        var threads = 4
        if let raw = text("SG_LDAP_THREADS") {
            if let number = Int(raw), (1...64).contains(number) { threads = number } else {
                problems.append("\(label("SG_LDAP_THREADS")) '\(raw)' is not a number between 1 and 64")
            }
        }

        guard problems.isEmpty, let url else { return Resolution(configuration: nil, problems: problems, warnings: warnings) }
        let configuration = LDAPConfiguration(
            url: url, baseDN: baseDN ?? "", bindDN: bindDN, bindPassword: bindPassword, mode: mode, scope: scope,
            admin: admin, attributes: attributes, tls: tls, connectTimeout: connectTimeout, timeout: timeout,
            syncFilter: syncFilter, threads: threads)
        if configuration.sendsPasswordsInClear {
            warnings.append("SG_LDAP_URL is ldap:// without SG_LDAP_START_TLS: passwords cross the network unencrypted")
        }
        return Resolution(configuration: configuration, problems: [], warnings: warnings)
    }

    /// True when libldap parses `dn` as an LDAPv3 distinguished name.
    public static func isValidDN(_ dn: String) -> Bool {
        sg_ldap_valid_dn(dn) != 0
    }

    static func isAttributeDescription(_ name: String) -> Bool {
        let parts = name.split(separator: ";", omittingEmptySubsequences: false)
        guard let base = parts.first, !base.isEmpty else { return false }
        let isDescriptor = base.first!.isASCII && base.first!.isLetter
            && base.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
        let isOID = base.split(separator: ".", omittingEmptySubsequences: false)
            .allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }
        let optionsOK = parts.dropFirst().allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") } }
        return (isDescriptor || isOID) && optionsOK
    }

    static func isPlausibleFilter(_ filter: String) -> Bool {
        guard filter.hasPrefix("("), filter.hasSuffix(")") else { return false }
        var depth = 0
        var escaped = false
        for character in filter {
            if escaped { escaped = false; continue }
            switch character {
            case "\\": escaped = true
            case "(": depth += 1
            case ")":
                depth -= 1
                if depth < 0 { return false }
            default: break
            }
        }
        return depth == 0
    }
}
