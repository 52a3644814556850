import Foundation

/// Local passwords: a reset through a link sent by e-mail, a change by the logged-in employee, and one set by an
/// operator. Every new password obeys `PasswordRules`; every change ends the employee's sessions (a change by its
/// owner keeps the session that made it) and their unused reset links. A reset and an operator's new password also
/// revoke the employee's calendar feeds, whose addresses whoever held the account may have copied; the owner's own
/// change keeps them.
///
/// When the company directory keeps the passwords (LDAP), none of this applies: each use case answers
/// `SGError.passwordHeldByDirectory`, with the company's own page when one is configured.
public struct PasswordService: Sendable {
    /// How long a reset link works.
    public static let resetLifetime: TimeInterval = 30 * 60
    /// The longest login a reset request takes: as long as a login's username may be.
    public static let maximumLoginLength = 256
    /// Most accounts one request sends links to (a few employees may share an e-mail address).
    static let maximumAccountsPerRequest = 5
    /// Reset tokens start with this, so that one is never mistaken for a bearer token (`sg_`).
    public static let resetTokenPrefix = "sgr_"

    public let store: any PasswordStore
    public let hasher: any PasswordHashing
    public let clock: any NowProvider
    /// True on a server whose logins the directory checks: the API's password routes refuse.
    public let directoryHoldsPasswords: Bool
    /// Where employees change a password the directory keeps (SG_LDAP_PASSWORD_URL), for the refusal to point to.
    public let passwordPage: String?
    /// Reset requests, each counted per login and per client address, and failed confirmations, per address.
    public let resetThrottle: LoginThrottle?
    /// Wrong current passwords count as failed logins of the account: the login throttle.
    public let loginThrottle: LoginThrottle?
    /// Checks of a current password share the logins' bound on checks under way.
    public let checks: PasswordCheckLimit?

    public init(
        store: any PasswordStore, hasher: any PasswordHashing, clock: any NowProvider = SystemClock(),
        directoryHoldsPasswords: Bool = false, passwordPage: String? = nil, resetThrottle: LoginThrottle? = nil,
        loginThrottle: LoginThrottle? = nil, checks: PasswordCheckLimit? = nil
    ) {
        self.checks = checks
        self.store = store
        self.hasher = hasher
        self.clock = clock
        self.directoryHoldsPasswords = directoryHoldsPasswords
        self.passwordPage = passwordPage
        self.resetThrottle = resetThrottle
        self.loginThrottle = loginThrottle
    }

    /// This service behind a server whose logins `directory` checks, with the server's throttles.
    public func served(
        by directory: any EmployeeDirectory, loginThrottle: LoginThrottle?, resetThrottle: LoginThrottle?,
        checks: PasswordCheckLimit? = nil
    ) -> PasswordService {
        PasswordService(
            store: store, hasher: hasher, clock: clock, directoryHoldsPasswords: directory.holdsPasswords,
            passwordPage: directory.passwordPage ?? passwordPage, resetThrottle: resetThrottle, loginThrottle: loginThrottle,
            checks: checks)
    }

    /// What an unknown, used or expired reset token gets, the same for all three.
    public static let invalidResetToken = SGError.invalid(
        field: "token", message: "this reset link is unknown, used or expired: ask for a new one")

    // MARK: Reset

    /// Sends a reset link to the account `login` names (a username, or an e-mail address) when it is an active
    /// local account and the server sends e-mail; otherwise does nothing. The caller learns nothing either way: the
    /// answer is the same, and so is the work, as far as it can be: when no one is found, the same token and e-mail
    /// are written for a stand-in account in the same write transaction, and undone before it commits.
    ///
    /// The token (256 random bits) is stored only as its SHA-256, works once, for `resetLifetime`; the e-mail is
    /// written into the outbox in the same transaction, whatever the employee's e-mail switch says. Returns how
    /// many links were written, for tests: callers must not tell it apart.
    @discardableResult
    public func requestReset(login: String, clientAddress: String? = nil) async throws -> Int {
        try refuseWhenDirectoryHoldsPasswords()
        let trimmed = login.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, TextRules.fits(login, Self.maximumLoginLength), !login.unicodeScalars.contains("\u{0}") else {
            throw SGError.invalid(
                field: "login", message: "a username or e-mail address of 1 to \(Self.maximumLoginLength) characters, no NUL")
        }
        // Every request counts, not only failures: each may send an e-mail. Counted per account, so that a username
        // and an e-mail address for one account share one budget (the typed login only when it names no account);
        // in one step with the check, so that a parallel burst cannot pass the check before the first is counted.
        if let resetThrottle {
            let accounts = try await store.read { tx in
                try tx.accounts(login: trimmed, limit: Self.maximumAccountsPerRequest).named.map(\.employee.id)
            }
            let keys = accounts.isEmpty ? [trimmed] : accounts.map { "\u{0}account \($0)" }  // NUL: no typed login holds one
            _ = try await resetThrottle.reserve(username: keys[0], address: clientAddress)
            for key in keys.dropFirst() { _ = try await resetThrottle.reserve(username: key, address: nil) }
        }
        let now = clock.now()
        // Made before knowing whether anyone gets it, so both ways do this work.
        let first = Self.makeResetToken()
        return try await store.write { tx -> Int in
            try tx.deleteResetTokens(expiredBefore: now)
            let configuration = try tx.deliveryConfiguration()
            let (named, standIn) = try tx.accounts(login: trimmed, limit: Self.maximumAccountsPerRequest)
            let recipients = configuration.emailEnabled ? named.filter { $0.canReset && !$0.employee.email.isEmpty } : []
            // No one to write to: the same writes for the stand-in, taken back.
            let writes = recipients.isEmpty ? standIn.map { [$0] } ?? [] : recipients
            try tx.savepoint(undo: recipients.isEmpty) {
                for (index, account) in writes.enumerated() {
                    let token = index == 0 ? first : Self.makeResetToken()
                    try Self.sendLink(tx, to: account.employee, token: token, publicURL: configuration.publicURL, at: now)
                }
            }
            return recipients.count
        }
    }

