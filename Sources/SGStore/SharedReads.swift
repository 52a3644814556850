import Foundation
import SGCore
import Synchronization

/// Reads of PostgreSQL's commit generation shared by the requests that arrive together. A request needs a read that
/// began after it arrived (so that every commit acknowledged before it is seen); one read serves every request that
/// arrived while the previous one was on its way, so a server under load makes about one read per round trip
/// instead of one per request. At most one read is in flight.
final class SharedGenerationReads: Sendable {
    private struct State {
        var reading = false
        var waiting: [CheckedContinuation<UInt64, any Error>] = []
    }

    private let state = Mutex(State())
    /// One read of the generation; blocks (the driver's calls wait for the server).
    private let read: @Sendable () throws -> UInt64

    init(read: @escaping @Sendable () throws -> UInt64) {
        self.read = read
    }

    /// The generation, read after this call began.
    func current() async throws -> UInt64 {
        try await withCheckedThrowingContinuation { continuation in
            let start = state.withLock { state in
                state.waiting.append(continuation)
                guard !state.reading else { return false }
                state.reading = true
                return true
            }
            // On a thread that may block, not one of the tasks' shared threads.
            if start { DispatchQueue.global(qos: .userInitiated).async { self.readForEveryoneWaiting() } }
        }
    }

    /// Reads for those waiting, round after round, until a round finds nobody: each round's callers all arrived
    /// before its read began.
    private func readForEveryoneWaiting() {
        while true {
            let round = state.withLock { state in
                let round = state.waiting
                state.waiting.removeAll()
                if round.isEmpty { state.reading = false }
                return round
            }
            guard !round.isEmpty else { return }
            let result = Result { try read() }
            for caller in round { caller.resume(with: result) }
        }
    }
}
