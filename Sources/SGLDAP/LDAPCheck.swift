import CLDAP
import Foundation
import SGCore

/// What `sgadmin ldap check USERNAME` found, step by step: connect, service bind, search, entry, groups, role.
public struct LDAPCheckReport: Sendable {
    public enum Outcome: String, Sendable {
        /// The step worked.
        case passed
        /// The step failed: a login for this user would fail here.
        case failed
        /// Information, neither good nor bad.
        case note
    }

    public struct Step: Sendable, Equatable {
        public let name: String
        public let outcome: Outcome
        public let detail: String
        /// How long the directory took, for steps that asked it.
        public let milliseconds: Int?
    }

    public internal(set) var username: String
    public internal(set) var steps: [Step] = []
    /// The employee a login would create or refresh, when the entry could be read.
    public internal(set) var account: DirectoryAccount?

    /// True when no step failed: the user can log in with the right password.
    public var succeeded: Bool { !steps.contains { $0.outcome == .failed } }

    public func step(_ name: String) -> Step? { steps.first { $0.name == name } }

    mutating func add(_ name: String, _ outcome: Outcome, _ detail: String, since start: ContinuousClock.Instant? = nil) {
        let milliseconds = start.map { start -> Int in
            let elapsed = ContinuousClock.now - start
            return Int(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
        }
        steps.append(Step(name: name, outcome: outcome, detail: detail, milliseconds: milliseconds))
    }

    /// The report as lines for a terminal: a mark, the step, what happened (and how long it took).
    public func text() -> String {
        let width = steps.map(\.name.count).max() ?? 0
        var lines = steps.map { step -> String in
            let mark = switch step.outcome {
            case .passed: "ok  "
            case .failed: "FAIL"
            case .note: "  - "
            }
            let time = step.milliseconds.map { " (\($0) ms)" } ?? ""
            let name = step.name.padding(toLength: width, withPad: " ", startingAt: 0)
            return "\(mark) \(name)  \(step.detail.replacingOccurrences(of: "\n", with: "\n     " + String(repeating: " ", count: width + 2)))\(time)"
        }
        if !succeeded {
            lines.append("\(username) cannot log in: see the failed step above.")
        } else if account != nil {
            lines.append("\(username) can log in with the right password.")
        } else {
            lines.append("Nothing failed so far; the rest can only be checked with \(username)'s password.")
        }
        return lines.joined(separator: "\n")
    }
}

extension LDAPDirectory {
    /// Walks through a login for `username` without their password and reports each step. With `accounts`,
    /// also says what the app holds for them (and whether a login would be refused as deactivated).
    public func check(username: String, accounts: AccountService? = nil) async -> LDAPCheckReport {
        let username = username.trimmingCharacters(in: .whitespaces)
        var report: LDAPCheckReport
        do {
            report = try await blocking(budget: 4 * configuration.loginBudget) { _ in
                self.checkNow(username: username)
            }
        } catch {
            report = LDAPCheckReport(username: username)
            report.add("directory", .failed, "no answer within \(Int(4 * configuration.loginBudget)) seconds")
        }
        if let accounts {
            do {
                if let employee = try await accounts.employee(username: report.account?.username ?? username) {
                    if employee.isActive {
                        report.add("employee", .passed, "in the app as #\(employee.id) \(employee.fullName)\(employee.isAdmin ? ", admin" : ""): a login refreshes it")
                    } else {
                        report.add("employee", .failed, "in the app as #\(employee.id) but deactivated: a login is refused (403)")
                    }
                } else {
                    report.add("employee", .note, "not in the app yet: the first login creates it")
                }
            } catch {
                report.add("employee", .failed, "cannot read the app's database: \(error)")
            }
        }
        return report
    }

