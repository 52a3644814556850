import Foundation
import GRDB
import Hummingbird
import Testing
import SGAPI
import SGCore
import SGStore
import SGTestSupport

/// Issue 18, finding 5: a full disk or a read-only database answered 500, as if the server were broken, where it
/// is the host that needs attention and the client may try again later.
@Suite struct StorageFailureAPITests {
    static let notice = #"{"title":"Office closed","body":"\#(String(repeating: "Long text. ", count: 800))"}"#

    /// SQLite's page limit stands in for a full disk; PostgreSQL's full disk (53100) is mapped by the same table.
    @Test(.enabled(if: !TestEngine.isPostgres, "a full disk is simulated with SQLite's max_page_count"))
    func aFullDiskAnswers503WithRetryAfter() async throws {
        let h = try await APIHarness.make()
        try await h.run { client in
            let admin = try await client.login("admin")
            // The database may grow no further: as good as a full disk for SQLite.
            try await h.fixture.database.write { (db: Database) in
                let pages = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
                try db.execute(sql: "PRAGMA max_page_count = \(pages)")
            }
            var refused: APIHarness.Client.Reply?
            for _ in 0..<50 {
                let reply = try await client.call(.post, "/v1/notices", token: admin, json: Self.notice)
                if reply.status != .created {
                    refused = reply
                    break
                }
            }
            let reply = try #require(refused, "the database never filled up")
            expectProblem(reply, .serviceUnavailable, "unavailable")
            #expect(reply.headers[.retryAfter].flatMap(Int.init) ?? 0 > 0)
            #expect((reply.json["detail"] as? String ?? "").contains("full"), "\(reply.json)")
            // Reads still work.
            #expect(try await client.call(.get, "/v1/notices", token: admin).status == .ok)
        }
    }
}
