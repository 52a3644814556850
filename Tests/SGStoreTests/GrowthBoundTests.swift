import Foundation
import Testing
import SGCore
import SGTestSupport
@testable import SGStore

/// Issue 18, finding 6: one employee could grow the database without bound (3,897 device tokens, 57 MB).
@Suite struct GrowthBoundTests {
    /// A phone, a tablet and a few browsers, with room to spare.
    static let devicesKept = DeviceRules.maximumPerEmployee
    static let sessionsKept = SessionService.maximumSessionsPerEmployee

    @Test func theBoundsAreWhatTheDocumentationSays() {
        #expect(Self.devicesKept == 10 && Self.sessionsKept == 20)
    }

    @Test func anEmployeeKeepsOnlyTheirNewestDevices() async throws {
        let f = try await Fixture.make()
        for index in 0..<(Self.devicesKept + 15) {
            f.clock.set(f.clock.now().addingTimeInterval(1))
            _ = try await f.services.devices.registerDevice(employeeID: f.alice.id, token: "device-token-\(index)", platform: .ios)
        }
        let devices = try await f.services.devices.settings(employeeID: f.alice.id).devices
        #expect(devices.count == Self.devicesKept)
        // The newest stay; the one registered last is there.
        #expect(devices.contains { $0.token == "device-token-\(Self.devicesKept + 14)" })
        #expect(!devices.contains { $0.token == "device-token-0" })
        // Bob's are his own business.
        _ = try await f.services.devices.registerDevice(employeeID: f.bob.id, token: "bobs-phone", platform: .android)
        #expect(try await f.services.devices.settings(employeeID: f.bob.id).devices.count == 1)
    }

    @Test func anEmployeeKeepsOnlyTheirNewestSessions() async throws {
        let f = try await Fixture.make()
        let sessions = f.sessions()
        var tokens: [String] = []
        for _ in 0..<(Self.sessionsKept + 10) {
            f.clock.set(f.clock.now().addingTimeInterval(1))
            tokens.append(try await sessions.login(username: "alice", password: Fixture.password).token)
        }
        let kept = try await f.database.column(sql: "SELECT count(*) FROM auth_tokens WHERE employee_id = ?", [.integer(f.alice.id)])
        #expect(kept == ["\(Self.sessionsKept)"])
        #expect(try await sessions.sessions(employeeID: f.alice.id).count == Self.sessionsKept)
        #expect(try await sessions.authenticate(token: tokens.last!)?.id == f.alice.id)
        #expect(try await sessions.authenticate(token: tokens.first!) == nil)
    }

    @Test(.enabled(if: !TestEngine.isPostgres, "reads SQLite's query plans"), arguments: ["auth_tokens", "sessions"])
    func expiredTokensAndSessionsAreSweptThroughAnIndexOnTheirExpiry(_ table: String) async throws {
        let f = try await Fixture.make()
        let plan = try await f.queryPlan("DELETE FROM \(table) WHERE expires_at < ?", ["2026-01-01T00:00:00Z"])
        #expect(plan.split(separator: "\n").contains { $0.contains("USING") && $0.contains("expires") }, "\(plan)")
    }

    /// Ending a session deletes its access tokens through the foreign key: that needs an index on it too.
    @Test(.enabled(if: !TestEngine.isPostgres, "reads SQLite's query plans")) func aSessionsAccessTokensAreFoundThroughAnIndex() async throws {
        let f = try await Fixture.make()
        let plan = try await f.queryPlan("SELECT token_hash FROM auth_tokens WHERE session_id = ?", [1])
        #expect(plan.contains("auth_tokens_session"), "\(plan)")
    }
}
