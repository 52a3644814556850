import Foundation
import SGCore
import SGLDAP

extension SettingsResolver {
    /// Reads the SG_LDAP_* settings; nil when any of them is a problem.
    public mutating func ldapConfiguration() -> LDAPConfiguration? {
        let problemsBefore = problems.count
        func flag(_ name: String, default fallback: Bool) -> Bool {
            parse(name, trimmed: true, default: fallback, "is not a yes/no value (true, false, 1, 0, yes, no, on, off)") {
                switch $0.lowercased() {
                case "1", "true", "yes", "on": true
                case "0", "false", "no", "off": false
                default: nil
                }
            }
        }
        func seconds(_ name: String, default fallback: Double) -> Double {
            parse(name, trimmed: true, default: fallback, "is not a number of seconds between 0.1 and 60") {
                Double($0).flatMap { $0 >= 0.1 && $0 <= 60 ? $0 : nil }
            }
        }
        func distinguishedName(_ name: String) -> String? {
            guard let dn = text(name) else { return nil }
            if !LDAPConfiguration.isValidDN(dn) { problem("\(label(name)) '\(dn)' is not a distinguished name (RFC 4514)") }
            return dn
        }
        func attribute(_ name: String, default fallback: String) -> String {
            guard let raw = text(name) else { return fallback }
            if !Self.isAttributeDescription(raw) {
                problem("\(label(name)) '\(raw)' is not an attribute name (letters, digits, '-', or an OID)")
            }
            return raw
        }

        // Where the directory is.
        let url = text("SG_LDAP_URL")
        if let url {
            let urls = LDAPConfiguration.urls(in: url)
            for item in urls where !LDAPConfiguration.isLDAPURL(item) {
                problem("\(label("SG_LDAP_URL")) '\(item)' is not an ldap:// or ldaps:// URL")
            }
            // libldap tries the list in turn: an ldap:// one is where logins go when the ldaps:// ones are down.
            if urls.contains(where: LDAPConfiguration.isLDAPS), urls.contains(where: { !LDAPConfiguration.isLDAPS($0) }) {
                problem(
                    "\(label("SG_LDAP_URL")) '\(url)' mixes ldaps:// and ldap:// URLs: whenever the ldaps:// servers could not be "
                        + "reached, logins would fall back to cleartext. List only ldaps:// URLs, or only ldap:// ones with SG_LDAP_START_TLS")
            }
        } else {
            problem("\(label("SG_LDAP_URL")) is missing (e.g. ldaps://ldap.example.com)")
        }

        // How logins find their entry.
        let filter = text("SG_LDAP_USER_FILTER")
        let template = text("SG_LDAP_USER_DN_TEMPLATE")
        var mode = LDAPConfiguration.Mode.searchThenBind(filter: filter ?? "(uid={username})")
        if filter != nil, template != nil {
            problem(
                "\(label("SG_LDAP_USER_FILTER")) and \(label("SG_LDAP_USER_DN_TEMPLATE")) are both set: "
                    + "set the filter to search then bind, or the template to bind directly, not both")
        }
        if let template {
            mode = .directBind(dnTemplate: template)
            if !template.contains(LDAPEscaping.placeholder) {
                problem("\(label("SG_LDAP_USER_DN_TEMPLATE")) '\(template)' has no {username} placeholder")
            } else if !LDAPConfiguration.isValidDN(LDAPEscaping.distinguishedName(template, username: "x")) {
                problem("\(label("SG_LDAP_USER_DN_TEMPLATE")) '\(template)' is not a distinguished name once {username} is filled in")
            }
        } else if let filter {
            if !filter.contains(LDAPEscaping.placeholder) {
                problem("\(label("SG_LDAP_USER_FILTER")) '\(filter)' has no {username} placeholder")
            } else if !Self.isPlausibleFilter(filter) {
                problem("\(label("SG_LDAP_USER_FILTER")) '\(filter)' is not a parenthesized filter with balanced parentheses")
            }
        }

        let baseDN = distinguishedName("SG_LDAP_BASE_DN")
        if baseDN == nil, case .searchThenBind = mode {
            problem("\(label("SG_LDAP_BASE_DN")) is missing (where users are searched, e.g. dc=example,dc=com)")
        }
        let scope = parse("SG_LDAP_SEARCH_SCOPE", trimmed: true, default: LDAPConfiguration.Scope.sub, "is not one of sub, one") {
            LDAPConfiguration.Scope(rawValue: $0.lowercased())
        }

        // The service account.
        let bindDN = distinguishedName("SG_LDAP_BIND_DN")
        var bindPassword = value("SG_LDAP_BIND_PASSWORD").flatMap { $0.isEmpty ? nil : $0 }
        if let file = text("SG_LDAP_BIND_PASSWORD_FILE") {
            if bindPassword != nil {
                problem("\(label("SG_LDAP_BIND_PASSWORD")) and \(label("SG_LDAP_BIND_PASSWORD_FILE")) are both set: use one")
            } else if let data = FileManager.default.contents(atPath: file) {
                var password = String(decoding: data, as: UTF8.self)
                while password.hasSuffix("\n") || password.hasSuffix("\r") { password.removeLast() }
                if password.isEmpty {
                    problem("\(label("SG_LDAP_BIND_PASSWORD_FILE")) '\(file)' is empty")
                } else {
                    bindPassword = password
                }
            } else {
                problem("\(label("SG_LDAP_BIND_PASSWORD_FILE")) '\(file)' cannot be read")
            }
        }
        if bindDN != nil, bindPassword == nil, text("SG_LDAP_BIND_PASSWORD_FILE") == nil {
            problem(
                "\(label("SG_LDAP_BIND_DN")) is set but \(label("SG_LDAP_BIND_PASSWORD")) or \(label("SG_LDAP_BIND_PASSWORD_FILE")) is missing")
        }
        if bindDN == nil, bindPassword != nil {
            problem("a bind password is set but \(label("SG_LDAP_BIND_DN")) is missing")
        }
        if bindDN == nil, case .searchThenBind = mode {
            warn("no service account (SG_LDAP_BIND_DN): user searches are anonymous")
        }

        // Admin role.
        var admin: LDAPConfiguration.AdminRule?
        let adminGroup = distinguishedName("SG_LDAP_ADMIN_GROUP")
        let memberAttribute = text("SG_LDAP_GROUP_MEMBER_ATTRIBUTE")
        let memberOfAttribute = text("SG_LDAP_MEMBER_OF_ATTRIBUTE")
        let groupMember = parse(
            "SG_LDAP_GROUP_MEMBER_ATTRIBUTE", trimmed: true, default: LDAPConfiguration.GroupMemberAttribute.member,
            "is not one of member, uniqueMember, memberUid"
        ) { raw in
            LDAPConfiguration.GroupMemberAttribute.allCases.first { $0.rawValue.lowercased() == raw.lowercased() }
        }
        if let memberOfAttribute, !Self.isAttributeDescription(memberOfAttribute) {
            problem("\(label("SG_LDAP_MEMBER_OF_ATTRIBUTE")) '\(memberOfAttribute)' is not an attribute name")
        }
        if memberAttribute != nil, memberOfAttribute != nil {
            problem(
                "\(label("SG_LDAP_GROUP_MEMBER_ATTRIBUTE")) and \(label("SG_LDAP_MEMBER_OF_ATTRIBUTE")) are both set: "
                    + "read membership from the group entry or from the user's entry, not both")
        }
        if let adminGroup {
            admin = memberOfAttribute.map { .memberOf(attribute: $0, groupDN: adminGroup) }
                ?? .groupEntry(groupDN: adminGroup, memberAttribute: groupMember)
        } else if memberAttribute != nil || memberOfAttribute != nil {
            problem("\(label("SG_LDAP_ADMIN_GROUP")) is missing: the group membership settings need the admin group's DN")
        }

        var attributes = LDAPConfiguration.Attributes()
        attributes.username = attribute("SG_LDAP_ATTR_USERNAME", default: attributes.username)
        attributes.givenName = attribute("SG_LDAP_ATTR_GIVEN_NAME", default: attributes.givenName)
        attributes.surname = attribute("SG_LDAP_ATTR_SURNAME", default: attributes.surname)
        attributes.fullName = attribute("SG_LDAP_ATTR_FULL_NAME", default: attributes.fullName)
        attributes.email = attribute("SG_LDAP_ATTR_EMAIL", default: attributes.email)
        attributes.title = attribute("SG_LDAP_ATTR_TITLE", default: attributes.title)
        attributes.phone = attribute("SG_LDAP_ATTR_PHONE", default: attributes.phone)
        if text("SG_LDAP_TEAM_ATTRIBUTE") != nil { attributes.team = attribute("SG_LDAP_TEAM_ATTRIBUTE", default: "") }
        if text("SG_LDAP_ATTR_EMPLOYMENT_START") != nil { attributes.employmentStart = attribute("SG_LDAP_ATTR_EMPLOYMENT_START", default: "") }
        if text("SG_LDAP_ATTR_EMPLOYMENT_END") != nil { attributes.employmentEnd = attribute("SG_LDAP_ATTR_EMPLOYMENT_END", default: "") }

        // TLS.
        var tls = LDAPConfiguration.TLS()
        tls.startTLS = flag("SG_LDAP_START_TLS", default: false)
        tls.verifyCertificates = flag("SG_LDAP_TLS_VERIFY", default: true)
        if let caFile = text("SG_LDAP_CA_FILE") {
            if FileManager.default.isReadableFile(atPath: caFile) { tls.caFile = caFile } else {
                problem("\(label("SG_LDAP_CA_FILE")) '\(caFile)' cannot be read")
            }
        }
        if tls.startTLS, let url, LDAPConfiguration.urls(in: url).contains(where: LDAPConfiguration.isLDAPS) {
            problem("\(label("SG_LDAP_START_TLS")) is on but \(label("SG_LDAP_URL")) is ldaps://, which is TLS already: turn one off")
        }
        if !tls.verifyCertificates {
            warn("SG_LDAP_TLS_VERIFY is off: the directory's certificate is not checked")
        }

        let timeout = seconds("SG_LDAP_TIMEOUT", default: 3)
        let connectTimeout = seconds("SG_LDAP_CONNECT_TIMEOUT", default: 3)
        let syncFilter = text("SG_LDAP_SYNC_FILTER")
        if let syncFilter, !Self.isPlausibleFilter(syncFilter) {
            problem("\(label("SG_LDAP_SYNC_FILTER")) '\(syncFilter)' is not a parenthesized filter with balanced parentheses")
        }
        let threads = integer("SG_LDAP_THREADS", trimmed: true, in: 1...64, default: 4)
        let passwordURL = ldapPasswordURL()

        guard problems.count == problemsBefore, let url else { return nil }
        let configuration = LDAPConfiguration(
            url: url, baseDN: baseDN ?? "", bindDN: bindDN, bindPassword: bindPassword, mode: mode, scope: scope,
            admin: admin, attributes: attributes, tls: tls, connectTimeout: connectTimeout, timeout: timeout,
            syncFilter: syncFilter, threads: threads, passwordURL: passwordURL)
        if configuration.sendsPasswordsInClear {
            warn("SG_LDAP_URL is ldap:// without SG_LDAP_START_TLS: passwords cross the network unencrypted")
        }
        return configuration
    }

