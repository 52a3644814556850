import Foundation
import GRDB
import Testing
import SGCore
import SGTestSupport
import SGStore

/// An answer kept under a retry key shares the transaction of the change it answers: one is never kept without the
/// other.
@Suite struct IdempotencyRecordTests {
    struct Refused: Error {}

    static func answer(_ f: Fixture, key: String, at: Date) -> IdempotencyRecord {
        IdempotencyRecord(
            employeeID: f.alice.id, key: key, route: "POST /v1/me/holidays", fingerprint: "f", status: 201,
            headers: ["location": "/v1/holidays/1"], body: Data("{}".utf8), createdAt: at)
    }

    static func rows(_ f: Fixture) async throws -> (requests: Int, events: Int, keys: Int) {
        (try await f.count("holiday_requests"), try await f.count("holiday_events"), try await f.count("idempotency_keys"))
    }

    @Test func aChangeAndItsAnswerCommitTogetherOrNotAtAll() async throws {
        let f = try await Fixture.make()
        let period = try LeavePeriod(start: f.day(7), end: f.day(9))
        let now = f.clock.now()
        let created = try await f.service.create(for: f.alice.id, period: period, comment: "", actor: f.alice.actor) { tx, created in
            #expect(created.version == 1 && created.today == f.today)
            let kept = try tx.keep(Self.answer(f, key: "k1", at: now), expiredBefore: now.addingTimeInterval(-IdempotencyRecord.lifetime))
            #expect(kept)
        }
        #expect(try await Self.rows(f) == (1, 1, 1))
        let kept = try #require(try await f.service.idempotencyRecord(employeeID: f.alice.id, key: "k1"))
        #expect(kept == Self.answer(f, key: "k1", at: now))
        #expect(try await f.service.idempotencyRecord(employeeID: f.bob.id, key: "k1") == nil)

        // What the change's caller throws after keeping its answer undoes both.
        await #expect(throws: Refused.self) {
            try await f.service.create(
                for: f.alice.id, period: try LeavePeriod(start: f.day(14), end: f.day(16)), comment: "", actor: f.alice.actor
            ) { tx, _ in
                _ = try tx.keep(Self.answer(f, key: "k2", at: now), expiredBefore: now.addingTimeInterval(-IdempotencyRecord.lifetime))
                throw Refused()
            }
        }
        #expect(try await Self.rows(f) == (1, 1, 1))

        // A key that holds a current answer is not kept again; a move refused for it is undone.
        await #expect(throws: Refused.self) {
            try await f.service.move(.approve, on: created.request.id, by: f.admin.actor, within: { tx, moved in
                #expect(moved.version == 2)
                guard try tx.keep(Self.answer(f, key: "k1", at: now), expiredBefore: now.addingTimeInterval(-IdempotencyRecord.lifetime)) else {
                    throw Refused()
                }
            })
        }
        #expect(try await Self.rows(f) == (1, 1, 1))
        #expect(try await f.service.requestDetail(id: created.request.id, by: f.admin.actor).request.status == .pending)
    }

    @Test func aMoveFromAnotherVersionIsRefusedWithoutWriting() async throws {
        let f = try await Fixture.make()
        let created = try await f.service.create(
            for: f.alice.id, period: try LeavePeriod(start: f.day(7), end: f.day(9)), comment: "", actor: f.alice.actor)
        await #expect(throws: SGError.self) {
            try await f.service.move(.approve, on: created.request.id, by: f.admin.actor, ifMatch: { $0 == 2 })
        }
        #expect(try await Self.rows(f) == (1, 1, 0))
        let moved = try await f.service.move(.approve, on: created.request.id, by: f.admin.actor, ifMatch: { $0 == 1 })
        #expect(moved.version == 2 && moved.request.status == .approved)
        #expect(try await f.service.requestDetail(id: created.request.id, by: f.admin.actor).version == 2)
    }
}
