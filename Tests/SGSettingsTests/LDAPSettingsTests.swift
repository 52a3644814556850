import ArgumentParser
import Foundation
import SGLDAP
import SGSettings
import Testing

@Suite("SG_LDAP_* settings")
struct LDAPSettingsTests {
    struct Resolution {
        var configuration: LDAPConfiguration?
        var problems: [String]
        var warnings: [String]
    }

    /// The settings as environment variables, with sgserver's and sgadmin's --ldap-* flags declared but not given.
    static func resolve(_ settings: [String: String]) throws -> Resolution {
        var resolver = SettingsResolver(flags: try LDAPOptions.parse([]).flags, environment: settings)
        let configuration = resolver.ldapConfiguration()
        return Resolution(configuration: configuration, problems: resolver.problems, warnings: resolver.warnings)
    }

    @Test("the minimum: URL, base, service account; inetOrgPerson defaults")
    func minimal() throws {
        let resolution = try Self.resolve([
            "SG_LDAP_URL": "ldaps://ldap.example.com", "SG_LDAP_BASE_DN": "dc=example,dc=com",
            "SG_LDAP_BIND_DN": "cn=svc,dc=example,dc=com", "SG_LDAP_BIND_PASSWORD": "pw",
        ])
        #expect(resolution.problems.isEmpty)
        let configuration = try #require(resolution.configuration)
        #expect(configuration.mode == .searchThenBind(filter: "(uid={username})"))
        #expect(configuration.attributes == LDAPConfiguration.Attributes())
        #expect(configuration.attributes.all == ["uid", "givenName", "sn", "cn", "mail", "title", "telephoneNumber"])
        #expect(configuration.attributes.team == nil)
        #expect(configuration.timeout == 3)
        #expect(configuration.connectTimeout == 3)
        #expect(configuration.tls.verifyCertificates)
        #expect(configuration.admin == nil)
        #expect(configuration.scope == .sub)
        #expect(!configuration.sendsPasswordsInClear)
    }

