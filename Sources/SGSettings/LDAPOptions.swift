import ArgumentParser
import SGLDAP

/// The SG_LDAP_* settings as command-line options, shared by `sgserver` and `sgadmin`. A flag wins over its
/// environment variable. The service account's password has no flag: a command line is visible to every
/// user of the host; use SG_LDAP_BIND_PASSWORD or --ldap-bind-password-file.
public struct LDAPOptions: ParsableArguments {
    @Option(name: .customLong("ldap-url"), help: "ldap:// or ldaps:// URL(s) of the directory, space-separated [SG_LDAP_URL].")
    public var url: String?
    @Option(name: .customLong("ldap-base-dn"), help: "Where users are searched, e.g. dc=example,dc=com [SG_LDAP_BASE_DN].")
    public var baseDN: String?
    @Option(name: .customLong("ldap-bind-dn"), help: "The service account's DN (without it, searches are anonymous) [SG_LDAP_BIND_DN].")
    public var bindDN: String?
    @Option(name: .customLong("ldap-bind-password-file"), help: "File holding the service account's password (or SG_LDAP_BIND_PASSWORD; no flag for the password itself, as command lines are visible to every user of the host) [SG_LDAP_BIND_PASSWORD_FILE].")
    public var bindPasswordFile: String?
    @Option(name: .customLong("ldap-user-filter"), help: "Filter that finds a user; {username} is escaped per RFC 4515 [SG_LDAP_USER_FILTER, default (uid={username})].")
    public var userFilter: String?
    @Option(name: .customLong("ldap-user-dn-template"), help: "Bind directly as this DN instead of searching; {username} is escaped per RFC 4514 [SG_LDAP_USER_DN_TEMPLATE].")
    public var userDNTemplate: String?
    @Option(name: .customLong("ldap-search-scope"), help: "sub or one [SG_LDAP_SEARCH_SCOPE, default sub].")
    public var searchScope: String?
    @Option(name: .customLong("ldap-admin-group"), help: "DN of the group whose members are admins in the app [SG_LDAP_ADMIN_GROUP].")
    public var adminGroup: String?
    @Option(name: .customLong("ldap-group-member-attribute"), help: "How the admin group lists members: member, uniqueMember or memberUid [SG_LDAP_GROUP_MEMBER_ATTRIBUTE, default member].")
    public var groupMemberAttribute: String?
    @Option(name: .customLong("ldap-member-of-attribute"), help: "Read admin membership from this attribute of the user instead, e.g. memberOf [SG_LDAP_MEMBER_OF_ATTRIBUTE].")
    public var memberOfAttribute: String?
    @Option(name: .customLong("ldap-attr-username"), help: "Attribute holding the username [SG_LDAP_ATTR_USERNAME, default uid].")
    public var attrUsername: String?
    @Option(name: .customLong("ldap-attr-given-name"), help: "Attribute holding the given name [SG_LDAP_ATTR_GIVEN_NAME, default givenName].")
    public var attrGivenName: String?
    @Option(name: .customLong("ldap-attr-surname"), help: "Attribute holding the surname [SG_LDAP_ATTR_SURNAME, default sn].")
    public var attrSurname: String?
    @Option(name: .customLong("ldap-attr-full-name"), help: "Attribute holding the full name [SG_LDAP_ATTR_FULL_NAME, default cn].")
    public var attrFullName: String?
    @Option(name: .customLong("ldap-attr-email"), help: "Attribute holding the e-mail address [SG_LDAP_ATTR_EMAIL, default mail].")
    public var attrEmail: String?
    @Option(name: .customLong("ldap-attr-title"), help: "Attribute holding the job title [SG_LDAP_ATTR_TITLE, default title].")
    public var attrTitle: String?
    @Option(name: .customLong("ldap-attr-phone"), help: "Attribute holding the phone number [SG_LDAP_ATTR_PHONE, default telephoneNumber].")
    public var attrPhone: String?
    @Option(name: .customLong("ldap-team-attribute"), help: "Attribute naming the employee's team, set at each login, e.g. departmentNumber [SG_LDAP_TEAM_ATTRIBUTE, default: teams are kept in the app].")
    public var teamAttribute: String?
    @Option(name: .customLong("ldap-attr-employment-start"), help: "Attribute holding the first day of employment, set at each login [SG_LDAP_ATTR_EMPLOYMENT_START, default: set in the app].")
    public var attrEmploymentStart: String?
    @Option(name: .customLong("ldap-attr-employment-end"), help: "Attribute holding the last day of employment, set at each login [SG_LDAP_ATTR_EMPLOYMENT_END, default: set in the app].")
    public var attrEmploymentEnd: String?
    @Option(name: .customLong("ldap-start-tls"), help: "Upgrade ldap:// with StartTLS: true or false [SG_LDAP_START_TLS, default false].")
    public var startTLS: String?
    @Option(name: .customLong("ldap-ca-file"), help: "PEM file of the CAs that sign the directory's certificate [SG_LDAP_CA_FILE, default: the system's].")
    public var caFile: String?
    @Option(name: .customLong("ldap-tls-verify"), help: "Check the directory's certificate: true or false [SG_LDAP_TLS_VERIFY, default true].")
    public var tlsVerify: String?
    @Option(name: .customLong("ldap-timeout"), help: "Seconds for each directory operation [SG_LDAP_TIMEOUT, default 3].")
    public var timeout: String?
    @Option(name: .customLong("ldap-connect-timeout"), help: "Seconds to connect to the directory [SG_LDAP_CONNECT_TIMEOUT, default 3].")
    public var connectTimeout: String?
    @Option(name: .customLong("ldap-sync-filter"), help: "Filter that lists every user for sgadmin ldap sync [SG_LDAP_SYNC_FILTER, default: the user filter with {username} as *].")
    public var syncFilter: String?
    @Option(name: .customLong("ldap-threads"), help: "Threads (and connections) for directory calls [SG_LDAP_THREADS, default 4].")
    public var threads: String?
    @Option(name: .customLong("ldap-password-url"), help: "The company's page for changing a directory password, which the app's password routes point to [SG_LDAP_PASSWORD_URL].")
    public var passwordURL: String?

