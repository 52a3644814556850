import Foundation

/// A fixed set of threads for libldap's blocking calls, so they never hold a thread of Swift's cooperative
/// pool or of the server's event loops. Each job has a deadline: the caller is answered by then even if
/// the job is stuck in a system call, and a job whose deadline passed while it waited in the queue is skipped.
final class BlockingExecutor: Sendable {
    private let queue: JobQueue

    init(threads: Int, name: String) {
        queue = JobQueue()
        for index in 0..<max(1, threads) {
            let queue = self.queue
            let thread = Thread { queue.work() }
            thread.name = "\(name)-\(index + 1)"
            thread.start()
        }
    }

    deinit { queue.stop() }

    /// Runs `body` on one of the threads. Throws `onTimeout()` when the result is not there by `deadline`
    /// (plus a short grace period, since libldap's own timeouts are expected to fire first).
    func run<T: Sendable>(
        deadline: Deadline, grace: Double = 0.5, onTimeout: @escaping @Sendable () -> any Error,
        _ body: @escaping @Sendable () throws -> T
    ) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let once = ResumeOnce(continuation)
            queue.submit {
                guard !deadline.hasPassed else {
                    once.resume(with: .failure(onTimeout()))
                    return
                }
                once.resume(with: Result { try body() })
            }
            let wait = max(0, deadline.remaining) + grace
            DispatchQueue.global().asyncAfter(deadline: .now() + wait) {
                once.resume(with: .failure(onTimeout()))
            }
        }
    }
}

/// Jobs waiting for a thread. The threads hold this queue, not the executor, so dropping the executor stops them.
private final class JobQueue: @unchecked Sendable {
    private let condition = NSCondition()
    /// Slots before `head` are nil: a job is let go once taken, so its captures do not outlive it.
    private var jobs: [(@Sendable () -> Void)?] = []
    private var head = 0
    private var stopped = false

    func submit(_ job: @escaping @Sendable () -> Void) {
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    func work() {
        while let job = next() { job() }
    }

    private func next() -> (@Sendable () -> Void)? {
        condition.lock()
        defer { condition.unlock() }
        while head == jobs.count && !stopped { condition.wait() }
        guard head < jobs.count else { return nil }
        let job = jobs[head]
        jobs[head] = nil
        head += 1
        if head > 64 && head * 2 > jobs.count {
            jobs.removeFirst(head)
            head = 0
        }
        return job
    }
}

/// Resumes a continuation once: whichever of the job and the timer comes first wins.
private final class ResumeOnce<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<T, any Error>?

    init(_ continuation: CheckedContinuation<T, any Error>) {
        self.continuation = continuation
    }

    func resume(with result: Result<T, any Error>) {
        lock.lock()
        let continuation = self.continuation
        self.continuation = nil
        lock.unlock()
        continuation?.resume(with: result)
    }
}

/// Idle connections kept for the next job. Connections idle longer than `maximumIdle` are dropped rather than
/// reused: firewalls and directories close quiet connections, sometimes without telling either end.
final class ConnectionPool: @unchecked Sendable {
    private let lock = NSLock()
    private var idle: [LDAPConnection] = []
    private let capacity: Int
    private let maximumIdle: Duration

    init(capacity: Int, maximumIdle: Duration = .seconds(60)) {
        self.capacity = max(1, capacity)
        self.maximumIdle = maximumIdle
    }

    func take() -> LDAPConnection? {
        var stale: [LDAPConnection] = []
        defer { for connection in stale { connection.close() } }
        lock.lock()
        defer { lock.unlock() }
        let now = ContinuousClock.now
        while let connection = idle.popLast() {
            if now - connection.idleSince < maximumIdle { return connection }
            stale.append(connection)
        }
        return nil
    }

    func give(_ connection: LDAPConnection) {
        connection.idleSince = ContinuousClock.now
        lock.lock()
        defer { lock.unlock() }
        if idle.count < capacity { idle.append(connection) } else { connection.close() }
    }

    /// Closes every idle connection, e.g. after the directory was found down.
    func drain() {
        lock.lock()
        let connections = idle
        idle.removeAll()
        lock.unlock()
        for connection in connections { connection.close() }
    }
}