    @Test("an Active Directory setup")
    func activeDirectory() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("sg-bind-\(UUID().uuidString)")
        try "s3cret-from-file\n".write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let resolution = try Self.resolve([
            "SG_LDAP_URL": "ldap://dc1.corp.example.com ldap://dc2.corp.example.com",
            "SG_LDAP_START_TLS": "true",
            "SG_LDAP_BASE_DN": "OU=Staff,DC=corp,DC=example,DC=com",
            "SG_LDAP_BIND_DN": "CN=svc-holidays,OU=Service Accounts,DC=corp,DC=example,DC=com",
            "SG_LDAP_BIND_PASSWORD_FILE": file.path,
            "SG_LDAP_USER_FILTER": "(&(objectCategory=person)(objectClass=user)(sAMAccountName={username}))",
            "SG_LDAP_ATTR_USERNAME": "sAMAccountName",
            "SG_LDAP_ADMIN_GROUP": "CN=Holiday Admins,OU=Groups,DC=corp,DC=example,DC=com",
            "SG_LDAP_MEMBER_OF_ATTRIBUTE": "memberOf",
            "SG_LDAP_TIMEOUT": "2.5",
            "SG_LDAP_TEAM_ATTRIBUTE": "department",
            "SG_LDAP_ATTR_EMPLOYMENT_START": "extensionAttribute1",
        ])
        #expect(resolution.problems.isEmpty)
        let configuration = try #require(resolution.configuration)
        #expect(configuration.attributes.team == "department" && configuration.attributes.all.suffix(2) == ["department", "extensionAttribute1"])
        #expect(configuration.attributes.employmentStart == "extensionAttribute1" && configuration.attributes.employmentEnd == nil)
        #expect(try Self.resolve(["SG_LDAP_ATTR_EMPLOYMENT_END": "end date"]).problems.contains { $0.contains("SG_LDAP_ATTR_EMPLOYMENT_END") })
        #expect(try Self.resolve(["SG_LDAP_TEAM_ATTRIBUTE": "not an attribute"]).problems.contains { $0.contains("SG_LDAP_TEAM_ATTRIBUTE") })
        #expect(configuration.bindPassword == "s3cret-from-file")
        #expect(configuration.admin == .memberOf(attribute: "memberOf", groupDN: "CN=Holiday Admins,OU=Groups,DC=corp,DC=example,DC=com"))
        #expect(configuration.attributes.username == "sAMAccountName")
        #expect(configuration.timeout == 2.5)
        #expect(configuration.tls.startTLS)
        #expect(configuration.effectiveSyncFilter == "(&(objectCategory=person)(objectClass=user)(sAMAccountName=*))")
    }

    @Test("every problem is named at once")
    func everyProblem() throws {
        let resolution = try Self.resolve([
            "SG_LDAP_URL": "http://ldap.example.com",
            "SG_LDAP_BIND_DN": "not a dn",
            "SG_LDAP_BIND_PASSWORD": "pw",
            "SG_LDAP_BIND_PASSWORD_FILE": "/nonexistent/password",
            "SG_LDAP_USER_FILTER": "uid=x",
            "SG_LDAP_GROUP_MEMBER_ATTRIBUTE": "owner",
            "SG_LDAP_MEMBER_OF_ATTRIBUTE": "memberOf",
            "SG_LDAP_ATTR_EMAIL": "e mail",
            "SG_LDAP_START_TLS": "maybe",
            "SG_LDAP_CA_FILE": "/nonexistent/ca.pem",
            "SG_LDAP_TIMEOUT": "0",
            "SG_LDAP_CONNECT_TIMEOUT": "ten",
            "SG_LDAP_SEARCH_SCOPE": "base",
        ])
        #expect(resolution.configuration == nil)
        let text = resolution.problems.joined(separator: "\n")
        for expected in [
            "SG_LDAP_URL / --ldap-url 'http://ldap.example.com' is not an ldap:// or ldaps:// URL",
            "SG_LDAP_BASE_DN / --ldap-base-dn is missing",
            "SG_LDAP_BIND_DN / --ldap-bind-dn 'not a dn' is not a distinguished name",
            "are both set: use one",
            "SG_LDAP_USER_FILTER / --ldap-user-filter 'uid=x' has no {username} placeholder",
            "'owner' is not one of member, uniqueMember, memberUid",
            "SG_LDAP_ADMIN_GROUP / --ldap-admin-group is missing",
            "read membership from the group entry or from the user's entry, not both",
            "SG_LDAP_ATTR_EMAIL / --ldap-attr-email 'e mail' is not an attribute name",
            "SG_LDAP_START_TLS / --ldap-start-tls 'maybe' is not a yes/no value",
            "SG_LDAP_CA_FILE / --ldap-ca-file '/nonexistent/ca.pem' cannot be read",
            "SG_LDAP_TIMEOUT / --ldap-timeout '0' is not a number of seconds",
            "SG_LDAP_CONNECT_TIMEOUT / --ldap-connect-timeout 'ten' is not a number of seconds",
            "SG_LDAP_SEARCH_SCOPE / --ldap-search-scope 'base' is not one of sub, one",
        ] {
            #expect(text.contains(expected), "missing: \(expected)")
        }
        #expect(resolution.problems.count >= 14)
    }

    @Test("nothing set: the URL and base are named")
    func nothing() throws {
        let resolution = try Self.resolve([:])
        #expect(resolution.configuration == nil)
        #expect(resolution.problems.count == 2)
        #expect(resolution.problems[0].contains("SG_LDAP_URL"))
        #expect(resolution.problems[1].contains("SG_LDAP_BASE_DN"))
    }

    @Test("direct bind needs no base and no service account, but a {username}")
    func directBind() throws {
        let good = try Self.resolve([
            "SG_LDAP_URL": "ldaps://ldap.example.com",
            "SG_LDAP_USER_DN_TEMPLATE": "uid={username},ou=people,dc=example,dc=com",
        ])
        #expect(good.problems.isEmpty)
        #expect(try #require(good.configuration).mode == .directBind(dnTemplate: "uid={username},ou=people,dc=example,dc=com"))

        let bad = try Self.resolve([
            "SG_LDAP_URL": "ldaps://ldap.example.com",
            "SG_LDAP_USER_DN_TEMPLATE": "uid=fixed,ou=people,dc=example,dc=com",
            "SG_LDAP_USER_FILTER": "(uid={username})",
        ])
        #expect(bad.problems.count == 2)
    }

    @Test("StartTLS over ldaps:// is a contradiction; plain ldap:// is a warning")
    func tlsChoices() throws {
        let contradiction = try Self.resolve([
            "SG_LDAP_URL": "ldaps://ldap.example.com", "SG_LDAP_BASE_DN": "dc=example,dc=com", "SG_LDAP_START_TLS": "1",
        ])
        #expect(contradiction.problems.count == 1)
        let plain = try Self.resolve(["SG_LDAP_URL": "ldap://ldap.example.com", "SG_LDAP_BASE_DN": "dc=example,dc=com"])
        #expect(plain.problems.isEmpty)
        #expect(plain.warnings.contains { $0.contains("unencrypted") })
        #expect(try #require(plain.configuration).sendsPasswordsInClear)
    }
}