    public init() {}

    /// The flags given, keyed by their environment variable's name.
    public var flags: [String: String?] {
        [
            "SG_LDAP_URL": url,
            "SG_LDAP_BASE_DN": baseDN,
            "SG_LDAP_BIND_DN": bindDN,
            "SG_LDAP_BIND_PASSWORD_FILE": bindPasswordFile,
            "SG_LDAP_USER_FILTER": userFilter,
            "SG_LDAP_USER_DN_TEMPLATE": userDNTemplate,
            "SG_LDAP_SEARCH_SCOPE": searchScope,
            "SG_LDAP_ADMIN_GROUP": adminGroup,
            "SG_LDAP_GROUP_MEMBER_ATTRIBUTE": groupMemberAttribute,
            "SG_LDAP_MEMBER_OF_ATTRIBUTE": memberOfAttribute,
            "SG_LDAP_ATTR_USERNAME": attrUsername,
            "SG_LDAP_ATTR_GIVEN_NAME": attrGivenName,
            "SG_LDAP_ATTR_SURNAME": attrSurname,
            "SG_LDAP_ATTR_FULL_NAME": attrFullName,
            "SG_LDAP_ATTR_EMAIL": attrEmail,
            "SG_LDAP_ATTR_TITLE": attrTitle,
            "SG_LDAP_ATTR_PHONE": attrPhone,
            "SG_LDAP_TEAM_ATTRIBUTE": teamAttribute,
            "SG_LDAP_ATTR_EMPLOYMENT_START": attrEmploymentStart,
            "SG_LDAP_ATTR_EMPLOYMENT_END": attrEmploymentEnd,
            "SG_LDAP_START_TLS": startTLS,
            "SG_LDAP_CA_FILE": caFile,
            "SG_LDAP_TLS_VERIFY": tlsVerify,
            "SG_LDAP_TIMEOUT": timeout,
            "SG_LDAP_CONNECT_TIMEOUT": connectTimeout,
            "SG_LDAP_SYNC_FILTER": syncFilter,
            "SG_LDAP_THREADS": threads,
            "SG_LDAP_PASSWORD_URL": passwordURL,
        ]
    }

    /// The configuration from these flags, then `environment`; every problem at once.
    public func configuration(environment: [String: String]) throws(SettingsProblems) -> LDAPConfiguration {
        var settings = SettingsResolver(flags: flags, environment: environment)
        let configuration = settings.ldapConfiguration()
        return try settings.checked(configuration)
    }
}
