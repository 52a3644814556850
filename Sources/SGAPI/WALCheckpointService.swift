import Foundation
import Logging
import SGCore
import SGStore
import ServiceLifecycle

/// Checkpoints the database's write-ahead log every `interval`, on a thread of its own, so that no request's
/// commit has to copy the log into the database file, which would make the slowest writes much slower.
struct WALCheckpointService: Service {
    let database: AppDatabase
    var interval: Duration = .milliseconds(200)
    let logger: Logger

    func run() async throws {
        await cancelWhenGracefulShutdown {
            var failures = RepeatedFailureLog()
            // Shutdown cancels the sleep: that is the loop's normal end, not a failure of the service (which
            // would fail the service group and make a clean SIGTERM exit with status 1).
            while (try? await Task.sleep(for: interval)) != nil {
                // The copy waits on the disk: keep it off the few threads that serve requests.
                let failure: String? = await withCheckedContinuation { continuation in
                    DispatchQueue.global(qos: .utility).async {
                        do {
                            try database.checkpoint()
                            continuation.resume(returning: nil)
                        } catch let error as SGError {
                            continuation.resume(returning: error.message)
                        } catch {
                            continuation.resume(returning: String(describing: error))
                        }
                    }
                }
                if let failure {
                    if let count = failures.failed(at: .now) {
                        logger.warning(
                            "WAL checkpoint failed (commits will checkpoint instead): \(failure)",
                            metadata: count > 1 ? ["failures since the last report": "\(count)"] : [:])
                    }
                } else if let count = failures.succeeded() {
                    logger.notice("WAL checkpoints work again after \(count) failure\(count == 1 ? "" : "s")")
                }
            }
        }
    }
}

/// Reports a failure that repeats (five times a second, for a full disk) once, then again only after waits that
/// double up to `longest`, with how many happened meanwhile, and says when it stops: one line at first, then a
/// few an hour, rather than a line for every failure.
struct RepeatedFailureLog {
    var first: Duration = .seconds(1)
    var longest: Duration = .seconds(300)
    private var wait: Duration = .zero
    private var nextReport: ContinuousClock.Instant?
    private var unreported = 0
    private var total = 0

    /// A failure at `now`: the failures to report (this one included) if a line is due, else nil.
    mutating func failed(at now: ContinuousClock.Instant) -> Int? {
        total += 1
        unreported += 1
        if let nextReport, now < nextReport { return nil }
        wait = wait == .zero ? first : min(wait * 2, longest)
        nextReport = now + wait
        defer { unreported = 0 }
        return unreported
    }

    /// A success: how many failures came before it in a row, if any.
    mutating func succeeded() -> Int? {
        guard total > 0 else { return nil }
        defer { self = RepeatedFailureLog(first: first, longest: longest) }
        return total
    }
}
