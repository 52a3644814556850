import CLDAP
import Foundation
import SGCore

/// What `sgadmin ldap sync` did.
public struct LDAPSyncResult: Sendable, Equatable {
    /// Entries the sync filter returned.
    public var found = 0
    /// Employees created.
    public var created = 0
    /// Employees already in the app, refreshed from the directory.
    public var updated = 0
    /// Directory-managed employees no longer in the directory, deactivated now.
    public var deactivated = 0
    /// Admins among the directory users, by the configured group.
    public var admins = 0
    /// Why some entries were left alone (no username, a username in several entries).
    public var skipped: [String] = []
    /// Employees whose directory employment dates were not taken, and why (a request outside them).
    public var employmentKept: [String] = []

    public init() {}
}

extension LDAPDirectory {
    /// Creates or refreshes an employee for every directory user the sync filter lists, and deactivates the
    /// employees a directory created who are no longer listed. Local accounts (no directory record) are not
    /// touched. When the directory lists nobody, nothing is deactivated unless `allowEmpty`: an empty answer
    /// is far more often a wrong base or filter than an empty company.
    ///
    /// `progress(done, total)` is called as employees are written.
    public func sync(
        into service: AccountService, pageSize: Int32 = 500, allowEmpty: Bool = false,
        progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in }
    ) async throws -> LDAPSyncResult {
        guard let filter = configuration.effectiveSyncFilter, !configuration.baseDN.isEmpty else {
            throw SGError.invalid(
                field: "SG_LDAP_SYNC_FILTER",
                message: "direct-bind mode cannot list users: set SG_LDAP_BASE_DN, SG_LDAP_SYNC_FILTER and a service account")
        }
        let listing: (entries: [LDAPEntry], adminMembers: Set<String>?)
        do {
            // Each step has its own bound (connecting and binding: a login's budget; each page: the timeout).
            listing = try await blocking(budget: 3600) { _ in try self.listUsers(filter: filter, pageSize: pageSize) }
        } catch let failure as LDAPFailure {
            logger.error("LDAP sync could not list users", metadata: ["error": "\(failure)"])
            throw SGError.unavailable("The directory could not list users: \(failure)", retryAfterSeconds: configuration.retryAfterSeconds)
        }

        var result = LDAPSyncResult()
        result.found = listing.entries.count
        // One account per username; a username in several entries would make logins refuse, so sync does too.
        var byUsername: [String: [LDAPEntry]] = [:]
        var order: [String] = []
        for entry in listing.entries {
            guard let username = entry.first(configuration.attributes.username) else {
                result.skipped.append("\(entry.dn): no \(configuration.attributes.username) attribute")
                continue
            }
            let key = username.lowercased()
            if byUsername[key] == nil { order.append(key) }
            byUsername[key, default: []].append(entry)
        }
        var accounts: [DirectoryAccount] = []
        for key in order {
            let entries = byUsername[key]!
            guard entries.count == 1, let entry = entries.first else {
                result.skipped.append("\(key): in \(entries.count) entries (\(entries.map(\.dn).joined(separator: "; ")))")
                continue
            }
            let isAdmin = isAdmin(entry, groupMembers: listing.adminMembers)
            accounts.append(account(from: entry, typed: entry.first(configuration.attributes.username)!, isAdmin: isAdmin))
        }
        if order.isEmpty && !allowEmpty {
            throw SGError.conflict(
                "The directory listed no users under \(configuration.baseDN) with \(filter), so nobody was deactivated. "
                    + "Check SG_LDAP_BASE_DN and SG_LDAP_SYNC_FILTER, or allow an empty directory explicitly.")
        }

        let present = Set(order)
        let leavers = try await service.directoryProfiles().filter { $0.isActive && !present.contains($0.username.lowercased()) }
        let total = accounts.count + leavers.count
        var done = 0
        progress(0, total)
        for account in accounts {
            let existed = try await service.employee(username: account.username) != nil
            let employee: Employee
            do {
                let provisioned = try await service.provisioned(account, owned: ownedFields)
                employee = provisioned.employee
                if let reason = provisioned.employmentKept { result.employmentKept.append("\(account.username): \(reason)") }
            } catch SGError.forbidden(let reason) {
                // An account of the app with this username belongs to someone else.
                result.skipped.append("\(account.username): \(reason)")
                done += 1
                progress(done, total)
                continue
            }
            if existed { result.updated += 1 } else { result.created += 1 }
            if employee.isAdmin { result.admins += 1 }
            done += 1
            progress(done, total)
        }
        for leaver in leavers {
            _ = try await service.deactivate(username: leaver.username, keepingAnAdmin: false)
            result.deactivated += 1
            done += 1
            progress(done, total)
        }
        logger.info("LDAP sync done", metadata: [
            "found": "\(result.found)", "created": "\(result.created)", "updated": "\(result.updated)",
            "deactivated": "\(result.deactivated)", "skipped": "\(result.skipped.count)",
        ])
        return result
    }

    /// Every entry the filter matches (paged), and for a group-entry admin rule the group's members.
    private func listUsers(filter: String, pageSize: Int32) throws -> (entries: [LDAPEntry], adminMembers: Set<String>?) {
        try withServiceConnection(deadline: Deadline(secondsFromNow: configuration.loginBudget)) { connection in
            var entries: [LDAPEntry] = []
            try connection.pagedSearch(
                base: configuration.baseDN, scope: scope, filter: filter, attributes: configuration.requestedAttributes,
                pageSize: pageSize, timeoutPerPage: max(configuration.timeout, 30)
            ) { page in
                entries += page
            }
            var members: Set<String>?
            if let rule = configuration.admin, case .groupEntry(let groupDN, let attribute) = rule {
                let found = try connection.search(
                    base: groupDN, scope: LDAP_SCOPE_BASE, filter: "(objectClass=*)", attributes: [attribute.rawValue],
                    deadline: Deadline(secondsFromNow: max(configuration.timeout, 30)), step: "group read")
                let values = found.entries.first?.values(attribute.rawValue) ?? []
                members = Set(values.map(rule.comparableMember))
            }
            return (entries, members)
        }
    }

    /// The same answer as `adminStatus` gives at login, from the group read once for the whole sync.
    private func isAdmin(_ entry: LDAPEntry, groupMembers: Set<String>?) -> Bool {
        guard let rule = configuration.admin else { return false }
        return rule.includes(entry, usernameAttribute: configuration.attributes.username) { _, _, member in
            groupMembers?.contains(rule.comparableMember(member)) == true
        }
    }
}
