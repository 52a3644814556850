import Foundation
import Synchronization
import Testing
@testable import SGStore

/// PostgreSQL's checks of the commit generation, one read for the requests arriving together.
@Suite struct SharedReadsTests {
    final class Counters: Sendable {
        let committed = Atomic<UInt64>(0)
        let reads = Atomic<Int>(0)
        let failing = Atomic<Bool>(false)
    }

    struct Unreachable: Error {}

    /// Every caller gets a value read after it called (so a commit acknowledged before is seen), and callers who
    /// arrive while a read is on its way share the next one.
    @Test func aSharedReadBeginsAfterEveryCallerItServes() async throws {
        let counters = Counters()
        let shared = SharedGenerationReads {
            counters.reads.add(1, ordering: .sequentiallyConsistent)
            usleep(2_000)
            if counters.failing.load(ordering: .sequentiallyConsistent) { throw Unreachable() }
            return counters.committed.load(ordering: .sequentiallyConsistent)
        }
        let callers = 200
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<callers {
                group.addTask {
                    let acknowledged = counters.committed.add(1, ordering: .sequentiallyConsistent).newValue
                    let seen = try await shared.current()
                    #expect(seen >= acknowledged)
                }
            }
            try await group.waitForAll()
        }
        let reads = counters.reads.load(ordering: .sequentiallyConsistent)
        #expect(reads >= 1 && reads < callers / 2, "\(reads) reads for \(callers) callers")

        // A failed read fails the callers it serves; the next caller reads again.
        counters.failing.store(true, ordering: .sequentiallyConsistent)
        await #expect(throws: Unreachable.self) { _ = try await shared.current() }
        counters.failing.store(false, ordering: .sequentiallyConsistent)
        #expect(try await shared.current() == counters.committed.load(ordering: .sequentiallyConsistent))
    }
}
