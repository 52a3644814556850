import Foundation
import HummingbirdBcrypt
import SGCore

/// Checks passwords against the `employees` table (bcrypt). Unknown users cost the same bcrypt work as known
/// ones, so timing does not tell them apart.
public struct LocalAccountDirectory: EmployeeDirectory {
    public let kind = "local"
    public let provisionsEmployees = false
    let accounts: any AccountStore
    /// A valid hash of a random password, verified against when the user is unknown.
    private let decoyHash: String

    public init(accounts: any AccountStore, cost: UInt8 = 12) {
        self.accounts = accounts
        self.decoyHash = Self.makeDecoyHash(cost: cost)
    }

    public func authenticate(username: String, password: String) async throws -> DirectoryAccount {
        // No stored password is longer than the rules allow, so a longer one is wrong without any bcrypt work.
        guard password.utf8.count <= Passwords.maximumLength else {
            throw SGError.unauthenticated("Wrong username or password.")
        }
        let stored = try await accounts.read { tx in try tx.passwordHash(username: username) }
        let matches = await Passwords.verify(password, hash: stored ?? decoyHash)
        guard matches, stored != nil, let employee = try await accounts.read({ tx in try tx.employee(username: username) }) else {
            throw SGError.unauthenticated("Wrong username or password.")
        }
        return DirectoryAccount(
            username: employee.username, name: employee.name, surname: employee.surname, email: employee.email,
            isAdmin: employee.isAdmin)
    }

    private static func makeDecoyHash(cost: UInt8) -> String {
        var generator = SystemRandomNumberGenerator()
        let password = (0..<24).map { _ in String(UInt8.random(in: 0...255, using: &generator), radix: 16) }.joined()
        return Bcrypt.hash(password, cost: cost)
    }
}