extension LDAPSettingsTests {
    @Test("SG_LDAP_PASSWORD_URL: the company's password page, an http(s) address")
    func passwordPage() throws {
        let base = [
            "SG_LDAP_URL": "ldaps://ldap.example.com", "SG_LDAP_BASE_DN": "dc=example,dc=com",
            "SG_LDAP_BIND_DN": "cn=svc,dc=example,dc=com", "SG_LDAP_BIND_PASSWORD": "pw",
        ]
        #expect(try Self.resolve(base).configuration?.passwordURL == nil)
        for page in ["https://id.example.com/password", "http://intranet/passwort?lang=de"] {
            let resolution = try Self.resolve(base.merging(["SG_LDAP_PASSWORD_URL": page]) { _, new in new })
            #expect(resolution.problems.isEmpty && resolution.configuration?.passwordURL == page)
            #expect(LDAPDirectory(configuration: try #require(resolution.configuration)).passwordPage == page)
        }
        for bad in ["id.example.com/password", "ftp://id.example.com", "https://", "https://id.example.com/a b"] {
            let resolution = try Self.resolve(base.merging(["SG_LDAP_PASSWORD_URL": bad]) { _, new in new })
            #expect(resolution.configuration == nil)
            #expect(resolution.problems == ["SG_LDAP_PASSWORD_URL / --ldap-password-url '\(bad)' is not an http(s) address with a host (at most 300 characters)"])
        }
    }
}

@Suite("SG_LDAP_URL lists")
struct LDAPURLListTests {
    /// Issue 18, finding 8: libldap tries the URLs in turn, so an ldap:// after an ldaps:// is where logins went in
    /// clear as soon as the TLS server was down.
    @Test("a list mixing ldaps:// and ldap:// is refused")
    func mixedList() throws {
        for url in ["ldaps://a.example.com ldap://b.example.com", "ldap://b.example.com,ldaps://a.example.com"] {
            let resolution = try LDAPSettingsTests.resolve([
                "SG_LDAP_URL": url, "SG_LDAP_BASE_DN": "dc=example,dc=com",
                "SG_LDAP_BIND_DN": "cn=svc,dc=example,dc=com", "SG_LDAP_BIND_PASSWORD": "pw",
            ])
            #expect(resolution.configuration == nil, "\(url)")
            #expect(resolution.problems.contains { $0.contains("SG_LDAP_URL") && $0.contains("cleartext") }, "\(resolution.problems)")
        }
        // All ldaps://, or all ldap:// with StartTLS, are fine.
        for (url, startTLS) in [("ldaps://a.example.com ldaps://b.example.com", "false"), ("ldap://a.example.com ldap://b.example.com", "true")] {
            let resolution = try LDAPSettingsTests.resolve([
                "SG_LDAP_URL": url, "SG_LDAP_START_TLS": startTLS, "SG_LDAP_BASE_DN": "dc=example,dc=com",
                "SG_LDAP_BIND_DN": "cn=svc,dc=example,dc=com", "SG_LDAP_BIND_PASSWORD": "pw",
            ])
            #expect(resolution.problems.isEmpty, "\(resolution.problems)")
        }
    }
}