    /// Stores the token's digest and writes the e-mail that carries it, tried only while the link works.
    private static func sendLink(
        _ tx: any PasswordWriting, to employee: Employee, token: (token: String, digest: Data), publicURL: String, at now: Date
    ) throws {
        let expires = now.addingTimeInterval(resetLifetime)
        try tx.insertResetToken(digest: token.digest, employeeID: employee.id, at: now, expiresAt: expires)
        let language = try tx.recipient(employeeID: employee.id)?.language ?? .en
        let mail = ResetMail(employee: employee, token: token.token, publicURL: publicURL, language: language)
        try tx.enqueue(
            OutboxDraft(
                channel: .email, event: .passwordReset, employeeID: employee.id, address: employee.email,
                recipientName: employee.fullName, subject: mail.subject, body: mail.body),
            at: now, giveUpAt: expires)
    }

    /// Sets a new password with a reset token: the token must be known, unused and not expired (one answer for
    /// all three), the password must obey the rules. Then, in one transaction: the new hash, the token marked
    /// used, every session of the employee ended and their other unused reset tokens deleted.
    public func confirmReset(token: String, newPassword: String, clientAddress: String? = nil) async throws {
        try refuseWhenDirectoryHoldsPasswords()
        // Counted as a failure from the start; taken back once the token is known to be good.
        let attempt = try await resetThrottle?.reserve(username: nil, address: clientAddress)
        let now = clock.now()
        let digest = Self.isResetTokenShaped(token) ? Digests.tokenDigest(token) : nil
        var account: PasswordAccount?
        if let digest {
            account = try await store.read { tx -> PasswordAccount? in
                guard let stored = try tx.resetToken(digest: digest), stored.isUsable(at: now),
                      let account = try tx.account(employeeID: stored.employeeID), account.canReset else { return nil }
                return account
            }
        }
        guard let digest, let account else { throw Self.invalidResetToken }
        if let attempt { await resetThrottle?.release(attempt) }
        let employeeID = account.employee.id
        try PasswordRules.check(newPassword, username: account.employee.username, field: "newPassword")
        let hash = await hasher.hash(newPassword)
        let changed = try await store.write { tx -> Bool in
            // Checked again under the write lock: the same link may have been used meanwhile.
            guard let stored = try tx.resetToken(digest: digest), stored.isUsable(at: now), stored.employeeID == employeeID,
                  try tx.account(employeeID: employeeID)?.canReset == true,
                  try tx.markResetTokenUsed(digest: digest, at: now) else { return false }
            try tx.setPasswordHash(employeeID: employeeID, hash)
            try tx.endSessions(employeeID: employeeID, keepingTokenDigest: nil)
            try tx.revokeCalendarFeeds(employeeID: employeeID)
            try tx.deleteUnusedResetTokens(employeeID: employeeID)
            return true
        }
        guard changed else { throw Self.invalidResetToken }
    }

    // MARK: Change and set