    private func checkNow(username: String) -> LDAPCheckReport {
        var report = LDAPCheckReport(username: username)
        let configuration = self.configuration
        report.add("settings", .note, settingsSummary())
        guard !username.isEmpty else {
            report.add("username", .failed, "empty")
            return report
        }

        // Connect (and TLS).
        var start = ContinuousClock.now
        let connection: LDAPConnection
        do {
            connection = try LDAPConnection.open(configuration, deadline: Deadline(secondsFromNow: configuration.loginBudget))
            report.add("connect", .passed, "\(configuration.url)\(tlsSummary())", since: start)
        } catch let failure as LDAPFailure {
            report.add("connect", .failed, "\(configuration.url): \(failure)\n\(hint(for: failure))", since: start)
            return report
        } catch {
            report.add("connect", .failed, "\(error)", since: start)
            return report
        }
        defer { connection.close() }

        // Service bind.
        let hasServiceAccount = configuration.bindDN != nil
        if let bindDN = configuration.bindDN {
            start = ContinuousClock.now
            do {
                try connection.bind(
                    dn: bindDN, password: configuration.bindPassword ?? "", deadline: Deadline(secondsFromNow: configuration.timeout),
                    step: "service bind")
                report.add("service bind", .passed, bindDN, since: start)
            } catch let failure as LDAPFailure {
                report.add("service bind", .failed, "\(bindDN): \(failure)\n\(hint(for: failure))", since: start)
                return report
            } catch {
                report.add("service bind", .failed, "\(error)", since: start)
                return report
            }
        } else {
            report.add("service bind", .note, "none: searching anonymously (no SG_LDAP_BIND_DN)")
        }

        // Find the entry.
        let entry: LDAPEntry
        switch configuration.mode {
        case .searchThenBind(let template):
            let filter = LDAPEscaping.filter(template, username: username)
            start = ContinuousClock.now
            do {
                let found = try connection.search(
                    base: configuration.baseDN, scope: scope, filter: filter, attributes: configuration.requestedAttributes,
                    sizeLimit: 10, deadline: Deadline(secondsFromNow: configuration.timeout))
                let scopeText = configuration.scope == .sub ? "subtree" : "one level"
                let count = "\(found.entries.count)\(found.truncated ? "+" : "")"
                if found.entries.count == 1 && !found.truncated {
                    report.add("search", .passed, "\(filter) under \(configuration.baseDN) (\(scopeText)): 1 entry", since: start)
                    entry = found.entries[0]
                } else if found.entries.isEmpty {
                    report.add("search", .failed, "\(filter) under \(configuration.baseDN) (\(scopeText)): no entry, so a login is refused"
                        + (hasServiceAccount ? "" : "\nAnonymous searches often see nothing: set SG_LDAP_BIND_DN."), since: start)
                    return report
                } else {
                    report.add("search", .failed, "\(filter) under \(configuration.baseDN) (\(scopeText)): \(count) entries, so a login is refused as ambiguous:\n"
                        + found.entries.map(\.dn).joined(separator: "\n")
                        + "\nNarrow SG_LDAP_BASE_DN or SG_LDAP_USER_FILTER.", since: start)
                    return report
                }
            } catch let failure as LDAPFailure {
                report.add("search", .failed, "\(filter) under \(configuration.baseDN): \(failure)\n\(hint(for: failure))", since: start)
                return report
            } catch {
                report.add("search", .failed, "\(error)", since: start)
                return report
            }
        case .directBind(let template):
            let dn = LDAPEscaping.distinguishedName(template, username: username)
            guard hasServiceAccount else {
                report.add("entry", .note, "a login binds as \(dn); without a service account the entry cannot be read without the user's password")
                report.add("password", .note, "not checked")
                return report
            }
            start = ContinuousClock.now
            do {
                let found = try connection.search(
                    base: dn, scope: LDAP_SCOPE_BASE, filter: "(objectClass=*)", attributes: configuration.requestedAttributes,
                    sizeLimit: 1, deadline: Deadline(secondsFromNow: configuration.timeout))
                guard let first = found.entries.first else {
                    report.add("search", .failed, "\(dn): not readable by the service account", since: start)
                    return report
                }
                report.add("search", .passed, "\(dn) (from SG_LDAP_USER_DN_TEMPLATE)", since: start)
                entry = first
            } catch let failure as LDAPFailure {
                let text = failure.code == LDAP_NO_SUCH_OBJECT ? "no such entry, so a login is refused" : "\(failure)\n\(hint(for: failure))"
                report.add("search", .failed, "\(dn): \(text)", since: start)
                return report
            } catch {
                report.add("search", .failed, "\(error)", since: start)
                return report
            }
        }

        // The entry's attributes, as a login maps them.
        let names = configuration.attributes
        var missing: [String] = []
        for (attribute, role) in [(names.username, "username"), (names.givenName, "given name"), (names.surname, "surname"),
                                  (names.email, "e-mail")] where entry.first(attribute) == nil {
            missing.append("\(attribute) (\(role))")
        }
        let preview = account(from: entry, typed: username, isAdmin: false)
        var details = [
            "dn: \(entry.dn)",
            "username: \(preview.username)   name: \(preview.name)   surname: \(preview.surname)",
            "e-mail: \(preview.email.isEmpty ? "(none)" : preview.email)   title: \(preview.title ?? "(none)")   phone: \(preview.phone ?? "(none)")",
        ]
        if !missing.isEmpty { details.append("missing: \(missing.joined(separator: ", "))") }
        report.add("entry", missing.contains { $0.hasSuffix("(username)") } ? .note : .passed, details.joined(separator: "\n"))

        // Groups and role.
        start = ContinuousClock.now
        var isAdmin = false
        switch configuration.admin {
        case nil:
            report.add("groups", .note, "no SG_LDAP_ADMIN_GROUP: the admin role is kept as set in the app")
        case .memberOf(let attribute, let groupDN):
            let groups = entry.values(attribute)
            // Answered from the entry: no search, nothing to fail.
            isAdmin = (try? adminStatus(of: entry, deadline: Deadline(secondsFromNow: configuration.timeout))) ?? false
            report.add("groups", .passed,
                       "\(attribute): " + (groups.isEmpty ? "(none)" : groups.joined(separator: "\n"))
                        + "\n\(isAdmin ? "includes" : "does not include") \(groupDN)")
        case .groupEntry(let groupDN, let memberAttribute):
            do {
                isAdmin = try adminStatus(of: entry, deadline: Deadline(secondsFromNow: configuration.timeout), userConnection: connection)
                let member = LDAPConfiguration.AdminRule.member(entry, attribute: memberAttribute, usernameAttribute: names.username)
                report.add("groups", .passed, "\(groupDN) \(isAdmin ? "lists" : "does not list") \(memberAttribute.rawValue): \(member)", since: start)
            } catch {
                report.add("groups", .failed, "\(groupDN): \(error)", since: start)
                return report
            }
        }
        report.add("role", .note, configuration.admin == nil ? "as set in the app" : (isAdmin ? "admin" : "employee (not admin)"))
        report.account = account(from: entry, typed: username, isAdmin: isAdmin)
        report.add("password", .note, "not checked: a login binds as \(entry.dn) with the password given")
        return report
    }

