import SGSQLite
import CoreMetrics

/// How writes went, for the server's metrics: the wait for the write lock (queueing behind this process's other
/// writes included) and the transaction's time from `BEGIN IMMEDIATE` to its commit.
public struct DatabaseMetrics: Sendable {
    let lockWait: CoreMetrics.Timer
    let transaction: CoreMetrics.Timer

    public init(factory: any MetricsFactory) {
        lockWait = CoreMetrics.Timer(label: "sg_database_write_lock_wait_seconds", factory: factory)
        transaction = CoreMetrics.Timer(label: "sg_database_transaction_seconds", factory: factory)
    }

    func record(asked: ContinuousClock.Instant, began: ContinuousClock.Instant, committed: ContinuousClock.Instant) {
        lockWait.recordNanoseconds((began - asked).nanoseconds)
        transaction.recordNanoseconds((committed - began).nanoseconds)
    }
}