    /// SG_LDAP_PASSWORD_URL: the company's page for changing a directory password, an http(s) address (an intranet
    /// host without a dot too); nil when unset or a problem.
    public mutating func ldapPasswordURL() -> String? {
        guard let raw = text("SG_LDAP_PASSWORD_URL") else { return nil }
        guard TextRules.fits(raw, 300), !raw.contains(where: { $0.isWhitespace || $0.isNewline }),
              let components = URLComponents(string: raw), let scheme = components.scheme?.lowercased(),
              scheme == "https" || scheme == "http", !(components.host ?? "").isEmpty
        else {
            problem("\(label("SG_LDAP_PASSWORD_URL")) '\(raw)' is not an http(s) address with a host (at most 300 characters)")
            return nil
        }
        return raw
    }

    private static func isAttributeDescription(_ name: String) -> Bool {
        let parts = name.split(separator: ";", omittingEmptySubsequences: false)
        guard let base = parts.first, !base.isEmpty else { return false }
        let isDescriptor = base.first!.isASCII && base.first!.isLetter
            && base.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
        let isOID = base.split(separator: ".", omittingEmptySubsequences: false)
            .allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }
        let optionsOK = parts.dropFirst().allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") } }
        return (isDescriptor || isOID) && optionsOK
    }

    private static func isPlausibleFilter(_ filter: String) -> Bool {
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