    private func settingsSummary() -> String {
        var parts: [String] = []
        switch configuration.mode {
        case .searchThenBind(let filter):
            parts.append("search then bind: filter \(filter) under \(configuration.baseDN) (\(configuration.scope.rawValue))")
        case .directBind(let template):
            parts.append("direct bind as \(template)")
        }
        switch configuration.admin {
        case nil: parts.append("admin role: kept as set in the app")
        case .memberOf(let attribute, let group): parts.append("admin: \(attribute) includes \(group)")
        case .groupEntry(let group, let attribute): parts.append("admin: \(group) lists the user in \(attribute.rawValue)")
        }
        parts.append("timeouts: connect \(configuration.connectTimeout) s, operations \(configuration.timeout) s")
        return parts.joined(separator: "\n")
    }

    private func tlsSummary() -> String {
        guard configuration.listsLDAPS || configuration.tls.startTLS else { return " (no TLS: passwords cross the network in clear)" }
        let how = configuration.tls.startTLS ? "StartTLS" : "TLS"
        let checks = configuration.tls.verifyCertificates ? "certificate checked" : "certificate NOT checked"
        let ca = configuration.tls.caFile.map { " against \($0)" } ?? ""
        return " (\(how), \(checks)\(ca))"
    }

    private func hint(for failure: LDAPFailure) -> String {
        switch failure.code {
        case LDAP_SERVER_DOWN:
            return failure.step == "connect" || failure.step == "StartTLS"
                ? "Nothing answers there, or TLS failed: check the host, port and scheme, that the directory runs, and for TLS the CA file and the name in the certificate."
                : "The directory closed the connection."
        case LDAP_TIMEOUT:
            return "No answer in time: a firewall dropping packets, or an overloaded directory. See SG_LDAP_CONNECT_TIMEOUT and SG_LDAP_TIMEOUT."
        case LDAP_CONNECT_ERROR:
            return "TLS could not be set up: check SG_LDAP_CA_FILE and that the certificate names this host."
        case LDAP_INVALID_CREDENTIALS:
            return "Check SG_LDAP_BIND_DN and the bind password."
        case LDAP_NO_SUCH_OBJECT:
            return "The base DN does not exist in this directory: check SG_LDAP_BASE_DN."
        case LDAP_FILTER_ERROR:
            return "The filter is not valid LDAP syntax: check SG_LDAP_USER_FILTER."
        case LDAP_PROTOCOL_ERROR where failure.step == "StartTLS":
            return "The directory does not offer StartTLS: use ldaps:// or turn SG_LDAP_START_TLS off."
        case LDAP_INSUFFICIENT_ACCESS:
            return "The service account may not read this: ask for read access to users and groups."
        default:
            return "See the directory's logs."
        }
    }
}
