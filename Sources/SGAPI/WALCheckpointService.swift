import Foundation
import Logging
import SGStore
import ServiceLifecycle

/// Checkpoints the database's write-ahead log every `interval`, on a thread of its own, so that no request's
/// commit has to copy the log into the database file (which took the write mix's p99 from about 6 to 14 ms on
/// the benchmark machine).
struct WALCheckpointService: Service {
    let database: AppDatabase
    var interval: Duration = .milliseconds(200)
    let logger: Logger

    func run() async throws {
        await cancelWhenGracefulShutdown {
            // Shutdown cancels the sleep: that is the loop's normal end, not a failure of the service (which
            // would fail the service group and make a clean SIGTERM exit with status 1).
            while (try? await Task.sleep(for: interval)) != nil {
                // The copy waits on the disk: keep it off the few threads that serve requests.
                let failure: String? = await withCheckedContinuation { continuation in
                    DispatchQueue.global(qos: .utility).async {
                        do {
                            try database.checkpoint()
                            continuation.resume(returning: nil)
                        } catch {
                            continuation.resume(returning: String(describing: error))
                        }
                    }
                }
                if let failure { logger.warning("WAL checkpoint failed (commits will checkpoint instead): \(failure)") }
            }
        }
    }
}
