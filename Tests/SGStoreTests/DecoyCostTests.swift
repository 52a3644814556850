import Foundation
import GRDB
import Testing
import SGCore
import SGTestSupport
@testable import SGStore

/// Issue 18, finding 8: the decoy hash an unknown name is checked against cost 12 while the demo's accounts were
/// hashed at 10, so unknown names answered slower than wrong passwords of real accounts.
@Suite struct DecoyCostTests {
    /// bcrypt's work doubles with each step of cost.
    static func work(stored: UInt8?, target: UInt8) -> Int {
        let decoys = LocalAccountDirectory.decoyCosts(stored: stored, known: stored != nil, target: target)
        return (stored.map { 1 << Int($0) } ?? 0) + decoys.reduce(0) { $0 + (1 << Int($1)) }
    }

    @Test func everyLoginCostsTheWorkOfTheCostliestStoredHash() {
        for target: UInt8 in [4, 10, 12] {
            let unknown = Self.work(stored: nil, target: target)
            #expect(unknown == 1 << Int(target))
            for stored in UInt8(4)...target {
                #expect(Self.work(stored: stored, target: target) == unknown, "stored at \(stored), target \(target)")
            }
        }
        #expect(LocalAccountDirectory.cost(of: "$2b$10$abcdefghijklmnopqrstuu") == 10)
        #expect(LocalAccountDirectory.cost(of: "not a hash") == nil)
    }

    @Test func theDecoyFollowsTheStoredHashesNotTheConfiguredCost() async throws {
        let f = try await Fixture.make()  // every hash at cost 4
        let bobHash = try await Passwords.hash("bobs-own-pass-1", cost: 5)
        try await f.database.execute(sql: "UPDATE employees SET password_hash = ? WHERE username = 'bob'", [.text(bobHash)])
        #expect(try await f.database.accountStore.read { try $0.highestPasswordCost() } == 5)
        // Configured at 12, but no stored hash costs more than 5: a decoy at 12 would set unknown names apart.
        #expect(LocalAccountDirectory.decoyTarget(highestStored: 5, configured: 12) == 5)
        #expect(LocalAccountDirectory.decoyTarget(highestStored: nil, configured: 12) == 12)
        let directory = LocalAccountDirectory(accounts: f.database.accountStore, cost: 12)
        await #expect(throws: SGError.unauthenticated("Wrong username or password.")) {
            _ = try await directory.authenticate(username: "nobody", password: "guess-guess")
        }
        // The padded accounts still log in, and only with their passwords.
        #expect(try await directory.authenticate(username: "alice", password: Fixture.password).username == "alice")
        #expect(try await directory.authenticate(username: "bob", password: "bobs-own-pass-1").username == "bob")
        await #expect(throws: SGError.self) { _ = try await directory.authenticate(username: "alice", password: "wrong-one") }
    }
}
