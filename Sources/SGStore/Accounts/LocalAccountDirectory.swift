import Foundation
import HummingbirdBcrypt
import SGCore
import Synchronization

/// Checks passwords against the `employees` table (bcrypt). Every login costs the same bcrypt work, whoever it
/// names: as much as checking the costliest stored hash. An unknown username is checked against a decoy hash of
/// that cost, and an account whose hash is cheaper is topped up with decoys, so timing tells neither unknown
/// names nor cheaply hashed accounts (such as the demo's) apart.
public struct LocalAccountDirectory: EmployeeDirectory {
    public let kind = "local"
    public let provisionsEmployees = false
    let accounts: any AccountStore
    /// The cost new hashes are made at; the decoys' cost when no hash is stored yet.
    let cost: UInt8
    private let decoys: DecoyHashes

    public init(accounts: any AccountStore, cost: UInt8 = 12) {
        self.accounts = accounts
        self.cost = cost
        self.decoys = DecoyHashes()
        // Ready before the first login, so that it costs what the others do.
        _ = decoys.hash(cost: cost)
    }

    public func authenticate(username: String, password: String) async throws -> DirectoryAccount {
        // No stored password is longer than the rules allow, so a longer one is wrong without any bcrypt work.
        guard password.utf8.count <= Passwords.maximumLength else {
            throw SGError.unauthenticated("Wrong username or password.")
        }
        let (stored, highest) = try await accounts.read { tx in (try tx.passwordHash(username: username), try tx.highestPasswordCost()) }
        let target = Self.decoyTarget(highestStored: highest, configured: cost)
        var matches = false
        if let stored { matches = await Passwords.verify(password, hash: stored) }
        for decoyCost in Self.decoyCosts(stored: stored.flatMap(Self.cost(of:)), known: stored != nil, target: target) {
            let decoys = decoys
            let decoy = await Passwords.offload { decoys.hash(cost: decoyCost) }
            _ = await Passwords.verify(password, hash: decoy)
        }
        guard matches, stored != nil, let employee = try await accounts.read({ tx in try tx.employee(username: username) }) else {
            throw SGError.unauthenticated("Wrong username or password.")
        }
        return DirectoryAccount(
            username: employee.username, name: employee.name, surname: employee.surname, email: employee.email,
            isAdmin: employee.isAdmin)
    }

    /// What every login should cost: the costliest stored hash, or the configured cost while none is stored.
    static func decoyTarget(highestStored: Int?, configured: UInt8) -> UInt8 {
        highestStored.map { UInt8(clamping: $0) } ?? configured
    }

    /// The decoys a login checks besides the account's own hash, so that the bcrypt work adds up to one hash at
    /// `target` (work doubles with each step of cost, so 2^c + 2^c + 2^(c+1) + … + 2^(target-1) = 2^target).
    /// `stored` is the account's hash's cost; an unknown name (`known` false) checks one decoy at `target`.
    static func decoyCosts(stored: UInt8?, known: Bool, target: UInt8) -> [UInt8] {
        guard known else { return [target] }
        guard let stored, stored < target else { return [] }
        return Array(stored..<target)
    }

    /// The cost written in a bcrypt hash ("$2b$12$…").
    static func cost(of hash: String) -> UInt8? {
        let parts = hash.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count >= 4, parts[1].hasPrefix("2"), let cost = UInt8(parts[2]) else { return nil }
        return cost
    }
}

/// Valid hashes of random passwords, one per cost, made once.
final class DecoyHashes: Sendable {
    private let hashes = Mutex<[UInt8: String]>([:])

    func hash(cost: UInt8) -> String {
        if let known = hashes.withLock({ $0[cost] }) { return known }
        var generator = SystemRandomNumberGenerator()
        let password = (0..<24).map { _ in String(UInt8.random(in: 0...255, using: &generator), radix: 16) }.joined()
        let made = Bcrypt.hash(password, cost: cost)
        return hashes.withLock { hashes in
            if let known = hashes[cost] { return known }
            hashes[cost] = made
            return made
        }
    }
}