    /// The logged-in employee changes their password. A wrong `current` is a 422 on `currentPassword` (the session
    /// is fine, so not a 401) and counts as a failed login of the account. The session presenting `keepingToken`
    /// stays valid; every other session of the employee ends, as do their unused reset links.
    public func changePassword(
        employeeID: Int64, current: String, new: String, keepingToken token: String?, clientAddress: String? = nil
    ) async throws {
        try refuseWhenDirectoryHoldsPasswords()
        guard let account = try await store.read({ tx in try tx.account(employeeID: employeeID) }), account.employee.isActive else {
            throw SGError.unauthenticated("Log in first: send Authorization: Bearer <token>.")
        }
        if account.isDirectoryAccount { throw SGError.passwordHeldByDirectory(passwordURL: passwordPage) }
        let username = account.employee.username
        try PasswordRules.check(new, username: username, field: "newPassword")
        // Counted before the check, as a login is (`LoginThrottle.reserve`).
        let attempt = try await loginThrottle?.reserve(username: username, address: clientAddress)
        // bcrypt stops at NUL: "secret\0junk" would match "secret".
        let plausible = !current.isEmpty && current.utf8.count <= PasswordRules.maximumBytes && !current.unicodeScalars.contains("\u{0}")
        var matches = false
        if plausible, let stored = account.passwordHash {
            do {
                matches = try await checks.run(address: clientAddress) { await hasher.verify(current, hash: stored) }
            } catch {
                if let attempt { await loginThrottle?.release(attempt) }
                throw error
            }
        }
        guard matches, let stored = account.passwordHash else {
            throw SGError.invalid(field: "currentPassword", message: "is not your current password")
        }
        if let attempt { await loginThrottle?.succeeded(attempt) }
        let hash = await hasher.hash(new)
        let kept = token.map(Digests.tokenDigest)
        let replaced = try await store.write { tx -> Bool in
            guard try tx.replacePasswordHash(employeeID: employeeID, expected: stored, with: hash) else { return false }
            try tx.endSessions(employeeID: employeeID, keepingTokenDigest: kept)
            try tx.deleteUnusedResetTokens(employeeID: employeeID)
            return true
        }
        guard replaced else {
            throw SGError.conflict("The password was changed meanwhile (by a reset or another session). Log in with the new one.")
        }
    }

    /// An operator sets an employee's password (`sgadmin user password`): the same rules; every session of the
    /// employee ends. Refused for an account the company directory manages.
    @discardableResult
    public func setPassword(username: String, to password: String) async throws -> Employee {
        let username = username.trimmingCharacters(in: .whitespaces)
        guard let account = try await store.read({ tx in try tx.account(username: username) }) else {
            throw SGError.notFound("No employee with username '\(username)'.")
        }
        if directoryHoldsPasswords || account.isDirectoryAccount {
            throw SGError.passwordHeldByDirectory(passwordURL: passwordPage)
        }
        try PasswordRules.check(password, username: account.employee.username, field: "password")
        let hash = await hasher.hash(password)
        let employeeID = account.employee.id
        try await store.write { tx in
            try tx.setPasswordHash(employeeID: employeeID, hash)
            try tx.endSessions(employeeID: employeeID, keepingTokenDigest: nil)
            try tx.revokeCalendarFeeds(employeeID: employeeID)
            try tx.deleteUnusedResetTokens(employeeID: employeeID)
        }
        return account.employee
    }

    /// The hash of a new local account's first password (`sgadmin user add`), once it obeys the rules.
    public func hashForNewAccount(_ password: String, username: String) async throws -> String {
        try PasswordRules.check(password, username: username.trimmingCharacters(in: .whitespaces), field: "password")
        return await hasher.hash(password)
    }

    private func refuseWhenDirectoryHoldsPasswords() throws {
        if directoryHoldsPasswords { throw SGError.passwordHeldByDirectory(passwordURL: passwordPage) }
    }

    // MARK: Tokens

    /// A new reset token, `sgr_` and 256 random bits in base64url (URL-safe as it is), and its digest.
    public static func makeResetToken() -> (token: String, digest: Data) {
        Digests.newToken(prefix: resetTokenPrefix)
    }

    /// Whether `token` can be one this service made: anything else is refused without a lookup.
    static func isResetTokenShaped(_ token: String) -> Bool {
        Digests.isTokenShaped(token, prefix: resetTokenPrefix)
    }
}

/// The e-mail that carries a reset link.
struct ResetMail {
    let employee: Employee
    let token: String
    /// The base of links, without a trailing slash; "" when the server has none, and the mail carries the token.
    let publicURL: String
    var language: Language = .en

    var link: String? {
        DeliveryConfiguration.link(publicURL, "/reset-password?token=\(token)")
    }

    var subject: String { language == .es ? "Restablece tu contraseña" : "Reset your password" }

    var body: String {
        let minutes = Int(PasswordService.resetLifetime / 60)
        guard language == .es else {
            var lines = [
                "Hello \(employee.name),", "",
                "Someone asked to reset the password of your account \(employee.username).",
            ]
            if let link {
                lines += ["To choose a new one, open this link within \(minutes) minutes:", "", link]
            } else {
                lines += ["To choose a new one, enter this code in the app within \(minutes) minutes:", "", token]
            }
            lines += [
                "", "It works once. If you did not ask for it, ignore this e-mail: your password stays as it is.",
            ]
            return lines.joined(separator: "\n") + "\n"
        }
        var lines = ["Hola, \(employee.name):", "", "Alguien ha pedido restablecer la contraseña de tu cuenta \(employee.username)."]
        if let link {
            lines += ["Para elegir una nueva, abre este enlace en los próximos \(minutes) minutos:", "", link]
        } else {
            lines += ["Para elegir una nueva, escribe este código en la aplicación en los próximos \(minutes) minutos:", "", token]
        }
        lines += ["", "Sirve una sola vez. Si no lo has pedido tú, ignora este correo: tu contraseña no cambia."]
        return lines.joined(separator: "\n") + "\n"
    }
}
